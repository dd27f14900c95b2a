"""Who may call each endpoint: every principal against every endpoint, with the status code
expected, from one table of expectations. A 403 has the error shape, is recorded in the audit
trail, and a refused play leaves the round as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import get_resolver
from django.utils import timezone

from audit.models import AuditEvent
from tables.models import DealerSession, PaytableVersion, ProgressiveMeter, Round
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in

from .test_api import client_for

pytestmark = pytest.mark.django_db

PRINCIPALS = [
    "here",
    "elsewhere",
    "pitboss",
    "admin",
    "auditor",
    "security",
    "norole",
    "anonymous",
]
# here: `dealer`, signed in at SC-1 where the round is; elsewhere: `dealer2`, signed in at
# LB-1; security: identity management only, nothing on the floor; norole: signed in but in no
# role group; anonymous: no credentials. The schema and docs need sign-in (the docs page sends
# an anonymous visitor to the sign-in page).

# endpoint: (here, elsewhere, pitboss, admin, auditor, security, norole, anonymous)
EXPECTED: dict[str, tuple[int, ...]] = {
    "tables.list": (200, 200, 200, 200, 200, 403, 403, 401),
    "tables.retrieve": (200, 200, 200, 200, 200, 403, 403, 401),
    "tables.sign_in": (200, 200, 403, 403, 403, 403, 403, 401),
    "sign_out": (200, 200, 403, 403, 403, 403, 403, 401),
    "rounds.list": (200, 200, 200, 200, 200, 403, 403, 401),
    "rounds.retrieve": (200, 403, 200, 200, 200, 403, 403, 401),
    "rounds.preview": (200, 403, 200, 200, 200, 403, 403, 401),
    "rounds.create": (201, 403, 403, 403, 403, 403, 403, 401),
    "rounds.deal": (200, 403, 403, 403, 403, 403, 403, 401),
    "rounds.decide": (200, 403, 403, 403, 403, 403, 403, 401),
    "rounds.dealer": (200, 403, 403, 403, 403, 403, 403, 401),
    "rounds.settle": (200, 403, 403, 403, 403, 403, 403, 401),
    "rounds.approve": (403, 403, 200, 403, 403, 403, 403, 401),
    "rounds.cancel": (200, 403, 200, 403, 403, 403, 403, 401),
    "rounds.back": (200, 403, 403, 403, 403, 403, 403, 401),
    "paytable_versions.list": (200, 200, 200, 200, 200, 403, 403, 401),
    "paytable_versions.retrieve": (200, 200, 200, 200, 200, 403, 403, 401),
    "meters.list": (200, 200, 200, 200, 200, 403, 403, 401),
    "meters.retrieve": (200, 200, 200, 200, 200, 403, 403, 401),
    "schema": (200, 200, 200, 200, 200, 200, 200, 401),
    "docs": (200, 200, 200, 200, 200, 200, 200, 302),
}

# The round each endpoint needs at SC-1 first: None, or the step it must have reached.
ROUND_AT: dict[str, str | None] = {
    "rounds.retrieve": "open",
    "rounds.list": "open",
    "rounds.deal": "open",
    "rounds.decide": "dealt",
    "rounds.dealer": "decided",
    "rounds.preview": "complete",
    "rounds.settle": "complete",
    "rounds.approve": "awaiting",
    "rounds.cancel": "open",
    "rounds.back": "complete",
}


def _round(f: dict[str, Any], step: str) -> Round:
    dealer, table = f["dealer"], f["SC-1"]
    r = svc.round_open(table=table, dealer=dealer, wagers={1: {"ante": "10.00"}})
    if step == "open":
        return r
    r = svc.round_deal(round=r, dealer=dealer, seat_cards={1: "9d 8h 2s"}, dealer_cards="Kc 7d 2c")
    if step == "dealt":
        return r
    r = svc.round_decide(round=r, dealer=dealer, seat=1, decision={})
    if step == "decided":
        return r
    r = svc.round_dealer(round=r, dealer=dealer, draw=[])
    if step == "awaiting":  # as a settle paying past the table's sign-off threshold leaves it
        Round.objects.filter(pk=r.pk).update(
            approval_requested_at=timezone.now(), approval_reasons=["seat 1 is paid a lot"]
        )
        r.refresh_from_db()
    return r


def _request(f: dict[str, Any], endpoint: str, r: Round | None) -> tuple[str, str, dict[str, Any]]:
    """(method, path, JSON body) for an endpoint."""
    sc, py = f["SC-1"].pk, f["PY-1"].pk
    rid = r.pk if r is not None else 0
    version = PaytableVersion.objects.filter(status="approved").first()
    meter = ProgressiveMeter.objects.get()
    return {
        "tables.list": ("get", "/api/tables/", {}),
        "tables.retrieve": ("get", f"/api/tables/{sc}/", {}),
        "tables.sign_in": ("post", f"/api/tables/{py}/sign-in/", {}),
        "sign_out": ("post", "/api/sign-out/", {}),
        "rounds.list": ("get", "/api/rounds/", {}),
        "rounds.retrieve": ("get", f"/api/rounds/{rid}/", {}),
        "rounds.preview": ("get", f"/api/rounds/{rid}/preview/", {}),
        "rounds.create": ("post", "/api/rounds/", {"table": sc, "wagers": {1: {"ante": "10.00"}}}),
        "rounds.deal": (
            "post",
            f"/api/rounds/{rid}/deal/",
            {"cards": {1: "9d 8h 2s"}, "dealer": "Kc 7d 2c"},
        ),
        "rounds.decide": ("post", f"/api/rounds/{rid}/decide/", {"seat": 1, "decision": {}}),
        "rounds.dealer": ("post", f"/api/rounds/{rid}/dealer/", {"draw": []}),
        "rounds.settle": ("post", f"/api/rounds/{rid}/settle/", {"idempotency_key": "k"}),
        "rounds.approve": ("post", f"/api/rounds/{rid}/approve/", {}),
        "rounds.cancel": ("post", f"/api/rounds/{rid}/cancel/", {"reason": "misdeal"}),
        "rounds.back": ("post", f"/api/rounds/{rid}/back/", {"to": "cards"}),
        "paytable_versions.list": ("get", "/api/paytable-versions/", {}),
        "paytable_versions.retrieve": ("get", f"/api/paytable-versions/{version.pk}/", {}),
        "meters.list": ("get", "/api/meters/", {}),
        "meters.retrieve": ("get", f"/api/meters/{meter.pk}/", {}),
        "schema": ("get", "/api/schema/?format=json", {}),
        "docs": ("get", "/api/docs/", {}),
    }[endpoint]


@pytest.fixture
def matrix_floor(floor: dict[str, Any], django_user_model: Any) -> dict[str, Any]:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    dealer_sign_in(dealer=floor["dealer2"], table=floor["LB-1"])
    norole = django_user_model.objects.create_user("clerk", password="demo")
    return {
        **floor,
        "here": floor["dealer"],
        "elsewhere": floor["dealer2"],
        "norole": norole,
        "anonymous": None,
    }


CASES = [
    pytest.param(endpoint, who, expected[i], id=f"{endpoint}-{who}")
    for endpoint, expected in EXPECTED.items()
    for i, who in enumerate(PRINCIPALS)
]


@pytest.mark.parametrize(("endpoint", "who", "status"), CASES)
def test_role_matrix(matrix_floor: dict[str, Any], endpoint: str, who: str, status: int) -> None:
    floor = matrix_floor
    step = ROUND_AT.get(endpoint)
    r = _round(floor, step) if step else None
    method, path, body = _request(floor, endpoint, r)
    refusals_before = AuditEvent.objects.filter(kind="permission.refused").count()
    sessions_before = list(DealerSession.objects.values_list("id", "ended_at"))

    response = getattr(client_for(floor[who]), method)(path, body, format="json")

    assert response.status_code == status, (response.status_code, response.content)
    refusals = AuditEvent.objects.filter(kind="permission.refused").count() - refusals_before
    if status in (401, 403):
        error = response.json()["error"]
        assert error["code"] == ("forbidden" if status == 403 else "not_authenticated")
        assert refusals == (1 if status == 403 else 0)
        if status == 403:
            event = AuditEvent.objects.filter(kind="permission.refused").last()
            assert event is not None
            assert event.data == {
                "method": method.upper(),
                "path": path,
                "reason": error["message"],
            }
            assert event.actor_name == floor[who].username
        # Nothing changed: no new round, the round as it was, the same sign-ins.
        if r is not None:
            after = Round.objects.get(pk=r.pk)
            assert (after.status, after.entry, after.house_way) == (r.status, r.entry, r.house_way)
            assert not after.lines.exists()
        else:
            assert not Round.objects.exists()
        assert list(DealerSession.objects.values_list("id", "ended_at")) == sessions_before
    else:
        assert refusals == 0


ROUTE_NAME = {
    "tables.list": "api-table-list",
    "tables.retrieve": "api-table-detail",
    "tables.sign_in": "api-table-sign-in",
    "sign_out": "api-sign-out",
    "rounds.list": "api-round-list",
    "rounds.retrieve": "api-round-detail",
    "rounds.preview": "api-round-preview",
    "rounds.create": "api-round-list",
    "rounds.deal": "api-round-deal",
    "rounds.decide": "api-round-decide",
    "rounds.dealer": "api-round-dealer",
    "rounds.settle": "api-round-settle",
    "rounds.approve": "api-round-approve",
    "rounds.cancel": "api-round-cancel",
    "rounds.back": "api-round-back",
    "paytable_versions.list": "api-paytable-version-list",
    "paytable_versions.retrieve": "api-paytable-version-detail",
    "meters.list": "api-meter-list",
    "meters.retrieve": "api-meter-detail",
    "schema": "api-schema",
    "docs": "api-docs",
}
OPEN_TO_ALL = {"api-auth-token"}  # username and password in, token out (tested in test_api.py)


def test_the_matrix_covers_every_api_route() -> None:
    """A new route under /api/ fails this test until it has a row in EXPECTED."""
    (api,) = [p for p in get_resolver().url_patterns if str(p.pattern) == "api/"]
    routes = {p.name for p in api.url_patterns}
    assert set(ROUTE_NAME) == set(EXPECTED)
    assert routes == set(ROUTE_NAME.values()) | OPEN_TO_ALL


def test_a_dealer_elsewhere_lists_no_rounds_of_this_table(matrix_floor: dict[str, Any]) -> None:
    floor = matrix_floor
    _round(floor, "open")
    assert client_for(floor["dealer2"]).get("/api/rounds/").json()["count"] == 0
    assert client_for(floor["dealer"]).get("/api/rounds/").json()["count"] == 1


def test_a_method_an_endpoint_lacks_is_405_not_a_refusal(matrix_floor: dict[str, Any]) -> None:
    floor = matrix_floor
    pit = client_for(floor["pitboss"])
    for method, path in [
        ("delete", f"/api/tables/{floor['SC-1'].pk}/"),
        ("get", "/api/sign-out/"),
        ("put", f"/api/meters/{ProgressiveMeter.objects.get().pk}/"),
    ]:
        response = getattr(pit, method)(path)
        assert response.status_code == 405, (method, path, response.content)
        assert response.json()["error"]["code"] == "method_not_allowed"
    assert not AuditEvent.objects.filter(kind="permission.refused").exists()
    assert pit.options("/api/rounds/").status_code == 200
    assert client_for(floor["norole"]).options("/api/rounds/").status_code == 403
