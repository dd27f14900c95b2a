"""The REST API under /api/ (see tables/api/views.py), its OpenAPI schema and Swagger UI
(both for signed-in users only)."""

from django.contrib.auth.decorators import login_required
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.throttles import CountAnonymousFirst

from . import views
from .strict import IdRouter


class SchemaView(CountAnonymousFirst, SpectacularAPIView):
    """The schema; an anonymous request is throttled before its 401, as on every API route."""


router = IdRouter()
router.register("tables", views.TableViewSet, basename="api-table")
router.register("rounds", views.RoundViewSet, basename="api-round")
router.register("hands", views.HandViewSet, basename="api-hand")
router.register("paytable-versions", views.PaytableVersionViewSet, basename="api-paytable-version")
router.register("meters", views.MeterViewSet, basename="api-meter")

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    # Signed-in users only (SPECTACULAR_SETTINGS["SERVE_PERMISSIONS"]); the documentation page
    # sends a visitor to the sign-in page. The split view serves its script as a file, so the
    # Content-Security-Policy needs no inline script.
    path(
        "docs/",
        login_required(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path("sign-out/", views.SignOutView.as_view(), name="api-sign-out"),
    path("auth-token/", views.TokenView.as_view(), name="api-auth-token"),
    *router.urls,
]
