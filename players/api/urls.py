"""Rated play's API, mounted under /api/ beside the floor's (tables/api/urls.py): the players,
and seating a rated player at a table's seat by card."""

from django.urls import path

from . import views

urlpatterns = [
    path("players/", views.PlayersView.as_view(), name="api-players"),
    path("players/<int:pk>/", views.PlayerView.as_view(), name="api-player"),
    path("tables/<int:pk>/seat-player/", views.SeatPlayerView.as_view(), name="api-seat-player"),
    path(
        "tables/<int:pk>/unseat-player/",
        views.UnseatPlayerView.as_view(),
        name="api-unseat-player",
    ),
]
