"""Who may call each endpoint: every principal against every endpoint, with the status code
expected, from one table of expectations. A 403 has the error shape, is recorded in the audit
trail, and a refused play leaves the round as it was."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.urls import get_resolver
from django.utils import timezone

from accounting.models import Slip, SlipSignature, SlipVoid, VarianceAlert
from accounting.services import slip_create
from audit.models import AuditEvent
from players.services import seat_player
from tables.models import DealerSession, Hand, PaytableVersion, ProgressiveMeter, Round
from tables.services import hands as hand_svc
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

PRINCIPALS = [
    "here",
    "elsewhere",
    "pitboss",
    "admin",
    "auditor",
    "security",
    "cage",
    "count",
    "norole",
    "anonymous",
]
# here: `dealer`, signed in at SC-1 where the round is (for a hand: `dealer3`, signed in at
# RI-1 where the hand is); elsewhere: `dealer2`, signed in at
# LB-1; security: identity management, and the fills and credits a property's signature rule
# gives them to sign (none here: a slip not theirs to see is not found); cage and count: the tables
# and their own slips (accounting), nothing of the rounds or hands; norole: signed in but in no
# role group; anonymous: no credentials. The schema and docs need sign-in (the docs page sends
# an anonymous visitor to the sign-in page).

# endpoint: (here, elsewhere, pitboss, admin, auditor, security, cage, count, norole, anonymous)
EXPECTED: dict[str, tuple[int, ...]] = {
    "tables.list": (200, 200, 200, 200, 200, 403, 200, 200, 403, 401),
    "tables.retrieve": (200, 200, 200, 200, 200, 403, 200, 200, 403, 401),
    "tables.sign_in": (200, 200, 403, 403, 403, 403, 403, 403, 403, 401),
    "sign_out": (200, 200, 403, 403, 403, 403, 403, 403, 403, 401),
    "rounds.list": (200, 200, 200, 200, 200, 403, 403, 403, 403, 401),
    "rounds.retrieve": (200, 403, 200, 200, 200, 403, 403, 403, 403, 401),
    "rounds.preview": (200, 403, 200, 200, 200, 403, 403, 403, 403, 401),
    "rounds.create": (201, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "rounds.deal": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "rounds.decide": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "rounds.dealer": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "rounds.settle": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "rounds.approve": (403, 403, 200, 403, 403, 403, 403, 403, 403, 401),
    "rounds.cancel": (200, 403, 200, 403, 403, 403, 403, 403, 403, 401),
    "rounds.back": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "rounds.void": (403, 403, 200, 403, 403, 403, 403, 403, 403, 401),
    "rounds.void_approve": (403, 403, 200, 403, 403, 403, 403, 403, 403, 401),
    "rounds.void_withdraw": (403, 403, 200, 403, 403, 403, 403, 403, 403, 401),
    "paytable_versions.list": (200, 200, 200, 200, 200, 403, 403, 403, 403, 401),
    "paytable_versions.retrieve": (200, 200, 200, 200, 200, 403, 403, 403, 403, 401),
    "meters.list": (200, 200, 200, 200, 200, 403, 403, 403, 403, 401),
    "meters.retrieve": (200, 200, 200, 200, 200, 403, 403, 403, 403, 401),
    "hands.list": (200, 200, 200, 200, 200, 403, 403, 403, 403, 401),
    "hands.retrieve": (200, 403, 200, 200, 200, 403, 403, 403, 403, 401),
    "hands.create": (201, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "hands.step": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "hands.finish": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "hands.undo": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "hands.misdeal": (200, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "hands.void": (403, 403, 200, 403, 403, 403, 403, 403, 403, 401),
    "schema": (200, 200, 200, 200, 200, 200, 200, 200, 200, 401),
    "docs": (200, 200, 200, 200, 200, 200, 200, 200, 200, 302),
    # table accounting: a fill at SC-1 requested by a second pit boss awaits the cage's issue;
    # a dealer sees the slips of their table only (404 elsewhere), the count team the drops.
    "slips.list": (200, 200, 200, 403, 200, 403, 200, 200, 403, 401),
    "slips.retrieve": (200, 404, 200, 403, 200, 403, 200, 404, 403, 401),
    "slips.create": (201, 403, 403, 403, 403, 403, 403, 403, 403, 401),
    "slips.sign": (403, 404, 403, 403, 403, 404, 200, 404, 403, 401),
    "slips.void": (403, 404, 200, 403, 403, 404, 200, 404, 403, 401),
    "chip_denominations.list": (200, 200, 200, 200, 200, 403, 200, 200, 403, 401),
    "variance_alerts.list": (403, 403, 200, 403, 200, 403, 403, 403, 403, 401),
    "variance_alerts.acknowledge": (403, 403, 200, 403, 403, 403, 403, 403, 403, 401),
    "reconciliation": (403, 403, 200, 403, 200, 403, 403, 403, 403, 401),
    # rated play: hosts and pit bosses keep the players, auditors read them; the dealer signed
    # in at the table (or a pit boss) seats and unseats a rated player (Alice rated at SC-1
    # seat 2 first)
    "players.list": (403, 403, 200, 403, 200, 403, 403, 403, 403, 401),
    "players.retrieve": (403, 403, 200, 403, 200, 403, 403, 403, 403, 401),
    "players.create": (403, 403, 201, 403, 403, 403, 403, 403, 403, 401),
    "tables.seat_player": (201, 403, 201, 403, 403, 403, 403, 403, 403, 401),
    "tables.unseat_player": (200, 403, 200, 403, 403, 403, 403, 403, 403, 401),
    # the cage's window (compliance reads it too: docs/compliance.md)
    "cage_transactions.list": (403, 403, 403, 403, 403, 403, 200, 403, 403, 401),
    "cage_transactions.create": (403, 403, 403, 403, 403, 403, 201, 403, 403, 401),
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
    "rounds.void": "settled",
    "rounds.void_approve": "void waiting",
    "rounds.void_withdraw": "void waiting",
}


# The hand each hand endpoint needs at RI-1 first: None, or how far it has gone.
HAND_AT: dict[str, str | None] = {
    "hands.list": "open",
    "hands.retrieve": "open",
    "hands.step": "open",
    "hands.finish": "over",
    "hands.undo": "acted",
    "hands.misdeal": "open",
    "hands.void": "finished",
}


def _hand(f: dict[str, Any], step: str) -> Hand:
    dealer, table = f["dealer3"], f["RI-1"]
    h = hand_svc.hand_open(table=table, dealer=dealer, players={1: 10_000, 2: 10_000})
    if step == "open":
        return h
    for s in ({"hole": ["Ah", "Kd"]}, {"action": "bet"}, {"action": "fold"}):
        h = hand_svc.hand_act(hand=h, dealer=dealer, step=s)
        if step == "acted" and "action" in s:
            return h
    if step == "over":
        return h
    return hand_svc.hand_finish(hand=h, dealer=dealer)


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
    if step in ("settled", "void waiting"):
        r = svc.round_settle(round=r, dealer=dealer)
    if step == "void waiting":  # as a second pit boss's void of a signed-off payout leaves it
        Round.objects.filter(pk=r.pk).update(
            void_requested_at=timezone.now(), void_requested_by=f["pitboss2"], void_reason="x"
        )
        r.refresh_from_db()
    return r


def _request(
    f: dict[str, Any], endpoint: str, r: Round | Hand | None
) -> tuple[str, str, dict[str, Any]]:
    """(method, path, JSON body) for an endpoint."""
    sc, py, ri = f["SC-1"].pk, f["PY-1"].pk, f["RI-1"].pk
    rid = r.pk if r is not None else 0
    slip = f.get("slip")
    sid = slip.pk if slip is not None else 0
    alert = f.get("alert")
    aid = alert.pk if alert is not None else 0
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
        "rounds.void": ("post", f"/api/rounds/{rid}/void/", {"reason": "wrong cards"}),
        "rounds.void_approve": ("post", f"/api/rounds/{rid}/void-approve/", {}),
        "rounds.void_withdraw": (
            "post",
            f"/api/rounds/{rid}/void-withdraw/",
            {"reason": "the cards were right"},
        ),
        "paytable_versions.list": ("get", "/api/paytable-versions/", {}),
        "paytable_versions.retrieve": ("get", f"/api/paytable-versions/{version.pk}/", {}),
        "meters.list": ("get", "/api/meters/", {}),
        "meters.retrieve": ("get", f"/api/meters/{meter.pk}/", {}),
        "hands.list": ("get", "/api/hands/", {}),
        "hands.retrieve": ("get", f"/api/hands/{rid}/", {}),
        "hands.create": ("post", "/api/hands/", {"table": ri, "players": {1: 5000, 2: 5000}}),
        "hands.step": ("post", f"/api/hands/{rid}/step/", {"hole": ["Ah", "Kd"]}),
        "hands.finish": ("post", f"/api/hands/{rid}/finish/", {}),
        "hands.undo": ("post", f"/api/hands/{rid}/undo/", {}),
        "hands.misdeal": ("post", f"/api/hands/{rid}/misdeal/", {"reason": "a card exposed"}),
        "hands.void": ("post", f"/api/hands/{rid}/void/", {"reason": "misdeal"}),
        "schema": ("get", "/api/schema/?format=json", {}),
        "docs": ("get", "/api/docs/", {}),
        "slips.list": ("get", "/api/slips/", {}),
        "slips.retrieve": ("get", f"/api/slips/{sid}/", {}),
        "slips.create": ("post", "/api/slips/", {"table": sc, "kind": "buy_in", "amount": "100"}),
        "slips.sign": ("post", f"/api/slips/{sid}/sign/", {}),
        "slips.void": ("post", f"/api/slips/{sid}/void/", {"reason": "wrong table"}),
        "chip_denominations.list": ("get", "/api/chip-denominations/", {}),
        "variance_alerts.list": ("get", "/api/variance-alerts/", {}),
        "variance_alerts.acknowledge": (
            "post",
            f"/api/variance-alerts/{aid}/acknowledge/",
            {"note": "counted again: the chip was in the float"},
        ),
        "reconciliation": ("get", "/api/reconciliation/", {"gaming_day": "2026-11-20"}),
        "players.list": ("get", "/api/players/", {}),
        "players.retrieve": ("get", f"/api/players/{f['rated'].player_id}/", {}),
        "players.create": ("post", "/api/players/", {"card": "300001", "name": "Ida Berg"}),
        "tables.seat_player": (
            "post",
            f"/api/tables/{sc}/seat-player/",
            {"seat": 1, "card": "100002"},
        ),
        "tables.unseat_player": ("post", f"/api/tables/{sc}/unseat-player/", {"seat": 2}),
        "cage_transactions.list": ("get", "/api/cage/transactions/", {}),
        "cage_transactions.create": (
            "post",
            "/api/cage/transactions/",
            {"kind": "chips_bought", "amount": "100.00"},
        ),
    }[endpoint]


@pytest.fixture
def matrix_floor(floor: dict[str, Any], django_user_model: Any) -> dict[str, Any]:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    dealer_sign_in(dealer=floor["dealer2"], table=floor["LB-1"])
    dealer3 = django_user_model.objects.create_user("dealer3", password="demo")
    dealer3.groups.add(Group.objects.get(name="dealer"))
    dealer_sign_in(dealer=dealer3, table=floor["RI-1"])
    norole = django_user_model.objects.create_user("clerk", password="demo")
    # A fill at SC-1 requested by a second pit boss (so `pitboss` is not its creator), and a
    # variance alert to acknowledge.
    pitboss2 = django_user_model.objects.create_user("pitboss2", password="demo")
    pitboss2.groups.add(Group.objects.get(name="pit_boss"))
    slip = slip_create(table=floor["SC-1"], kind="fill", by=pitboss2, chips={"25.00": 20})
    alert = VarianceAlert.objects.create(
        table=floor["SC-1"],
        gaming_day=date(2026, 11, 20),
        shift="14:00",
        count_win_cents=0,
        hands_win_cents=2500,
        variance_cents=-2500,
        tolerance_cents=500,
        raised_at=timezone.now(),
    )
    rated = seat_player(table=floor["SC-1"], seat=2, card="100001", by=floor["pitboss"])
    return {
        "rated": rated,
        "slip": slip,
        "alert": alert,
        **floor,
        "here": floor["dealer"],
        "elsewhere": floor["dealer2"],
        "norole": norole,
        "anonymous": None,
        "dealer3": dealer3,
        "pitboss2": pitboss2,
    }


def _slips_state() -> tuple[Any, ...]:
    return (
        list(Slip.objects.order_by("pk").values_list("pk", "status")),
        SlipSignature.objects.count(),
        SlipVoid.objects.count(),
        list(VarianceAlert.objects.values_list("pk", "note")),
    )


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
    hand_step = HAND_AT.get(endpoint)
    h = _hand(floor, hand_step) if hand_step else None
    hands_before = list(Hand.objects.values_list("id", "status", "record"))
    method, path, body = _request(floor, endpoint, h or r)
    refusals_before = AuditEvent.objects.filter(kind="permission.refused").count()
    sessions_before = list(DealerSession.objects.values_list("id", "ended_at"))
    user = floor["dealer3"] if who == "here" and endpoint.startswith("hands.") else floor[who]
    slips_before = _slips_state()
    lines_before = r.lines.count() if r is not None else 0

    response = getattr(client_for(user), method)(path, body, format="json")

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
            assert event.actor_name == user.username
        # Nothing changed: no new round, the round as it was, the same sign-ins.
        if r is not None:
            after = Round.objects.get(pk=r.pk)
            assert (after.status, after.entry, after.house_way) == (r.status, r.entry, r.house_way)
            assert after.void_requested_at == r.void_requested_at
            assert after.lines.count() == lines_before
        else:
            assert not Round.objects.exists()
        assert list(Hand.objects.values_list("id", "status", "record")) == hands_before
        assert list(DealerSession.objects.values_list("id", "ended_at")) == sessions_before
        assert _slips_state() == slips_before
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
    "rounds.void": "api-round-void",
    "rounds.void_approve": "api-round-void-approve",
    "rounds.void_withdraw": "api-round-void-withdraw",
    "paytable_versions.list": "api-paytable-version-list",
    "paytable_versions.retrieve": "api-paytable-version-detail",
    "meters.list": "api-meter-list",
    "meters.retrieve": "api-meter-detail",
    "hands.list": "api-hand-list",
    "hands.retrieve": "api-hand-detail",
    "hands.create": "api-hand-list",
    "hands.step": "api-hand-step",
    "hands.finish": "api-hand-finish",
    "hands.undo": "api-hand-undo",
    "hands.misdeal": "api-hand-misdeal",
    "hands.void": "api-hand-void",
    "schema": "api-schema",
    "docs": "api-docs",
    "slips.list": "api-slip-list",
    "slips.retrieve": "api-slip-detail",
    "slips.create": "api-slip-list",
    "slips.sign": "api-slip-sign",
    "slips.void": "api-slip-void",
    "chip_denominations.list": "api-chip-list",
    "variance_alerts.list": "api-variance-alert-list",
    "variance_alerts.acknowledge": "api-variance-alert-acknowledge",
    "reconciliation": "api-reconciliation",
    "players.list": "api-players",
    "players.create": "api-players",
    "players.retrieve": "api-player",
    "tables.seat_player": "api-seat-player",
    "tables.unseat_player": "api-unseat-player",
    "cage_transactions.list": "api-cage-transaction-list",
    "cage_transactions.create": "api-cage-transaction-list",
}
OPEN_TO_ALL = {"api-auth-token"}  # username and password in, token out (tested in test_api.py)


def test_the_matrix_covers_every_api_route() -> None:
    """A new route under /api/ fails this test until it has a row in EXPECTED."""
    apis = [
        p
        for p in get_resolver().url_patterns
        if str(p.pattern) == "api/" and hasattr(p, "url_patterns")  # not the root's own page
    ]
    assert len(apis) == 4  # the floor's (tables.api), table accounting's, rated play's, the cage's
    routes = {p.name for api in apis for p in api.url_patterns}
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
