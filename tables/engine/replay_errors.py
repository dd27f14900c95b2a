"""A refused action in a replayed hand: the refusal and the index of the action it refused."""

from __future__ import annotations

from typing import Any

from .errors import EngineError, Refusal


class ActionRefused(EngineError):
    """`code` and `message` as `EngineError`; `action` is the index of the refused action in the
    hand's `actions` list (the `replay` contract's `"action"`)."""

    def __init__(self, code: Refusal, message: str, *, action: int) -> None:
        super().__init__(code, message, field="actions")
        self.action = action

    def as_dict(self) -> dict[str, dict[str, Any]]:
        out = super().as_dict()
        error: dict[str, Any] = dict(out["error"])
        error["action"] = self.action
        return {"error": error}
