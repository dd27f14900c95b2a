"""The engine half of the three house-banked games of `tables.engine` (their rules are there):
one class each game package extends with its wagers, decisions and tablet steps."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tables.engine import contract, entry
from tables.engine import simulate as engine_simulate
from tables.engine.paytables import DEFAULT_NAME, NAMED, REQUIRED_LINES, Paytable, make_paytable
from tables.engine.paytables import Game as EngineGame
from tables.engine.progressive import MeterConfig
from tables.engine.settlement import Settlement

from .base import BankedGame


class RulesEngineGame(BankedGame):
    """A banked game whose rules are one of `tables.engine`'s (`engine_game`)."""

    @property
    def engine_game(self) -> EngineGame:
        return EngineGame(self.name)

    @property
    def default_paytable(self) -> str:  # type: ignore[override]
        return DEFAULT_NAME[self.engine_game]

    def paytable(self, name: str, lines: Mapping[str, Any]) -> Paytable:
        return make_paytable(self.engine_game, name, lines)

    def required_lines(self) -> Mapping[str, tuple[str, ...]]:
        return REQUIRED_LINES[self.engine_game]

    def named_paytables(self) -> Mapping[str, Paytable]:
        return NAMED[self.engine_game]

    def settle(
        self, entry_: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None
    ) -> Settlement:
        return contract.settle(entry_, paytable=paytable, meter=meter)

    def check_partial(self, entry_: Mapping[str, Any]) -> None:
        entry.check_partial(entry_)

    def dealer_advice(self, cards: list[str]) -> dict[str, Any]:
        return entry.dealer_advice(self.engine_game, cards)

    def random_round(
        self, rng: random.Random, seats: int | None, *, strategy: str | None = None
    ) -> dict[str, Any]:
        return engine_simulate.random_round(rng, self.name, seats=seats, strategy=strategy)
