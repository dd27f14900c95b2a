"""The one money formatter of the pages: integer cents as dollars, exact (never a float)."""

from __future__ import annotations

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
