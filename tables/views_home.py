"""The landing page: each role is sent to its home (a dealer to the tablet, a pit boss to the
dashboard, an auditor to the audit trail, an admin or security officer to the administration,
the cage and the count team to the slips desk, the compliance role to the day's MTL and
CTRs); someone in no role sees where they stand."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from core.roles import Role, has_role

HOMES = (
    (Role.DEALER, "tablet:home"),
    (Role.PIT_BOSS, "reports:dashboard"),
    (Role.AUDITOR, "audit:events"),
    (Role.ADMIN, "admin:index"),
    (Role.SECURITY, "admin:index"),
    (Role.CAGE, "accounting:desk"),
    (Role.COUNT, "accounting:desk"),
    (Role.COMPLIANCE, "compliance:day"),  # the URL's name only: the floor imports no compliance
    (Role.CREDIT, "compliance:credit"),
    (Role.REVENUE_AUDIT, "reports:mgr"),  # the Master Game Report
)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    for role, url in HOMES:
        if has_role(request.user, role):
            return redirect(reverse(url))
    return render(request, "home.html")
