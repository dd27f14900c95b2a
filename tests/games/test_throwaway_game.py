"""A game registered inside the test suite is played through the tablet and the API with no
other module touched: its package (here, this file's `HighCardDuel`), one `register`, and
what its migration would do to the database's list of games (`database_accepts`).

High Card Duel: each seat antes and gets three cards, as does the dealer; every player
stands; the higher three-card poker hand wins the ante at the paytable's odds, a tie pushes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import pytest
from django.db import connection
from django.db.models import CheckConstraint, Q
from django.template import Template
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables import games
from tables.engine.cards import RANKS, CardLedger, parse_cards
from tables.engine.errors import EngineError, Refusal
from tables.engine.money import parse_odds
from tables.engine.paytables import Paytable
from tables.engine.progressive import MeterConfig
from tables.engine.rankings import poker_value
from tables.engine.settlement import DealerAction, DealerResult, Line, SeatResult, Settlement
from tables.engine.validation import check_count
from tables.models import PaytableVersion, Pit, Round, SettlementLine, Table
from tables.services.paytables import paytable_approve, paytable_draft

pytestmark = pytest.mark.django_db

NAME = "high_card_duel"

# Its one decision form on the tablet (a game may give a Template instead of a file's name).
STAND_FORM = """<form method="post" action="{% url 'tablet:decide' table.pk %}" class="decide">
{% csrf_token %}<input type="hidden" name="round" value="{{ round.pk }}">
<input type="hidden" name="seat" value="{{ s.n }}">
<button type="submit" name="action" value="stand" class="primary xl">Seat {{ s.n }} stands</button>
</form>"""


class HighCardDuel(games.BankedGame):
    name = NAME
    label = "High Card Duel"
    seat_wagers = ("ante",)
    typed_wagers = ("ante",)
    limited_wagers = ("ante",)
    report_wagers = ("ante",)
    seat_keys = frozenset({"seat", "wagers", "cards"})
    decision_keys = ()
    decisions_help = "Every player stands."
    high_card_order = RANKS
    default_paytable = "standard"

    @property
    def decide_template(self) -> Any:  # type: ignore[override]
        return Template(STAND_FORM)

    # --- engine ---------------------------------------------------------------------------
    def required_lines(self) -> Mapping[str, tuple[str, ...]]:
        return {"ante": ("win",)}

    def paytable(self, name: str, lines: Mapping[str, Any]) -> Paytable:
        ante = lines.get("ante")
        if set(lines) != {"ante"} or not isinstance(ante, Mapping) or set(ante) != {"win"}:
            raise EngineError(Refusal.BAD_PAYTABLE, "the paytable is one line: ante win")
        odds = parse_odds(ante["win"], where="ante line win")
        return Paytable(NAME, name, MappingProxyType({"ante": MappingProxyType({"win": odds})}))

    def named_paytables(self) -> Mapping[str, Paytable]:
        return {"standard": self.paytable("standard", {"ante": {"win": "1"}})}

    def check_partial(self, entry: Mapping[str, Any]) -> None:
        ledger = CardLedger()
        hands = [("the dealer's cards", (entry.get("dealer") or {}).get("cards"))]
        hands += [(f"seat {s['seat']}'s cards", s.get("cards")) for s in entry["seats"]]
        for where, given in hands:
            if given:
                cards = parse_cards(given, where=where)
                check_count(cards, where)
                ledger.place(cards, where)

    def dealer_advice(self, cards: list[str]) -> dict[str, Any]:
        return {"rule": "The dealer always stands.", "discard": [], "draw_count": 0}

    def settle(
        self, entry: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None
    ) -> Settlement:
        self.check_partial(entry)
        dealer = parse_cards(entry["dealer"]["cards"], where="the dealer's cards", count=3)
        house = poker_value(dealer)
        seats = []
        for seat in entry["seats"]:
            cards = parse_cards(seat["cards"], where=f"seat {seat['seat']}'s cards", count=3)
            stake = int(Fraction(seat["wagers"]["ante"]) * 100)
            value = poker_value(cards)
            if value.score > house.score:
                line = Line.won("ante", stake, paytable.odds("ante", "win") or Fraction(1))
            elif value.score < house.score:
                line = Line.lost("ante", stake)
            else:
                line = Line.pushed("ante", stake)
            seats.append(SeatResult(seat["seat"], cards, value.category.value, (line,)))
        result = DealerResult(dealer, DealerAction.STAND, (), dealer, house.category.value)
        return Settlement(NAME, paytable.name, result, tuple(seats))

    # --- services and tablet -----------------------------------------------------------------
    def decision(
        self, n: int, seat: Mapping[str, Any], given: Mapping[str, Any], limits: Mapping[str, Any]
    ) -> games.Decision:
        return games.Decision({})  # every player stands

    def decision_form(
        self, page: Any, block: dict[str, Any], seat: Mapping[str, Any], posted: Any
    ) -> None:
        block["takes_cards"] = False

    def posted_decision(self, n: int, post: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def decision_summary(self, seat: Mapping[str, Any]) -> str:
        return "Stands"

    def headline(self, advice: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"text": "Dealer stands"}]


@contextmanager
def database_accepts(name: str) -> Iterator[None]:
    """What the game's migration does: the database's list of games gains `name`. On
    PostgreSQL the checks are replaced (inside the test's transaction, so rolled back after);
    SQLite cannot alter a CHECK without rebuilding the table (and its guard triggers), so its
    checks are set aside for this connection instead."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # no ALTER while deferred checks are pending
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        with connection.schema_editor() as editor:
            for model, check in (
                (Table, "table_game_valid"),
                (PaytableVersion, "paytable_game_valid"),
            ):
                old = next(c for c in model._meta.constraints if c.name == check)
                editor.remove_constraint(model, old)
                editor.add_constraint(
                    model, CheckConstraint(condition=Q(game__in=games.names()), name=check)
                )
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")  # as they were: initially deferred
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA ignore_check_constraints = 1")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA ignore_check_constraints = 0")


@pytest.fixture
def duel_table(floor: dict[str, Any]) -> Iterator[Table]:
    games.register(HighCardDuel())
    try:
        with database_accepts(NAME):
            draft = paytable_draft(
                author=floor["admin"],
                game=NAME,
                name="standard",
                lines={"ante": {"win": "1"}},
                limits={"ante": {"min_cents": 500, "max_cents": 50000}},
            )
            version = paytable_approve(version=draft, approver=floor["admin2"])
            yield Table.objects.create(
                name="HC-1", pit=Pit.objects.first(), game=NAME, paytable_version=version
            )
    finally:
        games.unregister(NAME)


def test_an_unknown_game_is_refused_not_played_as_another() -> None:
    with pytest.raises(games.UnknownGame):
        games.get(NAME)
    with pytest.raises(games.UnknownGame):
        games.banked("")


def _page_text(response: Any) -> str:
    import html

    return html.unescape(response.content.decode())


def _step(response: Any) -> str:
    found = re.search(r'<li class="now" aria-current="step">([^<]+)</li>', _page_text(response))
    assert found, "the page shows no current step"
    return found.group(1)


def _hidden(response: Any, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]+)"', _page_text(response))
    assert found, f"no hidden {name} on the page"
    return found.group(1)


def test_a_registered_game_plays_through_the_tablet(
    duel_table: Table, floor: dict[str, Any]
) -> None:
    from django.test import Client

    client = Client()
    assert client.login(username="dealer", password="demo")
    assert "High Card Duel" in _page_text(client.get("/tablet/"))
    assert client.post("/tablet/", {"table": duel_table.pk}).status_code == 303
    url = f"/tablet/table/{duel_table.pk}/"
    page = client.get(url)
    assert _step(page) == "Wagers" and "High Card Duel" in _page_text(page)
    refused = client.post(url + "open/", {"seat-1-ante": "1"})  # under the $5 minimum
    assert refused.status_code == 303  # to the table page, which shows the refusal once
    refused = client.get(refused["Location"])
    assert "seat 1 ante must be from 5.00" in _page_text(refused)
    assert client.post(url + "open/", {"seat-1-ante": "10", "seat-2-ante": "5"}).status_code == 303
    page = client.get(url)
    assert _step(page) == "Cards"
    round_id = _hidden(page, "round")
    cards = {"seat-1-cards": "Ah Kd 2c", "seat-2-cards": "9c 7d 2s", "dealer-cards": "Qc Jd 3h"}
    assert client.post(url + "deal/", {"round": round_id, **cards}).status_code == 303
    for seat in ("1", "2"):
        page = client.get(url)
        assert _step(page) == "Players" and f"Seat {seat} stands" in _page_text(page)
        decided = client.post(url + "decide/", {"round": round_id, "seat": seat, "action": "stand"})
        assert decided.status_code == 303
    page = client.get(url)
    assert _step(page) == "House way" and "Dealer stands" in _page_text(page)
    assert client.post(url + "dealer/", {"round": round_id}).status_code == 303
    page = client.get(url)
    assert _step(page) == "Pay and close"
    assert "Ace high" in _page_text(page) and "Queen high" in _page_text(page)
    key = _hidden(page, "idempotency_key")
    settled = client.post(url + "settle/", {"round": round_id, "idempotency_key": key})
    assert settled.status_code == 303
    assert "Stands" in _page_text(client.get(settled["Location"]))
    r = Round.objects.get(pk=round_id)
    assert (r.status, r.game, r.handle_cents, r.players_net_cents) == ("settled", NAME, 1500, 500)
    lines = SettlementLine.objects.filter(round=r).order_by("seat")
    assert [(ln.seat, ln.wager, ln.result, ln.net_cents) for ln in lines] == [
        (1, "ante", "win", 1000),
        (2, "ante", "lose", -500),
    ]
    kinds = list(AuditEvent.objects.filter(object_id=str(r.pk)).values_list("kind", flat=True))
    assert "round.opened" in kinds and "round.settled" in kinds


def test_a_registered_game_plays_through_the_api(duel_table: Table, floor: dict[str, Any]) -> None:
    client = APIClient()
    client.force_login(floor["dealer"])

    def ok(response: Any, status: int = 200) -> dict[str, Any]:
        assert response.status_code == status, response.content
        return response.json()  # type: ignore[no-any-return]

    ok(client.post(f"/api/tables/{duel_table.pk}/sign-in/", {}, format="json"))
    table = ok(client.get(f"/api/tables/{duel_table.pk}/"))
    assert table["game"] == NAME
    wagers = {"1": {"ante": "25"}, "3": {"ante": "5"}}
    r = ok(
        client.post("/api/rounds/", {"table": duel_table.pk, "wagers": wagers}, format="json"), 201
    )
    url = f"/api/rounds/{r['id']}/"
    deal = {"cards": {"1": "Kh Ks 4c", "3": "Qd Jc 3s"}, "dealer": "Qc Jd 3h"}
    r = ok(client.post(url + "deal/", deal, format="json"))
    assert r["state"]["step"] == "decisions"
    for seat in (1, 3):
        r = ok(client.post(url + "decide/", {"seat": seat, "decision": {}}, format="json"))
    assert r["state"]["step"] == "dealer"
    r = ok(client.post(url + "dealer/", {}, format="json"))
    assert r["state"]["step"] == "confirm"
    preview = ok(client.get(url + "preview/"))
    assert [s["lines"][0]["result"] for s in preview["seats"]] == ["win", "push"]
    settled = ok(client.post(url + "settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY="duel-1"))
    assert settled["status"] == "settled"
    assert (settled["handle_cents"], settled["players_net_cents"]) == (3000, 2500)
