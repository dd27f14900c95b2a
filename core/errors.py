"""The one refusal shared by every app's services (pages, admin and API turn it into a message)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ServiceError(Exception):
    """A refused request: `message` names the field, seat or card; nothing was changed.

    `status` is the HTTP status the API answers with (400 invalid, 409 conflict).
    """

    def __init__(
        self, message: str, *, field: str | None = None, code: str = "invalid", status: int = 400
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code
        self.status = status


class SeparationOfDuties(ServiceError):
    """Refused because the person took part in what they would sign off: they dealt the round
    or hand, entered the correction or the slip, or already signed it. Whatever roles they
    hold, another person must do it (403 on the API; the pages show the message).

    Whoever answers the request records it as a refused permission (`audit_refused`), naming
    `action` ("approve", "void", ...) and what it concerned (`about`: e.g. the round's id and
    name; `table_name`: its table)."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        action: str = "",
        about: Mapping[str, Any] | None = None,
        table_name: str = "",
    ):
        super().__init__(message, field=field, code="separation_of_duties", status=403)
        self.action = action
        self.about: dict[str, Any] = dict(about or {})
        self.table_name = table_name
