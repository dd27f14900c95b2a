"""Amount limits: the most one entry of a kind may carry (each kind of slip, a poker player's
buy-in). An admin sets them in the admin site (`limit_set`, on the audit chain, the row bound to
it); a kind nobody set has its default (`AmountLimit.DEFAULT_MAX_CENTS`). The slip and hand
services check every amount against them (`check_amount`): a refusal names the field and the
limit in dollars, and nothing is saved."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.money import dollars
from core.roles import ADMINS, require
from core.strict import whole
from tables.models import AmountLimit, LimitKind

# The most a limit may be set to: a figure the money columns hold with room to add (bigint).
MOST_CENTS = 10**15


def _kind(kind: str) -> LimitKind:
    try:
        return LimitKind(kind)
    except ValueError:
        raise ServiceError(
            f"kind must be one of {', '.join(LimitKind.values)}, not {kind!r}", field="kind"
        ) from None


def limit_cents(kind: str) -> int:
    """The limit in force for `kind`, in cents (the admin's, or the default)."""
    kind = _kind(kind)
    row = AmountLimit.objects.filter(kind=kind).values_list("max_cents", flat=True).first()
    return row if row is not None else AmountLimit.DEFAULT_MAX_CENTS[kind]


def limits_in_force() -> dict[str, tuple[int, bool]]:
    """Every kind -> (its limit in cents, whether an admin set it)."""
    rows = dict(AmountLimit.objects.values_list("kind", "max_cents"))
    return {
        kind: (rows[kind], True) if kind in rows else (AmountLimit.DEFAULT_MAX_CENTS[kind], False)
        for kind in LimitKind.values
    }


def check_amount(kind: str, cents: int, *, field: str, what: str, most: int | None = None) -> None:
    """Refuse `cents` above the kind's limit (`most`, when the caller has read it already),
    naming `field` and the limit in dollars: "a drop slip's amount may be at most $1,000,000.00
    (the limit an admin sets for drops), not $999,999,999,999.99"."""
    most = limit_cents(kind) if most is None else most
    if cents > most:
        label = str(LimitKind(kind).label).split(" (")[0].lower()
        raise ServiceError(
            f"{what} may be at most {dollars(most)} (the limit an admin sets for {label}s), "
            f"not {dollars(cents)}",
            field=field,
            code="over_limit",
        )


@transaction.atomic
def limit_set(*, kind: str, max_cents: object, by: AbstractBaseUser) -> AmountLimit:
    """An admin sets the limit of one kind (the first time, the row is made). On the chain,
    with the limit before, and the row bound to the event."""
    require(by, ADMINS, "set an amount limit")
    kind = _kind(kind)
    cents = whole(max_cents, "max_cents", least=1, most=MOST_CENTS)
    row = AmountLimit.objects.select_for_update().filter(kind=kind).first()
    before = row.max_cents if row is not None else AmountLimit.DEFAULT_MAX_CENTS[kind]
    now = timezone.now()
    first = row is None
    if row is None:
        row = AmountLimit.objects.create(kind=kind, max_cents=cents, changed_by=by, changed_at=now)
    else:
        row.max_cents, row.changed_by, row.changed_at = cents, by, now  # type: ignore[assignment]
        row.save(update_fields=["max_cents", "changed_by", "changed_at"])
    audit_record(
        actor=by,
        kind=EventKind.AMOUNT_LIMIT_SET,
        obj=row,
        data={
            "kind": kind.value,
            "max_cents": cents,
            "before_cents": before,
            "was_default": first,
        },
    )
    return row
