"""Two requests that do nothing but go through the stack, for `bench_api_load.py --reads`:

- `bench/api-noop/`: a DRF view with the project's defaults (the API token and its roles read
  in one statement, IsAuthenticated, the user throttle's window in one statement), answering
  the caller's id: what any authenticated API request costs before its own work.
- `bench/django-noop/`: a plain Django view behind the project's middleware, no
  authentication: what gunicorn and Django cost a request.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.urls import urlpatterns as project_urls


class ApiNoop(APIView):
    """The project's DRF defaults, no work."""

    def get(self, request: Request) -> Response:
        return Response({"id": request.user.pk})


def django_noop(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"id": None})


urlpatterns: list[Any] = [
    path("bench/api-noop/", ApiNoop.as_view()),
    path("bench/django-noop/", django_noop),
    *project_urls,
]
