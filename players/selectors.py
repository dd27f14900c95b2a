"""Rated play's reads: players by card or name, who is rated on the floor now, a player's
ratings by day and game with totals and comps, a gaming day's ratings per player (the report,
its CSV and `manage.py ratings`), and the refused-card alerts."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from tables import games

from .figures import cents
from .models import Player, Rating, RefusedCardAlert
from .services import balance, points_earned, points_redeemed, seconds_played

NO_DECISION_COST = "no decision cost in a game between players"


def search(query: str) -> QuerySet[Player]:
    text = " ".join(query.split())
    players = Player.objects.all()
    if text:
        players = players.filter(Q(card__iexact=text) | Q(name__icontains=text))
    return players.order_by("name", "card")


def average(wagered: int, hands: int) -> int:
    """Wagered over hands, to the cent (half to even); 0 without hands."""
    if not hands:
        return 0
    return int((Decimal(wagered) / hands).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


def totals(ratings: Iterable[Rating], now: Any = None) -> dict[str, Any]:
    """The figures of some ratings added up (each figure defined in docs/ratings.md)."""
    now = now or timezone.now()
    out: dict[str, Any] = {
        "ratings": 0,
        "seconds_played": 0,
        "hands": 0,
        "wagered_cents": 0,
        "actual_win_cents": 0,
        "theoretical": Decimal(0),
        "cost": Decimal(0),
        "points": 0,
        "no_decision_cost": False,
        "theory_pending": False,
    }
    for r in ratings:
        out["ratings"] += 1
        out["seconds_played"] += seconds_played(r, now)
        out["hands"] += r.hands
        out["wagered_cents"] += r.wagered_cents
        out["actual_win_cents"] += r.actual_win_cents
        out["theoretical"] += r.theoretical_win
        out["cost"] += r.decision_cost
        out["points"] += r.points
        out["no_decision_cost"] |= r.no_decision_cost
        out["theory_pending"] |= r.theory_pending
    out["average_bet_cents"] = average(out["wagered_cents"], out["hands"])
    out["theoretical_win_cents"] = cents(out.pop("theoretical"))
    out["decision_cost_cents"] = cents(out.pop("cost"))
    return out


def _ratings() -> QuerySet[Rating]:
    return Rating.objects.select_related("player", "table", "comp_rates")


def on_floor() -> list[dict[str, Any]]:
    """Every rated player seated now: table, seat, time, average bet and theoretical so far."""
    now = timezone.now()
    rows = []
    for r in _ratings().filter(ended_at__isnull=True).order_by("table__name", "seat"):
        rows.append({"rating": r, **totals([r], now)})
    return rows


def seated_at(table_id: int) -> dict[int, Rating]:
    """seat -> the rating open there."""
    return {
        r.seat: r
        for r in Rating.objects.filter(table_id=table_id, ended_at__isnull=True).select_related(
            "player"
        )
    }


def player_summary(player: Player) -> dict[str, Any]:
    """A player's ratings by gaming day and game, their totals and their comp points."""
    ratings = list(_ratings().filter(player=player).order_by("-gaming_day", "started_at"))
    groups: dict[tuple[date, str], list[Rating]] = {}
    for r in ratings:
        groups.setdefault((r.gaming_day, r.table.game), []).append(r)
    by_day = [
        {
            "gaming_day": day,
            "game": game,
            "game_label": games.get(game).label,
            **totals(rows),
        }
        for (day, game), rows in groups.items()
    ]
    return {
        "ratings": ratings,
        "by_day_and_game": by_day,
        "totals": totals(ratings),
        "points": {
            "earned": points_earned(player),
            "redeemed": points_redeemed(player),
            "balance": balance(player),
        },
    }


def day_rows(day: date, card: str | None = None) -> list[dict[str, Any]]:
    """One row per player rated on the gaming day (by card), their ratings added up."""
    ratings = _ratings().filter(gaming_day=day)
    if card:
        ratings = ratings.filter(player__card__iexact=card)
    by_player: dict[int, list[Rating]] = {}
    for r in ratings.order_by("player__card", "started_at"):
        by_player.setdefault(r.player_id, []).append(r)
    rows = []
    for rows_of in by_player.values():
        player = rows_of[0].player
        rows.append({"player": player, "card": player.card, "name": player.name, **totals(rows_of)})
    return rows


def command_row(row: dict[str, Any]) -> dict[str, Any]:
    """`manage.py ratings --json`'s object for one player."""
    return {
        "card": row["card"],
        "hands": row["hands"],
        "seconds_played": row["seconds_played"],
        "wagered_cents": row["wagered_cents"],
        "average_bet_cents": row["average_bet_cents"],
        "actual_win_cents": row["actual_win_cents"],
        "theoretical_win_cents": row["theoretical_win_cents"],
        "decision_cost_cents": row["decision_cost_cents"],
        "points": row["points"],
    }


def open_alerts() -> QuerySet[RefusedCardAlert]:
    return RefusedCardAlert.objects.filter(acknowledged_at__isnull=True).select_related(
        "player", "table", "by"
    )
