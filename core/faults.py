"""A request's answer to a failure that is no fault of the code: never a server error.

`fault_response` answers 503 with Retry-After when the database is busy (SQLite's lock held
past the wait) or out of reach, or the shared cache is down where a caller could not do
without it, and 400 when a number or a date in the request is beyond what a column or the
calendar holds; any other failure is left to Django (None). The failed write's transaction has
rolled back by then: nothing of it was saved. `accounts.middleware.FaultMiddleware` answers a
view's failure with it, and `audit.middleware` the failure of a refused page's record.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, JsonResponse

from .cache import CacheUnavailable
from .db import lock_busy, out_of_range, unavailable

log = logging.getLogger(__name__)

API_PREFIX = "/api/"
RETRY_AFTER_SECONDS = 1


def error_response(
    request: HttpRequest, status: int, code: str, message: str, field: str | None
) -> HttpResponse:
    """The API's JSON error shape under /api/, plain text elsewhere."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(
            {"error": {"code": code, "message": message, "field": field}}, status=status
        )
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def fault_response(request: HttpRequest, exception: BaseException) -> HttpResponse | None:
    if out_of_range(exception):
        return error_response(
            request,
            400,
            "out_of_range",
            "a number or a date in the request is larger than the floor's records can hold: "
            "nothing was saved",
            None,
        )
    if lock_busy(exception):
        message = "the database is busy with another change: nothing was saved, try again"
        code = "busy"
    elif unavailable(exception):
        message = "the database cannot be reached: nothing was saved, try again"
        code = "unavailable"
    elif isinstance(exception, CacheUnavailable):
        message = "a service the floor relies on cannot be reached: try again"
        code = "unavailable"
    else:
        return None
    log.warning("%s %s answered 503: %s", request.method, request.path, exception)
    response = error_response(request, 503, code, message, None)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
