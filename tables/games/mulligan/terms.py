"""A Mulligan table's terms, set in the admin (the table settings of a player-vs-player game,
drafted and approved like a paytable): the variants its games are played under, the table
minimum and the house's rake. Chips are cents, as everywhere on the floor.

The rules choose the variants "when the game is created"; on the floor the admin chooses them
for the table and every game started there takes them (recorded in the game). The rules
forbid Secret Offers with Open Hands; the other combinations are all allowed, each with or
without chips (`allowed_combinations`: 12 in all). A rake and a table minimum above one chip
only mean something when playing for chips.

Stored as JSON (`as_json` / `from_json`); every refusal is a `ServiceError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from itertools import combinations
from typing import Any, Final

from core.errors import ServiceError
from tables.engine.errors import EngineError

from .game import INCOMPATIBLE, Rake, Variant

VARIANT_LABEL: Final = {
    Variant.SECRET_OFFERS: "Secret Offers",
    Variant.HIGH_RISK: "High Risk",
    Variant.OPEN_HANDS: "Open Hands",
    Variant.CHIPS: "Playing for chips",
}
VARIANT_ORDER: Final = tuple(VARIANT_LABEL)
MAX_TABLE_MINIMUM: Final = 10_000_000  # cents: $100,000
KEYS: Final = ("variants", "table_minimum_cents", "rake_percent", "rake_cap_cents")


def allowed(variants: frozenset[Variant]) -> bool:
    """Whether the rules allow these variants together."""
    return not any(pair <= variants for pair in INCOMPATIBLE)


def allowed_combinations() -> list[frozenset[Variant]]:
    """Every combination of variants the rules allow (the plain game first)."""
    return [
        frozenset(c)
        for k in range(len(VARIANT_ORDER) + 1)
        for c in combinations(VARIANT_ORDER, k)
        if allowed(frozenset(c))
    ]


def variants_label(variants: frozenset[Variant]) -> str:
    """ "Secret Offers, High Risk" (in the rules' order), or "Plain" for none."""
    return ", ".join(VARIANT_LABEL[v] for v in VARIANT_ORDER if v in variants) or "Plain"


def _refuse(message: str, field: str) -> ServiceError:
    return ServiceError(message, field=field)


@dataclass(frozen=True)
class MulliganTerms:
    """What the admin set for a Mulligan table."""

    variants: frozenset[Variant] = frozenset()
    table_minimum: int = 1  # cents: the least an auctioneer puts on the auctioned card
    rake_percent: Decimal = Decimal(0)  # of the pot, rounded down to the cent
    rake_cap: int | None = None  # cents; None: no cap

    def __post_init__(self) -> None:
        self.check()

    @property
    def plays_for_chips(self) -> bool:
        return Variant.CHIPS in self.variants

    @property
    def label(self) -> str:
        return variants_label(self.variants)

    def check(self) -> None:
        """Refuse terms the rules or the house do not allow (ServiceError naming the field)."""
        for pair in INCOMPATIBLE:
            if pair <= self.variants:
                a, b = (VARIANT_LABEL[v] for v in VARIANT_ORDER if v in pair)
                raise _refuse(f"{a} cannot be combined with {b}", "variants")
        if (
            isinstance(self.table_minimum, bool)
            or not isinstance(self.table_minimum, int)
            or not 1 <= self.table_minimum <= MAX_TABLE_MINIMUM
        ):
            raise _refuse(
                f"the table minimum must be whole cents from 1 to "
                f"{MAX_TABLE_MINIMUM}, not {self.table_minimum!r}",
                "table_minimum_cents",
            )
        try:
            Rake(self.rake_percent, self.rake_cap)
        except EngineError as err:
            raise _refuse(
                err.message, "rake_cap_cents" if "cap" in err.message else "rake_percent"
            ) from None
        if not self.plays_for_chips:
            if self.rake_percent or self.rake_cap is not None:
                raise _refuse(
                    "a rake is taken only when playing for chips: set the rake to 0 and no cap, "
                    "or add Playing for chips",
                    "rake_percent",
                )
            if self.table_minimum != 1:
                raise _refuse(
                    "a table minimum is set only when playing for chips: leave it empty, "
                    "or add Playing for chips",
                    "table_minimum_cents",
                )

    def rake(self) -> Rake | None:
        """The engine's rake (None when none is taken)."""
        if not self.plays_for_chips or (not self.rake_percent and self.rake_cap is None):
            return None
        return Rake(self.rake_percent, self.rake_cap)

    def as_json(self) -> dict[str, Any]:
        return {
            "variants": [v.value for v in VARIANT_ORDER if v in self.variants],
            "table_minimum_cents": self.table_minimum,
            "rake_percent": format(self.rake_percent.normalize(), "f")
            if self.rake_percent
            else "0",
            "rake_cap_cents": self.rake_cap,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> MulliganTerms:
        """Terms as stored or drafted (the variants by name, amounts in cents); refused:
        ServiceError naming the field."""
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise _refuse("the settings must be an object", "settings")
        unknown = sorted(str(k) for k in data if k not in KEYS)
        if unknown:
            raise _refuse(
                f"Mulligan has no setting {unknown[0]!r} (only {', '.join(KEYS)})", unknown[0]
            )
        raw = data.get("variants") or []
        if isinstance(raw, str):
            raw = [v for v in raw.replace(",", " ").split()]
        if not isinstance(raw, list | tuple | set | frozenset):
            raise _refuse("variants must be a list of variant names", "variants")
        variants: set[Variant] = set()
        for name in raw:
            try:
                variants.add(Variant(name))
            except ValueError:
                names = ", ".join(v.value for v in VARIANT_ORDER)
                raise _refuse(f"{name!r} is not a Mulligan variant ({names})", "variants") from None
        raw_percent = data.get("rake_percent")
        if isinstance(raw_percent, float | bool):
            raise _refuse("the rake percent must be exact (a decimal string)", "rake_percent")
        try:
            percent = Decimal(str(raw_percent if raw_percent is not None else "0").strip() or "0")
        except InvalidOperation:
            raise _refuse(
                f"the rake percent must be a number, not {raw_percent!r}", "rake_percent"
            ) from None
        return cls(
            variants=frozenset(variants),
            table_minimum=_whole(data.get("table_minimum_cents"), 1, "table_minimum_cents"),
            rake_percent=percent,
            rake_cap=_whole(data.get("rake_cap_cents"), None, "rake_cap_cents"),
        )


def _whole(value: object, default: int | None, field: str) -> Any:
    """A whole number of cents as stored or typed ("250"); None or "" for the default."""
    if value is None or value == "":
        return default
    if isinstance(value, str) and value.strip().isascii() and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse(f"{field} must be whole cents, not {value!r}", field)
    return value
