"""The accounting pages (see accounting/views.py)."""

from django.urls import path

from . import print_views, views

app_name = "accounting"

urlpatterns = [
    path("", views.desk, name="desk"),
    path("slips/", views.desk_create, name="create"),
    path("slips/<int:slip_id>/sign/", views.desk_sign, name="sign"),
    path("slips/<int:slip_id>/void/", views.desk_void, name="void"),
    path("slips/<int:slip_id>/print/", print_views.slip_print, {"fmt": "html"}, name="slip_print"),
    path("slips/<int:slip_id>/print.pdf", print_views.slip_print, {"fmt": "pdf"}, name="slip_pdf"),
    path("slips/<int:slip_id>/print.csv", print_views.slip_print, {"fmt": "csv"}, name="slip_csv"),
    path("reconciliation/", views.reconciliation, name="reconciliation"),
    path(
        "reconciliation/print/",
        print_views.reconciliation_print,
        {"fmt": "html"},
        name="reconciliation_print",
    ),
    path(
        "reconciliation/print.pdf",
        print_views.reconciliation_print,
        {"fmt": "pdf"},
        name="reconciliation_pdf",
    ),
    path(
        "reconciliation/print.csv",
        print_views.reconciliation_print,
        {"fmt": "csv"},
        name="reconciliation_csv",
    ),
    path("count/", views.count_sheet, name="count_sheet"),
    path("signature-rules/", views.signature_rules_page, name="signature_rules"),
    path("alerts/<int:alert_id>/acknowledge/", views.acknowledge, name="acknowledge"),
    path("tablet/<int:table_id>/", views.tablet, name="tablet"),
    path("tablet/<int:table_id>/buy-in/", views.tablet_buy_in, name="buy_in"),
    path("tablet/<int:table_id>/tray/", views.tablet_tray, name="tray"),
    path("tablet/<int:table_id>/slips/<int:slip_id>/sign/", views.tablet_sign, name="tablet_sign"),
    path("tablet/<int:table_id>/slips/<int:slip_id>/void/", views.tablet_void, name="tablet_void"),
]
