"""`manage.py audit_bind --reason TEXT`: put on the record every money row that no event
binds yet (a database upgraded from before the record bound its rows), with a reason.

It binds only rows that no event records at all: a row that differs from its event stays
reported by `verify_audit`. Run it once, at the upgrade, and keep its output: every row it
binds is named by table and id in the events it writes."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from audit.binding import unbound_rows
from audit.kinds import EventKind
from audit.services import bind_rows


class Command(BaseCommand):
    help = "Bind to the audit record every money row that no event binds yet (with a reason)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reason", required=True, help="why (kept in every event written)")

    def handle(self, *args: Any, **options: Any) -> None:
        reason = str(options["reason"]).strip()
        if not reason:
            raise CommandError("--reason must say why the rows are bound now")
        with transaction.atomic():
            rows = list(unbound_rows())
            events = bind_rows(
                rows, kind=EventKind.ROWS_BOUND, actor_name="system", data={"reason": reason}
            )
        self.stdout.write(f"bound {len(rows)} rows in {events} events: {reason}")
