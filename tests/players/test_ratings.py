"""A rated stretch's figures from the rounds played through the API, each worked out here from
the settlement lines and the paytable's figures: time, hands, wagered, average bet, the house's
actual and theoretical win, the decision cost (the game's hook, patched to known values) and the
points; voids and corrections; a rebuild of the day gives the same figures; `manage.py ratings`."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from audit.kinds import EventKind
from audit.models import AuditEvent
from players import figures as fig
from players.models import Rating
from players.services import figure_problems, rebuild_day
from tables import games
from tables.models import Round
from tables.services.corrections import round_correct, round_void
from tests.players.conftest import edges, play, player, seat, unseat

pytestmark = pytest.mark.django_db

HOUSE_WAY = {"house_way": True}


def to_cents(value: Decimal) -> int:
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


@pytest.fixture
def known_costs(monkeypatch: pytest.MonkeyPatch) -> dict[int, Decimal]:
    """The demo tables' games' decision cost patched to known values: seat 1 gives up 12.5
    cents a round, seat 2 17.25, seat 3 none (no decision cost)."""
    costs = {1: Decimal("12.5"), 2: Decimal("17.25")}
    for name in ("pyramid", "second_chance"):
        monkeypatch.setattr(
            type(games.banked(name)),
            "decision_cost",
            lambda self, entry, seat, paytable: costs.get(seat),
        )
    return costs


def two_rounds(client: Any, table: Any) -> list[dict[str, Any]]:
    """Seat 1 (rated) and seat 2 (rated too, or not) over two rounds, and seat 3 unrated."""
    return [
        play(
            client,
            table,
            {
                1: ({"ante": "100.00"}, "Ah Kd 2c", HOUSE_WAY),
                2: ({"ante": "30.00"}, "5s 5d 9h", HOUSE_WAY),
                3: ({"ante": "10.00"}, "Jc Th 4d", HOUSE_WAY),
            },
            "Qs Jd 3h",
            "k1",
        ),
        play(
            client,
            table,
            {
                1: ({"ante": "200.00"}, "7h 7c Ks", HOUSE_WAY),
                3: ({"ante": "10.00"}, "2h 3d 5c", HOUSE_WAY),
            },
            "As Ad 4c",
            "k2",
        ),
    ]


def seat_lines(rounds: list[dict[str, Any]], number: int) -> list[dict[str, Any]]:
    return [ln for r in rounds for ln in r["lines"] if ln["seat"] == number]


def test_every_figure_of_a_rating_is_the_sum_of_its_rounds(
    figures: dict[str, Any], dealer_at: Any, known_costs: dict[int, Decimal]
) -> None:
    table = figures["PY-1"]
    client = dealer_at("PY-1")
    seated = seat(client, table, 1, "100001")  # Alice Martin, gold
    assert seated["card"] == "100001" and seated["first_name"] == "Alice"
    assert "name" not in seated  # a dealer sees the card number and first name only
    seat(client, table, 2, "100002")  # Bruno Keller, silver
    rounds = two_rounds(client, table)
    ended = unseat(client, table, 1)
    assert ended["ended_at"] is not None

    edge = edges(table)["ante"]
    alice = Rating.objects.get(player=player("100001"))
    lines = seat_lines(rounds, 1)
    wagered = sum(ln["stake_cents"] for ln in lines)
    assert wagered == 30000
    assert alice.hands == 2
    assert alice.wagered_cents == wagered
    assert alice.actual_win_cents == -sum(ln["net_cents"] for ln in lines)
    assert alice.theoretical_win == edge * 30000  # exact: the edge's places times the stakes
    assert alice.decision_cost == Decimal("25.0")  # 12.5 cents in each of two rounds
    assert not alice.no_decision_cost and not alice.theory_pending
    # gold earns 0.20 points per dollar of theoretical win, rounded down
    assert alice.points == int((edge * 30000 / 100 * Decimal("0.20")).to_integral(ROUND_FLOOR))
    assert alice.points > 0

    bruno = Rating.objects.get(player=player("100002"))  # still seated: one round
    b_lines = seat_lines(rounds, 2)
    assert (bruno.hands, bruno.wagered_cents) == (1, 3000)
    assert bruno.actual_win_cents == -sum(ln["net_cents"] for ln in b_lines)
    assert bruno.theoretical_win == edge * 3000
    assert bruno.decision_cost == Decimal("17.25")
    assert Rating.objects.count() == 2  # seat 3 played unrated

    # The command: one JSON object per player, the same figures to the cent.
    out = StringIO()
    call_command("ratings", day=alice.gaming_day.isoformat(), json=True, stdout=out)
    rows = {row["card"]: row for row in map(json.loads, out.getvalue().splitlines())}
    assert set(rows) == {"100001", "100002"}
    a = rows["100001"]
    assert a == {
        "card": "100001",
        "hands": 2,
        "seconds_played": int((alice.ended_at - alice.started_at).total_seconds()),
        "wagered_cents": 30000,
        "average_bet_cents": 15000,
        "actual_win_cents": alice.actual_win_cents,
        "theoretical_win_cents": to_cents(edge * 30000),
        "decision_cost_cents": 25,  # 25.0 cents
        "points": alice.points,
    }
    one = StringIO()
    call_command(
        "ratings", day=alice.gaming_day.isoformat(), player="100002", json=True, stdout=one
    )
    (b,) = map(json.loads, one.getvalue().splitlines())
    assert b["decision_cost_cents"] == 17  # 17.25 to the cent
    assert b["theoretical_win_cents"] == to_cents(edge * 3000)
    assert b["average_bet_cents"] == 3000
    # Every seating and ending is on the record.
    kinds = list(
        AuditEvent.objects.filter(kind__startswith="player.").values_list("kind", flat=True)
    )
    assert kinds.count(EventKind.PLAYER_SEATED) == 2 and EventKind.PLAYER_UNSEATED in kinds


def test_a_game_that_measures_no_decision_cost_marks_the_rating(
    figures: dict[str, Any], dealer_at: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        type(games.banked("pyramid")), "decision_cost", lambda self, entry, seat, paytable: None
    )
    table = figures["PY-1"]
    client = dealer_at("PY-1")
    seat(client, table, 1, "100001")
    two_rounds(client, table)
    alice = Rating.objects.get(player=player("100001"))
    assert alice.no_decision_cost and alice.decision_cost == 0


def test_a_version_without_figures_leaves_the_theory_pending(
    floor: dict[str, Any], dealer_at: Any
) -> None:
    table = floor["PY-1"]
    client = dealer_at("PY-1")
    seat(client, table, 1, "100001")
    two_rounds(client, table)
    alice = Rating.objects.get(player=player("100001"))
    assert alice.theory_pending and alice.theoretical_win == 0 and alice.hands == 2


def test_voids_and_corrections_update_the_rating_and_a_rebuild_agrees(
    figures: dict[str, Any], dealer_at: Any, known_costs: dict[int, Decimal]
) -> None:
    table = figures["PY-1"]
    client = dealer_at("PY-1")
    seat(client, table, 1, "100001")
    first, second = two_rounds(client, table)
    edge = edges(table)["ante"]
    alice = Rating.objects.get(player=player("100001"))
    assert alice.wagered_cents == 30000

    round_void(round=Round.objects.get(pk=second["id"]), by=figures["pitboss"], reason="misread")
    alice.refresh_from_db()
    assert (alice.hands, alice.wagered_cents) == (1, 10000)
    assert alice.theoretical_win == edge * 10000
    assert alice.decision_cost == Decimal("12.5")
    assert alice.actual_win_cents == -sum(ln["net_cents"] for ln in seat_lines([first], 1))

    # The first round corrected: seat 1 had $50 on it, not $100, and the seat lost.
    voided = round_void(round=Round.objects.get(pk=first["id"]), by=figures["pitboss"], reason="x")
    assert Rating.objects.get(pk=alice.pk).hands == 0
    entry = {
        "game": "pyramid",
        "dealer": {"cards": ["Qs", "Jd", "3h"]},
        "seats": [
            {"seat": 1, "wagers": {"ante": "50.00"}, "cards": ["2h", "3d", "5c"], "house_way": True}
        ],
    }
    corrected = round_correct(voided=voided, by=figures["pitboss"], entry=entry)
    alice.refresh_from_db()
    assert (alice.hands, alice.wagered_cents, alice.actual_win_cents) == (1, 5000, 5000)
    assert corrected.opened_at > alice.started_at
    assert alice.theoretical_win == edge * 5000

    before = fig.stored(alice)
    Rating.objects.filter(pk=alice.pk).update(hands=99, wagered_cents=1)  # spoil it
    assert figure_problems()  # verify_audit's derived check sees it
    assert rebuild_day(day=alice.gaming_day) == 1
    alice.refresh_from_db()
    assert fig.stored(alice) == before
    assert figure_problems() == []


def test_a_rebuild_of_the_day_gives_the_figures_kept_as_rounds_settled(
    figures: dict[str, Any], dealer_at: Any, known_costs: dict[int, Decimal]
) -> None:
    """Many rounds at three tables, seatings coming and going: the figures kept round by round
    are those a rebuild sums."""
    import random

    from tables.simulation import play_round

    rng = random.Random(11)
    cards = ["100001", "100002", "100003"]
    clients = {
        name: dealer_at(name, who) for name, who in (("PY-1", "dealer"), ("SC-1", "dealer2"))
    }
    for step in range(24):
        name = rng.choice(sorted(clients))
        table = figures[name]
        open_here = Rating.objects.filter(table=table, ended_at__isnull=True)
        if step % 5 == 0:
            for rating in open_here:
                unseat(clients[name], table, rating.seat)
            free = [
                c
                for c in cards
                if not Rating.objects.filter(player__card=c, ended_at__isnull=True).exists()
            ]
            for number, card in zip((1, 2, 3), free, strict=False):
                seat(clients[name], table, number, card)
        play_round(table, figures["dealer" if name == "PY-1" else "dealer2"], rng)
    kept = {r.pk: fig.stored(r) for r in Rating.objects.all()}
    assert kept and any(v["hands"] for v in kept.values())
    day = Rating.objects.first().gaming_day  # type: ignore[union-attr]
    rebuild_day(day=day)
    assert {r.pk: fig.stored(r) for r in Rating.objects.all()} == kept
    assert figure_problems() == []


def test_a_pit_boss_adjusts_a_ratings_time_with_a_reason_on_the_record(
    figures: dict[str, Any], dealer_at: Any
) -> None:
    from core.errors import ServiceError
    from players.services import rating_adjust, rating_note, seconds_played

    client = dealer_at("PY-1")
    seat(client, figures["PY-1"], 1, "100001")
    rating = Rating.objects.get()
    with pytest.raises(ServiceError, match="reason"):
        rating_adjust(rating=rating, seconds=600, reason=" ", by=figures["pitboss"])
    rating_adjust(rating=rating, seconds="1800", reason="left for dinner", by=figures["pitboss"])
    rating.refresh_from_db()
    assert seconds_played(rating, rating.started_at + timedelta(hours=5)) == 1800
    rating_note(rating=rating, note="asked for a dinner comp", by=figures["pitboss"])
    assert [n.note for n in rating.notes.all()] == ["left for dinner", "asked for a dinner comp"]
    event = AuditEvent.objects.get(kind=EventKind.RATING_ADJUSTED)
    assert event.data["reason"] == "left for dinner" and event.data["after"] == 1800
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        rating_adjust(rating=rating, seconds=60, reason="x", by=figures["dealer"])
