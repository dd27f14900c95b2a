"""Three Card Lowball: ante and an equal bonus, and the progressive when the table has a meter;
a player stands pat or discards one or two cards and draws as many; the dealer's house way
names the discard, choosing among equivalent cards (rules: docs/rules)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from core.errors import ServiceError
from tables import display as show
from tables.engine.cards import RANKS, parse_cards
from tables.engine.money import format_cents
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import JACKPOT

from ..base import (
    CARDS,
    Decision,
    DecisionField,
    DemoMeter,
    DemoTable,
    ProgressiveAward,
    dealer_discard_cards,
    engine_call,
)
from ..rules_engine import RulesEngineGame
from ..wagers import only
from . import decisions
from . import game as lowball


class Lowball(RulesEngineGame):
    name = "lowball"
    label = "Three Card Lowball"
    seat_wagers = ("ante", "bonus", "progressive")
    typed_wagers = ("ante",)
    limited_wagers = ("ante",)
    report_wagers = ("ante", "bonus", "progressive")
    edge_wagers = {"ante_bonus": ("ante", "bonus"), "progressive": ("progressive",)}
    takes_progressive = True
    required_wagers = ("ante",)
    mirrored_wagers = {"bonus": "ante"}
    decision_fields = (
        DecisionField("discard", "Discarded", CARDS, kept_empty=True),
        DecisionField("draw", "Drew", CARDS, kept_empty=True),
    )
    hand_labels = {
        "a24_one_colour": "4-2-A one colour",
        "a24_two_colour": "4-2-A two colours",
        "a34": "4-3-A",
        "five_high": "5 high",
        "six_high": "6 high",
        "seven_high": "7 high",
    }
    # The progressive's awards (their keys and default amounts are the rules', `game`).
    progressive_awards = (
        ProgressiveAward(JACKPOT, "jackpot"),
        ProgressiveAward(
            lowball.ONE_COLOUR, "4-2-A one colour", lowball.AWARDS_CENTS[lowball.ONE_COLOUR]
        ),
        ProgressiveAward(
            lowball.TWO_COLOUR, "4-2-A two colours", lowball.AWARDS_CENTS[lowball.TWO_COLOUR]
        ),
        ProgressiveAward(lowball.FOUR_HIGH, "4 high", lowball.AWARDS_CENTS[lowball.FOUR_HIGH]),
        ProgressiveAward(lowball.FIVE_HIGH, "5 high", lowball.AWARDS_CENTS[lowball.FIVE_HIGH]),
    )
    award_labels = {a.key: a.label for a in progressive_awards}
    decide_template = "games/lowball.html"
    api_wagers = "ante, bonus (equal to the ante, defaults to it), progressive (the meter's wager)."
    api_decision = '{"discard": [...], "draw": [...]}.'
    decisions_help = "Each player stands pat, or discards one or two cards and draws as many."
    wagers_note = "The bonus always equals the ante."
    decision_grid = True
    high_card_order = "A" + RANKS[:-1]  # ace low
    demo = DemoTable(
        "LB-1",
        "1",
        {"ante": {"min_cents": 500, "max_cents": 50000}},
        meter=DemoMeter(
            "Lowball progressive",
            reset_cents=1_000_000,
            rate="0.2000",
            wager_cents=100,
            opening_cents=2_500_000,
        ),
    )

    # --- the ratings ------------------------------------------------------------------------
    def decision_cost(
        self, entry: Mapping[str, Any], seat: int, paytable: Paytable
    ) -> Decimal | None:
        """The seat's decision's cost against the best play, in cents (`decisions`)."""
        return decisions.decision_cost(entry, seat, paytable)

    # --- services ---------------------------------------------------------------------------
    def check_wagers(self, n: int, cents: dict[str, int]) -> None:
        cents.setdefault("bonus", cents["ante"])
        if cents["bonus"] != cents["ante"]:
            raise ServiceError(
                f"seat {n}'s bonus must equal the ante ({format_cents(cents['ante'])})",
                field=f"seat {n} bonus",
                code="bad_wager",
            )

    def decision(
        self, n: int, seat: Mapping[str, Any], given: Mapping[str, Any], limits: Mapping[str, Any]
    ) -> Decision:
        where = f"seat {n}"
        only(given, frozenset(self.decision_keys), where)
        discard = engine_call(parse_cards, given.get("discard") or [], where=f"{where}'s discard")
        draw = engine_call(parse_cards, given.get("draw") or [], where=f"{where}'s draw")
        return Decision({"discard": [str(c) for c in discard], "draw": [str(c) for c in draw]})

    def dealer_discard(
        self, cards: list[str], advice: Mapping[str, Any], chosen: Any
    ) -> list[str] | None:
        chosen = chosen if chosen not in (None, "") else advice["discard"]
        return dealer_discard_cards(cards, chosen)

    # --- tablet ----------------------------------------------------------------------------
    def decision_form(
        self, page: Any, block: dict[str, Any], seat: Mapping[str, Any], posted: Any
    ) -> None:
        n = seat["seat"]
        chosen = (
            list(posted.getlist(f"seat-{n}-discard"))
            if hasattr(posted, "getlist")
            else seat.get("discard") or []
        )
        block["discard"] = page.field(
            f"seat {n} discard",
            name=f"seat-{n}-discard",
            options=[{**c, "checked": c["code"] in chosen} for c in show.cards(seat["cards"])],
        )
        block["draw"] = page.field(
            f"seat {n} draw",
            name=f"seat-{n}-draw",
            label="Replacement cards",
            value=show.posted_value(posted, f"seat-{n}-draw", " ".join(seat.get("draw") or [])),
            max=len(chosen),
            stored=seat.get("draw") or [],
            hidden=not chosen,  # until a discard is chosen
        )
        block["takes_cards"] = bool(chosen)

    def posted_decision(self, n: int, post: Mapping[str, Any]) -> dict[str, Any]:
        if post.get("action", "") == "stand":
            return {"discard": [], "draw": []}
        discard = post.getlist(f"seat-{n}-discard") if hasattr(post, "getlist") else []
        return {"discard": list(discard), "draw": str(post.get(f"seat-{n}-draw", ""))}

    def decision_summary(self, seat: Mapping[str, Any]) -> str:
        if not seat.get("discard"):
            return "Stands pat"
        return (
            f"Discards {show.card_text(seat['discard'])}, draws {show.card_text(seat.get('draw'))}"
        )

    def headline(self, advice: Mapping[str, Any]) -> list[dict[str, Any]]:
        return show.draw_headline(advice)

    # --- simulation ------------------------------------------------------------------------
    def simulated_wagers(
        self, seat: Mapping[str, Any], stake: Any, meter_wager: str | None
    ) -> dict[str, str]:
        w = {"ante": stake("ante")}
        if "progressive" in seat["wagers"] and meter_wager is not None:
            w["progressive"] = meter_wager
        return w

    def simulated_entry_seat(
        self, seat: dict[str, Any], stake: Any, meter_wager: str | None
    ) -> None:
        given = seat["wagers"]
        wagers = {"ante": stake("ante")}
        wagers["bonus"] = wagers["ante"]
        if "progressive" in given and meter_wager is not None:
            wagers["progressive"] = meter_wager
        seat["wagers"] = wagers

    def simulated_decision(self, seat: Mapping[str, Any], stake: Any) -> dict[str, Any]:
        return {"discard": seat.get("discard") or [], "draw": seat.get("draw") or []}


# The game as the registry holds it (`tables.games.INSTALLED`).
DEFINITION: Final = Lowball()
