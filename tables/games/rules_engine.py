"""The engine half of a house-banked game whose rules are registered with the engine
(`tables.engine.registry`, from the game's `rules.py`): one class each game package extends
with its wagers, decisions and tablet steps."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tables.engine import contract, entry, registry
from tables.engine import simulate as engine_simulate
from tables.engine.paytable_types import Paytable
from tables.engine.paytables import make_paytable
from tables.engine.progressive import MeterConfig
from tables.engine.settlement import Settlement

from .base import BankedGame


class RulesEngineGame(BankedGame):
    """A banked game whose rules the engine's registry holds under its name (`rules`)."""

    @property
    def rules(self) -> registry.BankedRules:
        return registry.banked_rules(self.name)

    @property
    def default_paytable(self) -> str:  # type: ignore[override]
        return self.rules.default_paytable

    def paytable(self, name: str, lines: Mapping[str, Any]) -> Paytable:
        return make_paytable(self.name, name, lines)

    def required_lines(self) -> Mapping[str, tuple[str, ...]]:
        return self.rules.paytable_form.lines

    def named_paytables(self) -> Mapping[str, Paytable]:
        return self.rules.named_paytables

    def settle(
        self, entry_: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None
    ) -> Settlement:
        return contract.settle(entry_, paytable=paytable, meter=meter)

    def check_partial(self, entry_: Mapping[str, Any]) -> None:
        entry.check_partial(entry_)

    def dealer_advice(self, cards: list[str]) -> dict[str, Any]:
        return entry.dealer_advice(self.name, cards)

    def random_round(
        self, rng: random.Random, seats: int | None, *, strategy: str | None = None
    ) -> dict[str, Any]:
        return engine_simulate.random_round(rng, self.name, seats=seats, strategy=strategy)
