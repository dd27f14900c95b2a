"""`manage.py verify_record`: verify the whole record as `verify_audit` does, and keep the run
(shown on the dashboard, written on the audit chain); exit 0 when whole, else 1."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from reports.verification import Trigger, verify_now


class Command(BaseCommand):
    help = (
        "Verify the audit chain and every row bound to it, keep the run for the dashboard and "
        "write it on the chain (verify_audit only prints)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        run = verify_now(trigger=Trigger.COMMAND)
        if run.ok:
            self.stdout.write(
                f"verification {run.pk}: the record is whole: {run.events:,} events, "
                f"{run.rows:,} bound rows"
            )
            return
        for problem in run.problems:
            self.stderr.write(problem)
        sys.exit(1)
