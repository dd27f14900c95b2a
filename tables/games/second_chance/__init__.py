"""Three Card 2nd Chance: ante and pair plus; a player stands or takes a mulligan (raises the
ante again for three new cards, with an optional mulligan pair plus); the dealer draws three
new cards below the house way's hand (rules: docs/rules)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from core.errors import ServiceError
from core.money import typed_dollars
from core.strict import flag
from tables import display as show
from tables.engine.cards import RANKS, parse_cards
from tables.engine.money import format_cents, parse_cents
from tables.engine.paytable_types import Paytable

from ..base import CARDS, MONEY, Decision, DecisionField, DemoTable, engine_call
from ..rules_engine import RulesEngineGame
from ..wagers import check_limit, only
from . import decisions

EMPTY = (None, "", "0", "0.00", 0)
MULLIGAN_KEYS = frozenset({"cards", "pair_plus"})
DECISION_KEYS = frozenset({"mulligan", "cards", "pair_plus"})


class SecondChance(RulesEngineGame):
    name = "second_chance"
    label = "Three Card 2nd Chance"
    seat_wagers = ("ante", "pair_plus")
    typed_wagers = ("ante", "pair_plus")
    limited_wagers = ("ante", "pair_plus")
    report_wagers = ("ante", "raise", "pair_plus", "mulligan_pair_plus")
    edge_wagers = {
        "ante_raise": ("ante", "raise"),
        "pair_plus": ("pair_plus",),
        "mulligan_pair_plus": ("mulligan_pair_plus",),
    }
    required_wagers = ("ante",)
    decision_fields = (
        DecisionField("mulligan.cards", "Mulligan: the new three cards", CARDS),
        DecisionField("mulligan.pair_plus", "Mulligan pair plus", MONEY),
    )
    dealer_fields = (DecisionField("draw", "Dealer drew"),)
    decide_template = "games/second_chance.html"
    api_wagers = "ante, pair_plus."
    api_decision = '{} to stand, or {"mulligan": true, "cards": [...], "pair_plus": "5.00"?}.'
    decisions_help = (
        "Each player stands, or takes a mulligan: raises the ante again and gets three new cards."
    )
    decision_grid = True
    high_card_order = RANKS
    demo = DemoTable(
        "SC-1",
        "default",
        {
            "ante": {"min_cents": 500, "max_cents": 50000},
            "pair_plus": {"min_cents": 100, "max_cents": 10000},
        },
    )

    # --- the ratings ------------------------------------------------------------------------
    def decision_cost(
        self, entry: Mapping[str, Any], seat: int, paytable: Paytable
    ) -> Decimal | None:
        """The seat's decision's cost against the best play, in cents (`decisions`)."""
        return decisions.decision_cost(entry, seat, paytable)

    # --- services ---------------------------------------------------------------------------
    def decision(
        self, n: int, seat: Mapping[str, Any], given: Mapping[str, Any], limits: Mapping[str, Any]
    ) -> Decision:
        where = f"seat {n}"
        only(given, DECISION_KEYS, where)
        if not flag(given.get("mulligan", False), f"{where} mulligan"):
            extra = sorted(set(given) - {"mulligan"})
            if extra:
                raise ServiceError(
                    f"{where} stands: {extra[0]} goes with a mulligan", field=f"{where} {extra[0]}"
                )
            return Decision({})
        cards = engine_call(
            parse_cards, given.get("cards") or [], where=f"{where}'s mulligan cards"
        )
        mulligan: dict[str, Any] = {"cards": [str(c) for c in cards]}
        pp = given.get("pair_plus")
        if pp not in EMPTY:
            cents = engine_call(parse_cents, pp, where=f"{where}'s mulligan pair plus")
            check_limit(cents, limits, "pair_plus", f"{where} mulligan pair_plus")
            mulligan["pair_plus"] = format_cents(cents)
        return Decision({"mulligan": mulligan})

    def check_seat_entry(
        self, n: int, seat: dict[str, Any], limits: Mapping[str, Any]
    ) -> dict[str, Any]:
        mulligan = seat.get("mulligan")
        if mulligan is None:
            return seat
        if not isinstance(mulligan, dict):
            raise ServiceError(f"seat {n}'s mulligan must be an object", field=f"seat {n}")
        only(mulligan, MULLIGAN_KEYS, f"seat {n} mulligan")
        pp = mulligan.get("pair_plus")
        if pp not in EMPTY:
            cents = engine_call(parse_cents, pp, where=f"seat {n}'s mulligan pair plus")
            check_limit(cents, limits, "pair_plus", f"seat {n} mulligan pair_plus")
            seat["mulligan"] = {**mulligan, "pair_plus": format_cents(cents)}
        return seat

    # --- tablet ----------------------------------------------------------------------------
    def decision_form(
        self, page: Any, block: dict[str, Any], seat: Mapping[str, Any], posted: Any
    ) -> None:
        n = seat["seat"]
        m = seat.get("mulligan") or {}
        block["raise"] = show.amount(seat["wagers"]["ante"])
        block["mulligan_open"] = bool(m) or posted is not None
        block["takes_cards"] = block["mulligan_open"]
        block["mulligan_cards"] = page.field(
            f"seat {n} mulligan cards",
            name=f"seat-{n}-mulligan-cards",
            label="New hand",
            value=show.posted_value(
                posted, f"seat-{n}-mulligan-cards", " ".join(m.get("cards", []))
            ),
            max=3,
            stored=m.get("cards", []),
        )
        block["mulligan_pair_plus"] = page.field(
            f"seat {n} mulligan pair plus",
            name=f"seat-{n}-mulligan-pair_plus",
            label="Mulligan Pair Plus (optional)",
            value=show.posted_value(posted, f"seat-{n}-mulligan-pair_plus", m.get("pair_plus", "")),
        )

    def posted_decision(self, n: int, post: Mapping[str, Any]) -> dict[str, Any]:
        if post.get("action", "") != "mulligan":
            return {}
        return {
            "mulligan": True,
            "cards": str(post.get(f"seat-{n}-mulligan-cards", "")),
            "pair_plus": typed_dollars(post.get(f"seat-{n}-mulligan-pair_plus", "")),
        }

    def decision_summary(self, seat: Mapping[str, Any]) -> str:
        m = seat.get("mulligan")
        if not m:
            return "Stands"
        raise_ = show.amount(seat["wagers"]["ante"])
        text = f"Mulligan: new hand {show.card_text(m['cards'])}, raise {raise_}"
        if m.get("pair_plus"):
            text += f", mulligan Pair Plus {show.amount(m['pair_plus'])}"
        return text

    def headline(self, advice: Mapping[str, Any]) -> list[dict[str, Any]]:
        return show.draw_headline(advice)

    # --- simulation ------------------------------------------------------------------------
    def simulated_wagers(
        self, seat: Mapping[str, Any], stake: Any, meter_wager: str | None
    ) -> dict[str, str]:
        w = {"ante": stake("ante")}
        if "pair_plus" in seat["wagers"]:
            w["pair_plus"] = stake("pair_plus")
        return w

    def simulated_entry_seat(
        self, seat: dict[str, Any], stake: Any, meter_wager: str | None
    ) -> None:
        given = seat["wagers"]
        wagers = {"ante": stake("ante")}
        if "pair_plus" in given:
            wagers["pair_plus"] = stake("pair_plus")
        if "pair_plus" in seat.get("mulligan", {}):
            seat["mulligan"]["pair_plus"] = stake("pair_plus")
        seat["wagers"] = wagers

    def simulated_decision(self, seat: Mapping[str, Any], stake: Any) -> dict[str, Any]:
        if not seat.get("mulligan"):
            return {}
        decision = {"mulligan": True, "cards": seat["mulligan"]["cards"]}
        if "pair_plus" in seat["mulligan"]:
            decision["pair_plus"] = stake("pair_plus")
        return decision


# The game as the registry holds it (`tables.games.INSTALLED`).
DEFINITION: Final = SecondChance()
