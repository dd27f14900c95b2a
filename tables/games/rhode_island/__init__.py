"""Rhode Island Hold 'Em on the floor: a poker-room game, players against each other, the house
deals and takes a rake (rules: docs/rules/rhode_island.md).

A hand is kept as its `replay` contract record (`docs/contracts/replay.md`); every step the
dealer enters is played by `game.RhodeIslandHand` on the hand rebuilt from
that record (`replay_record`'s code path), so the tablet, the API, the simulation and
`manage.py replay` run the same rules. Chips are cents.

Steps (the services' and the API's form):
    {"hole": ["Ah", "7d", ...]}          every player's hole card, in player order
    {"action": "raise", "player": 1}     the player to act checks, bets, calls, raises or folds
    {"flop": "Kc"}, {"turn": "2s"}        the community cards
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Final

from core.errors import ServiceError
from core.money import dollars
from tables import display as show
from tables.engine.cards import DECK, Card, parse_card
from tables.engine.errors import EngineError, Refusal

from ..base import DemoTable, HandOutcome, HandStep, PlayerVsPlayerGame, RakeTerms, StepField
from .game import (
    DEFAULT_ANTE,
    DEFAULT_BETS,
    DEFAULT_RAISE_CAP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    HandSetup,
    Move,
    RakeRule,
    RhodeIslandHand,
    Waiting,
)
from .replay import GAME, hand_record
from .rules import SIMULATED_STACK, TYPICAL, typical_move

_SETTINGS = ("players", "ante_cents", "bets_cents", "raise_cap", "rake_percent", "rake_cap_cents")
_STEP_KEYS = frozenset({"hole", "action", "player", "flop", "turn"})
_ROUND_NAMES = {"hole": "first round", "flop": "flop round", "turn": "turn round"}


_CHIPS = re.compile(r"\b(\d+) chips?\b")
_VERBS = {"check": "checks", "bet": "bets", "call": "calls", "raise": "raises", "fold": "folds"}


def _action_words(seat: str, move: str, amount: int, all_in: bool) -> str:
    """ "Seat 3 raises $20.00 (all-in)"."""
    chips = f" {dollars(amount)}" if amount else ""
    return f"{seat} {_VERBS.get(move, move + 's')}{chips}{' (all-in)' if all_in else ''}"


def _seats_text(players: Sequence[int], seats: Sequence[int] | None) -> str:
    names = [show.seat_word(i, seats) for i in players]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _refuse(
    err: EngineError, field: str | None = None, seats: Sequence[int] | None = None
) -> ServiceError:
    """The engine's refusal for the floor, where a chip is a cent: amounts said in dollars,
    a player (numbered from 0 by the engine) named by their seat, a card as the card (a
    refusal of what was typed quotes it as typed)."""
    message = _CHIPS.sub(lambda m: dollars(int(m.group(1))), err.message)
    message = show.floor_words(message, seats, card_codes=err.code is not Refusal.BAD_CARD)
    return ServiceError(message, field=field or err.field, code=err.code.value)


def _in_seats(err: ServiceError, seats: Sequence[int] | None) -> ServiceError:
    """A refusal of the game's own, its players named by their seats."""
    return ServiceError(
        show.floor_words(err.message, seats),
        field=err.field,
        code=err.code,
        status=err.status,
    )


def _whole(values: Mapping[str, Any], key: str, least: int, most: int | None = None) -> int:
    value = values.get(key)
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ServiceError(f"{key} must be a whole number, at least {least}", field=key)
    if most is not None and value > most:
        raise ServiceError(f"{key} must be at most {most}, not {value}", field=key)
    return value


def setup_of(record: Mapping[str, Any]) -> HandSetup:
    """The engine's setup from a stored record (written by `setup_record`, so well formed)."""
    rake = record.get("rake") or {}
    return HandSetup(
        stacks=tuple(record["stacks"]),
        first=record["first"],
        ante=record["ante"],
        bets=tuple(record["bets"]),
        raise_cap=record["raise_cap"],
        rake=RakeRule(Decimal(str(rake.get("percent", "0"))), rake.get("cap")),
    )


def rebuild(record: Mapping[str, Any]) -> RhodeIslandHand | None:
    """The hand as far as its record goes (None before the hole cards are dealt)."""
    hole = record.get("hole") or []
    if not hole:
        return None
    hand = RhodeIslandHand(setup_of(record), [parse_card(c) for c in hole])
    actions = list(record.get("actions", []))
    board = [record[k] for k in ("flop", "turn") if record.get(k)]
    for action in [*actions, None]:
        while hand.waiting in (Waiting.FLOP, Waiting.TURN) and board:
            card = parse_card(board.pop(0))
            if hand.waiting is Waiting.FLOP:
                hand.deal_flop(card)
            else:
                hand.deal_turn(card)
        if action is not None:
            hand.act(action)
    return hand


def _record_of(hand: RhodeIslandHand, record: Mapping[str, Any]) -> dict[str, Any]:
    out = hand_record(hand)
    # The contract's record of a hand still in play keeps its rake setting as stored.
    if "rake" in record:
        out["rake"] = record["rake"]
    return out


def _antes_posted(record: Mapping[str, Any]) -> dict[str, Any]:
    """The table once the antes are in, before the hole cards are entered: the stacks, each
    player's chips in the pot and the pot as the engine takes the antes (an ante nobody could
    match comes back to its owner). The engine posts them when the hole cards are dealt, so it
    is asked with stand-in cards: which cards they are changes nothing of the chips."""
    n = len(record["stacks"])
    hand = RhodeIslandHand(setup_of(record), list(DECK[:n]))
    return {
        "stacks": list(hand.stacks),
        "in_pot": list(hand.in_pot),
        "bets": [0] * n,
        "pot": hand.pot_total,
        "pots": [{"amount": p.amount, "players": list(p.players)} for p in hand.pots()],
    }


class RhodeIsland(PlayerVsPlayerGame):
    name = "rhode_island"
    label = "Rhode Island Hold 'Em"
    demo = DemoTable(name="RI-1", paytable="house", limits={})
    # The API's step: exactly one of hole, action, flop or turn; a player only with an action.
    step_fields: ClassVar[Mapping[str, StepField]] = {
        "hole": StepField("texts", "every player's hole card, in player order"),
        "action": StepField("text", "check, bet, call, raise or fold"),
        "player": StepField("whole", "the player expected to act"),
        "flop": StepField("text", "the flop card"),
        "turn": StepField("text", "the turn card"),
    }
    step_kinds: ClassVar[tuple[str, ...]] = ("hole", "action", "flop", "turn")
    step_needs: ClassVar[Mapping[str, tuple[str, ...]]] = {"player": ("action",)}
    step_help: ClassVar[str] = (
        "Rhode Island Hold 'Em: `hole` (every player's card, in player order), or `action` (and "
        "optionally the `player` expected to act), or `flop`, or `turn`."
    )
    view_help: ClassVar[str] = (
        "Rhode Island Hold 'Em: waiting (hole, action, flop, turn or over), to_act, legal (each "
        "action with the cents it puts in), pot, pots, stacks, bets, in_pot, folded, board, "
        "history, outcome."
    )
    default_settings: ClassVar[Mapping[str, Any]] = {
        "players": 2,
        "ante_cents": DEFAULT_ANTE * 100,
        "bets_cents": [b * 100 for b in DEFAULT_BETS],
        "raise_cap": DEFAULT_RAISE_CAP,
        "rake_percent": "0",
        "rake_cap_cents": None,
    }
    demo_settings: ClassVar[Mapping[str, Any]] = {
        "players": 6,
        "ante_cents": 500,
        "bets_cents": [1000, 2000, 2000],
        "raise_cap": 3,
        "rake_percent": "5",
        "rake_cap_cents": 300,
    }
    settings_help: ClassVar[Mapping[str, str]] = {
        "players": f"most players in a hand ({MIN_PLAYERS} to {MAX_PLAYERS})",
        "ante_cents": "each player's ante, in cents (0 for none)",
        "bets_cents": "the bet size of the first, second and third betting rounds, in cents",
        "raise_cap": "raises allowed after the bet in a betting round",
        "rake_percent": "the house's rake, a percent of the pot (0 to 100)",
        "rake_cap_cents": "the rake's cap in cents (empty: no cap)",
    }

    # --- table settings ------------------------------------------------------------------

    def check_settings(self, values: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(values, Mapping):
            raise ServiceError("the settings must be an object", field="settings")
        for key in values:
            if key not in _SETTINGS:
                raise ServiceError(
                    f"Rhode Island Hold 'Em has no setting {key!r} (only {', '.join(_SETTINGS)})",
                    field=str(key),
                )
        players = _whole(values, "players", MIN_PLAYERS, MAX_PLAYERS)
        ante = _whole(values, "ante_cents", 0)
        bets = values.get("bets_cents")
        if isinstance(bets, str):
            bets = [b for b in bets.replace(",", " ").split()]
        if not isinstance(bets, list | tuple) or len(bets) != 3:
            raise ServiceError(
                "bets_cents must be three bet sizes in cents: first, second, third round",
                field="bets_cents",
            )
        clean_bets = [
            _whole({f"bets_cents[{i}]": b}, f"bets_cents[{i}]", 1) for i, b in enumerate(bets)
        ]
        raise_cap = _whole(values, "raise_cap", 0, 20)
        raw = values.get("rake_percent", "0")
        try:
            percent = Decimal(str(raw).strip()) if not isinstance(raw, bool | float) else None
        except InvalidOperation:
            percent = None
        if percent is None or not percent.is_finite() or not 0 <= percent <= 100:
            raise ServiceError(
                f"rake_percent must be a decimal from 0 to 100, not {raw!r}", field="rake_percent"
            )
        cap_raw = values.get("rake_cap_cents")
        cap = None if cap_raw in (None, "") else _whole(values, "rake_cap_cents", 0)
        return {
            "players": players,
            "ante_cents": ante,
            "bets_cents": clean_bets,
            "raise_cap": raise_cap,
            "rake_percent": str(percent.normalize() if percent else Decimal(0)),
            "rake_cap_cents": cap,
        }

    def max_players(self, values: Mapping[str, Any]) -> int:
        return int(values["players"])

    def min_buy_in(self, values: Mapping[str, Any]) -> int:
        return 1

    def rake_terms(self, values: Mapping[str, Any]) -> RakeTerms:
        # The simulation antes DEFAULT_ANTE chips and bets DEFAULT_BETS: one chip is the
        # table's ante over that (its first bet's, without an ante).
        if values["ante_cents"]:
            chip = max(1, values["ante_cents"] // DEFAULT_ANTE)
        else:
            chip = max(1, values["bets_cents"][0] // DEFAULT_BETS[0])
        cap = values.get("rake_cap_cents")
        return RakeTerms(
            percent=Decimal(values["rake_percent"]),
            cap_cents=cap,
            chip_cents=chip,
            stack_chips=SIMULATED_STACK,
        )

    def settings_text(self, values: Mapping[str, Any]) -> str:
        bets = "/".join(dollars(b) for b in values["bets_cents"])
        rake = f"rake {values['rake_percent']}%"
        if values.get("rake_cap_cents") is not None:
            rake += f" (cap {dollars(values['rake_cap_cents'])})"
        return (
            f"up to {values['players']} players, ante {dollars(values['ante_cents'])}, "
            f"bets {bets}, {values['raise_cap']} raises, {rake}"
        )

    # --- a hand ---------------------------------------------------------------------------

    def setup_record(
        self, values: Mapping[str, Any], stacks: list[int], first: int
    ) -> dict[str, Any]:
        record: dict[str, Any] = {
            "game": GAME,
            "ante": values["ante_cents"],
            "bets": list(values["bets_cents"]),
            "raise_cap": values["raise_cap"],
            "rake": {"percent": values["rake_percent"]},
            "stacks": list(stacks),
            "first": first,
            "hole": [],
            "actions": [],
        }
        if values.get("rake_cap_cents") is not None:
            record["rake"]["cap"] = values["rake_cap_cents"]
        try:
            setup_of(record).check()
        except EngineError as err:
            raise _refuse(err, "players") from None
        return record

    def apply(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> dict[str, Any]:
        try:
            return self._apply(record, step, seats)
        except ServiceError as err:
            raise _in_seats(err, seats) from None

    def _apply(
        self, record: Mapping[str, Any], step: Mapping[str, Any], seats: Sequence[int] | None
    ) -> dict[str, Any]:
        unknown = set(step) - _STEP_KEYS
        if unknown:
            raise ServiceError(f"a step has no field {sorted(unknown)[0]!r}", field="step")
        try:
            hand = rebuild(record)
            if "hole" in step:
                return self._deal_hole(record, hand, step["hole"])
            if hand is None:
                raise ServiceError("deal the hole cards first", field="hole", code="incomplete")
            if "action" in step:
                self._act(hand, step)
            elif "flop" in step:
                hand.deal_flop(parse_card(step["flop"], where="the flop"))
            elif "turn" in step:
                hand.deal_turn(parse_card(step["turn"], where="the turn"))
            else:
                raise ServiceError(
                    "a step is the hole cards, an action, the flop or the turn", field="step"
                )
        except EngineError as err:
            raise _refuse(err, seats=seats) from None
        return _record_of(hand, record)

    def _deal_hole(
        self, record: Mapping[str, Any], hand: RhodeIslandHand | None, given: Any
    ) -> dict[str, Any]:
        if hand is not None:
            raise ServiceError("the hole cards are already dealt", field="hole")
        n = len(record["stacks"])
        if not isinstance(given, list | tuple) or len(given) != n:
            raise ServiceError(f"enter {n} hole cards, one per seat", field="hole")
        cards = [parse_card(c, where=f"player {i}'s hole card") for i, c in enumerate(given)]
        built = RhodeIslandHand(setup_of(record), cards)
        return _record_of(built, record)

    def _act(self, hand: RhodeIslandHand, step: Mapping[str, Any]) -> None:
        move = step.get("action")
        if not isinstance(move, str) or move.strip().lower() not in {m.value for m in Move}:
            raise ServiceError(
                f"{move!r} is not an action: check, bet, call, raise or fold", field="action"
            )
        player = step.get("player")
        if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
            raise ServiceError(f"player must be a player number, not {player!r}", field="player")
        hand.act(move.strip().lower(), player=player)

    def step_text(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> str:
        if "hole" in step:
            return "Hole cards " + ", ".join(
                f"{show.seat_word(i, seats)} {show.card_text([c])}"
                for i, c in enumerate(step["hole"])
            )
        if "flop" in step:
            return f"Flop {show.card_text([step['flop']])}"
        if "turn" in step:
            return f"Turn {show.card_text([step['turn']])}"
        hand = rebuild(record)
        who = step.get("player", hand.to_act if hand else None)
        seat = show.seat_word(who, seats) if isinstance(who, int) else "The player to act"
        move = str(step.get("action", "")).strip().lower()
        if hand is not None:
            try:  # the chips it puts in, as the engine counts them
                done = hand.act(move, player=step.get("player"))
            except EngineError:
                pass
            else:
                return _action_words(seat, done.move.value, done.amount, done.all_in)
        return f"{seat} {_VERBS.get(move, move + 's')}"

    def replay_steps(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> list[HandStep]:
        """The antes and the hole cards, each action (the chips it put in), the flop and
        the turn, with the pot and the stacks after each."""
        hole = record.get("hole") or []
        if not hole:
            return []
        hand = RhodeIslandHand(setup_of(record), [parse_card(c) for c in hole])
        ante = record.get("ante") or 0
        dealt = ", ".join(
            f"{show.seat_word(i, seats)} {show.card_text([c])}" for i, c in enumerate(hole)
        )
        antes = f"Each player antes {dollars(ante)}; h" if ante else "H"
        steps = [
            HandStep(
                f"{antes}ole cards dealt: {dealt}",
                tuple(hole),
                hand.pot_total,
                tuple(hand.stacks),
            )
        ]
        board = [record[k] for k in ("flop", "turn") if record.get(k)]
        for move in [*record.get("actions", []), None]:
            while hand.waiting in (Waiting.FLOP, Waiting.TURN) and board:
                card = board.pop(0)
                street = hand.waiting.value
                if hand.waiting is Waiting.FLOP:
                    hand.deal_flop(parse_card(card))
                else:
                    hand.deal_turn(parse_card(card))
                text = f"The {street}: {show.card_text([card])}"
                steps.append(HandStep(text, (card,), hand.pot_total, tuple(hand.stacks)))
            if move is None:
                break
            done = hand.act(move)
            name = _ROUND_NAMES[done.betting_round.value]
            text = _action_words(
                show.seat_word(done.player, seats), done.move.value, done.amount, done.all_in
            )
            steps.append(HandStep(f"{text} in the {name}", (), hand.pot_total, tuple(hand.stacks)))
        return steps

    def result_text(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> list[str]:
        """Each pot: its amount, its rake, who won it (with which hand at a showdown, the
        split and any odd chips); then the rake and each player's payoff."""
        outcome = self.outcome(record)
        if outcome is None:
            return []
        detail = outcome.detail
        hands = detail.get("hands") or []
        lines = []
        if not detail.get("showdown"):
            lines.append("No showdown: every other player folded.")
        for k, pot in enumerate(detail.get("pots") or []):
            name = "The main pot" if k == 0 else f"Side pot {k}"
            winners = list(pot["winners"])
            net = pot["amount"] - pot["rake"]
            rake = f", rake {dollars(pot['rake'])}" if pot["rake"] else ""
            shown = [
                f"{show.seat_word(w, seats)}: {str(hands[w]).replace('_', ' ')}"
                for w in winners
                if w < len(hands) and hands[w]
            ]
            how = f" ({'; '.join(shown)})" if shown else ""
            if len(winners) > 1:
                share, odd = divmod(net, len(winners))
                won = f"split by {_seats_text(winners, seats)}{how}: {dollars(share)} each"
                if odd:
                    won += f", the odd chips to {_seats_text(winners[:odd], seats)}"
            else:
                won = f"won by {_seats_text(winners, seats)}{how}: {dollars(net)}"
            lines.append(f"{name} of {dollars(pot['amount'])}{rake}: {won}.")
        lines.append(f"Pot {dollars(outcome.pot)}, rake (the house's win) {dollars(outcome.rake)}.")
        lines += [
            f"{show.seat_word(i, seats)}: {dollars(payoff, signed=True)}, "
            f"stack after {dollars(outcome.stacks[i])}."
            for i, payoff in enumerate(outcome.payoffs)
        ]
        return lines

    def undo_refusal(self, step: Mapping[str, Any], *, seats: Sequence[int] | None = None) -> str:
        """A player's action is taken back while it is the last step; the hole cards, the
        flop and the turn (a card dealt: the next street) are not."""
        if "action" in step:
            return ""
        if "hole" in step:
            return (
                "the last step is the hole cards: no action to take back yet (a misdeal "
                "cancels the hand before the flop)"
            )
        street = "flop" if "flop" in step else "turn"
        card = show.card_text([step.get(street)])
        return (
            f"the {street} ({card}) has been dealt since the last action: an action is taken "
            "back only before the next card"
        )

    def misdeal_refusal(
        self, record: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> str:
        """A misdeal is called before the flop."""
        if record.get("flop"):
            card = show.card_text([record["flop"]])
            return (
                f"the flop ({card}) is dealt: a misdeal is called only before the flop "
                "(the pit boss voids a hand after it)"
            )
        return ""

    def confirm_question(
        self,
        record: Mapping[str, Any],
        step: Mapping[str, Any],
        *,
        seats: Sequence[int] | None = None,
    ) -> str:
        """A fold ends the player's hand: the tablet asks first."""
        if str(step.get("action", "")).strip().lower() != Move.FOLD.value:
            return ""
        hand = rebuild(record)
        who = step.get("player", hand.to_act if hand else None)
        seat = show.seat_word(who, seats) if isinstance(who, int) else "The player to act"
        return f"{seat} folds: their hand is over and what they put in stays in the pot."

    def outcome(self, record: Mapping[str, Any]) -> HandOutcome | None:
        try:
            hand = rebuild(record)
        except EngineError:
            return None
        if hand is None or hand.waiting is not Waiting.OVER:
            return None
        result = hand.result()
        return HandOutcome(
            pot=result.pot,
            rake=result.rake,
            payoffs=result.payoffs,
            stacks=result.stacks,
            detail={
                "showdown": result.showdown,
                "hands": list(result.hands),
                "winners": list(result.winners),
                "awards": list(result.awards),
                "in_pot": list(result.in_pot),
                "pots": [
                    {
                        "amount": p.amount,
                        "rake": p.rake,
                        "players": list(p.players),
                        "winners": list(p.winners),
                    }
                    for p in result.pots
                ],
            },
        )

    # --- what the tablet shows --------------------------------------------------------------

    def view(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The hand as the tablet and the API show it: what it waits for, who is to act and
        what they may do (with the chips each puts in), pot, bets and stacks, every action so
        far, and when it is over, who wins what."""
        stacks = list(record["stacks"])
        n = len(stacks)
        hand = rebuild(record)
        if hand is None:
            return {
                "waiting": "hole",
                "players": n,
                "stacks": stacks,
                "bets": [0] * n,
                "in_pot": [0] * n,
                "folded": [False] * n,
                "pot": 0,
                "pots": [],
                "board": [],
                "hole": [],
                "to_act": None,
                "legal": [],
                "history": [],
                "betting_round": None,
                "first": record["first"],
                "outcome": None,
            }
        outcome = self.outcome(record)
        return {
            "waiting": hand.waiting.value,
            "players": n,
            "stacks": list(hand.stacks),
            "bets": list(hand.bets),
            "in_pot": list(hand.in_pot),
            "folded": list(hand.folded),
            "pot": hand.pot_total,
            "pots": [{"amount": p.amount, "players": list(p.players)} for p in hand.pots()],
            "board": [str(c) for c in hand.board],
            "hole": [str(c) for c in hand.hole],
            "to_act": hand.to_act,
            "legal": [
                {"action": a.move.value, "amount": a.amount, "all_in": a.all_in}
                for a in hand.legal_actions()
            ],
            "history": [
                {
                    "player": r.player,
                    "action": r.move.value,
                    "amount": r.amount,
                    "all_in": r.all_in,
                    "round": r.betting_round.value,
                    "pot_after": r.pot_after,
                }
                for r in hand.history
            ],
            "betting_round": hand.betting_round.value if hand.waiting is Waiting.ACTION else None,
            "first": record["first"],
            "outcome": None
            if outcome is None
            else {
                "pot": outcome.pot,
                "rake": outcome.rake,
                "payoffs": list(outcome.payoffs),
                "stacks": list(outcome.stacks),
                **dict(outcome.detail),
            },
        }

    # --- the tablet ---------------------------------------------------------------------------

    hand_template = "games/rhode_island_hand.html"
    tablet_fields = frozenset(
        {"hole", "flop", "turn", "the flop", "the turn", "actions", "action", "player"}
        | {f"player {i}'s hole card" for i in range(MAX_PLAYERS)}
    )

    def used_cards(self, record: Mapping[str, Any]) -> set[str]:
        """The hole cards and the board dealt so far."""
        codes = [*(record.get("hole") or []), *(record.get(k) for k in ("flop", "turn"))]
        return {str(parse_card(c)) for c in codes if c}

    def posted_step(
        self, post: Mapping[str, Any], *, seats: Sequence[int] | None = None
    ) -> dict[str, Any]:
        kind = post.get("step")
        if kind == "hole":
            hole = []
            for i in range(MAX_PLAYERS):
                if f"hole-{i}" not in post:
                    break
                card = (post.get(f"hole-{i}") or "").strip()
                if not card:
                    raise ServiceError(
                        f"enter {show.seat_word(i, seats)}'s hole card",
                        field=f"player {i}'s hole card",
                    )
                hole.append(card)
            return {"hole": hole}
        if kind in ("flop", "turn"):
            card = (post.get(kind) or "").strip()
            if not card:
                raise ServiceError(f"enter the {kind} card", field=f"the {kind}")
            return {kind: card}
        if kind == "action":
            player = post.get("player")
            step: dict[str, Any] = {"action": post.get("action") or ""}
            if player not in (None, ""):
                if not (isinstance(player, str) and player.isascii() and player.isdigit()):
                    raise ServiceError(f"{player!r} is not a player", field="player")
                step["player"] = int(player)
            return step
        raise ServiceError("the form posted no step", field="step")

    def tablet_view(
        self,
        record: Mapping[str, Any],
        players: list[Any],
        *,
        posted: Mapping[str, Any],
        errors: Mapping[str, str],
    ) -> dict[str, Any]:
        view = self.view(record)
        if view["waiting"] == "hole":
            view.update(_antes_posted(record))
        seat = [p.seat for p in players]
        outcome = view["outcome"]
        rows = []
        for i, p in enumerate(players):
            hole = view["hole"][i] if view["hole"] else None
            stack = view["stacks"][i] if outcome is None else outcome["stacks"][i]
            rows.append(
                {
                    "position": i,
                    "seat": p.seat,
                    "buy_in": dollars(p.buy_in_cents),
                    "stack": dollars(stack),
                    "bet": dollars(view["bets"][i]) if view["bets"][i] else "",
                    "in_pot": dollars(view["in_pot"][i]),
                    "folded": view["folded"][i],
                    "all_in": stack == 0 and not view["folded"][i] and bool(view["hole"]),
                    "to_act": view["to_act"] == i,
                    "first": view["first"] == i,
                    "hole": show.card(hole) if hole else None,
                    "hand": (outcome["hands"][i] or "").replace("_", " ") if outcome else "",
                    "award": dollars(outcome["awards"][i]) if outcome else "",
                    "payoff": dollars(outcome["payoffs"][i], signed=True) if outcome else "",
                    "payoff_class": show.result_class(outcome["payoffs"][i]) if outcome else "",
                    "hole_field": {
                        "name": f"hole-{i}",
                        "label": f"Seat {p.seat}",
                        "max": 1,
                        "value": posted.get(f"hole-{i}", ""),
                        "error": errors.get(f"player {i}'s hole card", ""),
                    },
                }
            )

        def seats_text(indices: Sequence[int]) -> str:
            names = [f"seat {seat[i]}" for i in indices]
            return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

        to_act = view["to_act"]
        legal = [
            {
                "action": a["action"],
                "label": a["action"].capitalize()
                + (f" {dollars(a['amount'])}" if a["amount"] else "")
                + (" (all-in)" if a["all_in"] else ""),
            }
            for a in view["legal"]
        ]
        history: list[dict[str, Any]] = []
        words = {"check": "checks", "fold": "folds", "bet": "bets", "call": "calls"}
        for h in view["history"]:
            if not history or history[-1]["key"] != h["round"]:
                name = _ROUND_NAMES[h["round"]].capitalize()
                history.append({"round": name, "key": h["round"], "items": []})
            verb = words.get(h["action"], "raises")
            amount = f" {dollars(h['amount'])}" if h["amount"] else ""
            history[-1]["items"].append(
                f"Seat {seat[h['player']]} {verb}{amount}{' (all-in)' if h['all_in'] else ''}"
                f" · pot {dollars(h['pot_after'])}"
            )
        pots = []
        if outcome is not None:
            for k, p in enumerate(outcome["pots"]):
                winners = p["winners"]
                net = p["amount"] - p["rake"]
                if len(winners) > 1:
                    share, odd = divmod(net, len(winners))
                    won = f"split by {seats_text(winners)}: {dollars(share)} each" + (
                        f", odd chip{'s' if odd > 1 else ''} to {seats_text(winners[:odd])}"
                        if odd
                        else ""
                    )
                else:
                    won = f"won by {seats_text(winners)}: {dollars(net)}"
                pots.append(
                    {
                        "name": "Main pot" if k == 0 else f"Side pot {k}",
                        "amount": dollars(p["amount"]),
                        "rake": dollars(p["rake"]) if p["rake"] else "",
                        "players": seats_text(p["players"]),
                        "won": won,
                    }
                )
        else:
            for k, p in enumerate(view["pots"]):
                pots.append(
                    {
                        "name": "Main pot" if k == 0 else f"Side pot {k}",
                        "amount": dollars(p["amount"]),
                        "players": seats_text(p["players"]),
                    }
                )
        return {
            "waiting": view["waiting"],
            "players": rows,
            "pot": dollars(view["pot"] if outcome is None else outcome["pot"]),
            "pots": pots,
            "board": [show.card(c) for c in view["board"]],
            "to_act_seat": seat[to_act] if to_act is not None else None,
            "to_act": to_act,
            "legal": legal,
            "history": history,
            "hole_error": errors.get("hole", ""),
            "action_error": errors.get("actions")
            or errors.get("action")
            or errors.get("player", ""),
            "board_field": {
                "name": view["waiting"],
                "label": f"The {view['waiting']} card",
                "max": 1,
                "value": posted.get(view["waiting"], ""),
                "error": errors.get(view["waiting"], "")
                or errors.get(f"the {view['waiting']}", ""),
            },
            "antes": dollars(sum(view["in_pot"])) if view["waiting"] == "hole" else "",
            # What is in the middle: the pots collected so far, and this round's bets (the
            # pot's total is both, so the words add up at every step).
            "bets_total": dollars(sum(view["bets"]))
            if outcome is None and any(view["bets"])
            else "",
            "round_name": _ROUND_NAMES.get(view["betting_round"] or "", "").capitalize(),
            "outcome": None
            if outcome is None
            else {
                "rake": dollars(outcome["rake"]),
                "pot": dollars(outcome["pot"]),
                "showdown": outcome["showdown"],
                "winners": seats_text(outcome["winners"]),
                "verb": "wins" if len(outcome["winners"]) == 1 else "win",
            },
        }

    # --- simulation -----------------------------------------------------------------------

    def random_step(
        self, rng: random.Random, record: Mapping[str, Any], *, strategy: str | None = None
    ) -> dict[str, Any] | None:
        hand = rebuild(record)
        if hand is None:
            cards = rng.sample(DECK, len(record["stacks"]) + 2)
            return {"hole": [str(c) for c in cards[: len(record["stacks"])]]}
        if hand.waiting is Waiting.OVER:
            return None
        if hand.waiting in (Waiting.FLOP, Waiting.TURN):
            used: Sequence[Card] = (*hand.hole, *hand.board)
            card = rng.choice([c for c in DECK if c not in used])
            return {hand.waiting.value: str(card)}
        legal = hand.legal_actions()
        if strategy == TYPICAL:
            seat = hand.to_act
            assert seat is not None
            move = typical_move(legal, [hand.hole[seat], *hand.board], rng)
            return {"action": move.value, "player": seat}
        weights = [
            {"check": 4, "call": 5, "bet": 2, "raise": 1, "fold": 1}[a.move.value] for a in legal
        ]
        choice = rng.choices(legal, weights=weights)[0]
        return {"action": choice.move.value, "player": hand.to_act}


# The game as the registry holds it (`tables.games.INSTALLED`).
DEFINITION: Final = RhodeIsland()

__all__ = ["DEFINITION", "RhodeIsland", "rebuild", "setup_of"]
