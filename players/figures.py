"""A rating's figures, summed from the rounds and hands it covers (docs/ratings.md).

A rated stretch covers, at its table and seat, every settled round opened from its start until
its end (a correction stands where the round it corrects was opened) and every finished hand
opened in that time. Per house-game round, from the seat's settlement lines:

- hands: 1; wagered: the seat's stakes; actual win: minus the seat's nets (the house's);
- theoretical win: each line's stake times its wager's house edge (per initial wager) under the
  round's paytable version, as `reports.theory` takes it: the game's `edge_wagers` name each
  analysed wager's unit line (an Ante+Raise's edge applies to the Ante's stake); a version
  without figures leaves the rating's theory pending;
- decision cost: the game's `decision_cost(entry, seat, paytable)`; None counts as 0 and marks
  the rating "no decision cost in a game between players".

Per poker hand, from the hand's result: hands: 1; wagered: what the player put in the pot
(`in_pot`, players in the record's order; a game that does not say splits the pot evenly); the
actual and the theoretical win alike: the hand's rake times the player's share of the pot (what
they put in over the pot). Poker has no decision cost.

Points: the theoretical win in dollars times the rate of the player's tier in the comp rates,
both as they were when the player sat down, rounded down, never below zero.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
from typing import Any

from django.db.models import Q
from django.utils import timezone

from tables import games
from tables.models import Hand, HandPlayer, PaytableEdge, PaytableVersion, Round, SettlementLine

from .models import Rating

STRATEGY = "optimal"  # the floor's strategy, as the theoretical win of the hold reports
ZERO = Decimal(0)
PLACES = Decimal("0.0000000001")  # the stored figures' places


@dataclass
class Figures:
    hands: int = 0
    wagered_cents: int = 0
    actual_win: Decimal = ZERO
    theoretical_win: Decimal = ZERO
    decision_cost: Decimal = ZERO
    no_decision_cost: bool = False
    theory_pending: bool = False

    def add(self, other: Figures) -> None:
        self.hands += other.hands
        self.wagered_cents += other.wagered_cents
        self.actual_win += other.actual_win
        self.theoretical_win += other.theoretical_win
        self.decision_cost += other.decision_cost
        self.no_decision_cost |= other.no_decision_cost
        self.theory_pending |= other.theory_pending


def cents(value: Decimal) -> int:
    """A figure to the cent, half to even."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


class Context:
    """What several rounds' figures read once: the versions' edges and paytables."""

    def __init__(self) -> None:
        self.edges: dict[int, dict[str, Decimal] | None] = {}
        self.paytables: dict[int, Any] = {}

    def edge(self, version_id: int) -> dict[str, Decimal] | None:
        if version_id not in self.edges:
            row = PaytableEdge.objects.filter(version_id=version_id, strategy=STRATEGY).first()
            self.edges[version_id] = (
                None
                if row is None
                else {
                    w["wager"]: Decimal(w["house_edge"]["per_initial_wager"])
                    for w in row.figures["wagers"]
                }
            )
        return self.edges[version_id]

    def paytable(self, game: Any, version_id: int) -> Any:
        if version_id not in self.paytables:
            version = PaytableVersion.objects.get(pk=version_id)
            self.paytables[version_id] = game.paytable(version.name, version.lines)
        return self.paytables[version_id]


def round_figures(
    round_: Round, seat: int, lines: Iterable[tuple[str, int, int]], context: Context
) -> Figures:
    """One seat's figures of one settled round, from its lines (wager, stake, net)."""
    lines = list(lines)
    out = Figures()
    if not lines:
        return out
    game = games.banked(round_.game)
    out.hands = 1
    out.wagered_cents = sum(stake for _w, stake, _n in lines)
    out.actual_win = Decimal(-sum(net for _w, _s, net in lines))
    units = {parts[0]: wager for wager, parts in game.edge_wagers.items()}
    edges = context.edge(round_.paytable_version_id) if units else None
    if not units or edges is None:
        out.theory_pending = True
    else:
        for line_wager, stake, _net in lines:
            wager = units.get(line_wager)
            if wager is None:  # e.g. the Raise: part of the Ante+Raise's outcome
                continue
            if wager not in edges:
                out.theory_pending = True
                continue
            out.theoretical_win += edges[wager] * stake
    paytable = context.paytable(game, round_.paytable_version_id)
    cost = game.decision_cost(round_.entry, seat, paytable)
    if cost is None:
        out.no_decision_cost = True
    else:
        out.decision_cost = Decimal(cost).quantize(PLACES)
    return out


def hand_figures(hand: Hand, player: HandPlayer) -> Figures:
    """One player's figures of one finished hand between players."""
    result = hand.result or {}
    count = hand.players.count() if "in_pot" not in result else len(result["in_pot"])
    pot = hand.pot_cents
    if "in_pot" in result:
        put_in = int(result["in_pot"][player.position])
        share = Decimal(put_in) / Decimal(pot) if pot else ZERO
    else:
        put_in = pot // count if count else 0
        share = Decimal(1) / Decimal(count) if count else ZERO
    rake = Decimal(hand.rake_cents) * share
    return Figures(
        hands=1,
        wagered_cents=put_in,
        actual_win=rake,
        theoretical_win=rake,
        no_decision_cost=True,
    )


def root_opened_at(round_: Round) -> Any:
    """When the round a correction stands for was opened (a round's own time otherwise)."""
    current = round_
    while current.corrects_id is not None:
        current = Round.objects.only("opened_at", "corrects_id").get(pk=current.corrects_id)
    return current.opened_at


def _in_window(rating: Rating, moment: Any) -> bool:
    return moment >= rating.started_at and (rating.ended_at is None or moment < rating.ended_at)


def rounds_of(rating: Rating) -> list[Round]:
    """The settled rounds the rating covers, with a line at its seat."""
    base = Round.objects.filter(
        table_id=rating.table_id, status=Round.Status.SETTLED, lines__seat=rating.seat
    ).distinct()
    plain = base.filter(corrects__isnull=True, opened_at__gte=rating.started_at)
    if rating.ended_at is not None:
        plain = plain.filter(opened_at__lt=rating.ended_at)
    out = list(plain.order_by("id"))
    for correction in base.filter(corrects__isnull=False, settled_at__gte=rating.started_at):
        if _in_window(rating, root_opened_at(correction)):
            out.append(correction)
    return out


def hands_of(rating: Rating) -> list[tuple[Hand, HandPlayer]]:
    hands = Hand.objects.filter(
        table_id=rating.table_id, status=Hand.Status.FINISHED, opened_at__gte=rating.started_at
    )
    if rating.ended_at is not None:
        hands = hands.filter(opened_at__lt=rating.ended_at)
    players = HandPlayer.objects.filter(hand__in=hands, seat=rating.seat).select_related("hand")
    return [(p.hand, p) for p in players.order_by("hand_id")]


def figures_of(rating: Rating, context: Context | None = None) -> Figures:
    """The rating's figures summed again from everything it covers."""
    context = context or Context()
    out = Figures()
    rounds = rounds_of(rating)
    lines: dict[int, list[tuple[str, int, int]]] = {}
    for round_id, wager, stake, net in SettlementLine.objects.filter(
        round__in=[r.pk for r in rounds], seat=rating.seat
    ).values_list("round_id", "wager", "stake_cents", "net_cents"):
        lines.setdefault(round_id, []).append((wager, stake, net))
    for r in rounds:
        out.add(round_figures(r, rating.seat, lines.get(r.pk, []), context))
    for hand, player in hands_of(rating):
        out.add(hand_figures(hand, player))
    return out


def points_for(rating: Rating, theoretical_win: Decimal) -> int:
    if rating.comp_rates is None:
        return 0
    rate = Decimal(str(rating.comp_rates.rates.get(rating.tier, "0")))
    points = (theoretical_win / 100 * rate).to_integral_value(rounding=ROUND_FLOOR)
    return max(0, int(points))


def derived(rating: Rating, figures: Figures) -> dict[str, Any]:
    """The rating's derived columns for these figures."""
    theoretical = figures.theoretical_win.quantize(PLACES)
    return {
        "hands": figures.hands,
        "wagered_cents": figures.wagered_cents,
        "actual_win_cents": cents(figures.actual_win),
        "theoretical_win": theoretical,
        "decision_cost": figures.decision_cost.quantize(PLACES),
        "no_decision_cost": figures.no_decision_cost,
        "theory_pending": figures.theory_pending,
        "points": points_for(rating, theoretical),
    }


def store(rating: Rating, figures: Figures) -> None:
    """Write the figures onto the rating (its derived columns only)."""
    for name, value in derived(rating, figures).items():
        setattr(rating, name, value)
    rating.save(update_fields=DERIVED)


DERIVED = [
    "hands",
    "wagered_cents",
    "actual_win_cents",
    "theoretical_win",
    "decision_cost",
    "no_decision_cost",
    "theory_pending",
    "points",
]


def stored(rating: Rating) -> dict[str, Any]:
    return {name: getattr(rating, name) for name in DERIVED}


def ratings_around(table_id: int, moment: Any) -> Any:
    """The ratings at a table whose time covers `moment`."""
    return Rating.objects.filter(table_id=table_id, started_at__lte=moment).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=moment)
    )


def now() -> Any:
    return timezone.now()
