"""`manage.py verify_audit`: walk the audit chain and every row bound to it; exit 0 when the
record is whole, else 1 naming the first bad event and every row that differs."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from audit.verify import verify_record


class Command(BaseCommand):
    help = (
        "Verify the audit trail's hash chain, its signed checkpoints and anchor, and every row "
        "that holds or decides money against its latest event."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = verify_record()
        if report.ok:
            self.stdout.write(
                f"audit chain whole: {report.events} events, every checkpoint matches; "
                f"{report.rows} bound rows match their events"
            )
            return
        for problem in report.problems:
            self.stderr.write(problem)
        sys.exit(1)
