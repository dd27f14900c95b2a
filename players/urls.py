"""Rated play's pages (see players/views.py)."""

app_name = "players"

urlpatterns: list = []
