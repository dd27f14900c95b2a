"""The Mulligan half of the `replay` contract (`docs/contracts/replay.md`): a game's record as
JSON in, how it ended as JSON out. This module only translates; the rules are in
`game`, the same code the tablet drives.

`replay_mulligan(hand)` returns the result object, or `{"error": {...}}` with the contract's
code, a message naming the card, player or field, and (for an action) the action's index.
`game_record(game)` writes a game the tablet played as such a record, so an auditor can
replay it.

The checks run in the contract's order: `bad_json` (not an object), `unknown_game`,
`bad_card` (first the setup's cards, then every card named by an action), `duplicate_card`,
`bad_setup`, then the actions in order (`illegal_action` for the first refused one,
`incomplete` when they stop before the game ends; its `action` is then the index of the
missing action).

Rulings on the record's form (the contract is silent):
- A key the contract does not define is refused (`bad_setup` at the top level,
  `illegal_action` in an action): a misspelt `variant` must not replay as a plain game.
- `variants`, `burn`, `chips` and `rake` may be absent or `null`; `first`, `hands`, `deck`
  and `actions` are required. A variant named twice is `bad_setup`.
- `rake.percent` is a decimal string or an integer (never a float: money is exact); `rake.cap`
  an integer of at least 0, or absent for no cap.
- Offers are keyed by the player's index as a string (`"1"`) or an integer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from tables.engine.cards import Card, parse_card
from tables.engine.errors import EngineError, Refusal

from .game import (
    Action,
    Auction,
    Fold,
    MulliganGame,
    MulliganSetup,
    Offer,
    Phase,
    Rake,
    Skip,
    Swap,
    Variant,
    apply,
    check_cards,
    check_setup,
    new_game,
    result,
)
from .game import (
    Mulligan as MulliganAction,
)

JSON = dict[str, Any]
GAME = "mulligan"

_TOP_KEYS = frozenset(
    {"game", "variants", "first", "hands", "burn", "deck", "chips", "rake", "actions"}
)
_ACTION_KEYS = {
    "skip": frozenset({"do"}),
    "fold": frozenset({"do"}),
    "auction": frozenset({"do", "card", "chips", "offers", "then"}),
}
_OFFER_KEYS = frozenset({"card", "chips"})


class _Refused(Exception):
    def __init__(self, code: Refusal, message: str, action: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.action = action

    def as_dict(self) -> JSON:
        error: JSON = {"code": self.code.value, "message": self.message}
        if self.action is not None:
            error["action"] = self.action
        return {"error": error}


def _setup_error(message: str) -> _Refused:
    return _Refused(Refusal.BAD_SETUP, message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- the setup -------------------------------------------------------------------------------


def _card_list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise _setup_error(f"{where} must be a list of cards")
    return value


def _cards(items: Sequence[object], where: str) -> tuple[Card, ...]:
    try:
        return tuple(parse_card(item, where=where) for item in items)
    except EngineError as e:
        raise _Refused(e.code, e.message) from None


def _action_cards(actions: Sequence[object]) -> None:
    """Every card an action names must be readable (`bad_card` with the action's index)."""
    for i, action in enumerate(actions):
        if not isinstance(action, Mapping):
            continue
        named: list[tuple[object, str]] = []
        if "card" in action:
            named.append((action["card"], "the auctioned card"))
        offers = action.get("offers")
        if isinstance(offers, Mapping):
            for who, offer in offers.items():
                if isinstance(offer, Mapping) and "card" in offer:
                    named.append((offer["card"], f"player {who}'s offer"))
        for value, where in named:
            try:
                parse_card(value, where=f"action {i}, {where}")
            except EngineError as e:
                raise _Refused(e.code, e.message, i) from None


def _variants(value: object) -> frozenset[Variant]:
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        raise _setup_error('variants must be a list such as ["high_risk", "chips"]')
    known = ", ".join(v.value for v in Variant)
    chosen: set[Variant] = set()
    for item in value:
        if not isinstance(item, str) or item not in set(Variant):
            raise _setup_error(f"{item!r} is not a Mulligan variant (variants: {known})")
        variant = Variant(item)
        if variant in chosen:
            raise _setup_error(f"the variant {variant} is named twice")
        chosen.add(variant)
    return frozenset(chosen)


def _stacks(value: object) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(_is_int(s) for s in value):
        raise _setup_error("chips must be a list of whole numbers of chips, one per player")
    return tuple(value)


def _rake(value: object) -> Rake | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise _setup_error('rake must be an object such as {"percent": "10", "cap": 5}')
    extra = sorted(set(value) - {"percent", "cap"})
    if extra:
        raise _setup_error(f"rake has no {extra[0]!r} (only percent and cap)")
    raw = value.get("percent")
    percent: Decimal | None = None
    if _is_int(raw):
        assert isinstance(raw, int)
        percent = Decimal(raw)
    elif isinstance(raw, str | Decimal):
        try:
            percent = Decimal(raw.strip() if isinstance(raw, str) else raw)
        except InvalidOperation:
            percent = None
    if percent is None or not percent.is_finite():
        raise _setup_error(f'rake percent must be a decimal such as "7.5", not {raw!r}')
    cap = value.get("cap")
    if cap is not None and not _is_int(cap):
        raise _setup_error(f"rake cap must be a whole number of chips, not {cap!r}")
    try:
        return Rake(percent, cap)
    except EngineError as e:
        raise _Refused(e.code, e.message) from None


def _setup(hand: Mapping[str, Any]) -> tuple[MulliganSetup, list[object]]:
    """The setup and the raw actions, checked in the contract's order up to `bad_setup`."""
    raw_hands = hand.get("hands")
    if not isinstance(raw_hands, list) or not all(isinstance(h, list) for h in raw_hands):
        raise _setup_error("hands must be a list of each player's five cards")
    raw_deck = _card_list(hand.get("deck"), "deck")
    raw_burn = [] if hand.get("burn") is None else _card_list(hand.get("burn"), "burn")
    actions = hand.get("actions")
    if not isinstance(actions, list):
        raise _setup_error("actions must be a list (empty if nothing was done)")

    hands = tuple(_cards(h, f"player {p}'s hand") for p, h in enumerate(raw_hands))
    burn = _cards(raw_burn, "the burn")
    deck = _cards(raw_deck, "the deck")
    _action_cards(actions)

    first = hand.get("first")
    setup = MulliganSetup(hands=hands, deck=deck, burn=burn)
    try:
        check_cards(setup)
    except EngineError as e:
        raise _Refused(e.code, e.message) from None

    extra = sorted(set(hand) - _TOP_KEYS)
    if extra:
        raise _setup_error(f"a Mulligan record has no {extra[0]!r}")
    if not isinstance(first, int) or isinstance(first, bool):
        raise _setup_error(f"first must be the index of the first player, not {first!r}")
    setup = MulliganSetup(
        hands=hands,
        deck=deck,
        burn=burn,
        first=first,
        variants=_variants(hand.get("variants")),
        chips=_stacks(hand.get("chips")),
        rake=_rake(hand.get("rake")),
    )
    try:
        check_setup(setup)
    except EngineError as e:
        raise _Refused(e.code, e.message) from None
    return setup, actions


# --- the actions -----------------------------------------------------------------------------


def _player_key(key: object, players: int) -> int | None:
    if _is_int(key):
        assert isinstance(key, int)
        return key
    if isinstance(key, str) and key.isdigit() and str(int(key)) == key:
        return int(key)
    return None


def _chips(raw: Mapping[str, Any], game: MulliganGame, where: str, *, required: bool) -> int:
    if "chips" not in raw:
        if required and game.setup.plays_for_chips:
            raise _illegal(
                f"{where} needs chips: at least the table minimum of {game.setup.table_minimum}"
            )
        return 0
    if not game.setup.plays_for_chips:
        raise _illegal(f"{where} carries chips, but this game is not played for chips")
    value = raw["chips"]
    if not _is_int(value):
        raise _illegal(f"{where}: chips must be a whole number, not {value!r}")
    assert isinstance(value, int)
    return value


def _illegal(message: str) -> EngineError:
    return EngineError(Refusal.ILLEGAL_ACTION, message)


def _steps(raw: object, game: MulliganGame) -> list[Action] | None:
    """The first engine action of a recorded action; the rest come from `_auction_steps`."""
    if not isinstance(raw, Mapping):
        raise _illegal('an action must be an object such as {"do": "skip"}')
    do = raw.get("do")
    if do not in _ACTION_KEYS:
        raise _illegal(f"{do!r} is not an action (skip, fold or auction)")
    extra = sorted(set(raw) - _ACTION_KEYS[do])
    named = f"an {do}" if do == "auction" else f"a {do}"
    if extra:
        if "chips" in extra and not game.setup.plays_for_chips:
            raise _illegal(f"{named} carries chips, but this game is not played for chips")
        raise _illegal(f"{named} has no {extra[0]!r}")
    if game.phase is Phase.OVER:
        raise _illegal("the game is already over")
    a = game.auctioneer
    if do == "skip":
        return [Skip(a)]
    if do == "fold":
        return [Fold(a)]
    return None


def _apply_auction(raw: Mapping[str, Any], game: MulliganGame) -> MulliganGame:
    a = game.auctioneer
    if "card" not in raw:
        raise _illegal(f"player {a}'s auction names no card")
    card = parse_card(raw["card"])
    game = apply(game, Auction(a, card, _chips(raw, game, f"player {a}'s auction", required=True)))

    offers = raw.get("offers")
    if not isinstance(offers, Mapping):
        raise _illegal(f"player {a}'s auction of {card} has no offers")
    by_player: dict[int, Mapping[str, Any]] = {}
    for key, offer in offers.items():
        p = _player_key(key, game.players)
        if p is None:
            raise _illegal(f"offers are keyed by player index, not {key!r}")
        if p in by_player:
            raise _illegal(f"player {p} offers twice")
        if not isinstance(offer, Mapping) or "card" not in offer:
            raise _illegal(f"player {p}'s offer must be an object with its card")
        extra = sorted(set(offer) - _OFFER_KEYS)
        if extra:
            raise _illegal(f"player {p}'s offer has no {extra[0]!r}")
        by_player[p] = offer
    for p in sorted(by_player, key=lambda q: (q - a) % max(game.players, 1)):
        if not 0 <= p < game.players:
            raise _illegal(f"there is no player {p} to make an offer")
        offer = by_player[p]
        chips = _chips(offer, game, f"player {p}'s offer", required=False)
        game = apply(game, Offer(p, parse_card(offer["card"]), chips))
    if game.phase is Phase.OFFERS:
        missing = ", ".join(str(p) for p in game.awaiting_offers)
        raise _illegal(f"player {a}'s auction of {card} has no offer from player {missing}")

    then = raw.get("then")
    if then == "mulligan":
        return apply(game, MulliganAction(a))
    if isinstance(then, Mapping) and set(then) == {"swap"}:
        target = then["swap"]
        if not _is_int(target):
            raise _illegal(f"a swap names the player whose offer is taken, not {target!r}")
        return apply(game, Swap(a, target))
    raise _illegal(f'then must be "mulligan" or {{"swap": player}}, not {then!r}')


def replay_game(hand: Mapping[str, Any]) -> MulliganGame:
    """The finished game a record describes; raises `_Refused` (see `replay_mulligan`)."""
    setup, actions = _setup(hand)
    try:
        game = new_game(setup)
    except EngineError as e:
        raise _Refused(e.code, e.message) from None
    for i, raw in enumerate(actions):
        try:
            steps = _steps(raw, game)
            if steps is None:
                assert isinstance(raw, Mapping)
                game = _apply_auction(raw, game)
            else:
                for step in steps:
                    game = apply(game, step)
        except EngineError as e:
            raise _Refused(Refusal.ILLEGAL_ACTION, f"action {i}: {e.message}", i) from None
    if not game.is_over:
        who = (
            f"player {game.auctioneer}'s turn"
            if game.phase is Phase.TURN
            else f"player {game.auctioneer}'s auction"
        )
        raise _Refused(
            Refusal.INCOMPLETE,
            f"the actions stop before the game ends (waiting for {who})",
            len(actions),
        )
    return game


def result_json(game: MulliganGame) -> JSON:
    """The contract's result object for a finished game."""
    r = result(game)
    return {
        "game": GAME,
        "ended_by": r.ended_by.value,
        "winner": r.winner,
        "hands": [[str(c) for c in h] for h in r.hands],
        "categories": [c.value for c in r.categories],
        "discards": r.discards,
        "pot": r.pot,
        "rake": r.rake,
        "chips": None if r.chips is None else list(r.chips),
    }


def replay_mulligan(hand: dict[str, Any]) -> dict[str, Any]:
    """A Mulligan record replayed: the contract's result, or `{"error": {...}}`."""
    if not isinstance(hand, Mapping):
        return _Refused(Refusal.BAD_JSON, "a hand must be a JSON object").as_dict()
    if hand.get("game") != GAME:
        return _Refused(
            Refusal.UNKNOWN_GAME, f"{hand.get('game')!r} is not the game {GAME!r}"
        ).as_dict()
    try:
        return result_json(replay_game(hand))
    except _Refused as refused:
        return refused.as_dict()


# --- a played game as a record ---------------------------------------------------------------


def game_record(game: MulliganGame) -> JSON:
    """The contract's record of `game` (the setup and every completed action), so that
    `replay` re-checks a game the tablet played. An auction still open is left out."""
    setup = game.setup
    record: JSON = {"game": GAME}
    if setup.variants:
        record["variants"] = [v.value for v in Variant if v in setup.variants]
    record["first"] = setup.first
    record["hands"] = [[str(c) for c in h] for h in setup.hands]
    if setup.burn:
        record["burn"] = [str(c) for c in setup.burn]
    record["deck"] = [str(c) for c in setup.deck]
    chips = setup.plays_for_chips
    if setup.chips is not None:
        record["chips"] = list(setup.chips)
    if setup.rake is not None:
        rake: JSON = {"percent": str(setup.rake.percent)}
        if setup.rake.cap is not None:
            rake["cap"] = setup.rake.cap
        record["rake"] = rake
    actions: list[JSON] = []
    auction: JSON | None = None
    for action in game.actions:
        if isinstance(action, Skip):
            actions.append({"do": "skip"})
        elif isinstance(action, Fold):
            actions.append({"do": "fold"})
        elif isinstance(action, Auction):
            auction = {"do": "auction", "card": str(action.card)}
            if chips:
                auction["chips"] = action.chips
            auction["offers"] = {}
        elif isinstance(action, Offer):
            assert auction is not None
            offer: JSON = {"card": str(action.card)}
            if chips and action.chips:
                offer["chips"] = action.chips
            auction["offers"][str(action.player)] = offer
        else:
            assert auction is not None
            auction["then"] = {"swap": action.offer_of} if isinstance(action, Swap) else "mulligan"
            actions.append(auction)
            auction = None
    record["actions"] = actions
    return record


__all__ = ["game_record", "replay_game", "replay_mulligan", "result_json"]
