"""`manage.py house_edge --game GAME [--paytable NAME] [--strategy NAME] [--exact | --samples N]
--json`: the theoretical house edge and spread of every wager of a game (see
`tables.engine.house_edge`). Without `--json` a short table; refusals exit with status 2."""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables import games
from tables.engine.errors import EngineError
from tables.engine.house_edge import GAMES, house_edge
from tables.engine.money import parse_cents
from tables.engine.progressive import MeterConfig
from tables.engine.strategies import STRATEGY_NAMES


class Command(BaseCommand):
    help = (
        "The theoretical house edge (per initial wager and per total wagered), standard "
        "deviation and method of every wager of a game, under a paytable and a player strategy."
    )
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help=f"one of {', '.join(GAMES)}")
        parser.add_argument(
            "--paytable", default=None, help="a named paytable (default: the game's)"
        )
        parser.add_argument(
            "--strategy",
            default=None,
            help=f"one of {', '.join(STRATEGY_NAMES)} (default: optimal; typical between players)",
        )
        how = parser.add_mutually_exclusive_group()
        how.add_argument(
            "--exact", action="store_true", help="exact figures only (refused where none is)"
        )
        how.add_argument(
            "--samples", type=int, default=None, help="sample every wager (N deals or hands)"
        )
        parser.add_argument("--seed", type=int, default=None, help="random seed (repeatable)")
        parser.add_argument(
            "--meter",
            default=None,
            help="a game that takes a progressive: the meter, e.g. 25000.00",
        )
        parser.add_argument(
            "--progressive-wager",
            default=None,
            help="a game that takes a progressive: its wager (1.00)",
        )
        parser.add_argument(
            "--rake-percent", default="5", help="a game between players: the rake percent (5)"
        )
        parser.add_argument(
            "--rake-cap", type=int, default=None, help="a game between players: the rake cap"
        )
        parser.add_argument(
            "--players", type=int, default=2, help="a game between players: players (2)"
        )
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = house_edge(
                options["game"],
                paytable=options["paytable"],
                strategy=options["strategy"],
                exact=options["exact"],
                samples=options["samples"],
                seed=options["seed"],
                meter=_meter(options["meter"], options["progressive_wager"], options["game"]),
                rake_percent=_percent(options["rake_percent"]),
                rake_cap=options["rake_cap"],
                players=options["players"],
            )
        except EngineError as err:
            raise CommandError(err.message, returncode=2) from None
        data = report.as_data()
        if options["json"]:
            self.stdout.write(json.dumps(data, indent=2))
            return
        self.stdout.write(_text(data))


def _meter(meter: str | None, wager: str | None, game: str) -> MeterConfig | None:
    if meter is None and wager is None:
        return None
    taking = [g.name for g in games.all_games() if g.takes_progressive]
    if game not in taking:
        raise CommandError(
            f"--meter and --progressive-wager are for {' or '.join(taking)} only", returncode=2
        )
    try:
        defaults = MeterConfig()
        meter_cents = defaults.meter_cents if meter is None else parse_cents(meter, where="--meter")
        wager_cents = (
            defaults.wager_cents
            if wager is None
            else parse_cents(wager, where="--progressive-wager")
        )
        return MeterConfig(meter_cents=meter_cents, wager_cents=wager_cents)
    except EngineError as err:
        raise CommandError(err.message, returncode=2) from None


def _percent(text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise CommandError(
            f"--rake-percent must be a number from 0 to 100, not {text!r}", returncode=2
        ) from None
    if not value.is_finite() or not 0 <= value <= 100:
        raise CommandError(
            f"--rake-percent must be a number from 0 to 100, not {text!r}", returncode=2
        )
    return value


def _text(data: dict[str, Any]) -> str:
    lines = [
        f"{data['game']}  paytable {data['paytable'] or '-'}  strategy {data['strategy']['name']}"
        f" ({data['strategy']['description']})"
    ]
    for w in data["wagers"]:
        if "rake_per_hand" in w:
            r = w["rake_per_hand"]
            lines.append(
                f"  {w['wager']:<20} {w['method']:<12} mean {r['mean']} chips "
                f"(95% {r['confidence_95'][0]} to {r['confidence_95'][1]}), sd {r['std_dev']}, "
                f"{w['samples']:,} samples"
            )
            continue
        edge = w["house_edge"]
        how = w["method"]
        if how == "monte_carlo":
            low, high = w["confidence_95"]["per_initial_wager"]
            how += f" ({w['samples']:,} rounds, 95% {low} to {high})"
        lines.append(
            f"  {w['wager']:<20} edge {edge['per_initial_wager']} per initial wager, "
            f"{edge['per_total_wagered']} per total wagered, sd {w['std_dev']}: {how}"
        )
    for item in data.get("omitted", []):
        lines.append(f"  {item['wager']:<20} omitted: {item['reason']}")
    return "\n".join(lines) + "\n"
