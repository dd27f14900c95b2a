"""`manage.py play_day [--seed S] [--rounds N] [--no-outages] [--check]`: play a seeded gaming
day on the demo floor through the services (`reports.seeded_day`: misdeals, undone steps,
sign-offs, voids, corrections, a jackpot, slips, rated players, a comp, a display key, a paytable
approved mid-day, the broker down and the database connection lost), all of it or nothing; with
`--check`, then run every check of the night (`reports.night_checks`) and exit 1 if any finds
a problem. Only with DEBUG on, on top of `seed_demo`'s floor."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ServiceError


class Command(BaseCommand):
    help = "Play a seeded gaming day at every table through the services (DEBUG only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
        parser.add_argument(
            "--rounds", type=int, default=6, help="rounds (hands) per table, at least 4"
        )
        parser.add_argument(
            "--no-outages",
            action="store_true",
            help="leave out the broker outage and the lost database connection",
        )
        parser.add_argument(
            "--check", action="store_true", help="then run every check of the night"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("play_day only runs with DEBUG on (it plays on the demo floor)")
        if not 4 <= options["rounds"] <= 100_000:
            raise CommandError("--rounds must be from 4 to 100000")
        from reports.night_checks import run_checks
        from reports.seeded_day import play_day
        from tables.models import Table

        if not Table.objects.filter(name__in=["SC-1", "LB-1"]).exists():
            raise CommandError("no demo floor: run `manage.py seed_demo` first")
        try:
            report = play_day(
                seed=options["seed"], rounds=options["rounds"], outages=not options["no_outages"]
            )
        except ServiceError as err:
            raise CommandError(f"the day stopped: {err.message}") from None
        out: dict[str, Any] = {"day": report.as_data()}
        if options["check"]:
            checks = run_checks()
            out["checks"] = {c.name: {"ok": c.ok, "problems": c.problems[:20]} for c in checks}
        self.stdout.write(json.dumps(out, indent=2))
        if options["check"] and not all(c.ok for c in checks):
            sys.exit(1)
