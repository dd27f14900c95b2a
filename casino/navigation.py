"""One navigation on every page: the places the signed-in user's roles may go, the current one
marked (a template context processor)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from core.roles import (
    ADMIN_SITE,
    CASH_OUT_ROLES,
    COMPLIANCE_READERS,
    CREDIT_READERS,
    DEALERS,
    DISPLAY_KEEPERS,
    MGR_READERS,
    PLAYER_READERS,
    RECORD_READERS,
    Role,
    has_any_role,
    has_role,
)

SLIP_DESK = (Role.PIT_BOSS, Role.AUDITOR, Role.CAGE, Role.COUNT)  # who works at the slips desk


def places(user: Any) -> list[tuple[str, str, str]]:
    """(key, label, url) of every place the user may go, in the order of the bar."""
    out: list[tuple[str, str, str]] = []
    if has_any_role(user, DEALERS):
        out.append(("tablet", "Dealer tablet", reverse("tablet:home")))
    if has_any_role(user, RECORD_READERS):
        out.append(("dashboard", "Dashboard", reverse("reports:dashboard")))
        out.append(("reports", "Reports", reverse("reports:reports")))
        out.append(("alerts", "Alerts", reverse("reports:alerts")))
        out.append(("trail", "Audit trail", reverse("audit:events")))
    if has_any_role(user, SLIP_DESK):
        out.append(("slips", "Slips", reverse("accounting:desk")))
    if has_any_role(user, RECORD_READERS):
        out.append(("count", "Reconciliation", reverse("accounting:reconciliation")))
    if has_any_role(user, MGR_READERS):
        out.append(("mgr", "Master Game Report", reverse("reports:mgr")))
    if has_any_role(user, PLAYER_READERS):
        out.append(("players", "Players", reverse("players:search")))
    if has_any_role(user, CASH_OUT_ROLES):
        out.append(("cage", "Cage window", reverse("compliance:cage")))
    if has_any_role(user, COMPLIANCE_READERS):
        out.append(("compliance", "Compliance", reverse("compliance:day")))
    if has_any_role(user, CREDIT_READERS):
        out.append(("credit", "Credit", reverse("compliance:credit")))
    if has_any_role(user, DISPLAY_KEEPERS):
        out.append(("displays", "Displays", reverse("tablet:display_keys")))
    if has_any_role(user, ADMIN_SITE):
        label = "Accounts" if has_role(user, Role.SECURITY) else "Administration"
        out.append(("admin", label, reverse("admin:index")))
    return out


def _current(path: str) -> str:
    for prefix, key in (
        ("/tablet/displays/", "displays"),
        ("/tablet/", "tablet"),
        ("/reports/dashboard/", "dashboard"),
        ("/reports/tables/", "dashboard"),
        ("/reports/alerts/", "alerts"),
        ("/reports/mgr/", "mgr"),
        ("/reports/", "reports"),
        ("/audit/", "trail"),
        ("/admin/", "admin"),
        ("/accounting/reconciliation/", "count"),
        ("/accounting/", "slips"),
        ("/players/", "players"),
        ("/compliance/cage/", "cage"),
        ("/compliance/credit/", "credit"),
        ("/compliance/", "compliance"),
    ):
        if path.startswith(prefix):
            return key
    return ""


def navigation(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_places": []}

    def nav_places() -> list[dict[str, Any]]:
        current = _current(request.path)
        return [
            {"key": key, "label": label, "url": url, "current": key == current}
            for key, label, url in places(user)
        ]

    # Called by the template where it draws the bar (a callable is called when a template reads
    # it): a page drawn without the bar (the tablet's boosted answers) never works it out.
    return {"nav_places": nav_places}
