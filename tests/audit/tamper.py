"""What the tamper tests share: SQL as an insider runs it (guards dropped), and verify_audit."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command
from django.db import connection

from audit import triggers


def raw(sql: str, params: list[Any] | None = None) -> None:
    """Run SQL with every guard trigger dropped, as someone with a SQL prompt would."""
    with triggers.lifted(connection), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


def run_verify() -> tuple[int, str]:
    """`manage.py verify_audit`: (exit status, what it printed)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_audit", stdout=out, stderr=err)
        return 0, out.getvalue()
    except SystemExit as exit_:
        return int(exit_.code or 0), err.getvalue()
