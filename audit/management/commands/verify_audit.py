"""`manage.py verify_audit`: walk the audit chain; exit 0 when whole, else 1 naming the
first bad event."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from audit.verify import verify_chain


class Command(BaseCommand):
    help = "Verify the audit trail's hash chain and its signed checkpoints."

    def handle(self, *args: Any, **options: Any) -> None:
        count, problem = verify_chain()
        if problem is None:
            self.stdout.write(f"audit chain whole: {count} events, every checkpoint matches")
            return
        self.stderr.write(f"audit chain BROKEN at {problem}")
        sys.exit(1)
