"""The accounting API's routes, mounted under /api/ beside the floor's (tables/api/urls.py)."""

from django.urls import path

from tables.api.strict import IdRouter

from . import views

router = IdRouter()
router.register("slips", views.SlipViewSet, basename="api-slip")
router.register("chip-denominations", views.ChipDenominationViewSet, basename="api-chip")
router.register("variance-alerts", views.VarianceAlertViewSet, basename="api-variance-alert")

urlpatterns = [
    path("reconciliation/", views.ReconciliationView.as_view(), name="api-reconciliation"),
    *router.urls,
]
