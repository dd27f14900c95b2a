"""Every refused permission on a page is written to the audit trail (after the view's own
transaction has rolled back, so the record survives)."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from .services import audit_refused


class RefusedPermissionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        if isinstance(exception, PermissionDenied):
            audit_refused(
                actor=getattr(request, "user", None),
                method=request.method or "",
                path=request.path,
                reason=str(exception),
            )
