"""`flush`, aware of the append-only triggers: it lifts them for the flush and puts them back.

The anchor file of the erased chain is set aside (renamed), since it no longer matches anything.
Only for development and test databases (DEBUG on, or a test database): flushing a live
floor's database would erase its audit trail, so it is refused there.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.commands.flush import Command as FlushCommand
from django.db import connections

from audit import triggers
from audit.checkpoints import anchor_path


def rotate_anchor() -> None:
    path = anchor_path()
    if path.exists():
        path.rename(path.with_name(f"{path.name}.flushed-{int(time.time())}"))


def _is_test_database(name: object) -> bool:
    text = str(name)
    return (
        text.startswith("test_")
        or "memorydb" in text
        or "mode=memory" in text
        or text.endswith("test.sqlite3")
    )


class Command(FlushCommand):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        if not (settings.DEBUG or _is_test_database(connection.settings_dict["NAME"])):
            raise CommandError("flush would erase the audit trail of a live database: refused")
        with triggers.lifted(connection):
            super().handle(**options)
        if not _is_test_database(connection.settings_dict["NAME"]):  # tests anchor elsewhere
            rotate_anchor()
