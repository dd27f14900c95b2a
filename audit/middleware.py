"""Every refused permission on a page is written to the audit trail (after the view's own
transaction has rolled back, so the record survives).

A refusal whose record cannot be written (SQLite's lock held past the brief wait, the database
out of reach) is answered as the failure says (`core.faults`: 503 with Retry-After), never a
server error, and never a 403 the record does not hold: nothing of it was written."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from core.faults import fault_response

from .services import audit_refused


class RefusedPermissionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, PermissionDenied):
            return None
        try:
            audit_refused(
                actor=getattr(request, "user", None),
                method=request.method or "",
                path=request.path,
                reason=str(exception),
            )
        except Exception as failure:
            # Raised here, Django would answer 500 without asking the other middleware.
            answer = fault_response(request, failure)
            if answer is None:
                raise
            return answer
        return None
