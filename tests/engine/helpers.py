"""Small helpers for engine tests: `cards("Ah Kd 2c")`."""

from __future__ import annotations

from tables.engine.cards import Card, parse_cards


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text, where="test")


def card(text: str) -> Card:
    (c,) = cards(text)
    return c
