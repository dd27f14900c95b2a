"""The site's 400 page for a query value a page cannot read (`?day=abc`): it names the field
and says what it should look like, in the site's frame, instead of a bare line of text."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def bad_query(request: HttpRequest, *, field: str, message: str) -> HttpResponse:
    """400 with the site's page: `field` is the query parameter's name, `message` what is
    wrong with its value and what it should be."""
    return render(
        request,
        "400.html",
        {"field": field, "message": message, "request_path": request.path},
        status=400,
    )
