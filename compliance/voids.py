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
