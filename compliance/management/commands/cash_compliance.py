"""`manage.py cash_compliance --day YYYY-MM-DD [--json]`: a gaming day's MTL entries and CTRs
(patron number, cash in, cash out, the transactions behind each, the filing: its status
"to file", "overdue" or "filed", when, by whom, the BSA ID) and its open suspicious activity
alerts. Amounts are decimal strings
("12000.00"), never floats; patrons by number only (the command prints no identification)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from compliance import filing, selectors
from compliance.alerts import open_alerts, scan_day
from compliance.models import CashTransaction
from core.money import dollars
from tables.engine.money import format_cents


def _tx(tx: CashTransaction) -> dict[str, Any]:
    return {
        "at": tx.at.isoformat(),
        "direction": tx.direction,
        "kind": tx.kind,
        "amount": format_cents(tx.amount_cents),
        "table": tx.table.name if tx.table else None,
        "seat": tx.seat,
        "slip": tx.slip.number if tx.slip else None,
        "where": selectors.where(tx),
    }


def day_report(day: date) -> dict[str, Any]:
    """The day's MTL and CTRs as the command prints them (`--json`)."""
    return {
        "gaming_day": day.isoformat(),
        "mtl": [
            {
                "patron": entry.patron.number,
                "day_total": format_cents(entry.day_total_cents),
                **_tx(entry.transaction),
            }
            for entry in selectors.day_mtl(day)
        ],
        "ctrs": [
            {
                "patron": row["patron"].number,
                "direction": row["ctr"].direction,
                "cash_in": format_cents(row["cash_in_cents"]),
                "cash_out": format_cents(row["cash_out_cents"]),
                "identified": row["patron"].is_identified,
                "due": row["due"].isoformat(),
                "transactions": [_tx(tx) for tx in row["transactions"]],
                "filing": filing.filing_status(row["ctr"]),
            }
            for row in selectors.day_ctrs(day)
        ],
        # The day's suspicious activity alerts no case has taken yet (compliance.alerts).
        "alerts": [
            {
                "id": alert.pk,
                "kind": alert.kind,
                "patron": alert.patron.number,
                "direction": alert.direction,
                "first_day": alert.first_day.isoformat(),
                "amount": format_cents(alert.amount_cents),
                "wagered": (
                    format_cents(alert.wagered_cents) if alert.wagered_cents is not None else None
                ),
                "detail": alert.detail,
                "raised_at": alert.raised_at.isoformat(),
            }
            for alert in open_alerts(day)
        ],
    }


class Command(BaseCommand):
    help = "A gaming day's Multiple Transaction Log entries and Currency Transaction Reports."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", required=True, help="the gaming day, YYYY-MM-DD")
        parser.add_argument("--json", action="store_true", help="one JSON object")
        parser.add_argument(
            "--scan",
            action="store_true",
            help="first raise the day's alerts as the nightly run does",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = date.fromisoformat(options["day"])
        except ValueError:
            raise CommandError(f"--day {options['day']!r}: a date, YYYY-MM-DD") from None
        if options["scan"]:
            scan_day(day)
        report = day_report(day)
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        self.stdout.write(f"Gaming day {report['gaming_day']}")
        self.stdout.write(f"MTL: {len(report['mtl'])} entries")
        for entry in selectors.day_mtl(day):
            tx = entry.transaction
            self.stdout.write(
                f"  {tx.at.isoformat()} {entry.patron.number} {tx.get_direction_display()} "
                f"{dollars(tx.amount_cents)} ({tx.get_kind_display().lower()}) "
                f"at {selectors.where(tx)} "
                f"(day {dollars(entry.day_total_cents)})"
            )
        self.stdout.write(f"CTRs: {len(report['ctrs'])}")
        for row in selectors.day_ctrs(day):
            self.stdout.write(
                f"  {row['patron'].number} cash {row['ctr'].get_direction_display().lower()}: "
                f"in {dollars(row['cash_in_cents'])}, out {dollars(row['cash_out_cents'])}, "
                f"{len(row['transactions'])} transactions, due {row['due'].isoformat()}"
                + ("" if row["patron"].is_identified else ", patron not identified")
                + f", {filing.filing_status(row['ctr'])['status']}"
            )
        self.stdout.write(f"Open alerts: {len(report['alerts'])}")
        for alert in report["alerts"]:
            self.stdout.write(f"  {alert['patron']} {alert['kind']}: {alert['detail']}")
