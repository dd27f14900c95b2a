"""The one money formatter of the pages: integer cents as dollars, exact (never a float); and
what a dollar field typed on a page gives the amount parser."""

from __future__ import annotations

from typing import Any

NONE = "—"


def dollars(cents: int | None, *, signed: bool = False) -> str:
    """`123456` -> `"$1,234.56"`, `-5` -> `"-$0.05"`; signed: `"+$10.50"` (zero stays
    `"$0.00"`); None (no figure) -> a dash."""
    if cents is None:
        return NONE
    cents = int(cents)
    whole, part = divmod(abs(cents), 100)
    text = f"${whole:,}.{part:02d}"
    if cents < 0:
        return "-" + text
    if signed and cents > 0:
        return "+" + text
    return text


def typed_dollars(value: Any) -> str:
    """A page's dollar field as the amount parser (`tables.engine.money.parse_cents`) reads it:
    a leading "$" and thousands commas dropped. A field of spaces only is blank (""); spaces
    around the digits are kept, so the parser refuses " 1.00" naming the field."""
    text = "" if value is None else str(value)
    if not text.strip():
        return ""
    return text.removeprefix("$").replace(",", "")
