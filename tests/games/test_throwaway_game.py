"""A game installed inside the test suite is played through the whole site with no other module
touched: its package (here, this file's `SwapDuel` and `SwapDuelRules`), one `games.install`,
and what its migration would do to the database's list of games (`database_accepts`). It has
no ante (its one wager is the "stake"), and its own decisions (a "hold" flag, a "swap" list of
cards): the tablet, the API, a void and its correction (the form built from its decision
fields), the hold report (its hands counted by its own wager), the `house_edge` command and the
trail's round page all ask the game.

Swap Duel: each seat stakes and gets three cards, as does the dealer, who always stands; a
player holds, or swaps one or two new cards in for as many of their lowest; the higher
three-card poker hand wins the stake at the paytable's odds, a tie pushes.
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import date
from fractions import Fraction
from io import StringIO
from types import MappingProxyType
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import CheckConstraint, Q
from django.template import Template
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from core.errors import ServiceError
from tables import games
from tables.display import card_text
from tables.engine.cards import RANKS, Card, CardLedger, Shoe, parse_cards
from tables.engine.edge_report import Method, WagerEdge
from tables.engine.edge_stats import Sampler
from tables.engine.errors import EngineError, Refusal
from tables.engine.money import parse_odds
from tables.engine.paytable_types import Paytable, PaytableForm
from tables.engine.progressive import MeterConfig
from tables.engine.rankings import poker_value
from tables.engine.settlement import DealerAction, DealerResult, Line, SeatResult, Settlement
from tables.engine.strategies import Strategy
from tables.engine.validation import check_count
from tables.games.base import engine_call
from tables.models import PaytableVersion, Pit, Round, SettlementLine, Table
from tables.services.paytables import paytable_approve, paytable_draft

pytestmark = pytest.mark.django_db

NAME = "swap_duel"
WAGER = "stake"

# Its decision forms on the tablet (a game may give a Template instead of a file's name).
DECIDE_FORMS = """<div class="decide-row">
<form method="post" action="{% url 'tablet:decide' table.pk %}" class="decide draw">
{% csrf_token %}<input type="hidden" name="round" value="{{ round.pk }}">
<input type="hidden" name="seat" value="{{ s.n }}"><input type="hidden" name="action" value="swap">
{% include "tablet/_cardfield.html" with f=s.swap %}
<button type="submit" class="primary xl">Seat {{ s.n }} swaps</button>
</form>
<form method="post" action="{% url 'tablet:decide' table.pk %}" class="decide stand">
{% csrf_token %}<input type="hidden" name="round" value="{{ round.pk }}">
<input type="hidden" name="seat" value="{{ s.n }}">
<button type="submit" name="action" value="hold" class="xl">Seat {{ s.n }} holds</button>
</form></div>"""


# --- the rules (the engine's side: what `house_edge` asks) ------------------------------------


def make_paytable(name: str, lines: Mapping[str, Any]) -> Paytable:
    stake = lines.get(WAGER)
    if set(lines) != {WAGER} or not isinstance(stake, Mapping) or set(stake) != {"win"}:
        raise EngineError(Refusal.BAD_PAYTABLE, "the paytable is one line: stake win")
    odds = parse_odds(stake["win"], where="stake line win")
    return Paytable(NAME, name, MappingProxyType({WAGER: MappingProxyType({"win": odds})}))


NAMED = {"standard": make_paytable("standard", {WAGER: {"win": "1"}})}


def final_hand(cards: list[Card], swap: list[Card]) -> list[Card]:
    """The seat's cards with its lowest replaced by the cards swapped in."""
    kept = sorted(cards, key=lambda c: c.rank, reverse=True)[: len(cards) - len(swap)]
    return kept + swap


def settle(entry: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None) -> Settlement:
    check_partial(entry)
    dealer = parse_cards(entry["dealer"]["cards"], where="the dealer's cards", count=3)
    house = poker_value(dealer)
    seats = []
    for seat in entry["seats"]:
        n = seat["seat"]
        cards = parse_cards(seat["cards"], where=f"seat {n}'s cards", count=3)
        final = final_hand(list(cards), list(parse_cards(seat.get("swap") or [], where="swap")))
        stake = int(Fraction(seat["wagers"][WAGER]) * 100)
        value = poker_value(final)
        if value.score > house.score:
            line = Line.won(WAGER, stake, paytable.odds(WAGER, "win") or Fraction(1))
        elif value.score < house.score:
            line = Line.lost(WAGER, stake)
        else:
            line = Line.pushed(WAGER, stake)
        seats.append(SeatResult(n, tuple(final), value.category.value, (line,)))
    result = DealerResult(dealer, DealerAction.STAND, (), dealer, house.category.value)
    return Settlement(NAME, paytable.name, result, tuple(seats))


def check_partial(entry: Mapping[str, Any]) -> None:
    ledger = CardLedger()
    hands = [("the dealer's cards", (entry.get("dealer") or {}).get("cards"), 3)]
    for s in entry["seats"]:
        hands.append((f"seat {s['seat']}'s cards", s.get("cards"), 3))
        hands.append((f"seat {s['seat']}'s swap", s.get("swap"), 0))
    for where, given, count in hands:
        if given:
            cards = parse_cards(given, where=where)
            if count:
                check_count(cards, where)
            elif len(cards) > 2:
                raise EngineError(Refusal.FOUL, f"{where} is one or two cards", field=where)
            ledger.place(cards, where)


class SwapDuelRules:
    """The engine's rules (`tables.engine.registry.BankedRules`)."""

    name = NAME
    paytable_form = PaytableForm(NAME, {WAGER: ("win",)})
    named_paytables: Mapping[str, Paytable] = NAMED
    default_paytable = "standard"
    paytables = ("standard",)
    default_samples = 2_000
    not_exact: Mapping[str, str] = {WAGER: "sampled: the test game has no exact analysis"}
    placed_wagers: Mapping[str, str] = {}

    def settle(
        self, data: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None
    ) -> Settlement:
        return settle(data, paytable, meter)

    def check_seat(
        self, n: int, seat: Mapping[str, Any], cards: tuple[Card, ...], ledger: CardLedger
    ) -> None:
        if seat.get("swap"):
            ledger.place(parse_cards(seat["swap"], where=f"seat {n}'s swap"), f"seat {n}'s swap")

    def dealer_advice(self, cards: tuple[Card, ...]) -> dict[str, Any]:
        return {"rule": "The dealer always stands.", "discard": [], "draw_count": 0}

    def deal(
        self, rng: random.Random, seat_numbers: list[int], shoe: Shoe, strategy: Strategy | None
    ) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self, strategy: Strategy) -> str:
        return "every player holds"

    def edges(
        self,
        paytable: Paytable,
        strategy: Strategy,
        *,
        exact: bool,
        samples: int | None,
        rng: random.Random,
        meter: MeterConfig | None,
        default_samples: int | None,
        settings: dict[str, Any],
    ) -> tuple[WagerEdge, ...]:
        """Every player holds: the stake sampled over random deals."""
        if exact:
            return ()
        odds = float(paytable.odds(WAGER, "win") or 1)
        sampler = Sampler()
        deck = [str(c) for c in parse_cards([r + s for r in RANKS for s in "shdc"], where="deck")]
        for _ in range(samples or default_samples or self.default_samples):
            dealt = rng.sample(deck, 6)
            mine = poker_value(parse_cards(dealt[:3], where="seat")).score
            house = poker_value(parse_cards(dealt[3:], where="dealer")).score
            sampler.add(odds if mine > house else -1.0 if mine < house else 0.0, 1.0)
        return (WagerEdge(WAGER, Method.MONTE_CARLO, sampler.figures()),)


# --- the game (the site's side) --------------------------------------------------------------


class SwapDuel(games.BankedGame):
    name = NAME
    label = "Swap Duel"
    seat_wagers = (WAGER,)
    typed_wagers = (WAGER,)
    limited_wagers = (WAGER,)
    report_wagers = (WAGER,)
    required_wagers = (WAGER,)
    wager_labels = {WAGER: "Duel stake"}
    decision_fields = (
        games.DecisionField("hold", "Holds", games.FLAG),
        games.DecisionField("swap", "Swapped in", games.CARDS),
    )
    dealer_fields = ()  # the dealer always stands
    decisions_help = "Each player holds, or swaps one or two new cards in for their lowest."
    decision_grid = True
    high_card_order = RANKS
    default_paytable = "standard"

    @property
    def decide_template(self) -> Any:  # type: ignore[override]
        return Template(DECIDE_FORMS)

    # --- engine ---------------------------------------------------------------------------
    def required_lines(self) -> Mapping[str, tuple[str, ...]]:
        return {WAGER: ("win",)}

    def paytable(self, name: str, lines: Mapping[str, Any]) -> Paytable:
        return make_paytable(name, lines)

    def named_paytables(self) -> Mapping[str, Paytable]:
        return NAMED

    def check_partial(self, entry: Mapping[str, Any]) -> None:
        check_partial(entry)

    def dealer_advice(self, cards: list[str]) -> dict[str, Any]:
        return {"rule": "The dealer always stands.", "discard": [], "draw_count": 0}

    def settle(
        self, entry: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None
    ) -> Settlement:
        return settle(entry, paytable, meter)

    # --- services and tablet -----------------------------------------------------------------
    def decision(
        self, n: int, seat: Mapping[str, Any], given: Mapping[str, Any], limits: Mapping[str, Any]
    ) -> games.Decision:
        where = f"seat {n}"
        if set(given) - set(self.decision_keys):
            raise ServiceError(f"{where}: a decision is hold or swap", field=where)
        if given.get("hold") is True and not given.get("swap"):
            return games.Decision({"hold": True})
        swap = engine_call(parse_cards, given.get("swap") or [], where=f"{where}'s swap")
        if not 1 <= len(swap) <= 2:
            raise ServiceError(f"{where} holds, or swaps one or two cards", field=f"{where} swap")
        return games.Decision({"swap": [str(c) for c in swap]})

    def decision_form(
        self, page: Any, block: dict[str, Any], seat: Mapping[str, Any], posted: Any
    ) -> None:
        n = seat["seat"]
        stored = seat.get("swap") or []
        value = str(posted.get(f"seat-{n}-swap", "")) if posted is not None else " ".join(stored)
        block["swap"] = page.field(
            f"seat {n} swap", name=f"seat-{n}-swap", label="New cards", value=value, max=2,
            stored=stored,
        )  # fmt: skip
        block["takes_cards"] = True

    def posted_decision(self, n: int, post: Mapping[str, Any]) -> dict[str, Any]:
        if post.get("action", "") == "hold":
            return {"hold": True}
        return {"swap": str(post.get(f"seat-{n}-swap", ""))}

    def decision_summary(self, seat: Mapping[str, Any]) -> str:
        return f"Swaps in {card_text(seat['swap'])}" if seat.get("swap") else "Holds"

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
    games.install(SwapDuel(), SwapDuelRules())
    try:
        with database_accepts(NAME):
            draft = paytable_draft(
                author=floor["admin"],
                game=NAME,
                name="standard",
                lines={WAGER: {"win": "1"}},
                limits={WAGER: {"min_cents": 500, "max_cents": 50000}},
            )
            version = paytable_approve(version=draft, approver=floor["admin2"])
            yield Table.objects.create(
                name="SD-1", pit=Pit.objects.first(), game=NAME, paytable_version=version
            )
    finally:
        games.uninstall(NAME)


def test_an_unknown_game_is_refused_not_played_as_another() -> None:
    with pytest.raises(games.UnknownGame):
        games.get(NAME)
    with pytest.raises(games.UnknownGame):
        games.banked("")


def test_the_game_declares_its_own_entry() -> None:
    game = SwapDuel()
    assert game.decision_keys == ("hold", "swap")
    assert game.seat_keys == {"seat", "wagers", "cards", "hold", "swap"}
    assert game.hand_wager == WAGER
    entry = {
        "dealer": {"cards": ["Qc", "Jd", "3h"]},
        "seats": [{"seat": 1, "cards": ["Ah", "Kd", "2c"], "swap": ["Ad"]}],
    }
    assert game.used_cards(entry) == {"Qc", "Jd", "3h", "Ah", "Kd", "2c", "Ad"}


def _text(response: Any) -> str:
    return html.unescape(response.content.decode())


def _step(response: Any) -> str:
    found = re.search(r'<li class="now" aria-current="step">([^<]+)</li>', _text(response))
    assert found, "the page shows no current step"
    return found.group(1)


def _hidden(response: Any, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]+)"', _text(response))
    assert found, f"no hidden {name} on the page"
    return found.group(1)


def _client(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


def play_on_the_tablet(table: Table) -> Round:
    """Seat 1 swaps the ace of diamonds in for its deuce; seat 2 holds."""
    client = _client("dealer")
    assert "Swap Duel" in _text(client.get("/tablet/"))
    assert client.post("/tablet/", {"table": table.pk}).status_code == 303
    url = f"/tablet/table/{table.pk}/"
    page = client.get(url)
    assert _step(page) == "Wagers" and "Swap Duel" in _text(page)
    assert "Duel stake" in _text(page) and "ante" not in _text(page).lower()
    refused = client.get(client.post(url + "open/", {"seat-1-stake": "1"})["Location"])
    assert "seat 1 stake must be from 5.00" in _text(refused)  # under the $5 minimum
    assert (
        client.post(url + "open/", {"seat-1-stake": "10", "seat-2-stake": "5"}).status_code == 303
    )
    page = client.get(url)
    assert _step(page) == "Cards"
    round_id = _hidden(page, "round")
    cards = {"seat-1-cards": "Ah Kd 2c", "seat-2-cards": "9c 7d 2s", "dealer-cards": "Qc Jd 3h"}
    assert client.post(url + "deal/", {"round": round_id, **cards}).status_code == 303
    page = client.get(url)
    assert _step(page) == "Players" and "Seat 1 swaps" in _text(page)
    taken = client.get(
        client.post(url + "decide/", {"round": round_id, "seat": "1", "seat-1-swap": "Kd"})[
            "Location"
        ]
    )
    assert "Kd in seat 1's swap is already in the round (seat 1's cards)" in _text(taken)
    assert 'id="err-seat-1-swap"' in _text(taken)
    swapped = {"round": round_id, "seat": "1", "action": "swap", "seat-1-swap": "Ad"}
    assert client.post(url + "decide/", swapped).status_code == 303
    page = client.get(url)
    assert "Swaps in A♦" in _text(page)
    # the grid greys out the round's cards (the game's `used_cards`), but for those a card box
    # on the page may still change (seat 1's swap)
    assert re.search(r'data-card="Kd"[^>]*disabled data-used="1"', _text(page))
    assert not re.search(r'data-card="Ad"[^>]*disabled', _text(page))
    held = {"round": round_id, "seat": "2", "action": "hold"}
    assert client.post(url + "decide/", held).status_code == 303
    page = client.get(url)
    assert _step(page) == "House way" and "Dealer stands" in _text(page)
    assert client.post(url + "dealer/", {"round": round_id}).status_code == 303
    page = client.get(url)
    assert _step(page) == "Pay and close"
    assert "Pair of aces" in _text(page) and "Queen high" in _text(page)
    assert "Duel stake" in _text(page)
    key = _hidden(page, "idempotency_key")
    settled = client.post(url + "settle/", {"round": round_id, "idempotency_key": key})
    assert settled.status_code == 303
    shown = _text(client.get(settled["Location"]))
    assert "Swaps in A♦" in shown and "Holds" in shown
    return Round.objects.get(pk=round_id)


def test_a_registered_game_plays_through_the_tablet(duel_table: Table) -> None:
    r = play_on_the_tablet(duel_table)
    assert (r.status, r.game, r.handle_cents, r.players_net_cents) == ("settled", NAME, 1500, 500)
    assert r.entry["seats"][0]["swap"] == ["Ad"] and r.entry["seats"][1]["hold"] is True
    lines = SettlementLine.objects.filter(round=r).order_by("seat")
    assert [(ln.seat, ln.wager, ln.result, ln.net_cents) for ln in lines] == [
        (1, WAGER, "win", 1000),
        (2, WAGER, "lose", -500),
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
    refused = client.post(
        "/api/rounds/", {"table": duel_table.pk, "wagers": {"1": {"ante": "25"}}}, format="json"
    )
    assert (
        refused.status_code == 400 and "may not wager 'ante'" in refused.json()["error"]["message"]
    )
    wagers = {"1": {WAGER: "25"}, "3": {WAGER: "5"}}
    r = ok(
        client.post("/api/rounds/", {"table": duel_table.pk, "wagers": wagers}, format="json"), 201
    )
    url = f"/api/rounds/{r['id']}/"
    deal = {"cards": {"1": "Kh Ks 4c", "3": "Qd Jc 3s"}, "dealer": "Qc Jd 3h"}
    r = ok(client.post(url + "deal/", deal, format="json"))
    assert r["state"]["step"] == "decisions"
    three = {"seat": 1, "decision": {"swap": ["2h", "3h", "4h"]}}
    too_many = client.post(url + "decide/", three, format="json")
    assert too_many.status_code == 400
    r = ok(client.post(url + "decide/", {"seat": 1, "decision": {"hold": True}}, format="json"))
    r = ok(client.post(url + "decide/", {"seat": 3, "decision": {"swap": ["Qh"]}}, format="json"))
    assert r["state"]["step"] == "dealer"
    r = ok(client.post(url + "dealer/", {}, format="json"))
    assert r["state"]["step"] == "confirm"
    preview = ok(client.get(url + "preview/"))
    # seat 3 swaps its trey for the queen of hearts: a pair of queens beats the dealer's queen high
    assert [s["lines"][0]["result"] for s in preview["seats"]] == ["win", "win"]
    settled = ok(client.post(url + "settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY="duel-1"))
    assert settled["status"] == "settled"
    assert (settled["handle_cents"], settled["players_net_cents"]) == (3000, 3000)


def test_a_void_and_its_correction_from_the_games_decision_fields(duel_table: Table) -> None:
    voided = play_on_the_tablet(duel_table)
    boss = _client("pitboss")
    page = boss.post(f"/audit/rounds/{voided.pk}/void/", {"reason": "wrong card entered"})
    assert page.status_code in (302, 303)
    voided.refresh_from_db()
    assert voided.status == Round.Status.VOIDED
    url = f"/audit/rounds/{voided.pk}/correct/"
    form = _text(boss.get(url))
    # the form is the game's: its wager, its decision fields, and no dealer's draw
    assert 'name="seat-1-stake" value="10.00"' in form and "Duel stake" in form
    assert 'name="seat-1-swap" value="Ad"' in form and "Swapped in" in form
    assert 'name="seat-2-hold" value="1" checked' in form and "Holds" in form
    assert 'name="dealer-draw"' not in form and "ante" not in form.lower()
    post = {
        "seat-1-stake": "10.00",
        "seat-1-cards": "Ah Kd 2c",
        "seat-1-swap": "Zz",  # not a card: refused at its field, nothing settled
        "seat-2-stake": "5.00",
        "seat-2-cards": "9c 7d 2s",
        "seat-2-swap": "9h",
        "dealer-cards": "Qc Jd 3h",
    }
    refused = _text(boss.get(boss.post(url, post)["Location"]))
    assert 'id="err-seat-1-swap"' in refused
    assert not Round.objects.filter(corrects=voided).exists()
    post["seat-1-hold"], post["seat-1-swap"] = "1", ""
    done = boss.post(url, post)
    assert done["Location"] != url, re.findall(r"alert\">(.*?)</", _text(boss.get(url)), re.S)
    corrected = Round.objects.get(corrects=voided)
    seats = corrected.entry["seats"]
    assert seats[0] == {
        "seat": 1,
        "wagers": {WAGER: "10.00"},
        "cards": ["Ah", "Kd", "2c"],
        "hold": True,
    }
    assert seats[1]["swap"] == ["9h"] and "hold" not in seats[1]
    lines = SettlementLine.objects.filter(round=corrected).order_by("seat")
    # seat 1 holds ace high, seat 2 a pair of nines: both beat the dealer's queen high
    assert [(ln.seat, ln.result, ln.net_cents) for ln in lines] == [
        (1, "win", 1000),
        (2, "win", 500),
    ]

    # the trail's round pages, in the game's words: the round played step by step, and its
    # correction
    played = _text(_client("auditor").get(f"/audit/rounds/{voided.pk}/"))
    assert "Swap Duel" in played and "Swaps in A♦" in played and "Holds" in played
    assert "Duel stake" in played and "Pair of aces" in played and "Queen high" in played
    record = _text(_client("auditor").get(f"/audit/rounds/{corrected.pk}/"))
    assert "Swap Duel" in record and "Entered as the correction of #1" in record
    assert "Duel stake" in record and "Pair of 9s" in record and "Ace high" in record

    # the hold report counts the game's hands by its own wager
    out = StringIO()
    day = corrected.gaming_day
    assert isinstance(day, date)
    call_command("hold_report", "--day", day.isoformat(), "--table", "SD-1", "--json", stdout=out)
    (row,) = json.loads(out.getvalue())["tables"]
    assert (row["game"], row["rounds"], row["hands"], row["voids"]) == (NAME, 1, 2, 1)
    assert (row["handle_cents"], row["win_cents"]) == (1500, -1500)
    assert row["handle_by_wager_cents"] == {WAGER: 1500}


def test_the_house_edge_command_asks_the_game(duel_table: Table) -> None:
    out = StringIO()
    call_command(
        "house_edge", "--game", NAME, "--samples", "3000", "--seed", "7", "--json", stdout=out
    )
    report = json.loads(out.getvalue())
    assert report["game"] == NAME and report["paytable"] == "standard"
    (wager,) = report["wagers"]
    assert (wager["wager"], wager["method"], wager["samples"]) == (WAGER, "monte_carlo", 3000)
    low, high = wager["confidence_95"]["per_initial_wager"]
    # a hold against a standing dealer at even money: no edge either way
    assert float(low) < 0 < float(high)
    text = StringIO()
    call_command("house_edge", "--game", NAME, "--samples", "500", "--seed", "7", stdout=text)
    assert "every player holds" in text.getvalue()
