"""Cash compliance's pages (see compliance/views.py)."""

from django.urls import path

from . import patron_views, views

app_name = "compliance"

urlpatterns = [
    path("", views.day_page, name="day"),
    path("cage/", views.cage_page, name="cage"),
    path("ctrs.csv", views.ctrs_csv, name="ctrs_csv"),
    path("ctr/<int:ctr_id>/", views.ctr_page, name="ctr"),
    path("patrons/<str:number>/", views.patron_page, name="patron"),
    path("patrons/<str:number>/merge/", patron_views.merge_page, name="patron_merge"),
    path("thresholds/", patron_views.thresholds_page, name="thresholds"),
]
