"""`manage.py settle`: JSON Lines rounds on stdin, one settlement (or refusal) per line on
stdout, in order; exit status 2 if any line was refused (docs/contracts/settle.md)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import IO, Any

from django.core.management.base import BaseCommand

from tables.engine.contract import settle_line
from tables.engine.errors import EngineError, Refusal


class Command(BaseCommand):
    help = "Settle rounds given as JSON Lines on standard input (see docs/contracts/settle.md)."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            refused = settle_stream(sys.stdin.buffer, sys.stdout)
        except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
            sys.stderr.close()
            sys.exit(1)
        if refused:
            sys.exit(2)


def settle_stream(lines: Iterable[bytes | str], out: IO[str]) -> int:
    """Settle each non-blank line (bytes are read as UTF-8); returns how many were refused."""
    refused = 0
    dumps = json.dumps
    write = out.write
    for raw in lines:
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                write(
                    dumps(EngineError(Refusal.BAD_JSON, "the line is not UTF-8 text").as_dict())
                    + "\n"
                )
                refused += 1
                continue
        else:
            text = raw
        if not text.strip():
            continue
        result, bad = settle_line(text)
        refused += bad
        write(dumps(result) + "\n")
    out.flush()
    return refused
