from __future__ import annotations

import pytest

from tables.engine.cards import DECK, Card, CardLedger, parse_card, parse_cards
from tables.engine.errors import EngineError, Refusal


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Ah", "Ah"),
        ("ah", "Ah"),
        ("AH", "Ah"),
        ("aH", "Ah"),
        ("10h", "Th"),
        ("10H", "Th"),
        ("Td", "Td"),
        ("td", "Td"),
        ("A♥", "Ah"),
        ("a♥", "Ah"),
        ("10♠", "Ts"),
        ("K♦", "Kd"),
        ("2♣", "2c"),
        (" Qs ", "Qs"),
    ],
)
def test_every_accepted_spelling_parses_to_the_canonical_card(text: str, canonical: str) -> None:
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text", ["", "1h", "11h", "Ax", "A", "hA", "AhK", "0s", "Ah ", "1 0h", None, 14, ["Ah"]]
)
def test_anything_else_is_refused_naming_the_card_and_place(text: object) -> None:
    if text == "Ah ":
        assert str(parse_card(text)) == "Ah"  # surrounding spaces are forgiven
        return
    with pytest.raises(EngineError) as err:
        parse_card(text, where="seat 3's cards")
    assert err.value.code is Refusal.BAD_CARD
    assert repr(text) in err.value.message
    assert "seat 3's cards" in err.value.message


def test_the_deck_has_52_distinct_cards_that_round_trip() -> None:
    assert len(set(DECK)) == 52
    for c in DECK:
        assert parse_card(str(c)) == c
        assert parse_card(str(c).lower()) == c


def test_colours_and_low_rank() -> None:
    assert parse_card("Ah").is_red and parse_card("Kd").is_red
    assert not parse_card("Ac").is_red and not parse_card("2s").is_red
    assert parse_card("As").low_rank == 1 and parse_card("As").rank == 14
    assert Card(10, "h") == parse_card("10h")


def test_a_typed_list_of_cards_may_be_one_string() -> None:
    assert [str(c) for c in parse_cards("Ah Kd, 2c", where="x")] == ["Ah", "Kd", "2c"]
    assert [str(c) for c in parse_cards(["ah", "10d"], where="x")] == ["Ah", "Td"]


def test_card_count_is_checked() -> None:
    with pytest.raises(EngineError) as err:
        parse_cards(["Ah", "Kd"], where="seat 2's cards", count=3)
    assert err.value.code is Refusal.CARD_COUNT
    assert "seat 2's cards" in err.value.message


def test_ledger_refuses_a_card_already_in_the_round_and_says_where_it_is() -> None:
    ledger = CardLedger()
    ledger.place(parse_cards("Ah Kd 2c", where="x"), "the dealer's cards")
    with pytest.raises(EngineError) as err:
        ledger.place(parse_cards("9s Kd", where="x"), "seat 4's cards")
    assert err.value.code is Refusal.DUPLICATE_CARD
    assert "Kd" in err.value.message
    assert "seat 4's cards" in err.value.message and "the dealer's cards" in err.value.message
    assert len(ledger.remaining()) == 49
