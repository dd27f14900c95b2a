"""Rows that hold or decide money, bound to the audit chain (filled in below)."""

from __future__ import annotations

from typing import Any


def check_rows() -> tuple[int, list[Any]]:
    """(bound rows compared, problems)."""
    return 0, []
