"""Rhode Island Hold 'Em: one hand as a state machine, driven action by action.

The dealer's tablet and `manage.py replay` drive the same object:

- `HandSetup`: the table's numbers for one hand (stacks in seat order, ante, the three bet
  sizes, the raise cap, the rake, the player who acts first); `HandSetup.check()` refuses a
  bad one (`bad_setup`, naming the field).
- `RhodeIslandHand(setup, hole)` posts the antes and deals the hole cards. Then `waiting` says
  what the hand needs next: an action (`to_act`, `legal_actions()` with the chips each puts in,
  `act()`), the flop (`deal_flop`), the turn (`deal_turn`), or nothing (`OVER`: `result()`).
  `stacks`, `bets`, `in_pot`, `pot_total` and `pots()` describe the table at any point. A
  refused action or card raises `EngineError` naming the player, action or card, and changes
  nothing.

Betting is PokerKit's `State` (a fixed-limit game with antes, one hole card and two one-card
streets; a bet and `raise_cap` raises per round; tournament mode, so nobody folds without a bet
to face; short all-ins and uncalled bets as PokerKit rules them). Players are rotated so that
PokerKit's player 0 is `first`: PokerKit opens every betting round with its lowest live index
and skips folded and all-in players in index order, wrapping round, as the contract says.

What PokerKit cannot be configured to do, and the only rules of our own here:

1. Ante 0. PokerKit refuses a game with no ante, blind or bring-in; the contract allows it.
   `betting.NoAnteState` validates with a one-chip ante and sets the antes to zero before setup.
2. The rake. PokerKit calls its `rake` hook once per pot with only (amount, state): the hook
   cannot tell which pot it rakes (two pots can hold the same amount, and pots with the same
   players are merged and raked again), and on a fold PokerKit leaves the winner's bet of the
   round out of its pots. The contract's rake is one figure for the whole hand,
   min(cap, floor(percent of the pot)), taken from the main pot first, none when the hand ends
   by folds before the flop. `rake_for` computes it and `_settle` takes it from the pots.
3. The split. PokerKit splits each pot on its own through `divmod(amount, winners)` and gives
   the whole remainder to the pot's first winner. The contract adds up the pots won by the same
   players and hands leftover chips out one at a time in seat order from `first`. `_settle`
   does that with PokerKit's pots (amounts and the players who may win each).
4. The showdown. Betting is over once PokerKit reaches its showdown (or a fold ends the hand);
   the state is not driven further (its showdown and hand-killing steps would evaluate every
   hand again and cost half a hand's time). Hands are ranked by `rankings.poker_value`, which
   the tests check against PokerKit's `RhodeIslandHoldemHand` on all 22,100 hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from math import floor
from typing import Final, NamedTuple

from tables.engine.cards import DECK, Card, CardLedger
from tables.engine.errors import EngineError, Refusal
from tables.engine.rankings import poker_value

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
DEFAULT_ANTE: Final = 5
DEFAULT_BETS: Final = (10, 20, 20)
DEFAULT_RAISE_CAP: Final = 3


class Move(StrEnum):
    """A player's action, named as in the `replay` contract."""

    CHECK = "check"
    BET = "bet"
    CALL = "call"
    RAISE = "raise"
    FOLD = "fold"


class BettingRound(StrEnum):
    """The three betting rounds: after the hole card, the flop and the turn."""

    HOLE = "hole"
    FLOP = "flop"
    TURN = "turn"


class Waiting(StrEnum):
    """What the hand needs next."""

    ACTION = "action"
    FLOP = "flop"
    TURN = "turn"
    OVER = "over"


@dataclass(frozen=True)
class RakeRule:
    """The house's rake: `percent` of the pot rounded down to a whole chip, at most `cap`."""

    percent: Decimal = Decimal(0)
    cap: int | None = None

    def rake_for(self, pot: int, *, flop_dealt: bool) -> int:
        """The rake of a hand whose pot is `pot`; none when it ended by folds before the flop."""
        if not flop_dealt or pot <= 0:
            return 0
        rake = floor(Fraction(self.percent) * pot / 100)
        return rake if self.cap is None else min(rake, self.cap)


@dataclass(frozen=True)
class HandSetup:
    """One hand's table numbers; `stacks` in seat order (player 0, 1, ...)."""

    stacks: tuple[int, ...]
    first: int = 0
    ante: int = DEFAULT_ANTE
    bets: tuple[int, int, int] = DEFAULT_BETS
    raise_cap: int = DEFAULT_RAISE_CAP
    rake: RakeRule = field(default_factory=RakeRule)

    @property
    def players(self) -> int:
        return len(self.stacks)

    def check(self) -> None:
        """Refuse a setup the rules do not allow (`bad_setup`, naming the field)."""

        def refuse(message: str, where: str) -> EngineError:
            return EngineError(Refusal.BAD_SETUP, message, field=where)

        if not MIN_PLAYERS <= len(self.stacks) <= MAX_PLAYERS:
            raise refuse(
                f"a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(self.stacks)}",
                "stacks",
            )
        for i, stack in enumerate(self.stacks):
            if not _is_int(stack) or stack < 1:
                raise refuse(
                    f"player {i}'s stack must be a whole number of chips, at least 1", "stacks"
                )
        if not _is_int(self.first) or not 0 <= self.first < len(self.stacks):
            raise refuse(
                f"first must be a player index from 0 to {len(self.stacks) - 1}, "
                f"not {self.first!r}",
                "first",
            )
        if not _is_int(self.ante) or self.ante < 0:
            raise refuse(
                f"the ante must be a whole number of chips, at least 0, not {self.ante!r}", "ante"
            )
        if len(self.bets) != 3 or not all(_is_int(b) and b >= 1 for b in self.bets):
            raise refuse(
                "bets must be three bet sizes (whole chips, at least 1): the first, "
                "second and third betting rounds",
                "bets",
            )
        if not _is_int(self.raise_cap) or self.raise_cap < 0:
            raise refuse(
                f"the raise cap must be a whole number, at least 0, not {self.raise_cap!r}",
                "raise_cap",
            )
        percent = self.rake.percent
        if not isinstance(percent, Decimal) or not percent.is_finite() or not (0 <= percent <= 100):
            raise refuse(f"the rake percent must be a number from 0 to 100, not {percent}", "rake")
        cap = self.rake.cap
        if cap is not None and (not _is_int(cap) or cap < 0):
            raise refuse(
                f"the rake cap must be a whole number of chips, at least 0, not {cap!r}", "rake"
            )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class LegalAction(NamedTuple):
    """An action the player to act may take now and the chips it puts in."""

    move: Move
    amount: int
    all_in: bool


class ActionRecord(NamedTuple):
    """One action taken: who, what, the chips it put in, and the pot after it."""

    player: int
    move: Move
    amount: int
    all_in: bool
    betting_round: BettingRound
    pot_after: int


class PotView(NamedTuple):
    """A pot (the main pot first, then the side pots) and the players who may win it."""

    amount: int
    players: tuple[int, ...]


class PotResult(NamedTuple):
    """A pot at the end: its amount, the rake taken from it, who could and who did win it."""

    amount: int
    rake: int
    players: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class HandResult:
    """How a hand ended. Per player, in seat order: `hands` (category at showdown, `None` for
    a player who folded or when nobody showed), `in_pot` (chips left in the pot after any
    unmatched bet came back), `awards` (chips won from the pot), `payoffs` (net result:
    awards - in_pot; they sum to -rake) and `stacks` (after the hand)."""

    pot: int
    rake: int
    showdown: bool
    hands: tuple[str | None, ...]
    winners: tuple[int, ...]
    payoffs: tuple[int, ...]
    in_pot: tuple[int, ...]
    awards: tuple[int, ...]
    stacks: tuple[int, ...]
    pots: tuple[PotResult, ...]


class RhodeIslandHand:
    """One hand of Rhode Island Hold 'Em from the antes to the result (see the module doc).

    Players are numbered 0, 1, ... in seat order. `board` may name the flop and turn when they
    are already known (a replay): PokerKit's deck then holds only this hand's cards, which makes
    dealing cheap; they are still dealt with `deal_flop` and `deal_turn`.
    """

    def __init__(
        self, setup: HandSetup, hole: Sequence[Card], *, board: Sequence[Card] = ()
    ) -> None:
        setup.check()
        n = setup.players
        if len(hole) != n:
            raise EngineError(
                Refusal.BAD_SETUP,
                f"{n} players need {n} hole cards, not {len(hole)}",
                field="hole",
            )
        self.setup = setup
        self._ledger = CardLedger()
        for i, card in enumerate(hole):
            self._ledger.place((card,), f"player {i}'s hole card")
        known = tuple(board)
        if len(known) > 2 or any(card in self._ledger for card in known):
            known = ()  # only a hint for the deck; the cards are checked when dealt
        self.hole: tuple[Card, ...] = tuple(hole)
        self.board: list[Card] = []
        self.history: list[ActionRecord] = []
        # PokerKit's player k is our player (first + k) % n.
        self._seat = tuple((setup.first + k) % n for k in range(n))
        self._pk = {seat: k for k, seat in enumerate(self._seat)}
        deck_cards = [*(self.hole[s] for s in self._seat), *known]
        if len(known) < 2:
            deck_cards += [c for c in DECK if c not in self._ledger and c not in known]
        # PokerKit is imported with the first hand, not with the game: the commands and pages
        # that play no hand (`manage.py settle` among them) never pay for importing it.
        from .betting import POKERKIT_CARD, new_state

        self._pokerkit_card = POKERKIT_CARD
        self._state = new_state(
            setup.ante,
            setup.bets,
            setup.raise_cap,
            tuple(setup.stacks[s] for s in self._seat),
            tuple(POKERKIT_CARD[c] for c in deck_cards),
        )
        for k, seat in enumerate(self._seat):
            self._state.deal_hole((POKERKIT_CARD[self.hole[seat]],), k)
        self._betting_over = False
        self._result: HandResult | None = None
        self._waiting = Waiting.ACTION
        self._refresh()

    # -- what the table looks like -------------------------------------------------------

    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def waiting(self) -> Waiting:
        return self._waiting

    @property
    def betting_round(self) -> BettingRound:
        return (BettingRound.HOLE, BettingRound.FLOP, BettingRound.TURN)[len(self.board)]

    @property
    def to_act(self) -> int | None:
        """The player whose turn it is, or None when the hand waits for a card or is over."""
        if self._waiting is not Waiting.ACTION:
            return None
        k = self._state.actor_index
        return None if k is None else self._seat[k]

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips in front of each player, not counting bets of the round not yet collected."""
        if self._result is not None:
            return self._result.stacks
        return self._by_seat(self._state.stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Each player's bets in the current betting round (not yet in a pot)."""
        if self._betting_over:
            return (0,) * self.players
        return self._by_seat(self._state.bets)

    @property
    def in_pot(self) -> tuple[int, ...]:
        """Chips each player has put in this hand (antes and bets, less any returned)."""
        if self._result is not None:
            return self._result.in_pot
        return self._by_seat([-p for p in self._state.payoffs])

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(not live for live in self._by_seat(self._state.statuses))

    @property
    def pot_total(self) -> int:
        """All chips in the middle: the pots and the bets of the round."""
        if self._result is not None:
            return self._result.pot
        return -sum(self._state.payoffs)

    def pots(self) -> list[PotView]:
        """The main pot then the side pots, as collected so far (bets of the round apart)."""
        if self._result is not None:
            return [PotView(p.amount, p.players) for p in self._result.pots]
        return [
            PotView(p.amount, tuple(sorted(self._seat[k] for k in p.player_indices)))
            for p in self._state.pots
        ]

    def legal_actions(self) -> list[LegalAction]:
        """Every action the player to act may take now, with the chips each puts in."""
        if self._waiting is not Waiting.ACTION:
            return []
        s = self._state
        k = s.actor_index
        if k is None:
            return []
        stack = s.stacks[k]
        to_call = max(s.bets) - s.bets[k]
        actions: list[LegalAction] = []
        if to_call <= 0:
            actions.append(LegalAction(Move.CHECK, 0, False))
        else:
            if s.can_fold():
                actions.append(LegalAction(Move.FOLD, 0, False))
            call = min(stack, to_call)
            actions.append(LegalAction(Move.CALL, call, call == stack))
        if s.can_complete_bet_or_raise_to():
            target = s.min_completion_betting_or_raising_to_amount
            assert target is not None
            amount = target - s.bets[k]
            move = Move.BET if max(s.bets) == 0 else Move.RAISE
            actions.append(LegalAction(move, amount, amount == stack))
        return actions

    # -- driving the hand ----------------------------------------------------------------

    def act(self, move: Move | str, *, player: int | None = None) -> ActionRecord:
        """Apply the action of the player to act (`player`, when given, must be that player).

        Refuses (`illegal_action`, naming the player and action) an action out of turn, not
        allowed now, or when the hand waits for a card or is over; the hand is then unchanged.
        """
        name = move.value if isinstance(move, Move) else str(move)
        if self._waiting is not Waiting.ACTION:
            raise self._illegal(f"{name} is not possible now: {self._waiting_text()}")
        seat = self.to_act
        assert seat is not None
        if player is not None and player != seat:
            raise self._illegal(
                f"player {player} cannot {name} out of turn: player {seat} is to act"
            )
        try:
            chosen = Move(move)
        except ValueError:
            raise self._illegal(
                f"{name!r} is not an action: player {seat} may {_describe(self.legal_actions())}"
            ) from None
        s = self._state
        k = self._pk[seat]
        facing = max(s.bets) - s.bets[k]
        stack = s.stacks[k]
        # The simple rules first (only check or bet without a bet to face; only fold, call or
        # raise facing one); whether a bet or raise is allowed now is PokerKit's to say, and
        # it checks before it changes anything.
        if chosen is Move.CHECK:
            allowed = facing <= 0
        elif chosen in (Move.BET, Move.RAISE):
            allowed = (max(s.bets) > 0) is (chosen is Move.RAISE)
        else:
            allowed = facing > 0
        betting_round = self.betting_round
        try:
            if not allowed:
                raise ValueError(chosen)
            if chosen in (Move.CHECK, Move.CALL):
                amount = min(stack, facing) if facing > 0 else 0
                s.check_or_call()
            elif chosen is Move.FOLD:
                amount = 0
                s.fold()
            else:
                already = s.bets[k]
                amount = s.complete_bet_or_raise_to().amount - already
        except ValueError:
            legal = self.legal_actions()
            raise self._illegal(self._why_not(seat, chosen, legal)) from None
        all_in = amount == stack and amount > 0
        self._refresh()  # first: a hand this action ends has its pot less any unmatched bet
        record = ActionRecord(seat, chosen, amount, all_in, betting_round, self.pot_total)
        self.history.append(record)
        return record

    def deal_flop(self, card: Card) -> None:
        """Deal the flop (refused unless the hand waits for it, or if the card is in play)."""
        self._deal(card, Waiting.FLOP, "flop")

    def deal_turn(self, card: Card) -> None:
        """Deal the turn (refused unless the hand waits for it, or if the card is in play)."""
        self._deal(card, Waiting.TURN, "turn")

    def result(self) -> HandResult:
        """How the hand ended; refused (`incomplete`) while it is not over."""
        if self._result is None:
            raise EngineError(Refusal.INCOMPLETE, f"the hand is not over: {self._waiting_text()}")
        return self._result

    # -- internals -------------------------------------------------------------------------

    def _by_seat(self, values: Sequence[int] | Sequence[bool]) -> tuple[int, ...]:
        out = [0] * self.players
        for k, seat in enumerate(self._seat):
            out[seat] = values[k]
        return tuple(out)

    def _illegal(self, message: str) -> EngineError:
        return EngineError(Refusal.ILLEGAL_ACTION, message, field="actions")

    def _waiting_text(self) -> str:
        if self._waiting is Waiting.OVER:
            return "the hand is over"
        if self._waiting is Waiting.ACTION:
            return f"player {self.to_act} is to act"
        return f"the {self._waiting.value} is to be dealt"

    def _why_not(self, seat: int, move: Move, legal: list[LegalAction]) -> str:
        s = self._state
        may = f"player {seat} may {_describe(legal)}"
        if move is Move.CHECK:
            return f"player {seat} cannot check facing a bet; {may}"
        if move in (Move.CALL, Move.FOLD) and max(s.bets) - s.bets[self._pk[seat]] <= 0:
            return f"player {seat} cannot {move.value}: there is no bet to face; {may}"
        if move is Move.RAISE and max(s.bets) == 0:
            return f"player {seat} cannot raise: there is no bet yet this round; {may}"
        if move is Move.BET and max(s.bets) > 0:
            return f"player {seat} cannot bet: there is already a bet this round; {may}"
        try:
            s.verify_completion_betting_or_raising_to()
        except ValueError as err:
            reason = _why_no_raise(str(err), self.setup.raise_cap)
        else:  # pragma: no cover - legal_actions() would have offered it
            reason = "not allowed now"
        return f"player {seat} cannot {move.value}: {reason}; {may}"

    def _deal(self, card: Card, step: Waiting, name: str) -> None:
        if self._waiting is not step:
            raise EngineError(
                Refusal.ILLEGAL_ACTION,
                f"the {name} ({card}) cannot be dealt now: {self._waiting_text()}",
                field=name,
            )
        self._ledger.place((card,), f"the {name}")
        if not self._betting_over:
            self._state.deal_board((self._pokerkit_card[card],))
        self.board.append(card)
        self._refresh()

    def _refresh(self) -> None:
        """Work out what the hand waits for; settle it once it is over."""
        s = self._state
        if not self._betting_over:
            if s.actor_index is not None:
                self._waiting = Waiting.ACTION
                return
            if s.can_deal_board():
                self._waiting = Waiting.FLOP if not self.board else Waiting.TURN
                return
            # PokerKit is at its showdown or pushing the pot: nobody can act any more.
            self._betting_over = True
        if sum(s.statuses) > 1 and len(self.board) < 2:
            self._waiting = Waiting.FLOP if not self.board else Waiting.TURN
            return
        self._waiting = Waiting.OVER
        self._result = self._settle()

    def _settle(self) -> HandResult:
        """Rake and split the pot by the contract (see points 2 and 3 of the module doc)."""
        s = self._state
        n = self.players
        seat = self._seat
        put_in = [-p for p in s.payoffs]  # PokerKit order, returned chips already taken off
        live = [k for k in range(n) if s.statuses[k]]
        ordered = sorted(put_in)
        unmatched = ordered[-1] - ordered[-2]
        if unmatched:  # a fold left the last bettor's unmatched chips out (PokerKit: in bets)
            put_in[put_in.index(ordered[-1])] -= unmatched
        pot = sum(put_in)
        rake = self.setup.rake.rake_for(pot, flop_dealt=bool(self.board))
        awards = [0] * n
        pot_results: list[PotResult] = []
        hands: list[str | None] = [None] * n
        if len(live) == 1:
            (winner,) = live
            awards[winner] = pot - rake
            pot_results.append(PotResult(pot, rake, (seat[winner],), (seat[winner],)))
        else:
            flop, turn = self.board
            values = {k: poker_value((self.hole[seat[k]], flop, turn)) for k in live}
            for k, value in values.items():
                hands[seat[k]] = value.category.value
            rake_left = rake
            groups: dict[tuple[int, ...], int] = {}
            pots = [(p.amount, p.player_indices) for p in s.pots]
            assert sum(amount for amount, _ in pots) == pot, "PokerKit's pots hold the whole pot"
            if not pots:  # nobody put a chip in (no ante, no bet): the best hand wins nothing
                pots = [(0, tuple(live))]
            for amount, players in pots:
                taken = min(rake_left, amount)
                rake_left -= taken
                best = max(values[k].score for k in players)
                winners = tuple(k for k in sorted(players) if values[k].score == best)
                groups[winners] = groups.get(winners, 0) + amount - taken
                pot_results.append(
                    PotResult(
                        amount,
                        taken,
                        tuple(sorted(seat[k] for k in players)),
                        tuple(sorted(seat[k] for k in winners)),
                    )
                )
            for winners, amount in groups.items():
                share, odd = divmod(amount, len(winners))
                for i, k in enumerate(winners):  # PokerKit order is seat order from `first`
                    awards[k] += share + (1 if i < odd else 0)
        payoffs = [awards[k] - put_in[k] for k in range(n)]
        assert sum(payoffs) == -rake
        start = [self.setup.stacks[seat[k]] for k in range(n)]
        won = sorted(seat[k] for k in range(n) if any(seat[k] in p.winners for p in pot_results))
        return HandResult(
            pot=pot,
            rake=rake,
            showdown=len(live) > 1,
            hands=tuple(hands),
            winners=tuple(won),
            payoffs=self._by_seat(payoffs),
            in_pot=self._by_seat(put_in),
            awards=self._by_seat(awards),
            stacks=self._by_seat([start[k] + payoffs[k] for k in range(n)]),
            pots=tuple(pot_results),
        )


def _describe(actions: Sequence[LegalAction]) -> str:
    parts = []
    for a in actions:
        if a.move in (Move.CHECK, Move.FOLD):
            parts.append(a.move.value)
        else:
            chips = f"{a.amount} chip{'s' if a.amount != 1 else ''}"
            parts.append(f"{a.move.value} ({chips}{', all-in' if a.all_in else ''})")
    if not parts:
        return "not act"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


_NO_RAISE_REASONS: Final = (
    (
        "No more completion",
        "the raise cap is reached: a betting round allows a bet and {cap} raise{s}",
    ),
    (
        "Short all-in cannot be raised",
        "facing less than a full raise (a short all-in), a player may only call or fold",
    ),
    (
        "The player already acted",
        "after a short all-in raise, a player who has already acted may only call or fold",
    ),
    ("The player is already covered", "the player has no more chips than the call"),
    ("There is no reason", "every other player still in is all-in"),
)


def _why_no_raise(pokerkit_message: str, cap: int) -> str:
    for start, reason in _NO_RAISE_REASONS:
        if pokerkit_message.startswith(start):
            return reason.format(cap=cap, s="" if cap == 1 else "s")
    return pokerkit_message
