"""The site's answers to a request Django itself refuses (no view, a body it cannot read, a
server error): under /api/ the API's JSON error shape (`core.faults.error_response`), so an API
client never has to read an HTML page; elsewhere the site's own error pages."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.views import defaults

from core.faults import API_PREFIX, error_response


def _api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        return error_response(request, 413, "too_large", str(exception), None)
    if isinstance(exception, MultiPartParserError):
        message = f"the multipart body cannot be read ({exception}); the API takes JSON"
        return error_response(request, 400, "malformed_body", message, None)
    # Any other refusal (a host not served, a suspicious request): no detail echoed back.
    return error_response(request, 400, "bad_request", "the request cannot be read", None)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.permission_denied(request, exception)
    message = str(exception) or "you may not do this"
    return error_response(request, 403, "forbidden", message, None)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.page_not_found(request, exception)
    message = f"the API has no address {request.path} (its root, /api/, lists them)"
    return error_response(request, 404, "not_found", message, None)


def server_error(request: HttpRequest) -> HttpResponse:
    if not _api(request):
        return defaults.server_error(request)
    message = "the server failed on this request (the failure is logged)"
    return error_response(request, 500, "server_error", message, None)
