"""A Mulligan game on the floor, as the dealer enters it: the deal, then one action at a time.

The dealer deals real cards and enters what the system cannot know: each player's five cards
(and, under High Risk, the 13 burnt face down, for the house's record), the chips each player
brings, and after a mulligan the card each active player draws, in the order they draw
(clockwise from the auctioneer). The deck pile's order is learnt draw by draw: the engine's
setup takes the cards drawn so far, in order, on top of the cards nobody has seen yet (in deck
order), and every game is rebuilt from its deal and its actions by the engine (`rebuild`), so
the floor and `manage.py replay` run the same rules on the same record. At a deck ending the
cards left in the deck pile are the ones nobody has seen: the system names them.

`Played` is that record (pure data, stored as JSON); `play(played, posted)` checks one posted
action and returns the next record and the engine's snapshot, or raises `ServiceError` naming
the field (a refusal: nothing changes) or `GameAssertionError` (a bug: nothing changes either;
the services log it and write it on the audit trail).

The hand's stored record (`tables.models.Hand.record`, see `setup_record` and `apply_step`) is
`Played` as JSON with the buy-ins, plus `replay`: the game in the `replay` contract's form
(`replay.game_record`), so an auditor can run `manage.py replay` on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from core.errors import ServiceError
from core.money import typed_dollars
from core.params import ascii_int
from tables.engine.cards import DECK, Card, parse_card, parse_cards
from tables.engine.errors import EngineError
from tables.engine.money import parse_cents

from .game import (
    HAND_SIZE,
    HIGH_RISK_BURN,
    Action,
    Auction,
    Fold,
    MulliganGame,
    MulliganSetup,
    Offer,
    Phase,
    Skip,
    Swap,
    Variant,
    apply,
    clockwise_from,
    new_game,
)
from .game import Mulligan as MulliganAction
from .replay import game_record
from .terms import MulliganTerms

MAX_PLAYERS = 8  # 52 cards: 8 hands of 5 leave 12, at least one each (6 under High Risk)
MAX_STACK = 100_000_000  # chips a player may bring (a sanity bound on a typed number)


def _refuse(message: str, field_name: str | None, code: str = "invalid") -> ServiceError:
    return ServiceError(message, field=field_name, code=code)


def _engine(err: EngineError, field_name: str | None = None) -> ServiceError:
    return ServiceError(err.message, field=field_name or err.field, code=err.code.value)


@dataclass(frozen=True)
class Played:
    """A game's record on the floor: the terms it is played under, the deal, the cards drawn
    from the deck pile so far (in order) and every action (engine actions, in order)."""

    terms: MulliganTerms
    first: int
    hands: tuple[tuple[Card, ...], ...]
    burn: tuple[Card, ...] = ()
    chips: tuple[int, ...] | None = None
    draws: tuple[Card, ...] = ()
    actions: tuple[Action, ...] = field(default=(), repr=False)

    @property
    def players(self) -> int:
        return len(self.hands)

    def setup(self, draws: Sequence[Card] | None = None) -> MulliganSetup:
        """The engine's setup: `draws` (the cards drawn so far) on top of the unseen cards."""
        drawn = tuple(self.draws if draws is None else draws)
        seen = {c for h in self.hands for c in h} | set(self.burn) | set(drawn)
        unseen = tuple(c for c in DECK if c not in seen)
        return MulliganSetup(
            hands=self.hands,
            deck=drawn + unseen,
            first=self.first,
            variants=self.terms.variants,
            burn=self.burn,
            chips=self.chips,
            table_minimum=self.terms.table_minimum,
            rake=self.terms.rake(),
        )

    # --- JSON (the stored record) -------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        return {
            "terms": self.terms.as_json(),
            "first": self.first,
            "hands": [[str(c) for c in h] for h in self.hands],
            "burn": [str(c) for c in self.burn],
            "chips": None if self.chips is None else list(self.chips),
            "draws": [str(c) for c in self.draws],
            "actions": [action_json(a) for a in self.actions],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Played:
        return cls(
            terms=MulliganTerms.from_json(data["terms"]),
            first=int(data["first"]),
            hands=tuple(tuple(parse_card(c) for c in h) for h in data["hands"]),
            burn=tuple(parse_card(c) for c in data.get("burn") or ()),
            chips=None if data.get("chips") is None else tuple(int(x) for x in data["chips"]),
            draws=tuple(parse_card(c) for c in data.get("draws") or ()),
            actions=tuple(action_from_json(a) for a in data.get("actions") or ()),
        )


def action_json(action: Action) -> dict[str, Any]:
    """An engine action as the record stores it (and the audit event shows it)."""
    if isinstance(action, Skip | Fold | MulliganAction):
        kind = {Skip: "skip", Fold: "fold", MulliganAction: "mulligan"}[type(action)]
        return {"do": kind, "player": action.player}
    if isinstance(action, Swap):
        return {"do": "swap", "player": action.player, "offer_of": action.offer_of}
    kind = "auction" if isinstance(action, Auction) else "offer"
    return {"do": kind, "player": action.player, "card": str(action.card), "chips": action.chips}


def action_from_json(data: Mapping[str, Any]) -> Action:
    do, player = data["do"], int(data["player"])
    if do == "skip":
        return Skip(player)
    if do == "fold":
        return Fold(player)
    if do == "mulligan":
        return MulliganAction(player)
    if do == "swap":
        return Swap(player, int(data["offer_of"]))
    if do == "auction":
        return Auction(player, parse_card(data["card"]), int(data.get("chips", 0)))
    if do == "offer":
        return Offer(player, parse_card(data["card"]), int(data.get("chips", 0)))
    raise ValueError(f"no Mulligan action {do!r}")


# --- the deal --------------------------------------------------------------------------------


def _int(value: object, field_name: str, what: str, *, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise _refuse(f"{what} must be a whole number, not {value!r}", field_name)
    if isinstance(value, str):
        value = value.strip()
        magnitude = ascii_int(value.removeprefix("-"))
        if magnitude is None:  # ASCII digits only: "²" passes isdigit(), int() refuses it
            raise _refuse(f"{what} must be a whole number, not {value!r}", field_name)
        value = -magnitude if value.startswith("-") else magnitude
    if not isinstance(value, int):
        raise _refuse(f"{what} must be a whole number, not {value!r}", field_name)
    if not low <= value <= high:
        raise _refuse(f"{what} must be from {low} to {high}, not {value}", field_name)
    return value


def max_players(terms: MulliganTerms) -> int:
    return 6 if Variant.HIGH_RISK in terms.variants else MAX_PLAYERS


def deal(
    terms: MulliganTerms,
    *,
    hands: Sequence[object],
    first: object,
    burn: object = "",
    chips: Sequence[object] | None = None,
) -> tuple[Played, MulliganGame]:
    """The game as dealt: each player's five cards (a list of cards or a string "Ah Kd ..."),
    the first auctioneer, the burn under High Risk, the chips each player brings when playing
    for chips. Refused (ServiceError naming the field, e.g. `hand_2`, `burn`, `chips_1`)."""
    n = len(hands)
    most = max_players(terms)
    if not 2 <= n <= most:
        raise _refuse(
            f"Mulligan is played by 2 to {most} players"
            f"{' under High Risk' if most < MAX_PLAYERS else ''}, not {n}",
            "players",
        )
    where: dict[Card, str] = {}

    def place(cards: Sequence[Card], place_name: str, field_name: str) -> None:
        for card in cards:
            seen = where.get(card)
            if seen is not None:
                raise _refuse(
                    f"{card} in {place_name} is already in {seen}", field_name, "duplicate_card"
                )
            where[card] = place_name

    dealt: list[tuple[Card, ...]] = []
    for p, raw in enumerate(hands):
        name = f"player {p}'s hand"
        try:
            hand = parse_cards(raw, where=name, count=HAND_SIZE)
        except EngineError as err:
            raise _engine(err, f"hand_{p}") from None
        place(hand, name, f"hand_{p}")
        dealt.append(hand)
    high_risk = Variant.HIGH_RISK in terms.variants
    try:
        burnt = parse_cards(burn or "", where="the burn")
    except EngineError as err:
        raise _engine(err, "burn") from None
    if high_risk and len(burnt) != HIGH_RISK_BURN:
        raise _refuse(
            f"High Risk burns {HIGH_RISK_BURN} cards face down: enter all {HIGH_RISK_BURN} "
            f"for the house's record, not {len(burnt)}",
            "burn",
            "card_count",
        )
    if not high_risk and burnt:
        raise _refuse("only High Risk burns cards: leave the burn empty", "burn", "card_count")
    place(burnt, "the burn", "burn")
    first_player = _int(first, "first", "the first player", low=0, high=n - 1)
    stacks: tuple[int, ...] | None = None
    if terms.plays_for_chips:
        if chips is None or len(chips) != n:
            raise _refuse(f"playing for chips: enter the chips of each of the {n} players", "chips")
        stacks = tuple(
            _int(c, f"chips_{p}", f"player {p}'s chips", low=0, high=MAX_STACK)
            for p, c in enumerate(chips)
        )
        for p, stack in enumerate(stacks):
            if stack < terms.table_minimum:
                raise _refuse(
                    f"player {p} brings {stack} chips, less than the table minimum of "
                    f"{terms.table_minimum}: the house seats nobody who could never open an "
                    "auction",
                    f"chips_{p}",
                )
    elif chips and any(str(c).strip() not in ("", "0") for c in chips):
        raise _refuse("this table does not play for chips: leave the chips empty", "chips")
    played = Played(terms=terms, first=first_player, hands=tuple(dealt), burn=burnt, chips=stacks)
    try:
        game = new_game(played.setup())
    except EngineError as err:
        raise _engine(err) from None
    return played, game


# --- one action at a time --------------------------------------------------------------------


def rebuild(played: Played, draws: Sequence[Card] | None = None) -> MulliganGame:
    """The engine's snapshot after every action of the record (the engine checks each one
    again, with every assertion)."""
    game = new_game(played.setup(draws))
    for action in played.actions:
        game = apply(game, action)
    return game


def draw_order(game: MulliganGame) -> list[int]:
    """Who draws after a mulligan, in order: every active player clockwise from the auctioneer."""
    return [p for p in clockwise_from(game.auctioneer, game.players) if game.active[p]]


def where_is(game: MulliganGame, card: Card) -> str | None:
    """Where a card already is in the game, in words (None: still unseen in the deck pile)."""
    for p, hand in enumerate(game.hands):
        if card in hand:
            return f"player {p}'s hand"
    for r in game.ring:
        if r.card == card:
            return "the trade ring"
    if card in game.discard:
        return "the discard pile"
    if card in game.burn:
        return "the High Risk burn"
    return None


@dataclass(frozen=True)
class Posted:
    """One action as the tablet or the API posts it (strings or numbers, not yet checked)."""

    do: str
    player: object = None
    card: object = None
    chips: object = None
    offer_of: object = None
    draws: Sequence[object] = ()


ACTIONS = ("skip", "fold", "auction", "offer", "swap", "mulligan")


def parse(game: MulliganGame, posted: Posted) -> tuple[Action, tuple[Card, ...]]:
    """The engine action a post names, and the cards drawn with a mulligan (refused:
    ServiceError naming the field). Whether the rules allow it now is the engine's to say."""
    if posted.do not in ACTIONS:
        raise _refuse(
            f"{posted.do!r} is not a Mulligan action ({', '.join(ACTIONS)})", "do", "illegal_action"
        )
    n = game.players
    player = _int(posted.player, "player", "the player", low=0, high=n - 1)
    chips_for = game.stacks is not None

    def chips() -> int:
        if posted.chips in (None, ""):
            return 0
        return _int(posted.chips, "chips", "the chips", low=0, high=MAX_STACK)

    if posted.do in ("auction", "offer"):
        try:
            card = parse_card(posted.card, where="card")
        except EngineError as err:
            raise _engine(err, "card") from None
        amount = chips()
        if amount and not chips_for:
            raise _refuse(
                "this game is not played for chips: no chips go on the ring",
                "chips",
                "illegal_action",
            )
        kind = Auction if posted.do == "auction" else Offer
        return kind(player, card, amount), ()
    if posted.do == "skip":
        return Skip(player), ()
    if posted.do == "fold":
        return Fold(player), ()
    if posted.do == "swap":
        return Swap(player, _int(posted.offer_of, "offer_of", "the offer", low=0, high=n - 1)), ()
    # A mulligan: the draws, one per active player in draw order.
    if game.phase is not Phase.DECISION:
        return MulliganAction(player), ()  # the engine refuses it, in its words
    order = draw_order(game)
    given = list(posted.draws)
    if len(given) != len(order):
        raise _refuse(
            f"after a mulligan {len(order)} cards are drawn (players "
            f"{', '.join(map(str, order))}, in that order), not {len(given)}",
            "draws",
            "card_count",
        )
    drawn: list[Card] = []
    for p, raw in zip(order, given, strict=True):
        name = f"draw_{p}"
        try:
            card = parse_card(raw, where=f"player {p}'s draw")
        except EngineError as err:
            raise _engine(err, name) from None
        seen = where_is(game, card)
        if seen is None and card in drawn:
            seen = f"player {order[drawn.index(card)]}'s draw"
        if seen is not None:
            raise _refuse(
                f"{card} drawn by player {p} is already in {seen}", name, "duplicate_card"
            )
        drawn.append(card)
    return MulliganAction(player), tuple(drawn)


def play(played: Played, game: MulliganGame, posted: Posted) -> tuple[Played, MulliganGame]:
    """The record and snapshot after one posted action; `game` must be `rebuild(played)`.

    Refused: ServiceError (nothing changes). A broken assertion: GameAssertionError (a bug;
    nothing changes)."""
    action, drawn = parse(game, posted)
    try:
        if isinstance(action, MulliganAction) and drawn:
            draws = played.draws + drawn
            before = rebuild(played, draws)  # the same game, the new draws now on the deck
            after = apply(before, action)
            return replace(played, draws=draws, actions=(*played.actions, action)), after
        after = apply(game, action)
    except EngineError as err:
        raise _engine(err) from None
    return replace(played, actions=(*played.actions, action)), after


# --- the hand's stored record (the PvP core's `Hand.record`) ----------------------------------

GAME = "mulligan"
_STEP_KEYS = {
    "deal": frozenset({"do", "hands", "burn"}),
    "skip": frozenset({"do", "player", "at"}),
    "fold": frozenset({"do", "player", "at"}),
    "auction": frozenset({"do", "player", "card", "chips", "at"}),
    "offer": frozenset({"do", "player", "card", "chips", "at"}),
    "swap": frozenset({"do", "player", "offer_of", "at"}),
    "mulligan": frozenset({"do", "player", "draws", "at"}),
}


def setup_record(terms: MulliganTerms, buy_ins: Sequence[int], first: int) -> dict[str, Any]:
    """A new hand's record before the deal: the terms, each player's buy-in (cents, in seat
    order: the chips they play with when playing for chips) and the first auctioneer."""
    return {
        "game": GAME,
        "terms": terms.as_json(),
        "first": first,
        "buy_ins": list(buy_ins),
        "hands": [],
        "actions": [],
    }


def is_dealt(record: Mapping[str, Any]) -> bool:
    return bool(record.get("hands"))


def from_record(record: Mapping[str, Any]) -> tuple[Played, MulliganGame] | None:
    """The game a stored record holds, rebuilt by the engine (None before the deal)."""
    if not is_dealt(record):
        return None
    played = Played.from_json(record)
    return played, rebuild(played)


def _to_record(record: Mapping[str, Any], played: Played, game: MulliganGame) -> dict[str, Any]:
    return {
        "game": GAME,
        **played.as_json(),
        "buy_ins": list(record["buy_ins"]),
        "replay": game_record(game),
    }


def posted_step(step: Mapping[str, Any], game: MulliganGame | None = None) -> Posted:
    """A step (the services' and the API's form) as a posted action; unknown keys refused.
    `draws` is a list in draw order, or {player: card} for the players who draw."""
    do = step.get("do")
    if do is None:
        given = ", ".join(sorted(str(k) for k in step)) or "nothing"
        raise _refuse(
            f"a Mulligan step names what is done in 'do' ({', '.join(ACTIONS)}); "
            f"this one has {given}",
            "do",
            "illegal_action",
        )
    if not isinstance(do, str) or do not in _STEP_KEYS or do == "deal":
        raise _refuse(
            f"{do!r} is not a Mulligan action ({', '.join(ACTIONS)})", "do", "illegal_action"
        )
    extra = sorted(str(k) for k in step if k not in _STEP_KEYS[do])
    if extra:
        raise _refuse(f"a {do} takes no {extra[0]!r}", extra[0], "illegal_action")
    draws = step.get("draws") or ()
    if isinstance(draws, str):
        draws = draws.replace(",", " ").split()
    if isinstance(draws, Mapping) and game is not None:
        order = draw_order(game)
        named = {str(k) for k in draws}
        if named != {str(p) for p in order}:
            raise _refuse(
                f"after a mulligan players {', '.join(map(str, order))} draw, in that order",
                "draws",
                "card_count",
            )
        draws = [draws.get(p, draws.get(str(p))) for p in order]
    if not isinstance(draws, list | tuple):
        raise _refuse("draws must be a list of cards, in draw order", "draws")
    return Posted(
        do=do,
        player=step.get("player"),
        card=step.get("card"),
        chips=step.get("chips"),
        offer_of=step.get("offer_of"),
        draws=tuple(draws),
    )


def apply_step(record: Mapping[str, Any], step: Mapping[str, Any]) -> dict[str, Any]:
    """The record with one more step: first the deal (`{"do": "deal", "hands": [...],
    "burn": ...}`), then the players' actions. Refused: ServiceError naming the field (the
    record given is not changed); a broken assertion: GameAssertionError."""
    terms = MulliganTerms.from_json(record["terms"])
    if not is_dealt(record):
        if step.get("do") is None:
            posted_step(step)  # refused, naming what the step has instead
        if step.get("do") != "deal":
            raise _refuse("deal first: enter each player's five cards", "do", "illegal_action")
        extra = sorted(str(k) for k in step if k not in _STEP_KEYS["deal"])
        if extra:
            raise _refuse(f"a deal takes no {extra[0]!r}", extra[0])
        hands = step.get("hands")
        buy_ins = list(record["buy_ins"])
        if not isinstance(hands, list | tuple) or len(hands) != len(buy_ins):
            raise _refuse(
                f"deal five cards to each of the {len(buy_ins)} players", "hands", "card_count"
            )
        played, game = deal(
            terms,
            hands=hands,
            first=record["first"],
            burn=step.get("burn") or "",
            chips=buy_ins if terms.plays_for_chips else None,
        )
        return _to_record(record, played, game)
    if step.get("do") == "deal":
        raise _refuse("the cards are already dealt", "do", "illegal_action")
    rebuilt = from_record(record)
    assert rebuilt is not None
    at = step.get("at")
    if at is not None and str(at) != str(len(rebuilt[0].actions)):
        raise _refuse(
            "this form is out of date: the game has moved on since it was shown (another "
            "tablet?); nothing was entered: check the table and enter it again",
            "at",
            "stale",
        )
    played, game = play(*rebuilt, posted_step(step, rebuilt[1]))
    return _to_record(record, played, game)


def posted_form(post: Mapping[str, Any]) -> dict[str, Any]:
    """The step a tablet form posts, in the services' form: the deal (`hand_0`, `hand_1`,
    ..., `burn`), or an action (`do`, `player`, `card`, `chips` in dollars, `offer_of`,
    `draw_<player>` for each player who draws, `at`: the step the form was drawn for)."""
    do = str(post.get("do", ""))
    if do == "deal":
        hands: list[str] = []
        while f"hand_{len(hands)}" in post:
            hands.append(str(post.get(f"hand_{len(hands)}", "")))
        step: dict[str, Any] = {"do": "deal", "hands": hands}
        if str(post.get("burn", "")).strip():
            step["burn"] = str(post["burn"])
        return step
    step = {"do": do, "player": post.get("player"), "at": post.get("at")}
    if do in ("auction", "offer"):
        step["card"] = post.get("card", "")
        raw = typed_dollars(post.get("chips"))
        if raw:
            try:
                step["chips"] = parse_cents(raw, where="the chips", allow_zero=True)
            except EngineError as err:
                raise _engine(err, "chips") from None
    elif do == "swap":
        step["offer_of"] = post.get("offer_of")
    elif do == "mulligan":
        step["draws"] = {
            key[5:]: str(value).strip()
            for key, value in post.items()
            if key.startswith("draw_") and key[5:].isdigit()
        }
    return {k: v for k, v in step.items() if v is not None}


__all__ = [
    "ACTIONS",
    "GAME",
    "apply_step",
    "from_record",
    "is_dealt",
    "posted_form",
    "posted_step",
    "setup_record",
    "MAX_PLAYERS",
    "Played",
    "Posted",
    "action_from_json",
    "action_json",
    "deal",
    "draw_order",
    "max_players",
    "parse",
    "play",
    "rebuild",
    "where_is",
]
