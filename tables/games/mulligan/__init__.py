"""Mulligan, the trading card game (`docs/rules/mulligan.md`): a player-vs-player game the house
runs and rakes. This package holds all of Mulligan:

    game.py    the rules: a state machine driven one action at a time, its assertions checked
               after each (pure Python, no Django)
    hands.py   the five-card hands: categories, value hands, the winner
    view.py    what each viewer may see (a player, the table, the house)
    replay.py  its half of the `replay` contract
    rules.py   its rules as the engine's drivers ask for them (replay, the rake simulated)
    terms.py   the table's terms set in the admin: variants and their allowed combinations,
               the table minimum, the rake, what a chip is worth
    play.py    a game as the dealer enters it (the deal, then one action at a time), rebuilt
               by the rules from its record
    pages.py   what the dealer's tablet and the players' table display show, from what each
               may see (`view`)

Its templates are in `templates/games/` here (the tablet's panel, the players' display).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, ClassVar, Final

from core.errors import ServiceError
from core.money import dollars
from tables import display as show
from tables.engine.cards import DECK

from ..base import DemoTable, HandOutcome, HandStep, PlayerVsPlayerGame, RakeTerms, StepField
from . import pages
from . import play as floor
from .game import (
    ActionKind,
    Auction,
    Fold,
    MulliganGame,
    Offer,
    Phase,
    Swap,
    Variant,
    allowed,
    apply,
    new_game,
    random_action,
    result,
    shuffled_setup,
)
from .game import Mulligan as MulliganAction
from .play import Played, draw_order, where_is
from .rules import SIMULATED_CHIPS
from .terms import (
    VARIANT_LABEL,
    VARIANT_ORDER,
    MulliganTerms,
    allowed_combinations,
    variants_label,
)
from .view import HOUSE, game_view


def _seat_named(player: Any, seats: Sequence[int] | None) -> str | None:
    """A step's player (a number, or the digits a form posts) by their seat: "Seat 3"."""
    if isinstance(player, str) and player.strip().isascii() and player.strip().isdigit():
        player = int(player.strip())
    if isinstance(player, int) and not isinstance(player, bool):
        return show.seat_word(player, seats)
    return None


class Mulligan(PlayerVsPlayerGame):
    """Mulligan on the floor: table settings are `MulliganTerms`; a hand's record is
    `play.setup_record`'s, grown by `play.apply_step`; chips are cents."""

    name = "mulligan"
    label = "Mulligan"
    # The tablet: the PvP page (tables.views.hands) with Mulligan's panel; the players' table
    # display is Mulligan's own page (`pages`, served by tables.views.game_pages).
    hand_template: ClassVar[str] = "games/mulligan_hand.html"
    tablet_fields: ClassVar[frozenset[str]] = frozenset()  # every refusal shows on top
    demo = DemoTable(name="MG-1", paytable="house", limits={})
    default_settings: ClassVar[Mapping[str, Any]] = MulliganTerms().as_json()
    # The demo table plays for chips under Secret Offers: $1 minimum, 5% rake up to $5.
    demo_settings: ClassVar[Mapping[str, Any]] = {
        "variants": ["secret_offers", "chips"],
        "table_minimum_cents": 100,
        "rake_percent": "5",
        "rake_cap_cents": 500,
    }
    settings_help: ClassVar[Mapping[str, str]] = {
        "variants": "any of "
        + ", ".join(f"{v.value} ({VARIANT_LABEL[v]})" for v in VARIANT_ORDER)
        + "; secret_offers and open_hands exclude each other",
        "table_minimum_cents": "playing for chips: the least on an auctioned card, in cents",
        "rake_percent": "playing for chips: the house's rake, a percent of the pot (0 to 100)",
        "rake_cap_cents": "playing for chips: the rake's cap in cents (empty: no cap)",
    }

    # The players' table display, a page of its own beside the tablet.
    pages: ClassVar[Mapping[str, str]] = {"display": "games/mulligan/display.html"}
    player_pages: ClassVar[tuple[str, ...]] = ("display",)

    # The API's step: `do` says what it is; the other fields go with it.
    step_fields: ClassVar[Mapping[str, StepField]] = {
        "do": StepField("text", "deal, skip, fold, auction, offer, swap or mulligan"),
        "player": StepField("whole", "the player who acts"),
        "hands": StepField("json", "the deal: five cards each"),
        "burn": StepField("json", "High Risk's burn"),
        "card": StepField("text", "the card auctioned or offered"),
        "chips": StepField("whole", "cents on the card"),
        "offer_of": StepField("whole", "the player whose offer is taken"),
        "draws": StepField("json", "the cards drawn"),
        "at": StepField("whole", "the number of actions the step was meant to follow"),
    }
    step_kinds: ClassVar[tuple[str, ...]] = ("do",)
    step_help: ClassVar[str] = (
        "Mulligan: `do` = `deal` (`hands`: each player's five cards; `burn`: High Risk's 13), or "
        "`skip`, `fold`, `auction` / `offer` (`card`, `chips` in cents), `swap` (`offer_of`), "
        "`mulligan` (`draws`: the cards drawn, in draw order, or {player: card}); with `player`, "
        "the one who acts, and optionally `at`, the number of actions the step was meant to "
        "follow."
    )
    view_help: ClassVar[str] = (
        "Mulligan: waiting (deal, action or over), allowed (who may act with what), at, game "
        "(the house's view: seats, ring, piles, pot), actions."
    )

    def page_context(
        self, slug: str, record: Mapping[str, Any] | None, seats: list[int]
    ) -> dict[str, Any]:
        """The players' table display: built from the table's view of the game only (a card the
        players may not see is None there), so it never shows a Secret Offer, and shows hands
        only under Open Hands (and at the end, when every player reveals)."""
        rebuilt = floor.from_record(record) if record is not None else None
        return {"g": pages.display(rebuilt[1], seats) if rebuilt is not None else None}

    # --- table settings ------------------------------------------------------------------

    def terms(self, values: Any) -> MulliganTerms:
        return MulliganTerms.from_json(values)

    def check_settings(self, values: Mapping[str, Any]) -> dict[str, Any]:
        return MulliganTerms.from_json(values).as_json()

    def max_players(self, values: Mapping[str, Any]) -> int:
        return floor.max_players(self.terms(values))

    def min_buy_in(self, values: Mapping[str, Any]) -> int:
        terms = self.terms(values)
        return terms.table_minimum if terms.plays_for_chips else 1

    def rake_terms(self, values: Mapping[str, Any]) -> RakeTerms:
        # The simulation plays for chips with a table minimum of one chip: one chip is the
        # table's minimum. A game not played for chips pays no rake.
        terms = self.terms(values)
        if not terms.plays_for_chips:
            return RakeTerms(
                percent=Decimal(0), cap_cents=None, chip_cents=1, stack_chips=SIMULATED_CHIPS
            )
        chip = terms.table_minimum
        cap = terms.rake_cap
        return RakeTerms(
            percent=terms.rake_percent,
            cap_cents=cap,
            chip_cents=chip,
            stack_chips=SIMULATED_CHIPS,
        )

    def settings_text(self, values: Mapping[str, Any]) -> str:
        terms = self.terms(values)
        text = terms.label
        if terms.plays_for_chips:
            text += f", table minimum {dollars(terms.table_minimum)}"
            text += f", rake {terms.as_json()['rake_percent']}%"
            if terms.rake_cap is not None:
                text += f" (cap {dollars(terms.rake_cap)})"
        return text

    def terms_help(self) -> str:
        combos = "; ".join(variants_label(c) for c in allowed_combinations())
        return (
            "Variants: Secret Offers, High Risk, Open Hands, Playing for chips; Secret Offers "
            f"and Open Hands exclude each other. Allowed: {combos}."
        )

    # --- a hand ---------------------------------------------------------------------------

    def setup_record(
        self, values: Mapping[str, Any], stacks: list[int], first: int
    ) -> dict[str, Any]:
        return floor.setup_record(self.terms(values), stacks, first)

    def apply(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> dict[str, Any]:
        """`play.apply_step`, its refusals naming each player by their seat and each card as
        the card (a refusal of what was typed quotes it as typed)."""
        try:
            return floor.apply_step(record, step)
        except ServiceError as err:
            raise ServiceError(
                show.floor_words(err.message, seats, card_codes=err.code != "bad_card"),
                field=err.field,
                code=err.code,
                status=err.status,
            ) from None

    def game_of(self, record: Mapping[str, Any]) -> tuple[Played, MulliganGame] | None:
        return floor.from_record(record)

    def replay_record(self, record: Mapping[str, Any]) -> Mapping[str, Any]:
        """The contract's record of the game so far (`replay`), kept beside the floor's."""
        return dict(record.get("replay") or {})

    def step_text(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> str:
        do = step.get("do")
        who = step.get("player")
        p = _seat_named(who, seats) or "The player"
        if do == "deal":
            n = len(step.get("hands") or ())
            burn = " and 13 burnt face down" if step.get("burn") else ""
            return f"deals five cards to each of {n} players{burn}"
        chips = step.get("chips")
        with_chips = f" with {dollars(int(chips))}" if isinstance(chips, int) and chips else ""
        if do in ("auction", "offer"):
            verb = "auctions" if do == "auction" else "offers"
            return f"{p} {verb} {show.card_text([step.get('card')])}{with_chips}"
        if do == "swap":
            of = step.get("offer_of")
            whose = _seat_named(of, seats) or "another player"
            return f"{p} swaps with {whose}'s offer"
        if do == "mulligan":
            draws = step.get("draws") or ()
            if isinstance(draws, Mapping):
                drawn = ", ".join(
                    f"{show.seat_word(int(k), seats)} {show.card_text([v])}"
                    for k, v in draws.items()
                    if str(k).isdigit()
                )
            else:
                drawn = show.card_text(list(draws))
            return f"{p} mulligans; draws {drawn}"
        return f"{p} {do}s"

    def replay_steps(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> list[HandStep]:
        """The deal, then each action as the engine played it (the cards auctioned, offered,
        swapped and drawn, the chips with them), with the pot (the chips a mulligan sent from
        the ring) and, playing for chips, each player's chips after each step."""
        rebuilt = floor.from_record(record)
        if rebuilt is None:
            return []
        played, _ = rebuilt
        game = new_game(played.setup())

        def step(text: str, cards: Sequence[Any] = ()) -> HandStep:
            return HandStep(
                text,
                tuple(str(c) for c in cards),
                game.pot,
                None if game.stacks is None else tuple(game.stacks),
            )

        dealt = "; ".join(
            f"{show.seat_word(i, seats)} {show.card_text([str(c) for c in h])}"
            for i, h in enumerate(game.hands)
        )
        burn = f"; {len(game.burn)} burnt face down" if game.burn else ""
        everyone = [c for h in game.hands for c in h]
        steps = [step(f"The deal, five cards each: {dealt}{burn}", everyone)]
        for action in played.actions:
            before = game
            game = apply(game, action)
            who = show.seat_word(action.player, seats)

            def chips(n: int) -> str:
                return f" with {dollars(n)}" if n else ""

            if isinstance(action, MulliganAction):
                drawn = [
                    (p, next(c for c in game.hands[p] if c not in before.hands[p]))
                    for p in range(game.players)
                    if len(game.hands[p]) > len(before.hands[p])
                ]
                draws = ", ".join(
                    f"{show.seat_word(p, seats)} {show.card_text([str(c)])}" for p, c in drawn
                )
                ring = f"; {dollars(before.ring_chips)} from the ring into the pot"
                text = f"{who} mulligans: the ring is discarded{ring if before.ring_chips else ''}"
                steps.append(step(f"{text}; draws: {draws}", [c for _, c in drawn]))
            elif isinstance(action, Swap):
                lot, taken = before.lot, before.offer_of(action.offer_of)
                assert lot is not None and taken is not None
                text = (
                    f"{who} swaps with {show.seat_word(taken.owner, seats)}'s offer: takes "
                    f"{show.card_text([str(taken.card)])}{chips(taken.chips)}, gives "
                    f"{show.card_text([str(lot.card)])}{chips(lot.chips)}"
                )
                steps.append(step(text, [taken.card, lot.card]))
            elif isinstance(action, Auction | Offer):
                verb = "auctions" if isinstance(action, Auction) else "offers"
                card = action.card
                text = f"{who} {verb} {show.card_text([str(card)])}{chips(action.chips)}"
                steps.append(step(text, [card]))
            else:
                verb = "folds" if isinstance(action, Fold) else "skips"
                steps.append(step(f"{who} {verb}"))
        return steps

    def result_text(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> list[str]:
        """How the game ended, every hand shown with its category, the winner, the pot and
        the rake, and each player's payoff."""
        outcome = self.outcome(record)
        if outcome is None:
            return []
        d = outcome.detail
        how = "a fold" if d["ended_by"] == "fold" else "the deck pile running out"
        lines = [f"The game ended by {how}."]
        for i, (hand, category) in enumerate(zip(d["hands"], d["categories"], strict=False)):
            lines.append(
                f"{show.seat_word(i, seats)} shows {show.card_text(hand)}: "
                f"{str(category).replace('_', ' ')}."
            )
        winner = show.seat_word(int(d["winner"]), seats)
        lines.append(
            f"{winner} wins the pot of {dollars(outcome.pot)}; rake (the house's win) "
            f"{dollars(outcome.rake)}."
        )
        lines += [
            f"{show.seat_word(i, seats)}: {dollars(payoff, signed=True)}, "
            f"stack after {dollars(outcome.stacks[i])}."
            for i, payoff in enumerate(outcome.payoffs)
        ]
        return lines

    def undo_refusal(self, step: Mapping[str, Any], *, seats: Sequence[int] | None = None) -> str:
        """A skip, a fold, an auction, an offer or a swap is taken back while it is the last
        step; the deal and a mulligan (cards drawn from the deck pile) are not."""
        do = step.get("do")
        if do == "deal":
            return (
                "the last step is the deal: no action to take back yet (a misdeal cancels "
                "the game before the first auction)"
            )
        if do == "mulligan":
            who = _seat_named(step.get("player"), seats) or "the auctioneer"
            return (
                f"the last step is {who}'s mulligan: its cards were drawn from the deck pile, "
                "and a card drawn is not taken back"
            )
        return ""

    def misdeal_refusal(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> str:
        """A misdeal is called before the first auction."""
        for action in record.get("actions") or ():
            if isinstance(action, Mapping) and action.get("do") == "auction":
                who = _seat_named(action.get("player"), seats) or "a player"
                card = show.card_text([action.get("card")])
                return (
                    f"the first auction is done ({who} auctioned {card}): a misdeal is called "
                    "only before it (the pit boss voids a game after it)"
                )
        return ""

    def confirm_question(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> str:
        """A fold ends the player's game: the tablet asks first."""
        if step.get("do") != "fold":
            return ""
        who = _seat_named(step.get("player"), seats) or "The player"
        return f"{who} folds: they are out of this game and play no further part in it."

    def outcome(self, record: Mapping[str, Any]) -> HandOutcome | None:
        rebuilt = floor.from_record(record)
        if rebuilt is None or not rebuilt[1].is_over:
            return None
        played, game = rebuilt
        assert game.winner is not None and game.ended_by is not None
        buy_ins = tuple(int(b) for b in record["buy_ins"])
        stacks = buy_ins if game.stacks is None else game.stacks
        r = result(game)
        return HandOutcome(
            pot=game.pot,
            rake=game.rake,
            payoffs=tuple(after - before for after, before in zip(stacks, buy_ins, strict=True)),
            stacks=stacks,
            detail={
                "winner": r.winner,
                "ended_by": r.ended_by.value,
                "hands": [[str(c) for c in h] for h in r.hands],
                "categories": [c.value for c in r.categories],
                "discards": r.discards,
                "variants": [v.value for v in VARIANT_ORDER if v in played.terms.variants],
            },
        )

    def view(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The hand as the API shows it to the floor (the house's view: every card, every
        Secret Offer): what it waits for (`deal`, `action`, `over`), who may act and with what
        (`allowed`: kinds, cards, chips in cents, whose offers to swap with, the draw order),
        the game (`view.game_view`'s JSON) and every action so far."""
        rebuilt = floor.from_record(record)
        if rebuilt is None:
            return {
                "waiting": "deal",
                "players": len(record["buy_ins"]),
                "first": record["first"],
                "variants": list(record["terms"]["variants"]),
                "allowed": [],
                "game": None,
                "actions": [],
            }
        played, game = rebuilt
        return {
            "waiting": "over" if game.is_over else "action",
            "players": game.players,
            "first": played.first,
            "variants": list(record["terms"]["variants"]),
            "allowed": [
                {
                    "player": a.player,
                    "do": sorted(k.value for k in a.kinds),
                    "cards": [str(c) for c in a.cards],
                    "chips_min": a.chips_min,
                    "chips_max": a.chips_max,
                    "swap_with": list(a.swap_with),
                    "draw_order": draw_order(game) if ActionKind.MULLIGAN in a.kinds else [],
                }
                for a in allowed(game)
            ],
            "at": len(played.actions),
            "game": game_view(game, HOUSE).as_json(),
            "actions": list(record["actions"]),
        }

    # --- the tablet -----------------------------------------------------------------------

    def used_cards(self, record: Mapping[str, Any]) -> set[str]:
        """Every card out of the deck pile: the hands, the trade ring, the discard pile and the
        High Risk burn (the house knows them all; only the deck pile's order is unknown)."""
        rebuilt = self.game_of(record)
        if rebuilt is None:
            return set()
        game = rebuilt[1]
        held = [c for hand in game.hands for c in hand]
        return {str(c) for c in (*held, *(r.card for r in game.ring), *game.discard, *game.burn)}

    def posted_step(
        self, post: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> dict[str, Any]:
        return floor.posted_form(post)

    def tablet_view(
        self,
        record: Mapping[str, Any],
        players: list[Any],
        *,
        posted: Mapping[str, Any],
        errors: Mapping[str, str],
    ) -> dict[str, Any]:
        return pages.hand_panel(record, [p.seat for p in players], posted=posted)

    def random_step(
        self, rng: random.Random, record: Mapping[str, Any], *, strategy: str | None = None
    ) -> dict[str, Any] | None:
        """A random legal next step: the deal (a shuffled deck), then the players' actions;
        the draws after a mulligan are the next cards of a shuffle of the unseen ones. The
        rake simulation's `typical` play is this random play."""
        rebuilt = floor.from_record(record)
        if rebuilt is None:
            terms = self.terms(record["terms"])
            setup = shuffled_setup(rng, len(record["buy_ins"]), variants=terms.variants)
            step: dict[str, Any] = {
                "do": "deal",
                "hands": [[str(c) for c in h] for h in setup.hands],
            }
            if setup.burn:
                step["burn"] = [str(c) for c in setup.burn]
            return step
        _, game = rebuilt
        if game.is_over:
            return None
        action = random_action(game, rng)
        step = floor.action_json(action)
        if isinstance(action, MulliganAction):
            unseen = [c for c in DECK if where_is(game, c) is None]
            rng.shuffle(unseen)
            step["draws"] = [str(c) for c in unseen[: len(draw_order(game))]]
        if step["do"] in ("auction", "offer") and game.stacks is None:
            del step["chips"]
        return step

    def random_game(
        self, rng: random.Random, terms: MulliganTerms, players: int, stack: int = 0
    ) -> Played:
        """A random legal game played to its end under `terms` (simulations, tests)."""
        chips = [max(stack, terms.table_minimum)] * players if terms.plays_for_chips else None
        setup = shuffled_setup(
            rng,
            players,
            variants=terms.variants,
            chips=chips,
            table_minimum=terms.table_minimum,
            rake=terms.rake(),
        )
        game = new_game(setup)
        drawn = 0
        while not game.is_over:
            before = game
            game = apply(game, random_action(game, rng))
            if isinstance(game.actions[-1], MulliganAction):
                drawn += len(draw_order(before))
        return Played(
            terms=terms,
            first=setup.first,
            hands=setup.hands,
            burn=setup.burn,
            chips=setup.chips,
            draws=setup.deck[:drawn],
            actions=game.actions,
        )


# The game as the registry holds it (`tables.games.INSTALLED`).
DEFINITION: Final = Mulligan()

__all__ = [
    "DEFINITION",
    "ActionKind",
    "Mulligan",
    "MulliganTerms",
    "Phase",
    "Played",
    "Variant",
    "allowed",
]
