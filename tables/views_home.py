"""The landing page: each role is sent where its work is."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.roles import (
    RECORD_READERS,
    Role,
    has_any_role,
    has_role,
)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    return render(
        request,
        "home.html",
        {
            "is_dealer": has_role(user, Role.DEALER),
            "is_reader": has_any_role(user, RECORD_READERS),
            "has_slips": has_any_role(user, (Role.PIT_BOSS, Role.AUDITOR, Role.CAGE, Role.COUNT)),
        },
    )
