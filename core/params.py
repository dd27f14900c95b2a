"""Whole numbers read from a request's text (a query parameter, a form field's name or value).

`str.isdigit()` accepts characters `int()` refuses ("²", "①") and `int()` accepts digits of
every script ("١٠") and numbers no database column holds: an id or a count read from a request
is ASCII digits only, within the 64-bit range the databases keep (SQLite refuses a larger
parameter outright, PostgreSQL a larger value in a `bigint`).
"""

from __future__ import annotations

from typing import Any

# The largest value of a 64-bit signed column (SQLite's INTEGER, PostgreSQL's bigint).
DB_INT_MAX = 2**63 - 1
# An id in a URL (the API's routes): ASCII digits only, as many as a 64-bit column's largest.
ID_PATTERN = "[0-9]{1,19}"


def ascii_int(value: Any) -> int | None:
    """`value` as a non-negative whole number when it is ASCII digits (surrounding spaces
    ignored) and fits a database column; otherwise None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or not text.isascii() or not text.isdigit() or len(text) > 19:
        return None
    number = int(text)
    return number if number <= DB_INT_MAX else None
