"""Cash compliance's pages (see compliance/views.py)."""

from django.urls import path

from . import case_views, credit_views, filing_views, patron_views, views

app_name = "compliance"

urlpatterns = [
    path("", views.day_page, name="day"),
    path("cage/", views.cage_page, name="cage"),
    path("ctrs.csv", filing_views.ctrs_csv, name="ctrs_csv"),
    path("ctrs.xml", filing_views.ctrs_xml, name="ctrs_xml"),
    path("ctrs/file/", filing_views.file_page, name="ctr_file"),
    path("ctr/<int:ctr_id>/", filing_views.ctr_page, name="ctr"),
    path("patrons/<str:number>/", views.patron_page, name="patron"),
    path("credit/", credit_views.credit_page, name="credit"),
    path("credit/lines/", credit_views.line_set_page, name="credit_line_set"),
    path(
        "credit/lines/<int:line_id>/approve/",
        credit_views.line_approve_page,
        name="credit_line_approve",
    ),
    path("credit/markers/new/", credit_views.marker_new_page, name="marker_new"),
    path("credit/repay/", credit_views.repay_page, name="marker_repay"),
    path("patrons/<str:number>/merge/", patron_views.merge_page, name="patron_merge"),
    path("thresholds/", patron_views.thresholds_page, name="thresholds"),
    path("alerts/", case_views.alerts_page, name="alerts"),
    path("cases/", case_views.cases_page, name="cases"),
    path("cases/<int:case_id>/", case_views.case_page, name="case"),
]
