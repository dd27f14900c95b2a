"""The dealer tablet's pages (see tables/views/tablet.py)."""

from django.urls import path

app_name = "tablet"

urlpatterns: list = []
