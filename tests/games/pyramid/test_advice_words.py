"""Pyramid's house way for the dealer says its cards as the floor writes them (Q♣, not Qc)."""

from tables.engine.cards import card_words, parse_card
from tables.games.pyramid.game import house_way_advice


def test_the_house_way_names_cards_as_the_floor_writes_them() -> None:
    cards = [parse_card(c) for c in ("Qc", "5s", "8h")]
    assert house_way_advice(cards) == "Set Q♣ 5♠ as the two-card hand and 8♥ alone."
    assert card_words(parse_card("Td")) == "10♦"
