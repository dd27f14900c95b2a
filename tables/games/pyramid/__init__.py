"""Pyramid Poker: an ante; a player sets a two-card and a one-card hand (the one card not above
the two-card hand), or asks for the house way; the dealer sets by the house way (rules:
docs/rules)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

from core.errors import ServiceError
from core.strict import flag
from tables import display as show
from tables.engine.cards import parse_card, parse_cards
from tables.engine.errors import EngineError
from tables.engine.paytable_types import Paytable

from ..base import CHOICE, FLAG, Decision, DecisionField, DemoTable, engine_call
from ..rules_engine import RulesEngineGame
from ..wagers import only
from . import decisions
from . import game as pyramid
from .rules import player_house_way


def _setting(cards: list[str], one: str) -> dict[str, Any]:
    setting = pyramid.split(parse_cards(cards, where="cards"), parse_card(one))
    return {"two_card": [str(c) for c in setting.two_card], "one_card": str(setting.one_card)}


def _rank(code: str) -> int:
    return parse_card(code).rank


def _settled(hand: Mapping[str, Any]) -> pyramid.Setting:
    """A settled hand's setting (the contract's output: its cards in any order)."""
    hi, lo = sorted(parse_cards(hand["two_card"], where="two_card"), key=lambda c: -c.rank)
    return pyramid.Setting((hi, lo), parse_card(hand["one_card"]))


def _versus(label: str, cards: list[str], wins: bool) -> dict[str, Any]:
    return {
        "label": label,
        "cards": show.cards(cards),
        "result": "win" if wins else "lose",
        "words": "wins" if wins else "loses",
    }


class Pyramid(RulesEngineGame):
    name = "pyramid"
    label = "Pyramid Poker"
    seat_wagers = ("ante",)
    typed_wagers = ("ante",)
    limited_wagers = ("ante",)
    report_wagers = ("ante",)
    edge_wagers = {"ante": ("ante",)}
    required_wagers = ("ante",)
    decision_fields = (
        DecisionField("one_card", "Card set alone (one-card hand)", CHOICE),
        DecisionField("house_way", "Set by the house way", FLAG),
    )
    dealer_fields = ()  # the dealer sets the first three cards by the house way
    decide_template = "games/pyramid.html"
    api_wagers = "ante."
    api_decision = '{"one_card": "Qd"} or {"house_way": true}.'
    decisions_help = (
        "Each player sets a two-card hand and a one-card hand, or asks for the house way."
    )
    demo = DemoTable("PY-1", "default", {"ante": {"min_cents": 500, "max_cents": 50000}})

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
        only(given, frozenset(self.decision_keys), where)
        if flag(given.get("house_way", False), f"{where} house_way"):
            if given.get("one_card") is not None:
                raise ServiceError(
                    f"{where}: give the card for the one-card hand, or the house way, not both",
                    field=f"{where} one_card",
                    code="foul",
                )
            # The audit event also records how the player strategy set the hand.
            return Decision(
                {"house_way": True},
                {"house_way": True, "set_as": player_house_way(seat["cards"])},
            )
        if given.get("one_card"):
            one = engine_call(parse_card, given["one_card"], where=f"{where}'s one-card hand")
            return Decision({"one_card": str(one)})
        raise ServiceError(
            f"{where}: choose the card for the one-card hand, or the house way",
            field=f"{where} one_card",
            code="foul",
        )

    # --- tablet ----------------------------------------------------------------------------
    def decision_form(
        self, page: Any, block: dict[str, Any], seat: Mapping[str, Any], posted: Any
    ) -> None:
        n = seat["seat"]
        picked = show.posted_value(posted, f"seat-{n}-one_card", seat.get("one_card") or "")
        options = []
        for c in show.cards(seat["cards"]):
            others = [o for o in seat["cards"] if o != c["code"]]
            try:
                pyramid.split(parse_cards(seat["cards"], where="cards"), parse_card(c["code"]))
                foul = False
            except EngineError:
                foul = True
            options.append(
                {
                    **c,
                    "checked": c["code"] == picked,
                    "foul": foul,
                    "two_card": show.cards(sorted(others, key=_rank, reverse=True)),
                }
            )
        block["one_card"] = page.field(
            f"seat {n} one card", name=f"seat-{n}-one_card", options=options
        )
        house = player_house_way(seat["cards"])
        block["house_way"] = {
            "two_card": show.cards(house["two_card"]),
            "one_card": show.card(house["one_card"]),
        }

    def posted_decision(self, n: int, post: Mapping[str, Any]) -> dict[str, Any]:
        if post.get("action", "") == "house_way":
            return {"house_way": True}
        return {"one_card": post.get(f"seat-{n}-one_card") or None}

    def decision_summary(self, seat: Mapping[str, Any]) -> str:
        if seat.get("house_way"):
            s = player_house_way(seat["cards"])
            two, one = show.card_text(s["two_card"]), show.card_text([s["one_card"]])
            return f"Set by the house way: {two} / {one}"
        if seat.get("one_card"):
            s = _setting(seat["cards"], seat["one_card"])
            return f"Set {show.card_text(s['two_card'])} / {show.card_text([s['one_card']])}"
        return ""

    def headline(self, advice: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [
            {"text": "Set"},
            {"cards": show.cards(advice["two_card"])},
            {"text": "/"},
            {"cards": [show.card(advice["one_card"])]},
        ]

    # --- the pages: a two-card and a one-card hand, each against the dealer's ------------------
    def hand_cards(self, hand: Mapping[str, Any]) -> list[list[str]] | None:
        if "two_card" not in hand:
            return None
        return [list(hand["two_card"]), [hand["one_card"]]]

    def settled_hands(
        self, seat: Mapping[str, Any], dealer: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Each hand against the dealer's by the rules' own comparison (a pair above any high
        card; a tie loses: the player must beat the dealer's hand)."""
        if "two_card" not in seat or "two_card" not in dealer:
            return []
        mine, house = _settled(seat), _settled(dealer)
        return [
            _versus(
                "Two-card hand",
                seat["two_card"],
                mine.two_card_score() > house.two_card_score(),
            ),
            _versus("One-card hand", [seat["one_card"]], mine.one_card.rank > house.one_card.rank),
        ]

    # --- simulation ------------------------------------------------------------------------
    def simulated_decision(self, seat: Mapping[str, Any], stake: Any) -> dict[str, Any]:
        return {"house_way": True} if seat.get("house_way") else {"one_card": seat["one_card"]}


# The game as the registry holds it (`tables.games.INSTALLED`).
DEFINITION: Final = Pyramid()
