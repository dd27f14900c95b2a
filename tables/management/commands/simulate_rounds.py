"""`manage.py simulate_rounds [--table NAME | --all] --rounds N [--strategy NAME]`: random
legal rounds through the services, with a JSON summary (rounds, handle and house win in cents,
per table). `--strategy` makes every player play a named strategy
(`tables.engine.strategies`); without it the simulator's own mix plays."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.engine.strategies import STRATEGY_NAMES
from tables.models import Table
from tables.simulation import simulate


class Command(BaseCommand):
    help = "Play N random legal rounds per table through the same services the tablet uses."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--table", help="the table's name")
        which.add_argument("--all", action="store_true", help="every open table with a paytable")
        parser.add_argument("--rounds", type=int, required=True, help="rounds per table")
        parser.add_argument("--seed", type=int, default=None, help="random seed (repeatable runs)")
        parser.add_argument(
            "--seats", type=int, default=None, help="occupied seats per round (1-7)"
        )
        parser.add_argument(
            "--strategy",
            choices=STRATEGY_NAMES,
            default=None,
            help="the players' strategy (default: the simulator's own mix of play and mistakes)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rounds"] < 1:
            raise CommandError("--rounds must be at least 1")
        if options["seats"] is not None and not 1 <= options["seats"] <= 7:
            raise CommandError("--seats must be from 1 to 7")
        tables = Table.objects.filter(
            is_open=True, paytable_version__status="approved"
        ).select_related("paytable_version", "meter")
        if options["table"]:
            tables = tables.filter(name=options["table"])
            if not tables.exists():
                raise CommandError(
                    f"no open table named {options['table']!r} with an approved paytable"
                )
        summary = simulate(
            list(tables),
            options["rounds"],
            seed=options["seed"],
            seats=options["seats"],
            strategy=options["strategy"],
        )
        self.stdout.write(json.dumps(summary, indent=2))
