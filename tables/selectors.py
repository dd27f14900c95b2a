"""Reads of the floor (HackSoft's selectors): what a round needs next, its settlement as the
engine computes it, the rebet, and what the tablet's pages list. Nothing here writes, except
that the dealer step's settlement is kept in the cache for the confirm page (`keep_preview`).

Each step computes a round's settlement once: the dealer's step (which checks the whole
round), and the settle step (under the meter's row lock). The confirm page shows the dealer
step's settlement, kept under the hash of everything it was computed from (the round's entry,
its paytable version, the meter's state), and computes it only when one of those changed.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from contextlib import suppress
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.core.cache import cache

from core.cache import CacheUnavailable
from core.errors import ServiceError
from core.params import DB_INT_MAX
from core.prepared import PreparedQuery
from tables import games
from tables.engine import contract, registry
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import JackpotSplit, MeterConfig
from tables.engine.settlement import Settlement
from tables.games.base import engine_call
from tables.models import (
    DealerSession,
    DisplayKey,
    Hand,
    PaytableEdge,
    PaytableVersion,
    ProgressiveMeter,
    Round,
    Table,
    TableSettingsAssignment,
    TableSettingsVersion,
    display_key_digest,
)

STEP_CARDS = "cards"
STEP_DECISIONS = "decisions"
STEP_DEALER = "dealer"
STEP_CONFIRM = "confirm"
STEP_DONE = "done"
PREVIEW_SECONDS = 3600


def engine_paytable(version: PaytableVersion) -> Paytable:
    """The engine's paytable for a stored version."""
    return games.banked(version.game).paytable(f"{version.name} v{version.version}", version.lines)


def meter_config(meter: ProgressiveMeter) -> MeterConfig:
    """The engine's view of a meter (its state and rules)."""
    return MeterConfig(
        meter_cents=meter.value_cents,
        reset_cents=meter.reset_cents,
        rate=Fraction(str(meter.rate)),
        wager_cents=meter.wager_cents,
        awards_cents=meter.awards,
        split=JackpotSplit(meter.split),
        cap_cents=meter.cap_cents,
    )


def engine_round(round_: Round) -> dict[str, Any]:
    """The round's entry in the settle contract's input form (without the tablet's progress)."""
    return {k: v for k, v in round_.entry.items() if k not in ("decided", "dealer_done")}


def settle_round(round_: Round, meter: ProgressiveMeter | None) -> Settlement:
    """The engine's settlement of the round as entered, by its pinned paytable and the meter's
    state (refused: ServiceError naming the seat, card or wager)."""
    return engine_call(  # type: ignore[no-any-return]
        games.banked(round_.game).settle,
        engine_round(round_),
        engine_paytable(round_.paytable_version),
        meter_config(meter) if meter is not None else None,
    )


def _preview_key(round_: Round, meter: ProgressiveMeter | None) -> str:
    inputs = [
        round_.pk,
        engine_round(round_),
        round_.paytable_version_id,
        repr(meter_config(meter)) if meter is not None else None,
    ]
    digest = hashlib.sha256(json.dumps(inputs, sort_keys=True, default=str).encode()).hexdigest()
    return f"round-preview:{digest}"


def keep_preview(round_: Round, meter: ProgressiveMeter | None, settlement: Settlement) -> None:
    """Keep the dealer step's settlement for the confirm page (same inputs, same result); with
    the cache down it is not kept, and the confirm page computes it again."""
    with suppress(CacheUnavailable):
        cache.set(
            _preview_key(round_, meter), contract.settlement_to_json(settlement), PREVIEW_SECONDS
        )


def round_state(round_: Round) -> dict[str, Any]:
    """What the dealer must do next, and the house-way advice once the deal is in."""
    data = round_.entry
    if round_.status != Round.Status.OPEN:
        return {"step": STEP_DONE, "status": round_.status}
    if not data.get("dealer", {}).get("cards"):
        return {"step": STEP_CARDS, "seats": [s["seat"] for s in data["seats"]]}
    pending = [s["seat"] for s in data["seats"] if s["seat"] not in data.get("decided", [])]
    advice = games.banked(round_.game).dealer_advice(data["dealer"]["cards"])
    if pending:
        return {"step": STEP_DECISIONS, "pending": pending, "advice": advice}
    if not data.get("dealer_done"):
        return {"step": STEP_DEALER, "advice": advice}
    return {"step": STEP_CONFIRM, "advice": advice}


def round_preview(round_: Round) -> dict[str, Any]:
    """Every seat's result and payout, as the engine settles the round now (nothing saved)."""
    if round_.status != Round.Status.OPEN:
        raise ServiceError(
            f"round {round_} is already {round_.status}", code="not_open", status=409
        )
    if round_state(round_)["step"] != STEP_CONFIRM:
        raise ServiceError("the round is not complete yet", code="not_complete", status=409)
    meter = round_.table.meter
    try:
        kept = cache.get(_preview_key(round_, meter))
    except CacheUnavailable:
        kept = None  # computed again below
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    return contract.settlement_to_json(settle_round(round_, meter))


def _last_round_query(table: int) -> Any:
    return (
        Round.objects.filter(table_id=table)
        .exclude(status=Round.Status.VOIDED)
        .order_by("-number")[:1]
    )


_LAST_ROUND = PreparedQuery(_last_round_query, table=int)  # the wagers page's rebet


def last_wagers(table: Table) -> dict[int, dict[str, str]]:
    """Rebet: each seat's wagers in the table's last round (settled or not)."""
    last = _LAST_ROUND.first(table=table.pk)
    if last is None:
        return {}
    return {s["seat"]: dict(s["wagers"]) for s in last.entry.get("seats", [])}


# --- the tablet's pages ----------------------------------------------------------------------


def open_session_at(table: Table) -> DealerSession | None:
    """The dealer signed in at the table now, if any."""
    return (
        DealerSession.objects.filter(table=table, ended_at__isnull=True)
        .select_related("dealer")
        .first()
    )


def _my_session_query(table: int, dealer: int) -> Any:
    return DealerSession.objects.filter(
        table_id=table, dealer_id=dealer, ended_at__isnull=True
    ).select_related("table__paytable_version", "table__meter")[:1]


# Every page and step of the tablet: the table (with its paytable version and meter) and
# whether the dealer is signed in there, in one statement. A table has one open session at
# most (the constraint `one_dealer_per_table`).
_MY_SESSION = PreparedQuery(_my_session_query, table=int, dealer=int)


def session_of(table_id: int, dealer_id: int) -> DealerSession | None:
    """The dealer's open session at that table, with the table, its paytable version and its
    meter; None when they are not signed in there (or there is no such table)."""
    if not 0 < table_id <= DB_INT_MAX:
        return None  # no row holds it
    return _MY_SESSION.first(table=table_id, dealer=dealer_id)  # type: ignore[no-any-return]


def open_sessions() -> dict[int, DealerSession]:
    """Table id -> the open dealer session there."""
    return {
        s.table_id: s
        for s in DealerSession.objects.filter(ended_at__isnull=True).select_related("dealer")
    }


def _open_round_query(table: int) -> Any:
    return (
        Round.objects.filter(table_id=table, status=Round.Status.OPEN, corrects__isnull=True)
        .select_related("paytable_version")
        .order_by("pk")[:1]
    )


def _last_settled_query(table: int) -> Any:
    return Round.objects.filter(table_id=table, status=Round.Status.SETTLED).order_by("-number")[:1]


def _latest_state_query(table: int) -> Any:
    return (
        Round.objects.filter(table_id=table, corrects__isnull=True)
        .order_by("-number")
        .values("pk", "status", "entry")[:1]
    )


# The tablet's reads on every page (and every poll of its watch), compiled once.
_OPEN_ROUND = PreparedQuery(_open_round_query, table=int)
_LAST_SETTLED = PreparedQuery(_last_settled_query, table=int)
_LATEST_STATE = PreparedQuery(_latest_state_query, table=int)


def open_round(table: Table) -> Round | None:
    """The round in play at the table (a correction waiting for its sign-off is not)."""
    return _OPEN_ROUND.first(table=table.pk)  # type: ignore[no-any-return]


def last_settled_round(table: Table) -> Round | None:
    return _LAST_SETTLED.first(table=table.pk)  # type: ignore[no-any-return]


def latest_round_state(table: Table) -> dict[str, Any] | None:
    """The table's latest round's id, status and entry (the tablet's change watch)."""
    found = _LATEST_STATE.values(table=table.pk)
    return found[0] if found else None


def open_tables() -> Any:
    """The open tables a dealer may sign in at, with their paytables."""
    return Table.objects.filter(is_open=True).select_related("paytable_version")


def _round_at_query(table: int, pk: int) -> Any:
    return Round.objects.filter(table_id=table, pk=pk).order_by("pk")[:1]


_ROUND_AT = PreparedQuery(_round_at_query, table=int, pk=int)  # every step's post


def round_at(table: Table, round_id: int | None) -> Round | None:
    """The round of that id, if it is at this table."""
    if round_id is not None and not -DB_INT_MAX <= round_id <= DB_INT_MAX:
        return None  # no row holds it
    return _ROUND_AT.first(table=table.pk, pk=round_id or 0)  # type: ignore[no-any-return]


# --- a paytable version's theoretical figures ----------------------------------------------


def version_figures(version: PaytableVersion, strategy: str = "optimal") -> PaytableEdge | None:
    """The figures stored with a version under `strategy` (None until its job has run)."""
    return version.edges.filter(strategy=strategy).first()


def version_in_use(draft: PaytableVersion) -> PaytableVersion | None:
    """The approved version a draft would replace: the one it was drafted from if approved,
    else the newest approved version of the same game and name."""
    if draft.based_on is not None and draft.based_on.is_approved:
        return draft.based_on
    return (
        PaytableVersion.objects.filter(
            game=draft.game, name=draft.name, status=PaytableVersion.Status.APPROVED
        )
        .order_by("-version")
        .first()
    )


# --- player-vs-player hands -------------------------------------------------------------------


def settings_in_force(table: Table) -> TableSettingsVersion | None:
    """The approved table settings version assigned last at a player-vs-player table."""
    assignment = (
        TableSettingsAssignment.objects.filter(table=table)
        .select_related("settings_version")
        .order_by("-id")
        .first()
    )
    return assignment.settings_version if assignment else None


def open_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, status=Hand.Status.OPEN).first()


def last_hand(table: Table) -> Hand | None:
    return (
        Hand.objects.filter(table=table)
        .exclude(status=Hand.Status.OPEN)
        .order_by("-number")
        .first()
    )


def last_counted_hand(table: Table) -> Hand | None:
    """The table's last hand that stands: finished or called a misdeal, never one voided (a
    voided hand's result does not count, so the stacks carry from the hand before it)."""
    return (
        Hand.objects.filter(table=table)
        .exclude(status__in=(Hand.Status.OPEN, Hand.Status.VOIDED))
        .order_by("-number")
        .first()
    )


def display_key_for(key: str) -> DisplayKey | None:
    """The live (unrevoked) display key whose key this is, with its table; None for any other
    text (a key is 40 hex digits)."""
    if not key or len(key) > 64:
        return None
    return (
        DisplayKey.objects.select_related("table")
        .filter(digest=display_key_digest(key), revoked_at__isnull=True)
        .first()
    )


def display_key_live(key_id: int, table_id: int) -> bool:
    """Whether display key `key_id` of table `table_id` is still in force (a display's
    session asks on every refresh, so a revoked key stops the screen at once)."""
    return DisplayKey.objects.filter(pk=key_id, table_id=table_id, revoked_at__isnull=True).exists()


def display_keys() -> Any:
    """Every display key, newest first per table, with who issued and revoked it."""
    return DisplayKey.objects.select_related("table", "issued_by", "revoked_by")


# The rake simulation behind a player-vs-player table's theoretical win: hands (or games) per
# (settings, players), a fixed seed so every process finds the same figures, and the figures
# found, kept for the process (approved settings never change).
RAKE_SAMPLES_SHARE = 5  # a fifth of the game's default count of simulated hands
RAKE_MIN_SAMPLES = 200
RAKE_SEED = 20_251_127
_RAKE_PER_HAND: dict[tuple[str, str, int], tuple[Decimal, Decimal]] = {}


def rake_per_hand(game: str, values: Mapping[str, Any], players: int) -> tuple[Decimal, Decimal]:
    """A hand's expected rake and the variance of its rake (cents, cents squared) at a table
    of `game` under the settings `values` with `players` players: the game's rake simulation
    (`rake_edge`, its `typical` play) under the table's rake, each of its chips worth the table's
    cents the game's `rake_terms` says (so the rake rounds to the cent, as at the table). No
    rake (or no simulation): zero and zero."""
    key = (game, json.dumps(values, sort_keys=True, default=str), players)
    found = _RAKE_PER_HAND.get(key)
    if found is not None:
        return found
    terms = games.player_vs_player(game).rake_terms(values)
    rules = registry.players(game)
    if terms is None or rules is None or not terms.percent or players < 2:
        found = (Decimal(0), Decimal(0))
    else:
        samples = max(RAKE_MIN_SAMPLES, rules.default_samples // RAKE_SAMPLES_SHARE)
        run = rules.rake_edge(
            samples,
            random.Random(RAKE_SEED),
            players=players,
            rake_percent=terms.percent,
            rake_cap=terms.cap_cents,
            unit=terms.chip_cents,
        )
        sd = Decimal(repr(run.figures.std_dev))
        found = (Decimal(repr(run.figures.mean)), sd * sd)
    _RAKE_PER_HAND[key] = found
    return found
