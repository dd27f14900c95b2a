"""The accounting pages (see accounting/views.py)."""

from django.urls import path

from . import views

app_name = "accounting"

urlpatterns = [
    path("", views.desk, name="desk"),
    path("slips/", views.desk_create, name="create"),
    path("slips/<int:slip_id>/sign/", views.desk_sign, name="sign"),
    path("slips/<int:slip_id>/void/", views.desk_void, name="void"),
    path("reconciliation/", views.reconciliation, name="reconciliation"),
    path("count/", views.count_sheet, name="count_sheet"),
    path("signature-rules/", views.signature_rules_page, name="signature_rules"),
    path("alerts/<int:alert_id>/acknowledge/", views.acknowledge, name="acknowledge"),
    path("tablet/<int:table_id>/", views.tablet, name="tablet"),
    path("tablet/<int:table_id>/buy-in/", views.tablet_buy_in, name="buy_in"),
    path("tablet/<int:table_id>/tray/", views.tablet_tray, name="tray"),
    path("tablet/<int:table_id>/slips/<int:slip_id>/sign/", views.tablet_sign, name="tablet_sign"),
    path("tablet/<int:table_id>/slips/<int:slip_id>/void/", views.tablet_void, name="tablet_void"),
]
