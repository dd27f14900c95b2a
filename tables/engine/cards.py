"""Cards of one 52-card deck: parsing every accepted spelling, the canonical form, and a
round's ledger that knows where each card is, so a card can never be used twice."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from .errors import EngineError, Refusal

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
RED_SUITS: Final = frozenset("dh")

RANK_VALUE: Final = {r: i + 2 for i, r in enumerate(RANKS)}  # 2..14, ace high
RANK_CHAR: Final = {v: r for r, v in RANK_VALUE.items()}


class Card(NamedTuple):
    """A card: rank 2..14 (ace = 14) and suit one of `c d h s`."""

    rank: int
    suit: str

    def __str__(self) -> str:
        return RANK_CHAR[self.rank] + self.suit

    @property
    def low_rank(self) -> int:
        """Rank with the ace counted as 1 (low hands)."""
        return 1 if self.rank == 14 else self.rank

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS


DECK: Final[tuple[Card, ...]] = tuple(Card(RANK_VALUE[r], s) for r in RANKS for s in SUITS)

_SUIT_SYMBOLS: Final = {
    "♣": "c",
    "♦": "d",
    "♥": "h",
    "♠": "s",
    "♧": "c",
    "♢": "d",
    "♡": "h",
    "♤": "s",
}


def _spellings() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in DECK:
        rank_spellings = [RANK_CHAR[card.rank]]
        if card.rank == 10:
            rank_spellings.append("10")
        suit_spellings = [card.suit] + [sym for sym, s in _SUIT_SYMBOLS.items() if s == card.suit]
        for r in rank_spellings:
            for s in suit_spellings:
                for text in {r + s, (r + s).upper(), (r + s).lower(), r.lower() + s, r + s.upper()}:
                    table[text] = card
    return table


_BY_TEXT: Final = _spellings()


def parse_card(text: object, *, where: str = "") -> Card:
    """Parse `Ah`, `ah`, `10h`, `A♥` (case-insensitive); refuse anything else, naming it."""
    if isinstance(text, str):
        card = _BY_TEXT.get(text)
        if card is None:
            card = _BY_TEXT.get(text.strip().lower())
        if card is not None:
            return card
    place = f" in {where}" if where else ""
    raise EngineError(
        Refusal.BAD_CARD,
        f"{text!r}{place} is not a card: write rank then suit, e.g. Ah, Td, 10h, 2c",
        field=where or None,
    )


def plain_cards(value: object) -> tuple[Card, ...] | None:
    """The common case of `parse_cards`, quickly: a JSON list of cards each written exactly as
    one of the accepted spellings; None for anything else (which `parse_cards` then reads, or
    refuses). Checks no count."""
    if type(value) is not list:
        return None
    get = _BY_TEXT.get
    cards = [get(item) if type(item) is str else None for item in value]
    if None in cards:
        return None
    return tuple(cards)  # type: ignore[arg-type]


def parse_cards(
    value: object, *, where: str, count: int | None = None, at_most: int | None = None
) -> tuple[Card, ...]:
    """Parse a list of cards (or one string like `"Ah Kd 2c"`), checking how many there are."""
    if (count is None or len(value) == count) if type(value) is list else False:
        fast = plain_cards(value)
        if fast is not None and (at_most is None or len(fast) <= at_most):
            return fast
    if isinstance(value, str):
        items: list[object] = list(value.replace(",", " ").split())
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise EngineError(Refusal.CARD_COUNT, f"{where} must be a list of cards", field=where)
    cards = tuple(parse_card(item, where=where) for item in items)
    if count is not None and len(cards) != count:
        raise EngineError(
            Refusal.CARD_COUNT,
            f"{where} must have {count} card{'s' if count != 1 else ''}, not {len(cards)}",
            field=where,
        )
    if at_most is not None and len(cards) > at_most:
        raise EngineError(
            Refusal.CARD_COUNT,
            f"{where} may have at most {at_most} cards, not {len(cards)}",
            field=where,
        )
    return cards


CARD_TEXT: Final[dict[Card, str]] = {card: RANK_CHAR[card.rank] + card.suit for card in DECK}


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


_SUIT_SIGN: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_words(card: Card) -> str:
    """A card as the floor writes it in a sentence: `Card(12, "c")` -> `"Q♣"`, a ten `"10♥"`
    (the contracts keep the codes, `str(card)`)."""
    return ("10" if card.rank == 10 else RANK_CHAR[card.rank]) + _SUIT_SIGN[card.suit]


class CardLedger:
    """Where every card of the round is: each card may be placed once (hand, discard, draw)."""

    __slots__ = ("_where",)

    def __init__(self) -> None:
        self._where: dict[Card, str] = {}

    def place(self, cards: Sequence[Card], where: str) -> None:
        """Record `cards` at `where`, all or none: a card already placed is refused."""
        placed = self._where
        if placed.keys().isdisjoint(cards) and len(set(cards)) == len(cards):
            for card in cards:
                placed[card] = where
            return
        for i, card in enumerate(cards):
            seen = self._where.get(card)
            if seen is None and card in cards[:i]:
                seen = where
            if seen is not None:
                raise EngineError(
                    Refusal.DUPLICATE_CARD,
                    f"{card} in {where} is already in the round ({seen})",
                    field=where,
                )
        for card in cards:
            self._where[card] = where

    def where(self, card: Card) -> str | None:
        return self._where.get(card)

    def __contains__(self, card: object) -> bool:
        return card in self._where

    def __len__(self) -> int:
        return len(self._where)

    def remaining(self) -> list[Card]:
        """The undealt deck, in deck order."""
        return [c for c in DECK if c not in self._where]


class Shoe:
    """One shuffled 52-card deck; dealing removes cards, so none is dealt twice."""

    __slots__ = ("_cards",)

    def __init__(self, rng: random.Random) -> None:
        self._cards = list(DECK)
        rng.shuffle(self._cards)

    def deal(self, count: int) -> tuple[Card, ...]:
        """The next `count` cards off the deck."""
        if count > len(self._cards):
            raise ValueError(f"only {len(self._cards)} cards left, cannot deal {count}")
        dealt = tuple(self._cards[-count:]) if count else ()
        del self._cards[len(self._cards) - count :]
        return dealt

    def __len__(self) -> int:
        return len(self._cards)
