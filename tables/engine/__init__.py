"""The rules engine: cards, rankings, house ways, paytables and settlement, in pure Python.

Nothing here imports Django: everything that settles money (the dealer tablet, the REST API,
the `settle` command) calls this package, so there is one implementation of every rule.

- `cards`: parsing and the round's card ledger (a card is used at most once).
- `rankings`: three-card poker and lowball values; `mulligan_hands`: Mulligan five-card hands.
- `paytables`: paytables as data (exact odds), the named defaults, overrides.
- `second_chance`, `lowball`, `pyramid`: each game's house way and `settle(round, paytable)`.
- `progressive`: the Lowball progressive meter arithmetic.
- `contract`: the JSON contract of `manage.py settle`.
- `mulligan_game`: Mulligan, the trading card game, as a state machine driven one action at a
  time, its assertions checked after each; `mulligan_view`: what each viewer may see;
  `mulligan_replay`: the Mulligan half of the `replay` contract (`replay_mulligan`).
- `rhode_island`: Rhode Island Hold 'Em, one hand as a state machine driven one action at a
  time, its betting by PokerKit; `rhode_island_replay`: its half of the `replay` contract.
- `replay`: the `replay` contract's dispatch (`GAMES`: each game's replay function);
  `replay_errors`: `ActionRefused`, a refusal that carries the refused action's index.
- `strategies`: the named player strategies (`optimal`, `house_way`, `published`, `typical`)
  shared by the house-edge analysis and `simulate` (random legal rounds).
- `house_edge`: the theoretical hold of every wager (docs/house_edge.md), from
  `edge_pyramid` (exact), `edge_second_chance` (Pair Plus exact, Ante+Raise sampled),
  `edge_lowball` (sampled, the jackpot exact), `edge_rake` (the rake games, simulated),
  `edge_fast` (lookup tables filled by the engine's evaluators) and `edge_stats`.

A refused round raises `EngineError` (a contract code and a message naming the card, seat or
wager); nothing of it is settled. Money is integer cents; odds are `Fraction`s. A game
assertion that fails after an action raises `GameAssertionError` (a bug; the action is refused).
"""

from .errors import EngineError, Refusal

__all__ = ["EngineError", "Refusal"]
