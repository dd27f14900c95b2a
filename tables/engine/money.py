"""Money: amounts are integer cents; odds are exact fractions; payouts round down to the cent
and the fraction of a cent not paid is kept as breakage."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Final, NamedTuple

from .errors import EngineError, Refusal

# ASCII digits only (`\d` alone would take Arabic-Indic and other digits as well), and nothing
# around them: " 1.00" is no amount (a space typed or sent is a mistake to name, not to guess).
_AMOUNT: Final = re.compile(r"([0-9]{1,12})(?:\.([0-9]{1,2}))?", re.ASCII)

# Memos (settling a batch of rounds parses and formats the same few amounts over and over):
# an accepted amount string -> its cents (only amounts above zero, valid whatever `allow_zero`
# says), and cents -> their text. Bounded: once full, further amounts are simply not memoised.
_MEMO_SIZE: Final = 1 << 16
_PARSED: dict[str, int] = {}
_FORMATTED: dict[int, str] = {}


def parse_cents(value: object, *, where: str, allow_zero: bool = False) -> int:
    """Parse a wager like `"10.00"`, `"10.5"`, `"10"` or the integer `10` into cents.

    Refuses floats (money is never a float), negatives, zero (unless allowed), fractions of a
    cent and anything non-numeric, naming the wager.
    """
    if type(value) is str:
        known = _PARSED.get(value)
        if known is not None:
            return known
    cents: int | None = None
    if isinstance(value, bool):
        cents = None
    elif isinstance(value, int):
        cents = value * 100 if value >= 0 else -1
    elif isinstance(value, str):
        m = _AMOUNT.fullmatch(value)
        if m:
            cents = int(m.group(1)) * 100 + int((m.group(2) or "0").ljust(2, "0"))
        elif value.strip().startswith("-"):
            cents = -1
    elif (
        isinstance(value, Decimal)
        and value.is_finite()
        and value == value.quantize(Decimal("0.01"))
    ):
        cents = int(value * 100)
    if cents is None:
        raise EngineError(
            Refusal.BAD_WAGER,
            f'{where} must be an amount written as a decimal string like "10.00", not {value!r}',
            field=where,
        )
    if cents < 0 or (cents == 0 and not allow_zero):
        raise EngineError(
            Refusal.BAD_WAGER, f"{where} must be more than zero, not {value!r}", field=where
        )
    if cents and type(value) is str and len(_PARSED) < _MEMO_SIZE:
        _PARSED[value] = cents
    return cents


def known_cents(value: object) -> int | None:
    """The cents of an amount string `parse_cents` has already accepted (more than zero), else
    None: a shortcut for callers that would otherwise build a `where` just in case."""
    return _PARSED.get(value) if type(value) is str else None


def format_cents(cents: int) -> str:
    """`1234` -> `"12.34"`, `-5` -> `"-0.05"`."""
    if type(cents) is int:
        text = _FORMATTED.get(cents)
        if text is None:
            text = _format_cents(cents)
            if len(_FORMATTED) < _MEMO_SIZE:
                _FORMATTED[cents] = text
        return text
    return _format_cents(cents)


def _format_cents(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def cents_to_decimal(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)


_NO_BREAKAGE: Final = Fraction(0)


class Payout(NamedTuple):
    """What a winning wager is paid (without the returned stake), and the breakage."""

    cents: int
    breakage: Fraction  # in cents, 0 <= breakage < 1


def pay(stake_cents: int, odds: Fraction) -> Payout:
    """A win at `odds` to 1 on `stake_cents`: rounded down to the cent, remainder as breakage."""
    # Integer arithmetic on the (normalised) fraction: the same values as `odds * stake_cents`
    # split into its whole cents and the rest, without the Fraction operators' overhead.
    den = odds.denominator
    paid, rest = divmod(odds.numerator * stake_cents, den)
    return Payout(paid, Fraction(rest, den) if rest else _NO_BREAKAGE)


def format_breakage(breakage_cents: Fraction) -> str:
    """Breakage in currency units: exact when it terminates, else to six places (rounded down)."""
    value = breakage_cents / 100
    den = value.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    if den == 1:
        d = Decimal(value.numerator) / Decimal(value.denominator)
        return format(d.normalize(), "f")
    micro = (value * 1_000_000).numerator // (value * 1_000_000).denominator
    return format(Decimal(micro).scaleb(-6), "f")


def parse_odds(value: object, *, where: str) -> Fraction:
    """Odds `"3"` (3 to 1), `"3/2"`, `"3 to 2"`, `"3:2"` or an integer, as an exact fraction > 0."""
    odds: Fraction | None = None
    if isinstance(value, Fraction):
        odds = value
    elif isinstance(value, int) and not isinstance(value, bool):
        odds = Fraction(value)
    elif isinstance(value, str):
        text = value.strip().lower().replace(" to ", "/").replace(":", "/")
        try:
            odds = Fraction(text) if re.fullmatch(r"\d+(\.\d+)?(/\d+(\.\d+)?)?", text) else None
        except (ValueError, ZeroDivisionError):
            odds = None
        if odds is None and "/" in text:
            num, _, den = text.partition("/")
            try:
                odds = Fraction(Decimal(num.strip())) / Fraction(Decimal(den.strip()))
            except (ArithmeticError, ValueError, ZeroDivisionError):
                odds = None
    if odds is None or odds <= 0:
        raise EngineError(
            Refusal.BAD_PAYTABLE,
            f'{where}: odds must be a positive number such as "3" (3 to 1) or "3/2", not {value!r}',
            field=where,
        )
    return odds


def format_odds(odds: Fraction) -> str:
    """`Fraction(3, 2)` -> `"3 to 2"`, `Fraction(6)` -> `"6 to 1"`."""
    return f"{odds.numerator} to {odds.denominator}"
