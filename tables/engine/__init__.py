"""The rules engine, game-neutral: cards, rankings, money, paytables as data, settlement, the
`settle` and `replay` contracts, simulation and the house-edge machinery, in pure Python.

Nothing here imports Django, and nothing here names a game: each game's own rules live in its
folder (`tables/games/<game>/`: `game.py`, its edge, its replay) and are registered with
`registry`, which the drivers below ask. Everything that settles money (the dealer tablet, the
REST API, the `settle` command) comes through here, so there is one implementation of every
rule.

- `cards`: parsing and the round's card ledger (a card is used at most once).
- `rankings`: three-card high (poker) and low (aces low) values.
- `money`, `errors`, `validation`: cents and odds, the contracts' refusals, shared checks.
- `paytables`: paytables as data (exact odds): a game's form, validation, named and overridden.
- `settlement`: a settled round (lines, results, the dealer's action) as every game writes it.
- `progressive`: a progressive meter's arithmetic (contributions, cap, jackpot split).
- `registry`: the games' rules as the drivers ask for them (`BankedRules`, `PlayerRules`), and
  the generic `BankedGameRules` / `PlayerGameRules` a game fills in with its functions.
- `contract`, `entry`: the JSON contract of `manage.py settle`; checks while a round is entered.
- `replay`: the `replay` contract's dispatch; `replay_errors`: `ActionRefused`, a refusal that
  carries the refused action's index.
- `simulate`, `strategies`: random legal rounds, and the named player strategies (`optimal`,
  `house_way`, `published`, `typical`) shared with the house-edge analysis.
- `house_edge`: the theoretical hold of every wager (docs/house_edge.md), each game's from its
  rules' `edges` (or `rake_edge`), with `edge_rake` (the rake games, simulated), `edge_fast`
  (lookup tables filled by an evaluator) and `edge_stats`.

A refused round raises `EngineError` (a contract code and a message naming the card, seat or
wager); nothing of it is settled. Money is integer cents; odds are `Fraction`s. A game
assertion that fails after an action raises `GameAssertionError` (a bug; the action is refused).
"""

from .errors import EngineError, Refusal

__all__ = ["EngineError", "Refusal"]
