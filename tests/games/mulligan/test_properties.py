"""Property tests over random Mulligan games (hypothesis drives the deal, the variants, the
stacks and every choice): no legal game breaks an assertion; all 52 cards and every chip are
accounted for after each action; `apply` accepts exactly what `allowed` offers; the public
display never shows a hidden card; a played game's record replays to its result."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.cards import DECK
from tables.engine.errors import EngineError, Refusal
from tables.games.mulligan.game import (
    Action,
    ActionKind,
    Auction,
    Fold,
    Mulligan,
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
    random_action,
    result,
    shuffled_setup,
)
from tables.games.mulligan.hands import best_of
from tables.games.mulligan.replay import game_record, replay_mulligan, result_json
from tables.games.mulligan.view import TABLE, game_view

from .helpers import VARIANT_SETS, accounts_for_all_cards, chips_in_play


@st.composite
def games(draw: st.DrawFn) -> MulliganGame:
    variants = draw(st.sampled_from(VARIANT_SETS))
    most = 6 if Variant.HIGH_RISK in variants else 8
    players = draw(st.integers(min_value=2, max_value=most))
    chips: list[int] | None = None
    rake: Rake | None = None
    minimum = 1
    if Variant.CHIPS in variants:
        minimum = draw(st.integers(min_value=1, max_value=3))
        chips = draw(
            st.lists(
                st.integers(min_value=minimum, max_value=30), min_size=players, max_size=players
            )
        )
        if draw(st.booleans()):
            percent = draw(st.decimals(min_value=0, max_value=100, places=2))
            rake = Rake(Decimal(percent), draw(st.none() | st.integers(min_value=0, max_value=9)))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    return new_game(
        shuffled_setup(
            random.Random(seed),
            players,
            variants=variants,
            chips=chips,
            table_minimum=minimum,
            rake=rake,
        )
    )


def check_snapshot(game: MulliganGame) -> None:
    """Independent accounting, not the engine's own assertions."""
    assert accounts_for_all_cards(game)
    if game.setup.chips is not None:
        assert chips_in_play(game) == sum(game.setup.chips)
        assert game.stacks is not None and min(game.stacks) >= 0
    if game.phase in (Phase.TURN, Phase.OVER):
        assert all(len(h) == 5 for h in game.hands)
    if not game.is_over:
        assert sum(game.active) >= 2 and game.active[game.auctioneer]


def check_table_display(game: MulliganGame) -> None:
    """The public display shows no card in a hand (unless Open Hands or over), no card in the
    deck or the burn, and no offer before it is turned up (never under Secret Offers)."""
    text = json.dumps(game_view(game, TABLE).as_json())
    hidden = set(game.deck) | set(game.burn)
    if Variant.OPEN_HANDS not in game.setup.variants and not game.is_over:
        hidden |= {c for h in game.hands for c in h}
    if game.phase is Phase.OFFERS or Variant.SECRET_OFFERS in game.setup.variants:
        hidden |= {o.card for o in game.offers}
    leaked = [str(c) for c in hidden if f'"{c}"' in text]
    assert not leaked, leaked


@settings(max_examples=150, deadline=None)
@given(games(), st.integers(min_value=0, max_value=2**32))
def test_random_legal_games_keep_every_assertion_and_account_for_everything(
    game: MulliganGame, seed: int
) -> None:
    rng = random.Random(seed)
    check_snapshot(game)
    for _ in range(4000):
        if game.is_over:
            break
        game = apply(game, random_action(game, rng))  # raises on any broken assertion
        check_snapshot(game)
        check_table_display(game)
    assert game.is_over
    r = result(game)
    assert r.winner == best_of(r.hands)
    if r.ended_by.value == "deck":
        assert r.discards == 52 - 5 * game.players and game.deck == ()
    assert (r.chips is None) == (Variant.CHIPS not in game.setup.variants)
    if game.setup.rake is not None:
        assert r.rake == game.setup.rake.of(r.pot)
    else:
        assert r.rake == 0
    # The record the tablet would keep replays to the same result through the contract.
    record: dict[str, Any] = json.loads(json.dumps(game_record(game)))
    assert replay_mulligan(record) == result_json(game)


def permitted(game: MulliganGame, action: Action) -> bool:
    for o in allowed(game):
        if o.player != action.player:
            continue
        if isinstance(action, Skip):
            return ActionKind.SKIP in o.kinds
        if isinstance(action, Fold):
            return ActionKind.FOLD in o.kinds
        if isinstance(action, Auction | Offer):
            kind = ActionKind.AUCTION if isinstance(action, Auction) else ActionKind.OFFER
            return (
                kind in o.kinds
                and action.card in o.cards
                and o.chips_min <= action.chips <= o.chips_max
            )
        if isinstance(action, Swap):
            return ActionKind.SWAP in o.kinds and action.offer_of in o.swap_with
        return ActionKind.MULLIGAN in o.kinds
    return False


def any_action(game: MulliganGame, rng: random.Random) -> Action:
    """Any action at all, legal or not, biased towards the plausible."""
    player = rng.choice([*range(-1, game.players + 1), *game.to_act, *game.to_act])
    pool = [c for h in game.hands for c in h] + list(DECK[:4])
    if 0 <= player < game.players and game.hands[player]:
        pool += list(game.hands[player]) * 3
    card = rng.choice(pool)
    top = max(game.stacks) if game.stacks else 1
    chips = rng.choice([0, 0, 1, rng.randint(-1, top + 1)])
    kind = rng.randrange(6)
    if kind == 0:
        return Skip(player)
    if kind == 1:
        return Fold(player)
    if kind == 2:
        return Auction(player, card, chips)
    if kind == 3:
        return Offer(player, card, chips)
    if kind == 4:
        return Swap(player, rng.randint(-1, game.players))
    return Mulligan(player)


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(min_value=0, max_value=2**32))
def test_apply_accepts_exactly_what_allowed_offers_and_a_refusal_changes_nothing(
    game: MulliganGame, seed: int
) -> None:
    rng = random.Random(seed)
    for _ in range(600):
        if game.is_over:
            break
        action = any_action(game, rng)
        before = game
        try:
            after = apply(game, action)
        except EngineError as refused:
            assert refused.code is Refusal.ILLEGAL_ACTION and refused.message
            assert not permitted(game, action), (action, refused.message)
            assert game == before
            game = apply(game, random_action(game, rng))  # move on with a legal action
        else:
            assert permitted(before, action), action
            game = after
        check_snapshot(game)


def test_random_play_reaches_both_endings_swaps_and_chipless_auctioneers() -> None:
    """The random games above are worth something only if they reach every kind of play."""
    seen: set[str] = set()
    for seed in range(240):
        rng = random.Random(seed)
        variants = VARIANT_SETS[seed % len(VARIANT_SETS)]
        players = rng.randint(2, 6)
        chips = [rng.randint(1, 10) for _ in range(players)] if Variant.CHIPS in variants else None
        game = new_game(shuffled_setup(rng, players, variants=variants, chips=chips))
        while not game.is_over:
            if game.phase is Phase.TURN and game.must_fold(game.auctioneer):
                seen.add("must_fold")
            action = random_action(game, rng)
            seen.add(type(action).__name__)
            game = apply(game, action)
        seen.add(f"ended_by_{result(game).ended_by}")
    assert seen >= {
        "Skip",
        "Fold",
        "Auction",
        "Offer",
        "Swap",
        "Mulligan",
        "must_fold",
        "ended_by_fold",
        "ended_by_deck",
    }
