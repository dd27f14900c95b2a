"""Request guards and the current request.

`RequestGuardMiddleware` refuses, before any view runs, what no page or API route accepts: a
NUL character in a query value or a page's form value (PostgreSQL cannot store it), a query
parameter that is a whole number beyond 64 bits (no id or filter is; SQLite refuses it as a
parameter) and, on the API, a query parameter given more than once (each takes one value) and a
body larger than DATA_UPLOAD_MAX_MEMORY_SIZE (413 in the API's JSON error shape).
`FaultMiddleware` answers a failure that is no fault of the code with a clear status, never a
server error: 503 with Retry-After when the database is busy (SQLite's lock held past the busy
timeout) or out of reach (a lost PostgreSQL connection inside a transaction, the server down)
or the shared cache is down where a caller could not do without it; 400 when a number or a date
in the request is beyond what a column or the calendar holds. The failed step's transaction
has rolled back by then: nothing of it was saved.
`CurrentRequestMiddleware` remembers the request so that the account and token audit signals
know who made a change and from where.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse
from django.utils.datastructures import MultiValueDict

from core.faults import API_PREFIX, error_response, fault_response
from core.params import DB_INT_MAX

current_request: ContextVar[HttpRequest | None] = ContextVar("current_request", default=None)


def _too_large(values: MultiValueDict[str, Any]) -> tuple[str, str] | None:
    """(name, value) of a query parameter that is a whole number no database column holds:
    SQLite refuses such a parameter outright (a server error where a filter reads it)."""
    for key, items in values.lists():
        for item in items:
            text = item.strip().lstrip("+-") if isinstance(item, str) else ""
            if len(text) > 18 and text.isascii() and text.isdigit() and int(text) > DB_INT_MAX:
                return key, item.strip()
    return None


def _nul_field(values: MultiValueDict[str, Any]) -> str | None:
    for key, items in values.lists():
        if "\x00" in key:
            return "(a parameter name)"
        for item in items:
            if isinstance(item, str) and "\x00" in item:
                return key
    return None


class RequestGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        api = request.path.startswith(API_PREFIX)
        if api and limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                return error_response(
                    request,
                    413,
                    "too_large",
                    f"the request body may have at most {limit} bytes, not {length}",
                    None,
                )
        if api:
            repeated = next((k for k, v in request.GET.lists() if len(v) > 1), None)
            if repeated is not None:
                # Every query parameter of the API takes one value; Django would read the last.
                return error_response(
                    request,
                    400,
                    "repeated",
                    f"{repeated}: given more than once in the query; give it once",
                    repeated,
                )
        large = _too_large(request.GET)
        if large is not None:
            name, value = large
            return error_response(
                request, 400, "out_of_range", f"{name}: {value} is too large", name
            )
        field = _nul_field(request.GET)
        # The API reads JSON only (a form body there is refused as an unsupported media type
        # by its parser, in its error shape), so its form bodies are not read here.
        if (
            field is None
            and not api
            and request.method == "POST"
            and request.content_type
            in (
                "application/x-www-form-urlencoded",
                "multipart/form-data",
            )
        ):
            try:
                field = _nul_field(request.POST)
            except (RequestDataTooBig, TooManyFieldsSent) as exc:
                return error_response(request, 413, "too_large", str(exc), None)
        if field is not None:
            return error_response(
                request,
                400,
                "invalid",
                f"{field}: NUL characters are not allowed",
                field,
            )
        return self.get_response(request)


class FaultMiddleware:
    """A view's failure that is no fault of the code: 503 with Retry-After, or 400
    (`core.faults.fault_response`); any other failure stays a server error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return fault_response(request, exception)


class CurrentRequestMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = current_request.set(request)
        try:
            return self.get_response(request)
        finally:
            current_request.reset(token)


@contextmanager
def acting_request(request: HttpRequest | None) -> Iterator[None]:
    """Treat `request` as the current one (for code that runs outside the middleware)."""
    token = current_request.set(request)
    try:
        yield
    finally:
        current_request.reset(token)
