"""`manage.py replay`: player-vs-player hands as JSON Lines on stdin, one result (or refusal)
per line on stdout, in order; exit status 2 if any line was refused
(docs/contracts/replay.md). Touches no database."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import IO, Any

from django.core.management.base import BaseCommand

from tables.engine.errors import EngineError, Refusal
from tables.engine.replay import replay_line


class Command(BaseCommand):
    help = "Replay player-vs-player hands given as JSON Lines on standard input."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            refused = replay_stream(sys.stdin.buffer, sys.stdout)
        except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
            sys.stderr.close()
            sys.exit(1)
        if refused:
            sys.exit(2)


def replay_stream(lines: Iterable[bytes | str], out: IO[str]) -> int:
    """Replay each non-blank line (bytes are read as UTF-8); returns how many were refused."""
    refused = 0
    dumps = json.dumps
    write = out.write
    for raw in lines:
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                error = EngineError(Refusal.BAD_JSON, "the line is not UTF-8 text")
                write(dumps(error.as_dict()) + "\n")
                refused += 1
                continue
        else:
            text = raw
        if not text.strip():
            continue
        result, bad = replay_line(text)
        refused += bad
        write(dumps(result) + "\n")
    out.flush()
    return refused
