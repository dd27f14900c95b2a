"""`manage.py simulate_rounds [--table NAME | --all] --rounds N [--strategy NAME]`: random
legal rounds through the services, with a JSON summary (rounds, handle and house win in cents,
per table). A player-vs-player table plays N random legal hands
(`--seats`: players per hand), summed as hands, pots and rake. `--strategy` makes every
player of a banked game play a named strategy (`tables.engine.strategies`); without it the
simulator's own mix plays. At a poker table `typical` plays as the game's rake simulation
assumes (each player buying in for its stack), the play its theoretical rake is figured for.
`--slips` adds the pit's slips of the banked tables through the
services (opener, buy-ins, fills, closer, drop: `accounting.simulation`), consistent with the
hands; `--shortage DOLLARS` takes chips from one table's closer (the first, or
`--shortage-table`) so the reconciliation shows a variance and its alert."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q

from core.db import one_transaction
from core.errors import ServiceError
from tables.engine.strategies import STRATEGY_NAMES
from tables.models import Table
from tables.simulation import simulate


class Command(BaseCommand):
    help = "Play N random legal rounds per table through the same services the tablet uses."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--table", help="the table's name")
        which.add_argument(
            "--all",
            action="store_true",
            help="every open table with a paytable or table settings in force",
        )
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

        parser.add_argument(
            "--slips", action="store_true", help="also the pit's slips (table accounting)"
        )
        parser.add_argument(
            "--shortage",
            default=None,
            help='with --slips: chips missing from a closer, in dollars (e.g. "25.00")',
        )
        parser.add_argument(
            "--shortage-table", default=None, help="the table short of chips (default: the first)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rounds"] < 1:
            raise CommandError("--rounds must be at least 1")
        if options["seats"] is not None and not 1 <= options["seats"] <= 7:
            raise CommandError("--seats must be from 1 to 7")
        tables = (
            Table.objects.filter(is_open=True)
            .filter(
                Q(paytable_version__status="approved")
                | Q(settings_assignments__settings_version__status="approved")
            )
            .distinct()
            .order_by("name")
            .select_related("paytable_version", "meter")
        )
        if options["table"]:
            tables = tables.filter(name=options["table"])
            if not tables.exists():
                raise CommandError(
                    f"no open table named {options['table']!r} with an approved paytable "
                    "or table settings"
                )
        shortage_asked = options["shortage"] is not None or options["shortage_table"]
        if shortage_asked and not options["slips"]:
            raise CommandError("--shortage and --shortage-table need --slips")
        # All of the run or none of it: a step refused half-way keeps nothing of the run.
        try:
            with one_transaction():
                if options["slips"]:
                    summary = self._with_slips(list(tables), options)
                else:
                    from accounting.simulation import open_for_play

                    open_for_play(list(tables))  # a table plays once its opener is signed
                    summary = simulate(
                        list(tables),
                        options["rounds"],
                        seed=options["seed"],
                        seats=options["seats"],
                        strategy=options["strategy"],
                    )
        except (ServiceError, ValueError) as err:
            message = err.message if isinstance(err, ServiceError) else str(err)
            raise CommandError(
                f"the simulation stopped ({message}): nothing of the run was kept"
            ) from err
        self.stdout.write(json.dumps(summary, indent=2))

    def _with_slips(self, tables: list[Table], options: dict[str, Any]) -> dict[str, Any]:
        from accounting.simulation import simulate_with_slips
        from tables.engine.errors import EngineError
        from tables.engine.money import parse_cents

        shortage = 0
        if options["shortage"] is not None:
            try:
                shortage = parse_cents(options["shortage"], where="--shortage")
            except EngineError as err:
                raise CommandError(err.message) from None
        if options["shortage_table"] and options["shortage_table"] not in {t.name for t in tables}:
            raise CommandError(f"--shortage-table {options['shortage_table']!r} is not simulated")
        return simulate_with_slips(
            tables,
            options["rounds"],
            seed=options["seed"],
            seats=options["seats"],
            strategy=options["strategy"],
            shortage_cents=shortage,
            shortage_table=options["shortage_table"],
        )
