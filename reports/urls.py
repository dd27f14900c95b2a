"""The reports app's pages, in two namespaces by what they are:

- `reports:` (under /reports/): the pit boss's dashboard, the hold reports, a table's day, the
  hold alerts;
- `audit:` (under /audit/, `trail_urlpatterns`): the audit trail's pages, which this app serves
  (they read the floor, which the `audit` app never imports): the search, a round's and a
  hand's record and what a pit boss does there, the record's verification.

The reports' former addresses under /audit/ (`moved_urlpatterns`) redirect permanently to
these, the query and the method kept.
"""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseRedirectBase
from django.urls import path, reverse

from . import correction_form, dashboard, mgr_views, record, statistical_page
from . import trail as views

app_name = "reports"

urlpatterns = [
    path("", dashboard.reports, name="reports"),
    path("hold.csv", dashboard.reports_csv, name="reports_csv"),
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("dashboard/floor/", dashboard.floor_partial, name="dashboard_floor"),
    path("dashboard/charts.json", dashboard.dashboard_charts, name="dashboard_charts"),
    path("tables/<int:pk>/rounds/", dashboard.table_rounds, name="table_rounds"),
    path("tables/<int:pk>/rounds.csv", dashboard.table_rounds_csv, name="table_rounds_csv"),
    path("alerts/", dashboard.alerts, name="alerts"),
    path("alerts/<int:pk>/", dashboard.alert_edit, name="alert_edit"),
    path("alerts/<int:pk>/active/", dashboard.alert_toggle, name="alert_toggle"),
    path("statistical/", statistical_page.statistical_report, name="statistical"),
    path("statistical/review/", statistical_page.statistical_review, name="statistical_review"),
    path(
        "statistical/<int:pk>/explain/",
        statistical_page.statistical_explain,
        name="statistical_explain",
    ),
    path("mgr/", mgr_views.report, name="mgr"),
    path("mgr/review/", mgr_views.review, name="mgr_review"),
    path("mgr/final/", mgr_views.finalize, name="mgr_finalize"),
    path("mgr/adjust/", mgr_views.adjust, name="mgr_adjust"),
    path("mgr/adjustments/<int:pk>/approve/", mgr_views.approve, name="mgr_approve"),
    path("mgr/exceptions/", mgr_views.exceptions, name="mgr_exceptions"),
    path("mgr/print/", mgr_views.report_print, {"fmt": "html"}, name="mgr_print"),
    path("mgr/print.pdf", mgr_views.report_print, {"fmt": "pdf"}, name="mgr_pdf"),
    path("mgr/print.csv", mgr_views.report_print, {"fmt": "csv"}, name="mgr_csv"),
]

trail_urlpatterns = [
    path("", views.events, name="events"),
    path("events.csv", views.events_csv, name="events_csv"),
    path("events-readable.csv", views.events_readable_csv, name="events_readable_csv"),
    path("rounds/<int:pk>/", views.round_record, name="round"),
    path("rounds/<int:pk>/void/", views.round_void_view, name="round_void"),
    path("rounds/<int:pk>/void/approve/", views.round_void_approve_view, name="round_void_approve"),
    path(
        "rounds/<int:pk>/void/withdraw/",
        views.round_void_withdraw_view,
        name="round_void_withdraw",
    ),
    path("rounds/<int:pk>/correct/", correction_form.correct, name="round_correct"),
    path("rounds/<int:pk>/approve/", dashboard.round_approve, name="round_approve"),
    path("rounds/<int:pk>/withdraw/", views.correction_withdraw_view, name="round_withdraw"),
    path("hands/<int:pk>/", views.hand_record, name="hand"),
    path("hands/<int:pk>/void/", views.hand_void_view, name="hand_void"),
    path("record/", record.record, name="record"),
    path("record/verify/", record.record_verify, name="record_verify"),
    path(
        "record/runs/<int:pk>/acknowledge/",
        record.run_acknowledge_view,
        name="record_acknowledge",
    ),
]


class PermanentRedirectKeepingMethod(HttpResponseRedirectBase):
    status_code = 308


def moved(name: str) -> Any:
    """The former address of `reports:<name>`: a permanent redirect there (308: a form's POST
    stays a POST), with the query."""

    def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        url = reverse(f"reports:{name}", kwargs=kwargs)
        query = request.META.get("QUERY_STRING", "")
        return PermanentRedirectKeepingMethod(f"{url}?{query}" if query else url)

    return view


# Under /audit/, beside the trail's pages: the reports' former addresses.
moved_urlpatterns = [
    path("reports/", moved("reports")),
    path("reports.csv", moved("reports_csv")),
    path("dashboard/", moved("dashboard")),
    path("dashboard/floor/", moved("dashboard_floor")),
    path("dashboard/charts.json", moved("dashboard_charts")),
    path("tables/<int:pk>/rounds/", moved("table_rounds")),
    path("tables/<int:pk>/rounds.csv", moved("table_rounds_csv")),
    path("alerts/", moved("alerts")),
    path("alerts/<int:pk>/", moved("alert_edit")),
    path("alerts/<int:pk>/active/", moved("alert_toggle")),
]
