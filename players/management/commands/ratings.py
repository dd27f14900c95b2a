"""`manage.py ratings --day YYYY-MM-DD [--player CARD] [--json] [--rebuild]`: a gaming day's
ratings, one player per line (with --json one JSON object per line). `--rebuild` first sums
every rating of the day again from its rounds and hands."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.money import dollars
from players import selectors, services


class Command(BaseCommand):
    help = "A gaming day's ratings per player: time, hands, wagered, wins, decision cost, points."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", required=True, help="the gaming day, YYYY-MM-DD")
        parser.add_argument("--player", help="one player's card number")
        parser.add_argument("--json", action="store_true", help="one JSON object per line")
        parser.add_argument("--rebuild", action="store_true", help="sum the day again first")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = date.fromisoformat(options["day"])
        except ValueError:
            raise CommandError(f"--day {options['day']!r}: a date, YYYY-MM-DD") from None
        if options["rebuild"]:
            services.rebuild_day(day=day)
        rows = selectors.day_rows(day, options.get("player"))
        if options.get("player") and not rows:
            self.stderr.write(f"card {options['player']}: no ratings on {day}")
        for row in rows:
            data = selectors.command_row(row)
            if options["json"]:
                self.stdout.write(json.dumps(data, sort_keys=True))
            else:
                self.stdout.write(
                    f"{row['card']} {row['name']}: {row['hands']} hands, "
                    f"{row['seconds_played'] // 60} min, wagered {dollars(row['wagered_cents'])}, "
                    f"average bet {dollars(row['average_bet_cents'])}, "
                    f"house won {dollars(row['actual_win_cents'])}, "
                    f"theoretical {dollars(row['theoretical_win_cents'])}, "
                    f"decision cost {dollars(row['decision_cost_cents'])}, "
                    f"{row['points']} points"
                )
