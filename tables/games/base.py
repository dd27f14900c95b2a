"""What a game must declare to be played on the floor (the registry's interface).

`GameDefinition` is what every game has: its name (stored in the database), its label, the
demo table, and which tablet flow plays it. `BankedGame` is a house-banked card game played
in the tablet's five steps (wagers, cards, the players' decisions, the dealer's house way,
pay and close): the three games of today. A player-vs-player game (Rhode Island Hold 'Em,
Mulligan: hands of actions with a pot and rake) is a `GameDefinition` with a flow of its
own (`tablet_flow`), added as its own package the same way; nothing here assumes banked play
of it.

Nothing here imports the models, services or views: they ask the registry
(`tables.games.get`), the registry never asks them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar, Final

from core.errors import ServiceError
from tables import display as show
from tables.engine.cards import parse_cards
from tables.engine.errors import EngineError
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import MeterConfig
from tables.engine.settlement import Settlement


class UnknownGame(LookupError):
    """A game name the registry does not know (never silently played as another game)."""

    def __init__(self, name: object) -> None:
        super().__init__(f"no game {name!r} is registered")
        self.name = name


@dataclass(frozen=True)
class DemoMeter:
    """The progressive meter a demo table feeds (`seed_demo` opens it at `opening_cents`)."""

    name: str
    reset_cents: int
    rate: str
    wager_cents: int
    opening_cents: int


@dataclass(frozen=True)
class DemoTable:
    """The table `seed_demo` opens for the game, under a named paytable and limits (and the
    meter it feeds, for a game that takes a progressive)."""

    name: str
    paytable: str
    limits: Mapping[str, Mapping[str, int]]
    meter: DemoMeter | None = None


@dataclass(frozen=True)
class ProgressiveAward:
    """One award of a game's progressive: `key` as the settlement and the meter's `awards`
    name it, `label` in the floor's words, and the amount it pays unless the meter is set
    otherwise (`default_cents`); None for the jackpot, which pays the meter's own share."""

    key: str
    label: str
    default_cents: int | None = None

    @property
    def is_jackpot(self) -> bool:
        return self.default_cents is None


@dataclass
class Decision:
    """A seat's decision as the round's entry stores it (`fields`), and what the audit event
    records of it (`recorded`, by default the fields)."""

    fields: dict[str, Any]
    recorded: dict[str, Any] = field(default_factory=dict)


# The kinds of a decision's field (`DecisionField.kind`): how a form types it.
CARDS: Final = "cards"  # cards from the shoe or the seat's hand, typed "Ah Kd"
CHOICE: Final = "choice"  # one of the seat's own cards
FLAG: Final = "flag"  # yes or no
MONEY: Final = "money"  # an amount in dollars, kept as the contract's decimal string


@dataclass(frozen=True)
class DecisionField:
    """One field a seat's decision (or the dealer's play) sets in the round's entry, as a form
    that enters a whole round (a correction) shows it: `key` in the entry ("discard"; a field of
    a nested object as "mulligan.cards", the object present when its first field is given),
    `label` in the floor's words, `kind` (CARDS, CHOICE, FLAG or MONEY). `kept_empty`: the
    entry keeps the field even when empty (a stand that discards nothing)."""

    key: str
    label: str
    kind: str = CARDS
    kept_empty: bool = False

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(self.key.split("."))


@dataclass(frozen=True)
class StepField:
    """One field of a player-vs-player game's step as the API takes it: `kind` is "text", "whole"
    (a whole number, at least 0), "texts" (a list of text) or "json" (any JSON value)."""

    kind: str
    help: str = ""


def entry_value(holder: Mapping[str, Any], f: DecisionField) -> Any:
    """The value a seat's (or the dealer's) entry holds for `f` (None when absent)."""
    value: Any = holder
    for part in f.path:
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


def engine_call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call the engine; its refusal becomes the services' ServiceError (same message and field)."""
    try:
        return fn(*args, **kwargs)
    except EngineError as err:
        raise ServiceError(err.message, field=err.field, code=err.code.value) from None


def dealer_discard_cards(cards: list[str], chosen: Any) -> list[str]:
    """The dealer's discard as given, parsed: each card one of the dealer's (else `bad_card`,
    naming it, as a Lowball seat discarding a card it does not hold is)."""
    given = [str(c) for c in engine_call(parse_cards, chosen, where="the dealer's discard")]
    held = {str(c) for c in engine_call(parse_cards, cards, where="the dealer's cards")}
    strays = [c for c in given if c not in held]
    if strays:
        raise ServiceError(
            f"the dealer's discard {show.card_text(strays[:1])} is not one of the dealer's cards "
            f"({show.card_text(cards)})",
            field="dealer discard",
            code="bad_card",
        )
    return given


class GameDefinition:
    """Every game: registered once under `name` (`tables.games.register`)."""

    name: ClassVar[str]
    label: ClassVar[str]
    # "banked": the dealer tablet's step flow (`tables.views.tablet`); a player-vs-player game
    # names its own flow and brings its views.
    tablet_flow: ClassVar[str]
    demo: ClassVar[DemoTable | None] = None
    # Whether a table of the game may be linked to a progressive meter (its seats then may
    # place the meter's fixed `progressive` wager).
    takes_progressive: ClassVar[bool] = False
    # Its progressive's awards (a game that `takes_progressive` declares them, the jackpot
    # among them): what a meter of the game is set with, and the floor's words for each.
    progressive_awards: ClassVar[tuple[ProgressiveAward, ...]] = ()

    def fixed_awards(self) -> tuple[ProgressiveAward, ...]:
        """The awards of a fixed amount, which a meter of the game holds (not the jackpot)."""
        return tuple(a for a in self.progressive_awards if not a.is_jackpot)

    def __str__(self) -> str:
        return self.label

    def tablet_page(self, request: Any, table: Any) -> Any:
        """The tablet's page of a table of this game, for a game with a flow of its own (a
        banked game is played in the tablet's five steps instead)."""
        raise NotImplementedError(f"{self.label} has no tablet flow")


class BankedGame(GameDefinition):
    """A house-banked game played in the tablet's steps, settled by its engine."""

    tablet_flow = "banked"

    # --- wagers ---------------------------------------------------------------------------
    # Every wager a seat may place before the deal, in display order.
    seat_wagers: ClassVar[tuple[str, ...]]
    # The wagers the dealer types per seat (the rest follow from them, or are a checkbox).
    typed_wagers: ClassVar[tuple[str, ...]]
    # The wagers a paytable version sets a minimum and maximum for.
    limited_wagers: ClassVar[tuple[str, ...]]
    # The wagers a settled round may have lines for (the hold report's columns), in order.
    report_wagers: ClassVar[tuple[str, ...]]
    # The house-edge analysis's wagers (`tables.engine.house_edge`) and the settlement lines
    # each one settles, the first being its unit (its "initial wager"): a table's theoretical
    # win is each unit stake times its edge. Empty: the game has no theoretical figures.
    edge_wagers: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    # The wagers every seat that plays must place (a seat may place any of `seat_wagers`
    # beside them); empty: any one wager is enough.
    required_wagers: ClassVar[tuple[str, ...]] = ()
    # Wagers that always equal another one (wager -> the wager it follows): the tablet shows
    # them beside the wager they follow instead of an input (`check_wagers` fills them in).
    mirrored_wagers: ClassVar[Mapping[str, str]] = {}

    @property
    def hand_wager(self) -> str:
        """The wager whose settled lines count the hands played (the hold report's "hands"): a
        seat that played has exactly one line of it. The first required wager, else the first
        wager."""
        return (self.required_wagers or self.seat_wagers)[0]

    # --- the round's entry (the settle contract's input form) ------------------------------
    # The fields a seat's decision sets, in the order a form shows them (the correction form
    # is built from them; the tablet's own forms are the game's `decide_template`).
    decision_fields: ClassVar[tuple[DecisionField, ...]] = ()
    # The fields the dealer's play adds to the dealer's first cards (the correction form's).
    dealer_fields: ClassVar[tuple[DecisionField, ...]] = (
        DecisionField("draw", "Dealer drew"),
        DecisionField("discard", "Dealer discarded"),
    )

    @property
    def decision_keys(self) -> tuple[str, ...]:
        """The fields of a seat's entry a decision sets (cleared before it is set again)."""
        return tuple(dict.fromkeys(f.path[0] for f in self.decision_fields))

    @property
    def seat_keys(self) -> frozenset[str]:
        """The fields a seat of the round's entry may have."""
        return frozenset({"seat", "wagers", "cards", *self.decision_keys})

    def used_cards(self, entry: Mapping[str, Any]) -> set[str]:
        """Every card the round's entry holds (the tablet greys them out in its card grid): the
        dealer's and each seat's cards, and every card of their decisions."""
        used: set[str] = set()

        def add(holder: Mapping[str, Any], fields: tuple[DecisionField, ...]) -> None:
            used.update(holder.get("cards") or [])
            for f in fields:
                value = entry_value(holder, f)
                if f.kind == CARDS and isinstance(value, list | tuple):
                    used.update(str(c) for c in value)
                elif f.kind == CHOICE and isinstance(value, str):
                    used.add(value)

        add(entry.get("dealer") or {}, self.dealer_fields)
        for seat in entry.get("seats", []):
            add(seat, self.decision_fields)
        return used

    # --- the pages' words -----------------------------------------------------------------
    # The game's own words for its wagers, hands (the settlement's `hand`, a paytable's lines)
    # and awards; anything not named reads as its key in words ("side_bet" -> "Side Bet").
    wager_labels: ClassVar[Mapping[str, str]] = {}
    hand_labels: ClassVar[Mapping[str, str]] = {}
    award_labels: ClassVar[Mapping[str, str]] = {}

    def wager_label(self, wager: str) -> str:
        """A wager in the game's words ("Side Bet")."""
        return show.wager_label(wager, self.wager_labels)

    def hand_cards(self, hand: Mapping[str, Any]) -> list[list[str]] | None:
        """A settled hand (a seat's or the dealer's, the contract's output) as the cards of each
        hand it was set into, e.g. a two-card and a one-card hand; None: one hand, its final
        cards."""
        return None

    def settled_hands(
        self, seat: Mapping[str, Any], dealer: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """A seat's hands (when it plays several against the dealer's) each with its own result,
        by the game's rules: `label`, `cards`, `result` ("win", "lose") and `words` ("wins");
        empty for a game of one hand a seat."""
        return []

    # --- the tablet -----------------------------------------------------------------------
    decide_template: ClassVar[str]  # one seat's decision forms
    decisions_help: ClassVar[str]  # one line above the decisions
    wagers_note: ClassVar[str] = ""  # one line above the wagers (e.g. "the bonus equals ...")
    decision_grid: ClassVar[bool] = False  # the decisions take new cards from the tap grid
    # High-card hands say their highest card in this rank order ("King high"); None: never.
    high_card_order: ClassVar[str | None] = None

    # --- the API's schema (one sentence each) ---------------------------------------------
    api_wagers: ClassVar[str] = ""  # "ante, pair_plus."
    api_decision: ClassVar[str] = ""  # '{} to stand, or {"mulligan": true, ...}.'

    # --- the engine -----------------------------------------------------------------------
    def paytable(self, name: str, lines: Mapping[str, Any]) -> Paytable:
        """The engine's paytable from stored lines (refused: EngineError)."""
        raise NotImplementedError

    def required_lines(self) -> Mapping[str, tuple[str, ...]]:
        """Each paytable wager's lines, in display order (the admin's draft form)."""
        raise NotImplementedError

    def named_paytables(self) -> Mapping[str, Paytable]:
        """The paytables of the rules, by name (an admin drafts from one)."""
        raise NotImplementedError

    default_paytable: ClassVar[str] = "default"

    def settle(
        self, entry: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None
    ) -> Settlement:
        """Settle a whole round (refused: EngineError)."""
        raise NotImplementedError

    def decision_cost(
        self, entry: Mapping[str, Any], seat: int, paytable: Paytable
    ) -> Decimal | None:
        """The expected value, in cents, that a seat's recorded decisions gave up against the
        best play (exact where the game enumerates; None where the game measures none)."""
        return None

    def check_partial(self, entry: Mapping[str, Any]) -> None:
        """Refuse (EngineError) what is entered so far when it already breaks a rule."""
        raise NotImplementedError

    def dealer_advice(self, cards: list[str]) -> dict[str, Any]:
        """The house way for the dealer's cards: `rule` (words), `discard` (proposed),
        `draw_count`; a game adds what its tablet shows (choices, a setting)."""
        raise NotImplementedError

    # --- the services ---------------------------------------------------------------------
    def check_wagers(self, n: int, cents: dict[str, int]) -> None:
        """A seat's wagers (cents, after the limits are checked) by the game's own rules; may
        fill in a wager that follows from another (Lowball's bonus). Refused: ServiceError.
        (The progressive, for a game that `takes_progressive`, is checked by the services
        against the table's meter.)"""

    def decision(
        self, n: int, seat: Mapping[str, Any], given: Mapping[str, Any], limits: Mapping[str, Any]
    ) -> Decision:
        """One seat's decision, parsed (refused: ServiceError naming the seat)."""
        raise NotImplementedError

    def check_seat_entry(
        self, n: int, seat: dict[str, Any], limits: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A seat of a whole round given at once (a correction): its nested fields checked
        against the limits; returns the seat as stored."""
        return seat

    def dealer_discard(
        self, cards: list[str], advice: Mapping[str, Any], chosen: Any
    ) -> list[str] | None:
        """The dealer's discard the round records (a choice among equivalent discards), or None
        when the game records none. Where the house way leaves no choice, a discard given must
        be the house way's own: a card the dealer does not hold is `bad_card`, another choice
        `house_way` (never silently dropped)."""
        if chosen is None or chosen == "" or chosen == []:
            return None
        given = dealer_discard_cards(cards, chosen)
        if sorted(given) != sorted(advice["discard"]):
            shown = show.card_text(advice["discard"]) or "nothing"
            raise ServiceError(
                f"the house way on {show.card_text(cards)} discards {shown}, "
                f"not {show.card_text(given)}",
                field="dealer discard",
                code="house_way",
            )
        return None

    # --- the tablet -----------------------------------------------------------------------
    def decision_form(
        self, page: Any, block: dict[str, Any], seat: Mapping[str, Any], posted: Any
    ) -> None:
        """Fill one seat's decision block (`page.field(...)` for each input)."""
        raise NotImplementedError

    def posted_decision(self, n: int, post: Mapping[str, Any]) -> dict[str, Any]:
        """The decision a tablet form posted, in the services' form."""
        raise NotImplementedError

    def decision_summary(self, seat: Mapping[str, Any]) -> str:
        """A decided seat in words ("Stands pat", "Discards K♦, draws 2♣")."""
        raise NotImplementedError

    def headline(self, advice: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The dealer's house way as one instruction in parts (words and cards)."""
        raise NotImplementedError

    # --- simulation (demos, reports, load) --------------------------------------------------
    def random_round(
        self, rng: random.Random, seats: int | None, *, strategy: str | None = None
    ) -> dict[str, Any]:
        """A random legal round in the contract's input form, the players playing `strategy`
        (a name of `tables.engine.strategies`; None: the simulator's own mix)."""
        raise NotImplementedError

    def simulated_wagers(
        self, seat: Mapping[str, Any], stake: Any, meter_wager: str | None
    ) -> dict[str, str]:
        """A simulated seat's wagers (`stake(wager)` gives an amount within the limits): by
        default its hand's wager alone."""
        return {self.hand_wager: stake(self.hand_wager)}

    def simulated_decision(self, seat: Mapping[str, Any], stake: Any) -> dict[str, Any]:
        """A simulated seat's decision in the services' form."""
        raise NotImplementedError

    def simulated_entry_seat(
        self, seat: dict[str, Any], stake: Any, meter_wager: str | None
    ) -> None:
        """A random round's seat (`random_round`) given wagers within the limits, for a whole
        round settled at once (`seed_history`): sets `seat["wagers"]` and nested stakes."""
        seat["wagers"] = {self.hand_wager: stake(self.hand_wager)}


@dataclass(frozen=True)
class HandOutcome:
    """How a player-vs-player hand ended, in cents, players in the record's order: the pot, the
    house's rake, each player's payoff (summing to minus the rake) and stack after, and the
    game's own account of it (`detail`: pots, winners, hands shown) for the pages and the
    audit trail."""

    pot: int
    rake: int
    payoffs: tuple[int, ...]
    stacks: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HandStep:
    """One step of a hand as the auditor's replay shows it (`replay_steps`): a sentence as the
    floor says it (seats named, cards as cards, amounts in dollars), the cards the step dealt
    or showed (codes: the page draws them), and the pot and each player's stack after it in
    cents (players in the record's order; None: the step moved no chips worth showing)."""

    text: str
    cards: tuple[str, ...] = ()
    pot: int | None = None
    stacks: tuple[int, ...] | None = None


@dataclass(frozen=True)
class RakeTerms:
    """A table's rake as the game's rake simulation (`rake_edge`) takes it: the percent of the
    pot, its cap in cents (None: no cap), how many cents one of the simulation's chips stands
    for at the table (its `unit`), and each simulated player's stack in those chips (the buy-in
    that play assumes)."""

    percent: Decimal
    cap_cents: int | None
    chip_cents: int
    stack_chips: int


class PlayerVsPlayerGame(GameDefinition):
    """A poker-room game: players play each other, the house deals and takes a rake.

    A hand is its `replay` contract record, built one step at a time: `setup_record` makes it
    from the table settings and the players' stacks, `apply` adds one step the dealer entered
    (a card, an action) after the engine has checked it, `outcome` says how it ended. The floor
    (`tables.services.hands`) stores the record and never reads inside it; the game's own
    tablet flow (`tablet_page` and `urls`) shows it. Chips are cents.
    """

    tablet_flow = "pvp"
    # The settings an admin drafts (`check_settings` refuses anything else), with defaults, and
    # what each means (the admin's form); the demo table's (`demo.paytable` names them).
    default_settings: ClassVar[Mapping[str, Any]] = {}
    settings_help: ClassVar[Mapping[str, str]] = {}
    demo_settings: ClassVar[Mapping[str, Any]] = {}

    def check_settings(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Table settings as drafted, checked and normalised (ServiceError naming the field)."""
        raise NotImplementedError

    def settings_text(self, values: Mapping[str, Any]) -> str:
        """The settings in one line ("up to 6 players, ante $5.00, ...")."""
        return json_text(values)

    def view(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The hand as the tablet and the API show it (the game's own keys)."""
        raise NotImplementedError

    def max_players(self, values: Mapping[str, Any]) -> int:
        """How many players a hand under these settings may have."""
        raise NotImplementedError

    def min_buy_in(self, values: Mapping[str, Any]) -> int:
        """The smallest stack (cents) a player may start a hand with."""
        return 1

    def rake_terms(self, values: Mapping[str, Any]) -> RakeTerms | None:
        """The table's rake in the terms of the game's rake simulation, for its theoretical
        win (None: the game has no simulated rake)."""
        return None

    def setup_record(
        self, values: Mapping[str, Any], stacks: list[int], first: int
    ) -> dict[str, Any]:
        """A new hand's record: the settings, the stacks in player order, who acts first."""
        raise NotImplementedError

    def apply(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> dict[str, Any]:
        """The record with one more step (refused: ServiceError naming the card, the seat or
        the action as the floor says them, `seats` being each player's seat in order; the
        record given is not changed)."""
        raise NotImplementedError

    def floor_words(self, text: str, seats: Sequence[int] | None) -> str:
        """A sentence of the game's engine as the floor says it: its players (numbered from 0)
        by their seats, its cards as cards (`tables.display.floor_words`)."""
        return show.floor_words(text, seats)

    def step_text(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> str:
        """One step in words, for the audit trail ("Seat 3 raises $20.00"; `seats`: each
        player's seat in order)."""
        return json_text(step)

    def replay_steps(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> list[HandStep]:
        """The hand from its record, one step at a time, for the auditor's hand page: what
        each step did, the pot and the stacks after it (`seats`: each player's seat in
        order). Empty: the game gives no step-by-step replay (the page says so)."""
        return []

    def result_text(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> list[str]:
        """How the hand ended, one sentence each as the floor says it: who won what (and
        with which hand), the rake; empty while the hand is not over."""
        return []

    # --- a hand's mistakes (tables.services.hands: hand_undo, hand_misdeal) ---------------

    def undo_refusal(self, step: Mapping[str, Any], *, seats: Sequence[int] | None = None) -> str:
        """Why the hand's last step (`step`, as entered) cannot be taken back, or "" when it
        can: a player's action can, while no card or street has come after it (a step that
        deals a card is that card: it is not taken back)."""
        return f"a {self.label} hand has no undo"

    def misdeal_refusal(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> str:
        """Why a misdeal can no longer be called on this hand, or "" while it can."""
        return f"a {self.label} hand has no misdeal"

    def confirm_question(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> str:
        """The question the tablet asks before a step that ends a player's hand (a fold), or
        "" for a step entered at once."""
        return ""

    def replay_record(self, record: Mapping[str, Any]) -> Mapping[str, Any]:
        """The hand in the `replay` contract's form (what `manage.py replay` takes): the
        record itself, unless the game keeps more beside it."""
        return record

    def outcome(self, record: Mapping[str, Any]) -> HandOutcome | None:
        """How the hand ended, or None while it is not over."""
        raise NotImplementedError

    def random_step(
        self, rng: random.Random, record: Mapping[str, Any], *, strategy: str | None = None
    ) -> dict[str, Any] | None:
        """A random legal next step (simulation); None when the hand is over. `strategy`
        `typical`: the players play as the game's rake simulation assumes (`rake_edge`)."""
        raise NotImplementedError

    # --- the API (tables.api builds a step's serializer from these) ------------------------
    # The fields a step may have; a step has exactly one of `step_kinds` (what it is), and a
    # field of `step_needs` only with one of the fields it names (e.g. a player with an action).
    step_fields: ClassVar[Mapping[str, StepField]] = {}
    step_kinds: ClassVar[tuple[str, ...]] = ()
    step_needs: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    step_help: ClassVar[str] = ""  # a step in a few sentences (the API's schema)
    view_help: ClassVar[str] = ""  # `view`'s keys in a sentence (the API's schema)

    # --- pages of its own beside the tablet (tables.views.game_pages) -----------------------
    # slug -> template: /tablet/table/<id>/<game>/<slug>/, for the dealer signed in at the table
    # and the floor's oversight (e.g. a display the dealer turns to the players).
    pages: ClassVar[Mapping[str, str]] = {}
    # The pages among them built only from what every player may see (a display the players
    # face): a table's display key opens these and nothing else (tables.views.displays), the
    # first one being where it lands.
    player_pages: ClassVar[tuple[str, ...]] = ()

    def page_context(
        self, slug: str, record: Mapping[str, Any] | None, seats: list[int]
    ) -> dict[str, Any]:
        """What page `slug` shows of the table's hand (`record`: the hand in play, else the last
        finished one; None: no hand; `seats`: its players' seats in order)."""
        raise NotImplementedError

    # --- the tablet (tables.views.hands renders the page; the game its hand's form) --------
    hand_template: ClassVar[str] = ""  # the open hand's panel, in its templates/games/
    # The refusal fields the hand's form shows beside an input (others go on top).
    tablet_fields: ClassVar[frozenset[str]] = frozenset()

    def used_cards(self, record: Mapping[str, Any]) -> set[str]:
        """Every card the hand already holds (the tablet's card grid greys them out): the
        cards dealt and entered so far, wherever they are now."""
        return set()

    def posted_step(
        self, post: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> dict[str, Any]:
        """The step a tablet form posted, in the services' form (refused: ServiceError naming
        the seat, `seats` being each player's seat in order)."""
        raise NotImplementedError

    def tablet_view(
        self,
        record: Mapping[str, Any],
        players: list[Any],
        *,
        posted: Mapping[str, Any],
        errors: Mapping[str, str],
    ) -> dict[str, Any]:
        """What the hand's panel shows: `view(record)` in the pages' words, with the players'
        seats (`players`: the hand's HandPlayer rows in order), a refused form's values kept
        (`posted`) and its message at the field (`errors`: field -> message)."""
        raise NotImplementedError


def json_text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
