"""The engine's exceptions: a refusal with a contract code and a message for a person, and
a broken game assertion (a bug, never a player's mistake)."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """Refusal codes of the `settle` and `replay` contracts (`docs/contracts/`)."""

    BAD_JSON = "bad_json"
    UNKNOWN_GAME = "unknown_game"
    BAD_CARD = "bad_card"
    DUPLICATE_CARD = "duplicate_card"
    CARD_COUNT = "card_count"
    BAD_WAGER = "bad_wager"
    HOUSE_WAY = "house_way"
    FOUL = "foul"
    BAD_SEAT = "bad_seat"
    BAD_PAYTABLE = "bad_paytable"
    # The `replay` contract's own codes (`docs/contracts/replay.md`) for the player-vs-player games.
    BAD_SETUP = "bad_setup"
    ILLEGAL_ACTION = "illegal_action"
    INCOMPLETE = "incomplete"


SETTLE_REFUSALS = frozenset(Refusal) - {
    Refusal.BAD_SETUP,
    Refusal.ILLEGAL_ACTION,
    Refusal.INCOMPLETE,
}


class EngineError(ValueError):
    """A round, card or wager that breaks a rule; nothing of it is settled.

    `code` is one of `Refusal`; `message` names the card, seat or wager at fault, and `field`
    (when known) is the input field, so a form can show the message beside it.
    """

    def __init__(self, code: Refusal, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code.value, "message": self.message}}


class GameAssertionError(Exception):
    """A game's assertion failed after an action: a bug in the engine, not a refused input.

    The action is refused and the game stays as it was before it. It is deliberately not an
    `EngineError`, so that no code that answers a refusal can swallow it: the floor logs it
    and writes it on the audit trail. `assertion` names the broken assertion; `message` says
    what was found.
    """

    def __init__(self, assertion: str, message: str) -> None:
        super().__init__(f"{assertion}: {message}")
        self.assertion = assertion
        self.message = message
