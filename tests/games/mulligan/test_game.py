"""The Mulligan engine (`rules/mulligan.md`): scripted games ending both ways in every variant
combination with and without chips, the chipless auctioneer, what may be done when, and every
refusal of an action or a setup."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest

from tables.engine.cards import DECK
from tables.engine.errors import EngineError, GameAssertionError, Refusal
from tables.games.mulligan.game import (
    ActionKind,
    Auction,
    EndedBy,
    Fold,
    Mulligan,
    MulliganCategory,
    MulliganGame,
    Offer,
    Phase,
    Rake,
    Skip,
    Swap,
    Variant,
    allowed,
    apply,
    new_game,
    result,
    shuffled_setup,
)
from tables.games.mulligan.hands import best_of

from .helpers import (
    VARIANT_SETS,
    V,
    accounts_for_all_cards,
    auction_round,
    cards,
    make_setup,
    rake,
    variant_id,
)

# --- a hand-checked game with chips and a rake ----------------------------------------------

HANDS = [
    "2c 3d 7h 9s Jc",  # player 0: high card
    "Ah Ad Kc Ks 4h",  # player 1: two pair
    "Qs Qh Qd 5c 6d",  # player 2: three queens
]


def chips_game() -> MulliganGame:
    setup = make_setup(
        HANDS, deck_top="Ac 8s 8h", variants={V.CHIPS}, chips=[10, 10, 10], rake=rake("25", 5)
    )
    return new_game(setup)


def test_a_hand_checked_game_for_chips_ends_by_fold_and_the_folded_winner_takes_the_pot() -> None:
    game = chips_game()
    assert (game.phase, game.auctioneer, game.turn) == (Phase.TURN, 0, 1)

    game = apply(game, Auction(0, cards("2c")[0], 3))
    assert game.phase is Phase.OFFERS and game.awaiting_offers == (1, 2)
    assert game.stacks == (7, 10, 10)
    game = apply(game, Offer(2, cards("6d")[0], 0))
    assert game.awaiting_offers == (1,)
    game = apply(game, Offer(1, cards("Ks")[0], 2))
    assert game.phase is Phase.DECISION
    # The swap: player 0 takes the Ks (and its 2 chips) into the 2c's place, player 1 takes the
    # 2c (and its 3 chips) into the Ks's place, player 2's 6d goes back where it was.
    game = apply(game, Swap(0, 1))
    assert game.hands == (cards("Ks 3d 7h 9s Jc"), cards("Ah Ad Kc 2c 4h"), cards(HANDS[2]))
    assert game.stacks == (9, 11, 10)
    assert (game.phase, game.auctioneer, game.turn) == (Phase.TURN, 1, 2)

    game = auction_round(game, lot_chips=5, offer_chips=0, pick=4)  # 1 puts up the 4h
    game = apply(game, Mulligan(1))
    # Discarded face up: the auctioned 4h, then the offers as they were put down (2's, then 0's).
    assert game.discard == cards("4h 6d Jc")
    assert game.pot == 5
    # The draw: clockwise from the auctioneer, one card each from the top.
    assert game.hands[1][-1] == cards("Ac")[0]
    assert game.hands[2][-1] == cards("8s")[0]
    assert game.hands[0][-1] == cards("8h")[0]
    assert game.stacks == (9, 6, 10)
    assert game.auctioneer == 2

    game = apply(game, Fold(2))
    assert game.active == (True, True, False) and game.auctioneer == 0
    game = apply(game, Skip(0))
    assert game.auctioneer == 1
    game = apply(game, Fold(1))

    assert game.is_over and game.active == (False, False, False)
    r = result(game)
    assert r.ended_by is EndedBy.FOLD
    assert r.hands == (cards("Ks 3d 7h 9s 8h"), cards("Ah Ad Kc 2c Ac"), cards("Qs Qh Qd 5c 8s"))
    assert r.categories == (
        MulliganCategory.HIGH_CARD,
        MulliganCategory.THREE_OF_A_KIND,
        MulliganCategory.THREE_OF_A_KIND,
    )
    assert r.winner == 1  # three aces beat three queens; player 1 folded last and still wins
    assert (r.pot, r.rake) == (5, 1)  # 25% of 5 is 1.25: one chip
    assert r.chips == (9, 10, 10)
    assert r.discards == 3
    assert sum(r.chips) + r.rake == 30


# --- every variant combination, both endings -------------------------------------------------


def _stacks(variants: frozenset[Variant], players: int) -> list[int] | None:
    return [60 + 7 * p for p in range(players)] if V.CHIPS in variants else None


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=variant_id)
@pytest.mark.parametrize("players", [2, 4])
def test_a_scripted_game_ends_by_deck_in_every_variant_combination(
    variants: frozenset[Variant], players: int
) -> None:
    chips = _stacks(variants, players)
    setup = shuffled_setup(
        random.Random(players),
        players,
        variants=variants,
        first=1,
        chips=chips,
        rake=rake("10", 3) if chips else None,
    )
    game = new_game(setup)
    put_in = [0] * players
    mulligans = 0
    while not game.is_over:
        a = game.auctioneer
        lot_chips = 2 if chips else 0
        game = auction_round(game, lot_chips=lot_chips, offer_chips=1 if chips else 0)
        if chips:
            for r in game.ring:
                put_in[r.owner] += r.chips
        game = apply(game, Mulligan(a))
        mulligans += 1
        assert accounts_for_all_cards(game)

    r = result(game)
    assert r.ended_by is EndedBy.DECK
    deck_after_deal = 52 - 5 * players - (13 if V.HIGH_RISK in variants else 0)
    assert mulligans == deck_after_deal // players
    # Every card not in a hand ends in the discard pile: the burn, the mulligans, the rest.
    assert r.discards == 52 - 5 * players and game.deck == ()
    assert r.winner == best_of(r.hands)
    assert all(len(h) == 5 for h in r.hands)
    if chips:
        assert r.pot == sum(put_in)
        assert r.rake == min(3, r.pot // 10)
        expected = [c - p for c, p in zip(chips, put_in, strict=True)]
        expected[r.winner] += r.pot - r.rake
        assert list(r.chips or ()) == expected
        assert sum(r.chips or ()) + r.rake == sum(chips)
    else:
        assert (r.pot, r.rake, r.chips) == (0, 0, None)


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=variant_id)
def test_a_scripted_game_ends_by_fold_in_every_variant_combination(
    variants: frozenset[Variant],
) -> None:
    chips = _stacks(variants, 3)
    game = new_game(shuffled_setup(random.Random(3), 3, variants=variants, first=0, chips=chips))
    # Player 0 auctions and swaps with player 1; player 1 auctions and mulligans; player 2
    # folds; player 0 skips; player 1 folds: one active player left, the game is over.
    lot = game.hands[0][0]
    game = auction_round(game, lot_chips=2 if chips else 0, offer_chips=1)
    offer_1 = game.offer_of(1)
    assert offer_1 is not None
    game = apply(game, Swap(0, 1))
    assert lot in game.hands[1] and offer_1.card in game.hands[0] and lot not in game.hands[0]
    game = auction_round(game, lot_chips=3 if chips else 0, offer_chips=2)
    ring = game.ring
    game = apply(game, Mulligan(1))
    assert game.discard == tuple(r.card for r in ring)
    game = apply(game, Fold(2))
    game = apply(game, Skip(0))
    frozen = game.hands[2]
    game = apply(game, Fold(1))

    r = result(game)
    assert r.ended_by is EndedBy.FOLD
    assert game.active == (False, False, False)
    assert r.hands[2] == frozen
    assert r.winner == best_of(r.hands)
    assert r.discards == 3 + (13 if V.HIGH_RISK in variants else 0)
    assert accounts_for_all_cards(game)
    if chips:
        assert r.pot == sum(x.chips for x in ring) == 3 + 2 + 2
        assert sum(r.chips or ()) == sum(chips)  # no rake configured
    else:
        assert r.chips is None and r.pot == 0


# --- chips: the chipless auctioneer, the table minimum, the rake -----------------------------


def test_a_chipless_auctioneer_must_fold_and_the_game_ends() -> None:
    game = new_game(make_setup(HANDS[:2], variants={V.CHIPS}, chips=[1, 5]))
    game = auction_round(game, lot_chips=1, offer_chips=0)
    game = apply(game, Mulligan(0))
    assert game.stacks == (0, 5) and game.pot == 1
    game = apply(game, Skip(1))
    assert game.auctioneer == 0
    (only,) = allowed(game)
    assert only.player == 0 and only.kinds == {ActionKind.FOLD}
    for action in (Skip(0), Auction(0, game.hands[0][0], 0), Auction(0, game.hands[0][0], 1)):
        with pytest.raises(EngineError, match="player 0 holds 0 chips.*must fold") as refused:
            apply(game, action)
        assert refused.value.code is Refusal.ILLEGAL_ACTION
    game = apply(game, Fold(0))
    r = result(game)
    assert r.ended_by is EndedBy.FOLD
    assert r.chips is not None and sum(r.chips) == 6 and r.chips[r.winner] >= 1


def test_a_chipless_auctioneer_folds_and_the_others_play_on() -> None:
    game = new_game(make_setup(HANDS, variants={V.CHIPS}, chips=[2, 5, 5]))
    game = auction_round(game, lot_chips=2)
    game = apply(game, Mulligan(0))
    game = apply(game, Skip(1))
    game = apply(game, Skip(2))
    assert game.must_fold(0)
    game = apply(game, Fold(0))
    assert not game.is_over and game.auctioneer == 1 and game.active == (False, True, True)
    # A folded player makes no offer; a chipless player may still offer a card without chips.
    game = apply(game, Auction(1, game.hands[1][0], 1))
    assert game.awaiting_offers == (2,)
    with pytest.raises(EngineError, match="player 0 has folded"):
        apply(game, Offer(0, game.hands[0][0]))


def test_the_table_minimum_applies_to_the_auctioned_card() -> None:
    game = new_game(make_setup(HANDS, variants={V.CHIPS}, chips=[10, 5, 10], table_minimum=5))
    (choice,) = allowed(game)
    assert (choice.chips_min, choice.chips_max) == (5, 10)
    with pytest.raises(EngineError, match="at least 5 chips on the auctioned 2c, not 4"):
        apply(game, Auction(0, cards("2c")[0], 4))
    game = apply(game, Auction(0, cards("2c")[0], 5))
    game = apply(game, Offer(1, cards("4h")[0], 1))  # offers need no minimum
    game = apply(game, Offer(2, cards("6d")[0], 0))
    game = apply(game, Mulligan(0))
    # Player 1 holds 4 chips, fewer than the minimum: "no chips" for an auction; must fold.
    assert game.auctioneer == 1 and game.must_fold(1)
    with pytest.raises(EngineError, match="player 1 holds 4 chips, less than the table minimum"):
        apply(game, Skip(1))


@pytest.mark.parametrize(
    ("percent", "cap", "pot", "taken"),
    [
        ("10", None, 53, 5),
        ("10", 5, 60, 5),
        ("7.5", None, 13, 0),
        ("7.5", None, 40, 3),
        ("5", 3, 14, 0),
        ("0", None, 100, 0),
        ("100", None, 9, 9),
        ("33.333", 100, 3, 0),
    ],
)
def test_the_rake_is_rounded_down_to_a_chip_and_capped(
    percent: str, cap: int | None, pot: int, taken: int
) -> None:
    assert Rake(Decimal(percent), cap).of(pot) == taken


# --- who may act, and what -------------------------------------------------------------------


def test_allowed_says_who_may_act_and_with_what() -> None:
    game = new_game(make_setup(HANDS, variants={V.CHIPS}, chips=[10, 3, 0 + 4], first=2))
    (turn,) = allowed(game)
    assert turn.player == 2 and turn.kinds == {ActionKind.SKIP, ActionKind.FOLD, ActionKind.AUCTION}
    assert turn.cards == cards(HANDS[2]) and (turn.chips_min, turn.chips_max) == (1, 4)
    game = apply(game, Auction(2, cards("Qs")[0], 1))
    offers = allowed(game)
    assert [o.player for o in offers] == [0, 1]  # clockwise from the auctioneer
    assert all(o.kinds == {ActionKind.OFFER} for o in offers)
    assert (offers[1].chips_min, offers[1].chips_max) == (0, 3)
    assert game.to_act == (0, 1)
    game = apply(game, Offer(1, cards("Ks")[0]))
    assert game.to_act == (0,)
    game = apply(game, Offer(0, cards("9s")[0]))
    (decision,) = allowed(game)
    assert decision.kinds == {ActionKind.SWAP, ActionKind.MULLIGAN}
    assert decision.swap_with == (1, 0)
    game = apply(game, Mulligan(2))
    assert allowed(game)[0].player == 0


def test_nothing_may_be_done_once_the_game_is_over() -> None:
    game = new_game(make_setup(HANDS[:2]))
    game = apply(game, Fold(0))
    assert game.is_over and allowed(game) == () and game.to_act == ()
    with pytest.raises(EngineError, match="the game is over"):
        apply(game, Skip(1))


def test_result_of_a_running_game_is_refused() -> None:
    with pytest.raises(ValueError, match="not over"):
        result(new_game(make_setup(HANDS)))


# --- refusals of actions ---------------------------------------------------------------------


def plain() -> MulliganGame:
    return new_game(make_setup(HANDS))


def in_offers(game: MulliganGame | None = None) -> MulliganGame:
    return apply(game or plain(), Auction(0, cards("2c")[0]))


def in_decision() -> MulliganGame:
    game = apply(in_offers(), Offer(1, cards("Ah")[0]))
    return apply(game, Offer(2, cards("Qs")[0]))


def for_chips() -> MulliganGame:
    return new_game(make_setup(HANDS, variants={V.CHIPS}, chips=[5, 2, 3]))


REFUSED = [
    ("skip out of turn", plain, Skip(1), "it is player 0's turn, not player 1's"),
    ("fold out of turn", plain, Fold(2), "it is player 0's turn, not player 2's"),
    ("no such player", plain, Skip(3), "there is no player 3"),
    ("auction out of turn", plain, Auction(1, cards("Ah")[0]), "player 0's turn, not player 1"),
    ("auction a card not held", plain, Auction(0, cards("Ah")[0]), "player 0 does not hold Ah"),
    ("chips without chips", plain, Auction(0, cards("2c")[0], 1), "2c carries no chips"),
    ("auction no chips", for_chips, Auction(0, cards("2c")[0], 0), "at least 1 chip on the"),
    ("auction too many", for_chips, Auction(0, cards("2c")[0], 6), "holds 5 chips and cannot"),
    ("skip mid-auction", in_offers, Skip(0), "player 0 cannot skip: the auction has begun"),
    ("fold mid-auction", in_offers, Fold(0), "player 0 cannot fold: the auction has begun"),
    ("second auction", in_offers, Auction(0, cards("3d")[0]), "cannot open a second auction"),
    ("the auctioneer offers", in_offers, Offer(0, cards("3d")[0]), "player 0 is the auctioneer"),
    ("offer not held", in_offers, Offer(1, cards("Qs")[0]), "player 1 does not hold Qs"),
    ("offer before auction", plain, Offer(1, cards("Ah")[0]), "no card is up for auction"),
    ("offer after all", in_decision, Offer(1, cards("Ad")[0]), "player 1 has already offered"),
    ("swap early", in_offers, Swap(0, 1), "cannot swap before every offer is in"),
    ("mulligan early", in_offers, Mulligan(0), "cannot mulligan before every offer is in"),
    ("swap not offered", in_decision, Swap(0, 0), "player 0 made no offer to swap with"),
    ("swap nobody", in_decision, Swap(0, 5), "player 5 made no offer"),
    ("decide by other", in_decision, Mulligan(1), "it is player 0's turn, not player 1's"),
    ("act while offers", in_offers, Skip(1), "waiting for offers from players 1, 2"),
]


@pytest.mark.parametrize(
    ("build", "action", "message"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED]
)
def test_an_illegal_action_is_refused_naming_player_and_card_and_changes_nothing(
    build: object, action: object, message: str
) -> None:
    assert callable(build)
    game = build()
    before = replace(game)
    with pytest.raises(EngineError) as refused:
        apply(game, action)  # type: ignore[arg-type]
    assert refused.value.code is Refusal.ILLEGAL_ACTION
    assert message in refused.value.message
    assert game == before


def test_an_offer_cannot_carry_more_chips_than_its_owner_holds() -> None:
    game = apply(for_chips(), Auction(0, cards("2c")[0], 1))
    with pytest.raises(
        EngineError, match="player 1 holds 2 chips and cannot put 3 on the offered Ah"
    ):
        apply(game, Offer(1, cards("Ah")[0], 3))
    game = apply(game, Offer(1, cards("Ah")[0], 2))
    assert game.stacks == (4, 0, 3)


# --- refusals of a setup ---------------------------------------------------------------------


def test_a_setup_with_a_card_twice_or_missing_is_duplicate_card() -> None:
    setup = make_setup(HANDS)
    twice = replace(setup, deck=setup.deck[:-1] + (setup.hands[0][0],))
    with pytest.raises(EngineError, match="2c in the deck is already in player 0's hand") as e:
        new_game(twice)
    assert e.value.code is Refusal.DUPLICATE_CARD
    with pytest.raises(EngineError, match="missing: ") as e:
        new_game(replace(setup, deck=setup.deck[:-1]))
    assert e.value.code is Refusal.DUPLICATE_CARD


def _deal(players: int, *variants: Variant, **kw: object) -> object:
    return shuffled_setup(random.Random(1), players, variants=variants, first=0, **kw)  # type: ignore[arg-type]


BAD_SETUPS = [
    ("one player", lambda: _deal(1), "at least 2 players"),
    ("nine players", lambda: _deal(9), "fewer than the 9 players (at most 8 players)"),
    ("seven high risk", lambda: _deal(7, V.HIGH_RISK), "at most 6 players with High Risk"),
    ("secret and open", lambda: _deal(3, V.SECRET_OFFERS, V.OPEN_HANDS), "cannot be combined"),
    ("no stacks", lambda: _deal(3, V.CHIPS), "one stack for each of 3 players"),
    ("short stacks", lambda: _deal(3, V.CHIPS, chips=[5, 5]), "one stack for each"),
    ("empty stack", lambda: _deal(2, V.CHIPS, chips=[5, 0]), "player 1 must start with"),
    ("stacks, no chips", lambda: _deal(2, chips=[5, 5]), "only with the chips variant"),
    ("rake, no chips", lambda: _deal(2, rake=rake("5")), "rake is taken only with the chips"),
    ("no minimum", lambda: _deal(2, V.CHIPS, chips=[5, 5], table_minimum=0), "at least 1 chip"),
    ("first", lambda: replace(make_setup(HANDS), first=3), "first player must be 0 to 2"),
    (
        "burn, no high risk",
        lambda: (lambda s: replace(s, burn=s.deck[-13:], deck=s.deck[:-13]))(make_setup(HANDS)),
        "only High Risk burns",
    ),
    (
        "short burn",
        lambda: (lambda s: replace(s, burn=s.burn[1:], deck=s.deck + s.burn[:1]))(
            make_setup(HANDS, variants={V.HIGH_RISK})
        ),
        "High Risk burns 13 cards, not 12",
    ),
    (
        "six-card hand",
        lambda: (
            lambda s: replace(s, hands=(s.hands[0] + s.deck[:1], *s.hands[1:]), deck=s.deck[1:])
        )(make_setup(HANDS)),
        "player 0 must be dealt 5 cards, not 6",
    ),
]


@pytest.mark.parametrize(
    ("build", "message"), [b[1:] for b in BAD_SETUPS], ids=[b[0] for b in BAD_SETUPS]
)
def test_a_bad_setup_is_refused(build: object, message: str) -> None:
    assert callable(build)
    with pytest.raises(EngineError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        new_game(build())
    assert e.value.code is Refusal.BAD_SETUP


@pytest.mark.parametrize(
    ("percent", "cap"), [("-1", None), ("100.5", None), ("5", -1), ("NaN", None)]
)
def test_a_bad_rake_is_refused(percent: str, cap: int | None) -> None:
    with pytest.raises(EngineError) as e:
        Rake(Decimal(percent), cap)
    assert e.value.code is Refusal.BAD_SETUP


def test_the_largest_tables_can_be_dealt() -> None:
    assert len(new_game(shuffled_setup(random.Random(0), 8)).deck) == 12
    assert len(new_game(shuffled_setup(random.Random(0), 6, variants={V.HIGH_RISK})).deck) == 9


def test_the_deck_is_dealt_as_the_rules_say() -> None:
    setup = shuffled_setup(random.Random(5), 4, variants={V.HIGH_RISK})
    assert [len(h) for h in setup.hands] == [5, 5, 5, 5] and len(setup.burn) == 13
    assert sorted({*setup.deck, *setup.burn, *(c for h in setup.hands for c in h)}) == sorted(DECK)


# --- the assertions: a bug is refused and nothing changes -----------------------------------


def test_a_broken_assertion_refuses_the_action_with_its_own_exception(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tables.games.mulligan import game as mulligan_game

    game = in_decision()
    # Inject a bug: the draw after a mulligan skips everyone but the auctioneer.
    monkeypatch.setattr(mulligan_game, "clockwise_from", lambda start, players: [start])
    with pytest.raises(GameAssertionError) as broken:
        apply(game, Mulligan(0))
    assert not isinstance(broken.value, EngineError)
    assert broken.value.assertion == "five_cards"
    assert "player 1 holds 4 cards" in broken.value.message
    assert game.phase is Phase.DECISION and game.discard == ()


def test_a_turn_given_to_the_wrong_player_breaks_turn_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tables.games.mulligan import game as mulligan_game

    game = plain()
    monkeypatch.setattr(mulligan_game, "next_active", lambda after, active: after)
    with pytest.raises(GameAssertionError, match="turn_order"):
        apply(game, Skip(0))
    assert game.auctioneer == 0 and game.turn == 1


def test_a_rake_beyond_the_pot_breaks_chip_conservation(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(make_setup(HANDS[:2], variants={V.CHIPS}, chips=[5, 5], rake=rake("10")))
    game = apply(auction_round(game, lot_chips=2), Mulligan(0))
    monkeypatch.setattr(Rake, "of", lambda self, pot: pot + 1)
    with pytest.raises(GameAssertionError, match="chip_conservation"):
        apply(game, Fold(1))
    assert game.stacks == (3, 5) and not game.is_over
