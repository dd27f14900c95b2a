"""The landing page: each role is sent where its work is."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tables.roles import Role, has_role


@login_required
def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    return render(
        request,
        "home.html",
        {
            "is_dealer": has_role(user, Role.DEALER),
            "is_reader": has_role(user, Role.AUDITOR) or has_role(user, Role.PIT_BOSS),
            "has_slips": any(
                has_role(user, r) for r in (Role.PIT_BOSS, Role.AUDITOR, Role.CAGE, Role.COUNT)
            ),
        },
    )
