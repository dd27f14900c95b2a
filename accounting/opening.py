"""A table is open for play by its counts, not by a checkbox.

`Table.is_open` stays the admin's "in service" flag (a table taken off the floor: no dealer
signs in, no round opens). A table in service is **open for play** in a gaming day and shift
once that shift's opener slip is signed, and closed again once its closer is signed
(`open_state`, the one selector that says so). A round, a poker hand, a buy-in, a fill or a
credit at a table not open for the current gaming day and shift is refused (`require_open`:
409, `table_closed`, naming the table); so is a closer at a table not open. A second opener
for a shift is refused by the one-count-per-shift rule (`slip_create`).

`accounting.services.open_table` is the one helper that opens a table the way the floor does
(the dealer counts the tray, a pit boss signs): the simulation, the seeded day, the demo seeds
and the tests use it. The floor's services (rounds, hands) never import this app: they send
`tables.signals.play_starting`, and this app's receiver refuses (`accounting.apps`).

`CASINO_OPENER_REQUIRED` (default on) switches the refusals; the test suite turns it off by
default (tests/conftest.py) where its fixtures play rounds before any count, and on in the
tests of this rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from core.errors import ServiceError
from tables.gaming_day import gaming_day_of, shift_of

from . import rules
from .models import Slip


@dataclass(frozen=True)
class OpenState:
    """A table's state for one gaming day and shift, from its signed opener and closer."""

    gaming_day: date
    shift: str
    opener: Slip | None
    closer: Slip | None

    @property
    def is_open(self) -> bool:
        return self.opener is not None and self.closer is None

    @property
    def words(self) -> str:
        if self.opener is None:
            return "not opened (its opener is not signed)"
        if self.closer is not None:
            return f"closed (closer slip {self.closer.number} signed)"
        return f"open (opener slip {self.opener.number} signed)"


def open_state(
    *,
    table: Any,
    gaming_day: date | None = None,
    shift: str | None = None,
    at: datetime | None = None,
) -> OpenState:
    """Whether `table` is open for play in a gaming day and shift (by default now's): its
    signed opener and closer of that shift (one indexed look-up)."""
    at = at or timezone.now()
    day = gaming_day or gaming_day_of(at)
    shift = shift if shift is not None else shift_of(at)
    counts = {
        s.kind: s
        for s in Slip.objects.filter(
            table_id=table.pk,
            gaming_day=day,
            shift=shift,
            kind__in=(rules.OPENER, rules.CLOSER),
            status=Slip.Status.SIGNED,
        )
    }
    return OpenState(day, shift, counts.get(rules.OPENER), counts.get(rules.CLOSER))


def required() -> bool:
    return bool(getattr(settings, "CASINO_OPENER_REQUIRED", True))


def require_open(
    *,
    table: Any,
    what: str,
    gaming_day: date | None = None,
    shift: str | None = None,
    at: datetime | None = None,
    field: str = "table",
) -> None:
    """Refuse `what` (e.g. "a round") at a table not open for play in the gaming day and shift
    (by default now's): 409, `table_closed`, naming the table and what it needs."""
    if not required():
        return
    state = open_state(table=table, gaming_day=gaming_day, shift=shift, at=at)
    if state.is_open:
        return
    if state.closer is not None:
        need = "its next shift's opener signed"
        said = f"closed for the {state.shift} shift (its closer is signed)"
    else:
        need = "its opener signed"
        said = f"not open for the {state.shift} shift"
    raise ServiceError(
        f"{table} is {said}: {what} waits for {need}",
        field=field,
        code="table_closed",
        status=409,
    )
