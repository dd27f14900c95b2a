from django.urls import path

from . import correction_form, dashboard, record
from . import trail as views

app_name = "audit"

urlpatterns = [
    path("", views.events, name="events"),
    path("events.csv", views.events_csv, name="events_csv"),
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
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("dashboard/floor/", dashboard.floor_partial, name="dashboard_floor"),
    path("dashboard/charts.json", dashboard.dashboard_charts, name="dashboard_charts"),
    path("reports/", dashboard.reports, name="reports"),
    path("reports.csv", dashboard.reports_csv, name="reports_csv"),
    path("tables/<int:pk>/rounds/", dashboard.table_rounds, name="table_rounds"),
    path("tables/<int:pk>/rounds.csv", dashboard.table_rounds_csv, name="table_rounds_csv"),
    path("record/", record.record, name="record"),
    path("record/verify/", record.record_verify, name="record_verify"),
    path(
        "record/runs/<int:pk>/acknowledge/",
        record.run_acknowledge_view,
        name="record_acknowledge",
    ),
    path("alerts/", dashboard.alerts, name="alerts"),
    path("alerts/<int:pk>/", dashboard.alert_edit, name="alert_edit"),
    path("alerts/<int:pk>/active/", dashboard.alert_toggle, name="alert_toggle"),
]
