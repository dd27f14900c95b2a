"""Mulligan, the trading card game (`docs/rules/mulligan.md`): a player-vs-player game the house
runs and rakes. The rules are the engine's (`tables/engine/mulligan_game.py`); this package
holds what is Mulligan's own on the floor:

    terms.py   the table's terms set in the admin: variants and their allowed combinations,
               the table minimum, the rake, what a chip is worth
    play.py    a game as the dealer enters it (the deal, then one action at a time), rebuilt
               by the engine from its record
    pages.py   what the dealer's tablet and the players' table display show, from what each
               may see (`mulligan_view`)

Its tablet templates are `templates/games/mulligan/`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from tables.engine.mulligan_game import Mulligan as MulliganAction
from tables.engine.mulligan_game import (
    Variant,
    apply,
    new_game,
    random_action,
    shuffled_setup,
)

from ..base import GameDefinition
from .play import Played, draw_order
from .terms import MulliganTerms, allowed_combinations, variants_label


class Mulligan(GameDefinition):
    name = "mulligan"
    label = "Mulligan"
    tablet_flow = "mulligan"
    player_vs_player: ClassVar[bool] = True

    tablet_template: ClassVar[str] = "games/mulligan/tablet.html"
    display_template: ClassVar[str] = "games/mulligan/display.html"

    default_terms: ClassVar[MulliganTerms] = MulliganTerms()

    def terms(self, data: Any) -> MulliganTerms:
        """A table's stored terms (ServiceError naming the field when they break a rule)."""
        return MulliganTerms.from_json(data)

    def terms_help(self) -> str:
        combos = "; ".join(variants_label(c) for c in allowed_combinations())
        return (
            "Variants: Secret Offers, High Risk, Open Hands, Playing for chips; Secret Offers "
            f"and Open Hands exclude each other. Allowed: {combos}."
        )

    def random_game(
        self, rng: random.Random, terms: MulliganTerms, players: int, stack: int = 0
    ) -> Played:
        """A random legal game played to its end under `terms` (simulations, demos, load)."""
        chips = [max(stack, terms.table_minimum)] * players if terms.plays_for_chips else None
        setup = shuffled_setup(
            rng,
            players,
            variants=terms.variants,
            chips=chips,
            table_minimum=terms.table_minimum,
            rake=terms.rake(),
        )
        game = new_game(setup)
        drawn = 0
        while not game.is_over:
            before = game
            game = apply(game, random_action(game, rng))
            if isinstance(game.actions[-1], MulliganAction):
                drawn += len(draw_order(before))
        return Played(
            terms=terms,
            first=setup.first,
            hands=setup.hands,
            burn=setup.burn,
            chips=setup.chips,
            draws=setup.deck[:drawn],
            actions=game.actions,
        )


__all__ = ["Mulligan", "MulliganTerms", "Played", "Variant"]
