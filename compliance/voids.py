"""A voided buy-in's cash (docs/compliance.md): once two people have voided a buy-in's slip,
its cash did not change hands, so it stops counting in its patron's day. The cash transaction
stays (history); a `CashVoid` row says it was voided, and the patron's day (and, for a patron
merged into another, that other patron's day too) is taken back by its amount, all in the
void's own transaction (`accounting.cash.buy_in_voided` calls `cash_void`). An MTL entry or a
CTR the transaction made stays as written, shown as voided on the pages."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Sum

from audit.kinds import EventKind
from audit.services import audit_record

from .models import CashTransaction, CashVoid, Direction, PatronDay, PatronMerge


def cash_void(*, slip: Any, by: AbstractBaseUser, at: datetime, reason: str) -> CashVoid | None:
    """Take a voided buy-in's cash out of its patron's day (None: the slip had no cash
    transaction). Runs inside the slip's void (atomic there)."""
    tx = CashTransaction.objects.select_related("patron", "table").filter(slip=slip).first()
    if tx is None or CashVoid.objects.filter(transaction=tx).exists():
        return None
    void = CashVoid.objects.create(transaction=tx, by=by, at=at, reason=reason)
    bind: list[Any] = []
    data: dict[str, Any] = {
        "slip": slip.number,
        "cash_cents": tx.amount_cents,
        "patron": tx.patron.number if tx.patron else None,
        "reason": reason,
    }
    if tx.patron_id is not None:
        field = "cash_in_cents" if tx.direction == Direction.CASH_IN else "cash_out_cents"
        owners = [tx.patron_id]
        merge = PatronMerge.objects.filter(merged_id=tx.patron_id).select_related("into").first()
        if merge is not None:  # the merge added this patron's day into the other one's
            owners.append(merge.into_id)
            data["merged_into"] = merge.into.number
        for owner in owners:
            day = PatronDay.objects.select_for_update().get(
                patron_id=owner, gaming_day=tx.gaming_day
            )
            setattr(day, field, max(0, getattr(day, field) - tx.amount_cents))
            day.save(update_fields=[field])
            bind.append(day)
        data["day_total_cents"] = getattr(bind[-1], field)
    audit_record(
        actor=by,
        kind=EventKind.CASH_VOIDED,
        obj=void,
        table_name=tx.table.name if tx.table is not None else "",
        data=data,
        bind=bind,
    )
    return void


def patron_day_problems() -> list[str]:
    """verify_audit's derived check: each patron's day is the sum, by direction, of the cash
    transactions not voided of that patron and of every patron merged into them (a patron's day
    summed as the merges and voids left it). One line per day that differs."""
    summed: dict[tuple[int, Any, str], int] = {}
    rows = (
        CashTransaction.objects.filter(patron__isnull=False, void__isnull=True)
        .values_list("patron_id", "gaming_day", "direction")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    )
    into = dict(PatronMerge.objects.values_list("merged_id", "into_id"))
    for patron_id, day, direction, total in rows:
        for owner in (patron_id, into.get(patron_id)):
            if owner is not None:
                key = (owner, day, direction)
                summed[key] = summed.get(key, 0) + int(total)
    problems = []
    seen: set[tuple[int, Any, str]] = set()
    for day in PatronDay.objects.select_related("patron").order_by("gaming_day", "patron_id"):
        for direction, field in (
            (Direction.CASH_IN, "cash_in_cents"),
            (Direction.CASH_OUT, "cash_out_cents"),
        ):
            key = (day.patron_id, day.gaming_day, str(direction))
            seen.add(key)
            expected, held = summed.get(key, 0), getattr(day, field)
            if expected != held:
                problems.append(
                    f"compliance_patronday {day.pk}: {day.patron.number}'s {field} on "
                    f"{day.gaming_day.isoformat()} is {held}, its transactions sum to {expected}"
                )
    for (patron_id, day_, direction), total in sorted(summed.items(), key=str):
        if (patron_id, day_, direction) not in seen and total:
            problems.append(
                f"compliance_patronday: patron id {patron_id} has {total} cash {direction} on "
                f"{day_.isoformat()} and no day row"
            )
    return problems
