"""Rated play's pages (see players/views.py)."""

from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("", views.search, name="search"),
    path("floor/", views.floor, name="floor"),
    path("day/", views.day_report, name="day"),
    path("day.csv", views.day_csv, name="day_csv"),
    path("comp-rates/", views.comp_rates, name="comp_rates"),
    path("<int:player_id>/", views.player_page, name="player"),
    path("alerts/<int:alert_id>/acknowledge/", views.acknowledge, name="acknowledge"),
    path("tablet/<int:table_id>/", views.tablet, name="tablet"),
    path("tablet/<int:table_id>/seat/", views.tablet_seat, name="tablet_seat"),
    path("tablet/<int:table_id>/unseat/", views.tablet_unseat, name="tablet_unseat"),
]
