"""`manage.py replay`: player-vs-player hands as JSON Lines on stdin, one result (or refusal)
per line on stdout, in order; exit status 2 if any line was refused
(docs/contracts/replay.md). Touches no database."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from django.core.management.base import BaseCommand

from tables.engine.jsonl import answer_lines, run_command
from tables.engine.replay import replay_line


class Command(BaseCommand):
    help = "Replay player-vs-player hands given as JSON Lines on standard input."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def handle(self, *args: Any, **options: Any) -> None:
        run_command(replay_line)


def replay_stream(lines: Iterable[bytes | str], out: IO[str]) -> int:
    """Replay each non-blank line; returns how many were refused."""
    return answer_lines(lines, out, replay_line)
