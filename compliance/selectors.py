"""Cash compliance's reads: a patron as the reader may see them (identification only for the
compliance role and the cage), a gaming day's MTL and its CTRs with the transactions behind
each (the patron's transactions of that day in the CTR's direction)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from core.roles import IDENTIFICATION_READERS, has_any_role

from .models import (
    CAGE_KINDS,
    IDENTIFICATION_FIELDS,
    KIND_DIRECTION,
    CashTransaction,
    Ctr,
    Kind,
    MtlEntry,
    Patron,
    PatronDay,
    PatronMerge,
)

CTR_DUE_DAYS = 15  # FinCEN: a CTR is filed within 15 days of the transactions


def sees_identification(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    return has_any_role(user, IDENTIFICATION_READERS)


def patron_view(patron: Patron, user: AbstractBaseUser | AnonymousUser | None) -> dict[str, Any]:
    """What `user` may see of a patron: the number, the name, whether identified, the
    description; the identification's fields for the compliance role and the cage only."""
    view: dict[str, Any] = {
        "number": patron.number,
        "name": patron.name,
        "identified": patron.is_identified,
        "player_card": patron.player.card if patron.player_id and patron.player else "",
        "description": {
            "sex": patron.sex,
            "apparent_age": patron.apparent_age,
            "height_build": patron.height_build,
            "hair": patron.hair,
            "clothing": patron.clothing,
            "where_seen": patron.where_seen,
        },
    }
    if sees_identification(user):
        view["identification"] = {
            f: getattr(patron, f) for f in IDENTIFICATION_FIELDS if f != "name"
        }
        view["id_type_label"] = Patron.IdType(patron.id_type).label if patron.id_type else ""
    return view


def transactions() -> Any:
    return CashTransaction.objects.select_related("table", "slip", "patron", "by", "void")


def merged_into(patron: Patron) -> Patron | None:
    """The identified patron this one was merged into, if any."""
    merge = PatronMerge.objects.filter(merged=patron).select_related("into").first()
    return merge.into if merge is not None else None


def as_merged(patron: Patron) -> Patron:
    """The patron whose day this one's transactions count in (itself, unless merged)."""
    return merged_into(patron) or patron


def patron_group(patron: Patron) -> list[int]:
    """The ids of a patron and of every patron merged into them: one person's transactions."""
    return [patron.pk, *PatronMerge.objects.filter(into=patron).values_list("merged_id", flat=True)]


def merges_into(patron: Patron) -> list[PatronMerge]:
    return list(PatronMerge.objects.filter(into=patron).select_related("merged", "by"))


def day_mtl(day: date) -> list[MtlEntry]:
    return list(
        MtlEntry.objects.filter(gaming_day=day)
        .select_related(
            "patron",
            "patron__merged_into__into",
            "transaction__table",
            "transaction__slip",
            "transaction__by",
            "transaction__void",
        )
        .order_by("at", "id")
    )


def ctr_rows(ctrs: Any) -> list[dict[str, Any]]:
    """Each CTR with its patron's day (cash in and cash out, apart) and the transactions of
    its direction that day."""
    rows = []
    seen: set[tuple[int, Any, str]] = set()
    for ctr in ctrs.select_related("patron", "patron__player"):
        # A CTR of a patron merged away is the identified patron's: one CTR row per person,
        # day and direction, holding the transactions of both (voided ones marked, not summed).
        patron = as_merged(ctr.patron)
        key = (patron.pk, ctr.gaming_day, ctr.direction)
        if key in seen:
            continue
        seen.add(key)
        day = PatronDay.objects.filter(patron=patron, gaming_day=ctr.gaming_day).first()
        txs = list(
            transactions()
            .filter(
                patron_id__in=patron_group(patron),
                gaming_day=ctr.gaming_day,
                direction=ctr.direction,
            )
            .order_by("at", "id")
        )
        rows.append(
            {
                "ctr": ctr,
                "patron": patron,
                "recorded_as": ctr.patron if ctr.patron_id != patron.pk else None,
                "cash_in_cents": day.cash_in_cents if day else 0,
                "cash_out_cents": day.cash_out_cents if day else 0,
                "total_cents": sum(t.amount_cents for t in txs if not is_voided(t)),
                "voided_cents": sum(t.amount_cents for t in txs if is_voided(t)),
                "transactions": txs,
                "due": ctr.gaming_day + timedelta(days=CTR_DUE_DAYS),
            }
        )
    return rows


def day_ctrs(day: date) -> list[dict[str, Any]]:
    return ctr_rows(Ctr.objects.filter(gaming_day=day).order_by("patron__number", "direction"))


def is_voided(tx: CashTransaction) -> bool:
    """Whether the transaction's buy-in was voided (its cash did not change hands)."""
    try:
        return tx.void is not None
    except CashTransaction.void.RelatedObjectDoesNotExist:
        return False


def where(tx: CashTransaction) -> str:
    """Where a transaction happened, in words: "SC-1 seat 3", "SC-1", "the cage"."""
    if tx.table_id is None or tx.table is None:
        return "the cage"
    return f"{tx.table.name} seat {tx.seat}" if tx.seat else tx.table.name


def cage_day(day: date) -> dict[str, Any]:
    """The cage's window over a gaming day: its cash in and cash out by kind (each kind apart,
    never netted), and its transactions, newest first."""
    txs = list(transactions().filter(gaming_day=day, kind__in=CAGE_KINDS).order_by("-at", "-id"))
    totals = {kind: 0 for kind in CAGE_KINDS}
    for tx in txs:
        totals[Kind(tx.kind)] += tx.amount_cents
    return {
        "totals": [(kind, KIND_DIRECTION[kind], cents) for kind, cents in totals.items()],
        "cash_in_cents": sum(c for k, c in totals.items() if KIND_DIRECTION[k] == "in"),
        "cash_out_cents": sum(c for k, c in totals.items() if KIND_DIRECTION[k] == "out"),
        "transactions": txs,
    }
