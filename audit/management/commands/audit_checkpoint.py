"""`manage.py audit_checkpoint`: sign the audit chain's head now and anchor it.

An auditor closing a gaming day runs it; `--every SECONDS` keeps doing so (bin/run starts it
beside the site, where no Celery beat runs). It also appends to the anchor file any checkpoint
of the database the file lacks (after a crash between a commit and its append).
"""

from __future__ import annotations

import os
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from audit.checkpoints import anchor_path, reanchor_missing, record_checkpoint


class Command(BaseCommand):
    help = "Sign the audit chain's head now and append the checkpoint to the anchor file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--every",
            type=int,
            metavar="SECONDS",
            help="keep making checkpoints this often (a quiet chain gets no new row)",
        )
        parser.add_argument(
            "--while-pid",
            type=int,
            metavar="PID",
            help="with --every: stop when this process is gone (bin/run passes the site's)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        every = options["every"]
        if every is not None and every < 1:
            self.stderr.write("--every takes a whole number of seconds, at least 1")
            raise SystemExit(2)
        while True:
            cp = record_checkpoint()
            added = reanchor_missing()
            if every is None:
                self.stdout.write(
                    f"checkpoint at event #{cp.seq} ({cp.hash[:16]}...), signed with key "
                    f"{cp.key_id!r}, anchored in {anchor_path()}"
                    + (f"; {added} checkpoint(s) re-anchored" if added else "")
                )
                return
            time.sleep(every)
            if options["while_pid"] and not _alive(options["while_pid"]):
                return
            close_old_connections()  # a long-running loop: never keep a dead connection


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
