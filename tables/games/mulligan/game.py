"""Mulligan, the trading card game (`rules/mulligan.md`): a state machine the tablet drives
one action at a time, with the game's assertions checked after every action.

A `MulliganGame` is an immutable snapshot: the hands, the trade ring (the auctioned card, the
offers), the deck pile, the High Risk burn and the face-up discard pile, who is active, the
chips and the pot. `new_game(setup)` checks the setup and returns the first snapshot;
`apply(game, action)` returns the next one, or raises `EngineError` (`illegal_action`, with
a message naming the player and card) and changes nothing. After computing the next snapshot
`apply` checks every assertion of the rules (and a few of the house's: chips are conserved,
turns go clockwise, the deck is only drawn from the top, a folded hand is frozen); a failed
assertion is a bug and raises `GameAssertionError`, and again nothing changes.

An auction is entered in steps, as at the table: `Auction` (the card and its chips), one
`Offer` per other active player in any order, then `Swap` or `Mulligan`. `allowed(game)` says
who may act now and with what; `result(game)` says how a finished game ended.
`view` builds what each player (or the public table display) may see.

Rulings the rules leave open (the house's choices):
- Seats are numbered 0, 1, ... (as in the `replay` contract); clockwise is increasing index,
  wrapping round.
- Offers go down in any order; an offer once placed stands (it cannot be changed or taken
  back), and the auctioneer decides only when every offer is in.
- In a hand, a card that comes back from the ring (a returned offer) returns to its place, and
  a card received in a swap takes the place of the card given; cards drawn after a mulligan
  are added at the end (the order the `replay` contract's hands are listed in).
- The table minimum applies to the auctioned card only; a player who holds fewer chips than
  the table minimum when the turn comes is "a player with no chips" and must fold (with the
  contract's minimum of 1 the two are the same). Every stack starts at the table minimum or
  more: the house seats nobody who could never open an auction.
- The rake is `percent` of the pot rounded down to a whole chip, at most `cap`, taken when
  the winner takes the pot, however the game ended.
- The rake and the chips stay integers (chips, not cents): the pot is whole chips.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Final

from tables.engine.cards import DECK, Card
from tables.engine.errors import EngineError, GameAssertionError, Refusal

from .hands import MulliganCategory, best_of, mulligan_value

HAND_SIZE: Final = 5
HIGH_RISK_BURN: Final = 13
MIN_PLAYERS: Final = 2


class Variant(StrEnum):
    """The variants chosen when a game is created."""

    SECRET_OFFERS = "secret_offers"
    HIGH_RISK = "high_risk"
    OPEN_HANDS = "open_hands"
    CHIPS = "chips"


# Pairs of variants the rules forbid together.
INCOMPATIBLE: Final[tuple[frozenset[Variant], ...]] = (
    frozenset({Variant.SECRET_OFFERS, Variant.OPEN_HANDS}),
)


class Phase(StrEnum):
    """Where the game is: what kind of action comes next."""

    TURN = "turn"  # the auctioneer skips, folds or opens an auction
    OFFERS = "offers"  # the auctioned card is on the ring; the others put their offers down
    DECISION = "decision"  # every offer is in; the auctioneer swaps or mulligans
    OVER = "over"


class EndedBy(StrEnum):
    FOLD = "fold"  # the last two active players: one folded
    DECK = "deck"  # too few cards in the deck pile after a mulligan's draw


@dataclass(frozen=True)
class Rake:
    """The house's rake: `percent` of the pot rounded down to a whole chip, at most `cap`."""

    percent: Decimal
    cap: int | None = None

    def __post_init__(self) -> None:
        if not self.percent.is_finite() or not 0 <= self.percent <= 100:
            raise EngineError(
                Refusal.BAD_SETUP,
                f"the rake percent must be from 0 to 100, not {self.percent}",
                field="rake",
            )
        if self.cap is not None and self.cap < 0:
            raise EngineError(
                Refusal.BAD_SETUP, f"the rake cap must be 0 or more, not {self.cap}", field="rake"
            )

    def of(self, pot: int) -> int:
        exact = Fraction(self.percent) * pot / 100
        taken = exact.numerator // exact.denominator
        return taken if self.cap is None else min(taken, self.cap)


@dataclass(frozen=True)
class MulliganSetup:
    """A game as dealt: each player's five cards, the deck pile (top card first), the High
    Risk burn, the first auctioneer, the variants and, with chips, the stacks and house terms."""

    hands: tuple[tuple[Card, ...], ...]
    deck: tuple[Card, ...]
    first: int = 0
    variants: frozenset[Variant] = frozenset()
    burn: tuple[Card, ...] = ()
    chips: tuple[int, ...] | None = None
    table_minimum: int = 1
    rake: Rake | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def plays_for_chips(self) -> bool:
        return Variant.CHIPS in self.variants


# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Skip:
    """The auctioneer ends the turn without an auction."""

    player: int


@dataclass(frozen=True)
class Fold:
    """The auctioneer becomes inactive: no more turns or auctions, the hand is frozen."""

    player: int


@dataclass(frozen=True)
class Auction:
    """The auctioneer puts `card` face up on the trade ring, with `chips` when playing for chips."""

    player: int
    card: Card
    chips: int = 0


@dataclass(frozen=True)
class Offer:
    """Another active player puts `card` face down on the ring as an offer, with `chips`."""

    player: int
    card: Card
    chips: int = 0


@dataclass(frozen=True)
class Swap:
    """The auctioneer takes the offer of player `offer_of`, who takes the auctioned card."""

    player: int
    offer_of: int


@dataclass(frozen=True)
class Mulligan:
    """The auctioneer sends the ring to the discard pile; every active player draws one card."""

    player: int


Action = Skip | Fold | Auction | Offer | Swap | Mulligan


class ActionKind(StrEnum):
    SKIP = "skip"
    FOLD = "fold"
    AUCTION = "auction"
    OFFER = "offer"
    SWAP = "swap"
    MULLIGAN = "mulligan"


# --- the state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RingCard:
    """A card on the trade ring: the auctioned card or an offer, its owner and chips, and its
    place in the owner's hand (where a returned offer goes back, or a swapped card lands)."""

    owner: int
    card: Card
    chips: int
    slot: int


@dataclass(frozen=True)
class MulliganGame:
    """One snapshot of a game. Never modified: `apply` returns the next snapshot."""

    setup: MulliganSetup
    phase: Phase
    auctioneer: int
    hands: tuple[tuple[Card, ...], ...]
    deck: tuple[Card, ...]  # top card first
    discard: tuple[Card, ...]  # face up, in the order discarded (the burn is apart, face down)
    active: tuple[bool, ...]
    lot: RingCard | None = None  # the auctioned card
    offers: tuple[RingCard, ...] = ()  # in the order they were put down
    stacks: tuple[int, ...] | None = None
    pot: int = 0  # at the end: the pot the winner took, rake included
    rake: int = 0
    ended_by: EndedBy | None = None
    winner: int | None = None
    turn: int = 1  # the number of the turn being played (or the last one, once over)
    actions: tuple[Action, ...] = field(default=(), repr=False)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def burn(self) -> tuple[Card, ...]:
        return self.setup.burn

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def active_players(self) -> tuple[int, ...]:
        return tuple(p for p in range(self.players) if self.active[p])

    @property
    def ring(self) -> tuple[RingCard, ...]:
        return (() if self.lot is None else (self.lot,)) + self.offers

    @property
    def ring_chips(self) -> int:
        return sum(r.chips for r in self.ring)

    @property
    def discard_count(self) -> int:
        """The discard pile: the face-down burn and the face-up discards."""
        return len(self.setup.burn) + len(self.discard)

    @property
    def awaiting_offers(self) -> tuple[int, ...]:
        """Players who still owe an offer (clockwise from the auctioneer)."""
        if self.phase is not Phase.OFFERS:
            return ()
        offered = {o.owner for o in self.offers}
        return tuple(
            p
            for p in clockwise_from(self.auctioneer, self.players)
            if self.active[p] and p != self.auctioneer and p not in offered
        )

    @property
    def to_act(self) -> tuple[int, ...]:
        """Who may act now: the auctioneer, or during offers everyone who still owes one."""
        if self.phase is Phase.OVER:
            return ()
        if self.phase is Phase.OFFERS:
            return self.awaiting_offers
        return (self.auctioneer,)

    def must_fold(self, player: int) -> bool:
        """Playing for chips, an auctioneer short of the table minimum may only fold."""
        return self.stacks is not None and self.stacks[player] < self.setup.table_minimum

    def offer_of(self, player: int) -> RingCard | None:
        for o in self.offers:
            if o.owner == player:
                return o
        return None


def clockwise_from(start: int, players: int) -> list[int]:
    """Every seat, clockwise (increasing index, wrapping), starting with `start`."""
    return [(start + i) % players for i in range(players)]


def next_active(after: int, active: Sequence[bool]) -> int:
    """The next active player clockwise after `after` (itself if it is the only one)."""
    n = len(active)
    for i in range(1, n + 1):
        p = (after + i) % n
        if active[p]:
            return p
    raise ValueError("no active player")


# --- setup -----------------------------------------------------------------------------------


def _setup_refusal(message: str, field_name: str) -> EngineError:
    return EngineError(Refusal.BAD_SETUP, message, field=field_name)


def check_cards(setup: MulliganSetup) -> None:
    """Every one of the 52 cards exactly once across the hands, the burn and the deck."""
    where: dict[Card, str] = {}
    places: list[tuple[str, Sequence[Card]]] = [
        *((f"player {p}'s hand", hand) for p, hand in enumerate(setup.hands)),
        ("the burn", setup.burn),
        ("the deck", setup.deck),
    ]
    for place, cards in places:
        for card in cards:
            seen = where.get(card)
            if seen is not None:
                raise EngineError(
                    Refusal.DUPLICATE_CARD,
                    f"{card} in {place} is already in {seen}",
                    field=place,
                )
            where[card] = place
    missing = [str(c) for c in DECK if c not in where]
    if missing:
        raise EngineError(
            Refusal.DUPLICATE_CARD,
            f"every card of the deck must be dealt somewhere; missing: {' '.join(missing)}",
            field="deck",
        )


def check_setup(setup: MulliganSetup) -> None:
    """The setup's rules after the cards: players, hand sizes, burn, deck, variants, chips."""
    n = setup.players
    if n < MIN_PLAYERS:
        raise _setup_refusal(f"Mulligan needs at least {MIN_PLAYERS} players, not {n}", "hands")
    for p, hand in enumerate(setup.hands):
        if len(hand) != HAND_SIZE:
            raise _setup_refusal(
                f"player {p} must be dealt {HAND_SIZE} cards, not {len(hand)}", "hands"
            )
    for pair in INCOMPATIBLE:
        if pair <= setup.variants:
            a, b = sorted(pair)
            raise _setup_refusal(f"the variants {a} and {b} cannot be combined", "variants")
    high_risk = Variant.HIGH_RISK in setup.variants
    if high_risk and len(setup.burn) != HIGH_RISK_BURN:
        raise _setup_refusal(
            f"High Risk burns {HIGH_RISK_BURN} cards, not {len(setup.burn)}", "burn"
        )
    if not high_risk and setup.burn:
        raise _setup_refusal("only High Risk burns cards: the burn must be empty", "burn")
    if len(setup.deck) < n:
        most = (52 - (HIGH_RISK_BURN if high_risk else 0)) // (HAND_SIZE + 1)
        raise _setup_refusal(
            f"the deck pile holds {len(setup.deck)} cards after the deal, fewer than the {n} "
            f"players (at most {most} players{' with High Risk' if high_risk else ''})",
            "deck",
        )
    if not 0 <= setup.first < n:
        raise _setup_refusal(f"the first player must be 0 to {n - 1}, not {setup.first}", "first")
    if setup.table_minimum < 1:
        raise _setup_refusal(
            f"the table minimum must be at least 1 chip, not {setup.table_minimum}",
            "table_minimum",
        )
    if setup.plays_for_chips:
        if setup.chips is None or len(setup.chips) != n:
            raise _setup_refusal(
                f"playing for chips needs one stack for each of {n} players", "chips"
            )
        for p, stack in enumerate(setup.chips):
            if stack < setup.table_minimum:
                raise _setup_refusal(
                    f"player {p} must start with at least the table minimum of "
                    f"{setup.table_minimum} chip{'s' if setup.table_minimum != 1 else ''}, "
                    f"not {stack}",
                    "chips",
                )
    else:
        if setup.chips is not None:
            raise _setup_refusal("stacks are given only with the chips variant", "chips")
        if setup.rake is not None:
            raise _setup_refusal("a rake is taken only with the chips variant", "rake")


def new_game(setup: MulliganSetup) -> MulliganGame:
    """The game as dealt, the first player to act; refuses a setup that breaks a rule."""
    check_cards(setup)
    check_setup(setup)
    game = MulliganGame(
        setup=setup,
        phase=Phase.TURN,
        auctioneer=setup.first,
        hands=setup.hands,
        deck=setup.deck,
        discard=(),
        active=(True,) * setup.players,
        stacks=setup.chips,
    )
    check_assertions(game)
    return game


def shuffled_setup(
    rng: random.Random,
    players: int,
    *,
    variants: Iterable[Variant] = (),
    first: int | None = None,
    chips: Sequence[int] | None = None,
    table_minimum: int = 1,
    rake: Rake | None = None,
) -> MulliganSetup:
    """A shuffled deck dealt as the rules say: five cards each, then (High Risk) the burn."""
    chosen = frozenset(variants)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = tuple(tuple(deck[p * HAND_SIZE : (p + 1) * HAND_SIZE]) for p in range(players))
    rest = deck[players * HAND_SIZE :]
    burn: tuple[Card, ...] = ()
    if Variant.HIGH_RISK in chosen:
        burn, rest = tuple(rest[:HIGH_RISK_BURN]), rest[HIGH_RISK_BURN:]
    return MulliganSetup(
        hands=hands,
        deck=tuple(rest),
        first=rng.randrange(players) if first is None else first,
        variants=chosen,
        burn=burn,
        chips=None if chips is None else tuple(chips),
        table_minimum=table_minimum,
        rake=rake,
    )


# --- what may be done now --------------------------------------------------------------------


@dataclass(frozen=True)
class Allowed:
    """What one player may do now: the kinds of action, the cards they may put on the ring,
    the chips that may go with the card (inclusive), and whose offers they may swap with."""

    player: int
    kinds: frozenset[ActionKind]
    cards: tuple[Card, ...] = ()
    chips_min: int = 0
    chips_max: int = 0
    swap_with: tuple[int, ...] = ()


def allowed(game: MulliganGame) -> tuple[Allowed, ...]:
    """Every player who may act now, with what they may do."""
    if game.phase is Phase.OVER:
        return ()
    a = game.auctioneer
    if game.phase is Phase.TURN:
        if game.must_fold(a):
            return (Allowed(a, frozenset({ActionKind.FOLD})),)
        low, high = (0, 0) if game.stacks is None else (game.setup.table_minimum, game.stacks[a])
        kinds = frozenset({ActionKind.SKIP, ActionKind.FOLD, ActionKind.AUCTION})
        return (Allowed(a, kinds, game.hands[a], low, high),)
    if game.phase is Phase.OFFERS:
        return tuple(
            Allowed(
                p,
                frozenset({ActionKind.OFFER}),
                game.hands[p],
                0,
                0 if game.stacks is None else game.stacks[p],
            )
            for p in game.awaiting_offers
        )
    return (
        Allowed(
            a,
            frozenset({ActionKind.SWAP, ActionKind.MULLIGAN}),
            swap_with=tuple(o.owner for o in game.offers),
        ),
    )


# --- applying an action ----------------------------------------------------------------------


def _illegal(message: str, field_name: str | None = None) -> EngineError:
    return EngineError(Refusal.ILLEGAL_ACTION, message, field=field_name)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _check_player(game: MulliganGame, player: int) -> None:
    if not 0 <= player < game.players:
        raise _illegal(f"there is no player {player} (players are 0 to {game.players - 1})")


def _take_from_hand(game: MulliganGame, player: int, card: Card) -> tuple[tuple[Card, ...], int]:
    hand = game.hands[player]
    if card not in hand:
        raise _illegal(f"player {player} does not hold {card}", "card")
    slot = hand.index(card)
    return hand[:slot] + hand[slot + 1 :], slot


def _check_chips(game: MulliganGame, player: int, chips: int, *, low: int, what: str) -> None:
    if game.stacks is None:
        if chips:
            raise _illegal(f"{what} carries no chips: this game is not played for chips", "chips")
        return
    stack = game.stacks[player]
    if chips < low:
        raise _illegal(
            f"player {player} must put at least {_plural(low, 'chip')} on {what}, not {chips}",
            "chips",
        )
    if chips > stack:
        raise _illegal(
            f"player {player} holds {_plural(stack, 'chip')} and cannot put {chips} on {what}",
            "chips",
        )


def _with(seq: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return seq[:index] + (value,) + seq[index + 1 :]


def _with_hand(
    hands: tuple[tuple[Card, ...], ...], player: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return hands[:player] + (hand,) + hands[player + 1 :]


def _put_back(hand: tuple[Card, ...], slot: int, card: Card) -> tuple[Card, ...]:
    return hand[:slot] + (card,) + hand[slot:]


def _end_turn(game: MulliganGame) -> MulliganGame:
    """The turn is over: the next active player clockwise becomes auctioneer."""
    return replace(
        game,
        phase=Phase.TURN,
        auctioneer=next_active(game.auctioneer, game.active),
        lot=None,
        offers=(),
        turn=game.turn + 1,
    )


def _finish(game: MulliganGame, ended_by: EndedBy) -> MulliganGame:
    """The game is over: every hand shows, the best wins and takes the pot less the rake."""
    winner = best_of(game.hands)
    stacks = game.stacks
    rake = 0
    if stacks is not None:
        rake = game.setup.rake.of(game.pot) if game.setup.rake is not None else 0
        stacks = _with(stacks, winner, stacks[winner] + game.pot - rake)
    return replace(
        game,
        phase=Phase.OVER,
        lot=None,
        offers=(),
        stacks=stacks,
        rake=rake,
        ended_by=ended_by,
        winner=winner,
    )


def _must_fold(game: MulliganGame, player: int) -> EngineError:
    stack = game.stacks[player] if game.stacks is not None else 0
    return _illegal(
        f"player {player} holds {_plural(stack, 'chip')}, less than the table minimum of "
        f"{game.setup.table_minimum}, and must fold"
    )


def _skip(game: MulliganGame, action: Skip) -> MulliganGame:
    if game.phase is not Phase.TURN:
        raise _illegal(f"player {action.player} cannot skip: the auction has begun")
    if game.must_fold(action.player):
        raise _must_fold(game, action.player)
    return _end_turn(game)


def _fold(game: MulliganGame, action: Fold) -> MulliganGame:
    if game.phase is not Phase.TURN:
        raise _illegal(f"player {action.player} cannot fold: the auction has begun")
    active = game.active[: action.player] + (False,) + game.active[action.player + 1 :]
    folded = replace(game, active=active)
    if sum(active) < MIN_PLAYERS:
        # "When only two players are active and one folds, the game ends (the other folds too)."
        return _finish(replace(folded, active=(False,) * game.players), EndedBy.FOLD)
    return _end_turn(folded)


def _auction(game: MulliganGame, action: Auction) -> MulliganGame:
    p = action.player
    if game.phase is not Phase.TURN:
        raise _illegal(f"player {p} cannot open a second auction in this turn")
    if game.must_fold(p):
        raise _must_fold(game, p)
    hand, slot = _take_from_hand(game, p, action.card)
    _check_chips(
        game, p, action.chips, low=game.setup.table_minimum, what=f"the auctioned {action.card}"
    )
    stacks = (
        game.stacks if game.stacks is None else _with(game.stacks, p, game.stacks[p] - action.chips)
    )
    return replace(
        game,
        phase=Phase.OFFERS,
        hands=_with_hand(game.hands, p, hand),
        lot=RingCard(p, action.card, action.chips, slot),
        stacks=stacks,
    )


def _offer(game: MulliganGame, action: Offer) -> MulliganGame:
    p = action.player
    if game.phase not in (Phase.OFFERS, Phase.DECISION):
        raise _illegal(f"player {p} cannot make an offer: no card is up for auction")
    if p == game.auctioneer:
        raise _illegal(f"player {p} is the auctioneer and makes no offer")
    if not game.active[p]:
        raise _illegal(f"player {p} has folded and makes no offer")
    if game.offer_of(p) is not None:
        raise _illegal(f"player {p} has already offered a card; an offer once made stands")
    hand, slot = _take_from_hand(game, p, action.card)
    _check_chips(game, p, action.chips, low=0, what=f"the offered {action.card}")
    stacks = (
        game.stacks if game.stacks is None else _with(game.stacks, p, game.stacks[p] - action.chips)
    )
    after = replace(
        game,
        hands=_with_hand(game.hands, p, hand),
        offers=(*game.offers, RingCard(p, action.card, action.chips, slot)),
        stacks=stacks,
    )
    if not after.awaiting_offers:
        after = replace(after, phase=Phase.DECISION)  # every offer is in: turned face up
    return after


def _swap(game: MulliganGame, action: Swap) -> MulliganGame:
    if game.phase is not Phase.DECISION:
        raise _illegal(f"player {action.player} cannot swap before every offer is in")
    lot = game.lot
    assert lot is not None
    taken = game.offer_of(action.offer_of)
    if taken is None:
        raise _illegal(f"player {action.offer_of} made no offer to swap with", "swap")
    hands = game.hands
    stacks = game.stacks
    # The auctioneer takes the offer (and its chips) into the auctioned card's place; its owner
    # takes the auctioned card (and its chips) into the offer's place; other offers go back.
    hands = _with_hand(hands, lot.owner, _put_back(hands[lot.owner], lot.slot, taken.card))
    hands = _with_hand(hands, taken.owner, _put_back(hands[taken.owner], taken.slot, lot.card))
    if stacks is not None:
        stacks = _with(stacks, lot.owner, stacks[lot.owner] + taken.chips)
        stacks = _with(stacks, taken.owner, stacks[taken.owner] + lot.chips)
    for o in game.offers:
        if o is not taken:
            hands = _with_hand(hands, o.owner, _put_back(hands[o.owner], o.slot, o.card))
            if stacks is not None:
                stacks = _with(stacks, o.owner, stacks[o.owner] + o.chips)
    return _end_turn(replace(game, hands=hands, stacks=stacks))


def _mulligan(game: MulliganGame, action: Mulligan) -> MulliganGame:
    if game.phase is not Phase.DECISION:
        raise _illegal(f"player {action.player} cannot mulligan before every offer is in")
    ring = game.ring
    discard = game.discard + tuple(r.card for r in ring)
    pot = game.pot + sum(r.chips for r in ring)
    hands = game.hands
    deck = game.deck
    # Every active player draws one card from the top, clockwise from the auctioneer.
    for p in clockwise_from(game.auctioneer, game.players):
        if game.active[p]:
            hands = _with_hand(hands, p, (*hands[p], deck[0]))
            deck = deck[1:]
    after = replace(game, hands=hands, deck=deck, discard=discard, pot=pot, lot=None, offers=())
    if len(deck) < len(after.active_players):
        # The deck pile is revealed and discarded; the game ends.
        return _finish(replace(after, deck=(), discard=discard + deck), EndedBy.DECK)
    return _end_turn(after)


def _next(game: MulliganGame, action: Action) -> MulliganGame:
    if game.phase is Phase.OVER:
        raise _illegal(f"the game is over: player {action.player} cannot act")
    _check_player(game, action.player)
    if isinstance(action, Offer):
        return _offer(game, action)
    if action.player != game.auctioneer:
        if game.phase is Phase.OFFERS:
            raise _illegal(
                f"player {action.player} cannot {_verb(action)} now: the auction of "
                f"{game.lot.card if game.lot else '?'} is waiting for offers from player"
                f"{'s' if len(game.awaiting_offers) > 1 else ''} "
                f"{', '.join(str(p) for p in game.awaiting_offers)}"
            )
        raise _illegal(f"it is player {game.auctioneer}'s turn, not player {action.player}'s")
    if isinstance(action, Skip):
        return _skip(game, action)
    if isinstance(action, Fold):
        return _fold(game, action)
    if isinstance(action, Auction):
        return _auction(game, action)
    if isinstance(action, Swap):
        return _swap(game, action)
    return _mulligan(game, action)


def _verb(action: Action) -> str:
    return {
        Skip: "skip",
        Fold: "fold",
        Auction: "open an auction",
        Offer: "offer",
        Swap: "swap",
        Mulligan: "mulligan",
    }[type(action)]


def apply(game: MulliganGame, action: Action) -> MulliganGame:
    """The snapshot after `action`: refused (`EngineError`, `illegal_action`) if the rules do not
    allow it now, and `GameAssertionError` if the result breaks an assertion (a bug). Either
    way `game` is unchanged (it is immutable) and stays the current snapshot."""
    after = _next(game, action)
    after = replace(after, actions=(*game.actions, action))
    check_assertions(after, before=game)
    return after


# --- the assertions --------------------------------------------------------------------------


def _fail(assertion: str, message: str) -> GameAssertionError:
    return GameAssertionError(assertion, message)


def check_assertions(game: MulliganGame, *, before: MulliganGame | None = None) -> None:
    """Every assertion of the rules (and the house's) on `game`, and on the step from `before`
    when given. Raises `GameAssertionError` naming the first one broken."""
    n = game.players
    # Every one of the 52 cards is in exactly one place.
    places = Counter[Card]()
    for hand in game.hands:
        places.update(hand)
    places.update(r.card for r in game.ring)
    places.update(game.deck)
    places.update(game.burn)
    places.update(game.discard)
    twice = sorted(str(c) for c, k in places.items() if k > 1)
    if twice:
        raise _fail("card_conservation", f"in two places at once: {' '.join(twice)}")
    missing = [str(c) for c in DECK if c not in places]
    if missing:
        raise _fail("card_conservation", f"missing from every place: {' '.join(missing)}")
    if len(places) != len(DECK):
        raise _fail("card_conservation", "a card that is not of the deck is in play")

    # A card in the discard pile is never in a hand again.
    dead = set(game.discard) | set(game.burn)
    for p, hand in enumerate(game.hands):
        back = [str(c) for c in hand if c in dead]
        if back:
            raise _fail("discard_is_dead", f"player {p} holds discarded {' '.join(back)}")

    # Every player holds exactly 5 cards whenever a turn ends (counting a card on the ring).
    for p, hand in enumerate(game.hands):
        held = len(hand) + sum(1 for r in game.ring if r.owner == p)
        if held != HAND_SIZE or (game.phase in (Phase.TURN, Phase.OVER) and len(hand) != HAND_SIZE):
            raise _fail("five_cards", f"player {p} holds {len(hand)} cards in phase {game.phase}")

    # The ring: empty between turns; during an auction, the auctioneer's card and at most one
    # offer from each other active player; every one of them once the auctioneer decides.
    if game.phase in (Phase.TURN, Phase.OVER):
        if game.ring:
            raise _fail(
                "ring", f"cards left on the ring: {' '.join(str(r.card) for r in game.ring)}"
            )
    else:
        if game.lot is None or game.lot.owner != game.auctioneer:
            raise _fail("ring", "an auction without the auctioneer's card on the ring")
        owners = [o.owner for o in game.offers]
        expected = {p for p in game.active_players if p != game.auctioneer}
        if len(set(owners)) != len(owners) or not set(owners) <= expected:
            raise _fail(
                "ring", f"offers from players {owners}, expected only from {sorted(expected)}"
            )
        if game.phase is Phase.DECISION and set(owners) != expected:
            raise _fail(
                "ring", f"deciding with offers from {sorted(owners)}, not every active player"
            )

    # At least two players are active while the game runs; the auctioneer is one of them.
    if game.phase is not Phase.OVER:
        if len(game.active_players) < MIN_PLAYERS:
            raise _fail("two_active", f"only {len(game.active_players)} active player(s)")
        if not game.active[game.auctioneer]:
            raise _fail("turn_order", f"the auctioneer, player {game.auctioneer}, has folded")
    elif game.winner is None or game.ended_by is None:
        raise _fail("result", "a finished game without a winner")

    # Chips: every chip is in a stack, on the ring, in the pot or the house's rake.
    if game.setup.plays_for_chips:
        if game.stacks is None or game.setup.chips is None or len(game.stacks) != n:
            raise _fail("chip_conservation", "a game for chips without one stack per player")
        if any(s < 0 for s in game.stacks) or game.pot < 0 or game.rake < 0:
            raise _fail(
                "chip_conservation", f"negative chips: stacks {game.stacks}, pot {game.pot}"
            )
        if game.phase is Phase.OVER and game.rake > game.pot:
            raise _fail("chip_conservation", f"a rake of {game.rake} from a pot of {game.pot}")
        held = sum(game.stacks) + game.ring_chips + game.rake
        held += 0 if game.phase is Phase.OVER else game.pot  # the winner has taken the pot
        if held != sum(game.setup.chips):
            raise _fail(
                "chip_conservation",
                f"{held} chips accounted for, {sum(game.setup.chips)} brought to the table",
            )
    elif game.stacks is not None or game.pot or game.rake or game.ring_chips:
        raise _fail("chip_conservation", "chips in a game not played for chips")

    if before is not None:
        _check_step(before, game)


def _check_step(before: MulliganGame, after: MulliganGame) -> None:
    """Assertions about one action's step."""
    # The deck pile is only drawn from the top (or emptied when the game ends by deck).
    if before.deck[len(before.deck) - len(after.deck) :] != after.deck:
        raise _fail("deck_order", "the deck pile changed other than by draws from the top")
    # The discard pile only grows; the burn never changes.
    if after.discard[: len(before.discard)] != before.discard or after.burn != before.burn:
        raise _fail("discard_is_dead", "the discard pile lost or reordered cards")
    # A folded player's hand is frozen; nobody becomes active again.
    for p in range(before.players):
        if not before.active[p]:
            if after.active[p]:
                raise _fail("fold", f"player {p} folded and is active again")
            if after.hands[p] != before.hands[p]:
                raise _fail("fold", f"player {p} folded and the hand changed")
    turn_ended = after.turn != before.turn or after.phase is Phase.OVER
    if turn_ended:
        # A card that was auctioned is not in the auctioneer's hand at the end of that turn.
        lot = before.lot
        if lot is not None and lot.card in after.hands[lot.owner]:
            raise _fail(
                "auctioned_card", f"player {lot.owner} still holds the auctioned {lot.card}"
            )
        if after.phase is not Phase.OVER:
            # Turns move clockwise among active players (worked out here independently).
            n = after.players
            seats = [(before.auctioneer + i) % n for i in range(1, n + 1)]
            expected = next(p for p in seats if after.active[p])
            if after.turn != before.turn + 1 or after.auctioneer != expected:
                raise _fail(
                    "turn_order",
                    f"turn {after.turn} went to player {after.auctioneer}, not player {expected}",
                )
    elif after.auctioneer != before.auctioneer:
        raise _fail("turn_order", "the auctioneer changed in the middle of a turn")


# --- the end ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MulliganResult:
    """How a finished game ended: every hand shown, the winner, the pot, rake and chips."""

    ended_by: EndedBy
    winner: int
    hands: tuple[tuple[Card, ...], ...]
    categories: tuple[MulliganCategory, ...]
    discards: int
    pot: int
    rake: int
    chips: tuple[int, ...] | None


def result(game: MulliganGame) -> MulliganResult:
    """The result of a finished game; ValueError while it still runs."""
    if game.phase is not Phase.OVER or game.ended_by is None or game.winner is None:
        raise ValueError("the game is not over")
    return MulliganResult(
        ended_by=game.ended_by,
        winner=game.winner,
        hands=game.hands,
        categories=tuple(mulligan_value(h).category for h in game.hands),
        discards=game.discard_count,
        pot=game.pot,
        rake=game.rake,
        chips=game.stacks,
    )


# --- a simple strategy (simulations, tests) -------------------------------------------------


def random_action(game: MulliganGame, rng: random.Random, *, skip_weight: float = 0.1) -> Action:
    """A random legal action: folds are rare and skips occasional, so games come to an end."""
    options = allowed(game)
    if not options:
        raise ValueError("the game is over")
    choice = rng.choice(options)
    p = choice.player
    if ActionKind.OFFER in choice.kinds:
        return Offer(
            p,
            rng.choice(choice.cards),
            rng.randint(choice.chips_min, choice.chips_max) if rng.random() < 0.3 else 0,
        )
    if ActionKind.SWAP in choice.kinds:
        if rng.random() < 0.5:
            return Mulligan(p)
        return Swap(p, rng.choice(choice.swap_with))
    if choice.kinds == frozenset({ActionKind.FOLD}):
        return Fold(p)
    roll = rng.random()
    if roll < 0.03:
        return Fold(p)
    if roll < 0.03 + skip_weight:
        return Skip(p)
    high = min(choice.chips_max, choice.chips_min + 3)
    return Auction(p, rng.choice(choice.cards), rng.randint(choice.chips_min, high))
