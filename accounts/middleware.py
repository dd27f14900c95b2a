"""Request guards and the current request.

`RequestGuardMiddleware` refuses, before any view runs, what no page or API route accepts: a
NUL character in a query or form value (PostgreSQL cannot store it) and, on the API, a body
larger than DATA_UPLOAD_MAX_MEMORY_SIZE (413 in the API's JSON error shape).
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
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.datastructures import MultiValueDict

API_PREFIX = "/api/"

current_request: ContextVar[HttpRequest | None] = ContextVar("current_request", default=None)


def error_response(
    request: HttpRequest, status: int, code: str, message: str, field: str | None
) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse(
            {"error": {"code": code, "message": message, "field": field}}, status=status
        )
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


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
        if request.path.startswith(API_PREFIX) and limit is not None:
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
        field = _nul_field(request.GET)
        if (
            field is None
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
