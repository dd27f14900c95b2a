"""`manage.py settle`: JSON Lines rounds on stdin, one settlement (or refusal) per line on
stdout, in order; exit status 2 if any line was refused (docs/contracts/settle.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from django.core.management.base import BaseCommand

from tables.engine.contract import settle_line_text
from tables.engine.jsonl import answer_text_lines, run_text_command


class Command(BaseCommand):
    help = "Settle rounds given as JSON Lines on standard input (see docs/contracts/settle.md)."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def handle(self, *args: Any, **options: Any) -> None:
        run_text_command(settle_line_text)


def settle_stream(lines: Iterable[bytes | str], out: IO[str]) -> int:
    """Settle each non-blank line; returns how many were refused."""
    return answer_text_lines(lines, out, settle_line_text)
