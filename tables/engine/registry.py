"""The games' rules, as the games register them: the engine's drivers (`contract`, `entry`,
`paytables`, `simulate`, `house_edge`, `replay`) ask here and never name a game. The types the
rules are written in come from modules that never ask here (`cards`, `paytable_types`,
`strategies`, `edge_report`, ...), so no import, not even the type checker's, leads back.

A house-banked game registers a `BankedRules` (how its round is read and settled, checked
while entered, advised, dealt at random, played by each named strategy, and its wagers'
house edge); a game between players registers a `PlayerRules` (how a hand's record is
replayed, and the rake simulated). Each is registered once, by the game's own package.

The installed games are listed in one place, the games' package (`GAMES_PACKAGE`, its
`INSTALLED`): the first lookup imports it, and importing it registers every game. Nothing in
the engine imports a game at module level; this module's loader is the only way in.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

from .errors import EngineError, Refusal

if TYPE_CHECKING:
    from decimal import Decimal

    from .cards import Card, CardLedger, Shoe
    from .edge_rake import RakeRun
    from .edge_report import WagerEdge
    from .paytable_types import Paytable, PaytableForm
    from .progressive import MeterConfig
    from .settlement import Settlement
    from .strategies import Mix, Strategy

# The package that lists and registers the installed games (its `INSTALLED`).
GAMES_PACKAGE: Final = "tables.games"


class RuleSet(Protocol):
    """What every game's rules have: the game's name, as the contracts write it."""

    name: str


class BankedRules(RuleSet, Protocol):
    """A house-banked game's rules, in the `settle` contract's input form."""

    # What its paytables hold (each wager's lines), the named paytables it ships, and the one
    # a round without a paytable is settled under.
    paytable_form: PaytableForm
    named_paytables: Mapping[str, Paytable]
    default_paytable: str
    # The named paytables a random round picks from (the simulator).
    paytables: tuple[str, ...]
    # Wagers the game's rules place and a seat may not give, each with what places it (the
    # refusal of such a wager says so).
    placed_wagers: Mapping[str, str]
    # The house-edge analysis's default count of sampled deals.
    default_samples: int
    # The wagers that cannot be computed exactly, and why (an exact analysis omits them).
    not_exact: Mapping[str, str]

    def settle(
        self, data: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None
    ) -> Settlement:
        """Read a whole round and settle it (refused: EngineError)."""
        ...

    def check_seat(
        self, n: int, seat: Mapping[str, Any], cards: tuple[Card, ...], ledger: CardLedger
    ) -> None:
        """Refuse what seat `n` has entered beyond its first cards when it breaks a rule,
        placing any further cards it holds on the round's `ledger`."""
        ...

    def dealer_advice(self, cards: tuple[Card, ...]) -> dict[str, Any]:
        """The house way for the dealer's first cards: `rule`, `discard`, `draw_count`, and
        what the game adds."""
        ...

    def deal(
        self,
        rng: random.Random,
        seat_numbers: list[int],
        shoe: Shoe,
        strategy: Strategy | None,
    ) -> dict[str, Any]:
        """A random legal round's dealer and seats, dealt from `shoe`, the players playing
        `strategy` (None: the simulator's own mix)."""
        ...

    def describe(self, strategy: Strategy) -> str:
        """What `strategy` means in this game."""
        ...

    # Every wager's house edge (`EdgesFunction`).
    edges: EdgesFunction


class PlayerRules(RuleSet, Protocol):
    """A game between players: its hand records replayed, its rake simulated."""

    # The rake simulation's default count of hands (or games).
    default_samples: int

    def replay(self, data: dict[str, Any]) -> dict[str, Any]:
        """Replay one record: its result, or `{"error": ...}` (never raises for a bad one)."""
        ...

    # The house's rake over simulated hands (or games) (`RakeEdgeFunction`).
    rake_edge: RakeEdgeFunction


_BANKED: dict[str, BankedRules] = {}
_PLAYERS: dict[str, PlayerRules] = {}
_loaded = False


def _refuse_twice(name: str) -> None:
    if name in _BANKED or name in _PLAYERS:
        raise ValueError(f"the rules of {name!r} are already registered")


def register_banked(rules: BankedRules) -> BankedRules:
    """Register a house-banked game's rules (once: a second of the same name is refused)."""
    _refuse_twice(rules.name)
    _BANKED[rules.name] = rules
    return rules


def register_players(rules: PlayerRules) -> PlayerRules:
    """Register the rules of a game between players (once)."""
    _refuse_twice(rules.name)
    _PLAYERS[rules.name] = rules
    return rules


def unregister(name: str) -> None:
    """Remove a game's rules (a test that registered a game of its own takes it away again)."""
    _BANKED.pop(name, None)
    _PLAYERS.pop(name, None)


def load() -> None:
    """Import the installed games (once), which registers them."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    try:
        importlib.import_module(GAMES_PACKAGE)
    except BaseException:
        _loaded = False
        raise


def banked(name: object) -> BankedRules | None:
    """The rules of the house-banked game `name`, or None."""
    if not _loaded:
        load()
    return _BANKED.get(name) if isinstance(name, str) else None


def players(name: object) -> PlayerRules | None:
    """The rules of the game between players `name`, or None."""
    if not _loaded:
        load()
    return _PLAYERS.get(name) if isinstance(name, str) else None


def banked_names() -> tuple[str, ...]:
    """The house-banked games, in the order they were installed."""
    load()
    return tuple(_BANKED)


def player_names() -> tuple[str, ...]:
    """The games between players, in the order they were installed."""
    load()
    return tuple(_PLAYERS)


def banked_rules(name: object) -> BankedRules:
    """The rules of the house-banked game `name`; refuses (UNKNOWN_GAME) any other name."""
    rules = banked(name)
    if rules is None:
        known = ", ".join(banked_names())
        raise EngineError(
            Refusal.UNKNOWN_GAME, f"game {name!r} is not one of: {known}", field="game"
        )
    return rules


# --- the rules a game fills in -----------------------------------------------------------------


class EdgesFunction(Protocol):
    """A house-banked game's `edges`: every wager's house edge under `paytable` with the players
    playing `strategy` (adding to `settings` what the report states)."""

    def __call__(
        self,
        paytable: Paytable,
        strategy: Strategy,
        *,
        exact: bool,
        samples: int | None,
        rng: random.Random,
        meter: MeterConfig | None,
        default_samples: int | None,
        settings: dict[str, Any],
    ) -> tuple[WagerEdge, ...]: ...


class RakeEdgeFunction(Protocol):
    """A game between players' `rake_edge`: the house's rake over `samples` simulated hands
    (or games) of `players` players under the rake given. `unit`: what one of the simulation's
    chips is worth in the money counted (its stakes, stacks and table minimum multiplied by it;
    the rake, its cap and the figures in that money, the rake rounded down to one of it)."""

    def __call__(
        self,
        samples: int,
        rng: random.Random,
        *,
        players: int,
        rake_percent: Decimal,
        rake_cap: int | None,
        unit: int = 1,
    ) -> RakeRun: ...


@dataclass
class BankedGameRules:
    """A house-banked game's `BankedRules`, made of the game's own functions and tables: each
    game's `rules.py` fills one in (its `RULES`). A strategy is described by its `Mix`, and a
    random round picks among every named paytable."""

    name: str
    paytable_form: PaytableForm
    named_paytables: Mapping[str, Paytable]
    default_paytable: str
    strategies: Mapping[Strategy, Mix[Any]]
    settle: Callable[[Mapping[str, Any], Paytable, MeterConfig | None], Settlement]
    check_seat: Callable[[int, Mapping[str, Any], tuple[Card, ...], CardLedger], None]
    dealer_advice: Callable[[tuple[Card, ...]], dict[str, Any]]
    deal: Callable[[random.Random, list[int], Shoe, Strategy | None], dict[str, Any]]
    edges: EdgesFunction
    default_samples: int
    not_exact: Mapping[str, str] = field(default_factory=dict)
    placed_wagers: Mapping[str, str] = field(default_factory=dict)
    paytables: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.paytables = tuple(self.named_paytables)

    def describe(self, strategy: Strategy) -> str:
        return self.strategies[strategy].description


@dataclass
class PlayerGameRules:
    """A game between players' `PlayerRules`, made of its replay and its rake simulation."""

    name: str
    default_samples: int
    replay: Callable[[dict[str, Any]], dict[str, Any]]
    rake_edge: RakeEdgeFunction


__all__ = [
    "GAMES_PACKAGE",
    "BankedGameRules",
    "BankedRules",
    "EdgesFunction",
    "PlayerGameRules",
    "PlayerRules",
    "RakeEdgeFunction",
    "RuleSet",
    "banked",
    "banked_names",
    "banked_rules",
    "load",
    "player_names",
    "players",
    "register_banked",
    "register_players",
    "unregister",
]
