"""Cash compliance's pages (see compliance/views.py)."""

from django.urls import path

from . import case_views, views

app_name = "compliance"

urlpatterns = [
    path("", views.day_page, name="day"),
    path("cage/", views.cage_page, name="cage"),
    path("ctrs.csv", views.ctrs_csv, name="ctrs_csv"),
    path("ctr/<int:ctr_id>/", views.ctr_page, name="ctr"),
    path("patrons/<str:number>/", views.patron_page, name="patron"),
    path("alerts/", case_views.alerts_page, name="alerts"),
    path("cases/", case_views.cases_page, name="cases"),
    path("cases/<int:case_id>/", case_views.case_page, name="case"),
]
