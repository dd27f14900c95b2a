"""The engine's one exception: a refusal with a contract code and a message for a person."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """Refusal codes of the `settle` contract (`docs/contracts/settle.md`)."""

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
