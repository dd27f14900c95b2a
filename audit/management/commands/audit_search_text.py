"""`manage.py audit_search_text [--all]`: write the search's words of every event that has none
(`audit.search`); `--all` writes every event's words again (after the pages' words changed).
The events themselves are never changed: their words are a table of their own."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from audit.models import AuditEvent, AuditEventText
from audit.search import write_missing


class Command(BaseCommand):
    help = "Write the trail search's words of the events that have none (--all: of every event)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true", help="write every event's words again")

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            if options["all"]:
                AuditEventText.objects.all().delete()
            events = AuditEvent.objects.filter(search_text__isnull=True).order_by("seq")
            done = write_missing(events.iterator(chunk_size=2000))
        self.stdout.write(f"{done} events' search words written")
