from django.urls import path

from . import views

app_name = "audit"

urlpatterns = [
    path("", views.events, name="events"),
    path("events.csv", views.events_csv, name="events_csv"),
    path("rounds/<int:pk>/", views.round_record, name="round"),
    path("rounds/<int:pk>/void/", views.round_void_view, name="round_void"),
    path("rounds/<int:pk>/correct/", views.round_correct_view, name="round_correct"),
]
