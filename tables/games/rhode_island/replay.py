"""The `replay` contract for Rhode Island Hold 'Em (`docs/contracts/replay.md`): a hand's record
as JSON in, how it ended as JSON out. This module only translates; the hand is played by
`rhode_island.RhodeIslandHand`, the same code the dealer's tablet drives.

`replay_rhode_island(record)` returns the result object or `{"error": {...}}`;
`replay_record(record)` returns the `HandResult` or raises; `hand_record(hand)` writes a hand
the tablet played as such a record, so that it can be saved, rebuilt and re-checked.

Checks run in the contract's order: `bad_card` (a hole, flop or turn card that cannot be read),
`duplicate_card`, `bad_setup`, then the actions in order (`illegal_action` with the index of the
first refused one), then `incomplete` (the actions, or the flop or turn card, run out before the
hand ends).

Rulings on the record's form (the contract is silent): a field it does not define is
`bad_setup`; `rake` and `rake.cap` may be `null`; `rake.percent` is a decimal string or a JSON
number read exactly (`replay` parses numbers with a fraction as `Decimal`); `incomplete`
carries in `action` the index of the action that was missing, or that could not be played
without the missing flop or turn; an action after the hand is over is `illegal_action`.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from tables.engine.cards import Card, CardLedger, parse_card
from tables.engine.errors import EngineError, Refusal
from tables.engine.replay_errors import ActionRefused

from .game import (
    DEFAULT_ANTE,
    DEFAULT_BETS,
    DEFAULT_RAISE_CAP,
    HandResult,
    HandSetup,
    RakeRule,
    RhodeIslandHand,
    Waiting,
)

JSON = dict[str, Any]
GAME: Final = "rhode_island"
_KEYS: Final = frozenset(
    {
        "game",
        "ante",
        "bets",
        "raise_cap",
        "rake",
        "stacks",
        "first",
        "hole",
        "flop",
        "turn",
        "actions",
    }
)
_RAKE_KEYS: Final = frozenset({"percent", "cap"})


def _setup_error(message: str, where: str) -> EngineError:
    return EngineError(Refusal.BAD_SETUP, message, field=where)


def _cards(data: Mapping[str, Any]) -> tuple[list[Card] | None, Card | None, Card | None]:
    """The hole cards (None when `hole` is not a list: a setup error), flop and turn."""
    raw_hole = data.get("hole")
    hole = None
    if isinstance(raw_hole, list):
        hole = [parse_card(c, where=f"player {i}'s hole card") for i, c in enumerate(raw_hole)]
    flop = None if data.get("flop") is None else parse_card(data["flop"], where="the flop")
    turn = None if data.get("turn") is None else parse_card(data["turn"], where="the turn")
    ledger = CardLedger()
    for i, card in enumerate(hole or ()):
        ledger.place((card,), f"player {i}'s hole card")
    if flop is not None:
        ledger.place((flop,), "the flop")
    if turn is not None:
        ledger.place((turn,), "the turn")
    return hole, flop, turn


def _whole(value: object, where: str, *, at_least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < at_least:
        raise _setup_error(
            f"{where} must be a whole number, at least {at_least}, not {_show(value)}", where
        )
    return value


def _show(value: object) -> str:
    return "nothing" if value is None else repr(value) if isinstance(value, str) else str(value)


def _rake(raw: object) -> RakeRule:
    if raw is None:
        return RakeRule()
    if not isinstance(raw, Mapping):
        raise _setup_error("rake must be an object with percent and an optional cap", "rake")
    for key in raw:
        if key not in _RAKE_KEYS:
            raise _setup_error(f"the rake has no setting {key!r} (only percent and cap)", "rake")
    percent_raw = raw.get("percent")
    percent: Decimal | None = None
    if isinstance(percent_raw, int | str | Decimal) and not isinstance(percent_raw, bool):
        try:
            percent = Decimal(str(percent_raw).strip())
        except InvalidOperation:
            percent = None
    if percent is None or not percent.is_finite() or not 0 <= percent <= 100:
        raise _setup_error(
            f"rake.percent must be a decimal from 0 to 100, not {_show(percent_raw)}",
            "rake.percent",
        )
    cap_raw = raw.get("cap")
    cap = None if cap_raw is None else _whole(cap_raw, "rake.cap", at_least=0)
    return RakeRule(percent, cap)


def parse_setup(data: Mapping[str, Any], hole: list[Card] | None) -> HandSetup:
    """The hand's setup from the contract's fields; refuses (`bad_setup`) naming the field."""
    for key in data:
        if key not in _KEYS:
            raise _setup_error(f"a Rhode Island hand has no field {key!r}", str(key))
    stacks_raw = data.get("stacks")
    if not isinstance(stacks_raw, list):
        raise _setup_error("stacks must be a list of chip counts, one per player", "stacks")
    if not 2 <= len(stacks_raw) <= 10:
        raise _setup_error(f"a hand needs 2 to 10 players, not {len(stacks_raw)}", "stacks")
    stacks = tuple(_whole(s, f"player {i}'s stack", at_least=1) for i, s in enumerate(stacks_raw))
    if hole is None:
        raise _setup_error("hole must be a list of hole cards, one per player", "hole")
    if len(hole) != len(stacks):
        raise _setup_error(
            f"{len(stacks)} players need {len(stacks)} hole cards, not {len(hole)}", "hole"
        )
    if "first" not in data:
        raise _setup_error("first (the index of the player who acts first) is missing", "first")
    first = _whole(data["first"], "first", at_least=0)
    if first >= len(stacks):
        raise _setup_error(
            f"first must be a player index from 0 to {len(stacks) - 1}, not {first}", "first"
        )
    ante = _whole(data.get("ante", DEFAULT_ANTE), "ante", at_least=0)
    bets_raw = data.get("bets", list(DEFAULT_BETS))
    if not isinstance(bets_raw, list) or len(bets_raw) != 3:
        raise _setup_error(
            "bets must be a list of three bet sizes (the first, second and third rounds)", "bets"
        )
    b1, b2, b3 = (_whole(b, f"bets[{i}]", at_least=1) for i, b in enumerate(bets_raw))
    raise_cap = _whole(data.get("raise_cap", DEFAULT_RAISE_CAP), "raise_cap", at_least=0)
    setup = HandSetup(
        stacks=stacks,
        first=first,
        ante=ante,
        bets=(b1, b2, b3),
        raise_cap=raise_cap,
        rake=_rake(data.get("rake")),
    )
    setup.check()
    return setup


def replay_rhode_island(data: Mapping[str, Any]) -> JSON:
    """Replay one hand given in the contract's form: the result, or `{"error": {...}}` with the
    contract's code, a message naming the card, player, action or field, and for an action
    its index."""
    try:
        return result_to_json(replay_record(data))
    except EngineError as err:
        return err.as_dict()


def replay_record(data: Mapping[str, Any]) -> HandResult:
    """Replay one hand given in the contract's form; raises `EngineError` (or `ActionRefused`,
    which carries the action's index) when it is refused."""
    hole, flop, turn = _cards(data)
    setup = parse_setup(data, hole)
    assert hole is not None
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise _setup_error("actions must be a list (check, bet, call, raise, fold)", "actions")
    board = [c for c in (flop, turn) if c is not None]
    hand = RhodeIslandHand(setup, hole, board=board if flop is not None else ())
    for index, action in enumerate(actions):
        _deal_board(hand, flop, turn, index)
        if hand.waiting is Waiting.OVER:
            raise ActionRefused(
                Refusal.ILLEGAL_ACTION,
                f"action {index} ({_show(action)}): the hand is already over",
                action=index,
            )
        if not isinstance(action, str):
            raise ActionRefused(
                Refusal.ILLEGAL_ACTION,
                f"action {index} must be check, bet, call, raise or fold, not {_show(action)}",
                action=index,
            )
        try:
            hand.act(action.strip().lower())
        except EngineError as err:
            raise ActionRefused(err.code, f"action {index}: {err.message}", action=index) from None
    _deal_board(hand, flop, turn, len(actions))
    if hand.waiting is Waiting.ACTION:
        raise ActionRefused(
            Refusal.INCOMPLETE,
            f"the actions stop before the hand ends: player {hand.to_act} is to act "
            f"after action {len(actions) - 1}"
            if actions
            else f"the actions stop before the hand ends: player {hand.to_act} is to act first",
            action=len(actions),
        )
    return hand.result()


def _deal_board(hand: RhodeIslandHand, flop: Card | None, turn: Card | None, index: int) -> None:
    """Deal the flop and turn as soon as the hand waits for them; `incomplete` if absent."""
    while hand.waiting in (Waiting.FLOP, Waiting.TURN):
        name = hand.waiting.value
        card = flop if hand.waiting is Waiting.FLOP else turn
        if card is None:
            raise ActionRefused(
                Refusal.INCOMPLETE,
                f"the hand reaches the {name} but no {name} card is given",
                action=index,
            )
        if hand.waiting is Waiting.FLOP:
            hand.deal_flop(card)
        else:
            hand.deal_turn(card)


def hand_record(hand: RhodeIslandHand) -> JSON:
    """The contract's record of `hand` (its setup, cards and every action so far), so that a
    hand the tablet played can be saved, rebuilt with `replay_record` and re-checked by
    `replay`."""
    setup = hand.setup
    record: JSON = {
        "game": GAME,
        "ante": setup.ante,
        "bets": list(setup.bets),
        "raise_cap": setup.raise_cap,
    }
    if setup.rake.percent or setup.rake.cap is not None:
        rake: JSON = {"percent": str(setup.rake.percent)}
        if setup.rake.cap is not None:
            rake["cap"] = setup.rake.cap
        record["rake"] = rake
    record["stacks"] = list(setup.stacks)
    record["first"] = setup.first
    record["hole"] = [str(c) for c in hand.hole]
    for name, card in zip(("flop", "turn"), hand.board, strict=False):
        record[name] = str(card)
    record["actions"] = [r.move.value for r in hand.history]
    return record


def result_to_json(result: HandResult) -> JSON:
    """The contract's output object for a finished hand."""
    return {
        "game": GAME,
        "pot": result.pot,
        "rake": result.rake,
        "showdown": result.showdown,
        "hands": list(result.hands),
        "winners": list(result.winners),
        "payoffs": list(result.payoffs),
    }
