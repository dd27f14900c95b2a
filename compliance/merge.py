"""Merging a described patron into an identified one (docs/compliance.md).

The cage or a compliance officer finds that a patron known only by a description (P1002, "grey
suit, red tie") is an identified patron (P1001). The merge is one `PatronMerge` row bound to
the record; the described patron's cash transactions are never rewritten. In the merge's own
transaction each of the described patron's days is added into the identified patron's day
(locked, as a cash transaction locks it), and a day whose merged sum (in one direction) passes
the CTR threshold opens a CTR for the identified patron, unless one of the two already has one
for it. From then on the described patron's number names the identified patron at the tables
and the cage (`services.resolve_patron`), and the pages read both as one
(`selectors.patron_group`).

Refused, naming the field, nothing saved: an unknown number, a patron merged into themself, a
patron already merged, a patron merged into one who is merged away, an identified patron
merged away, a patron merged into one not identified yet.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.roles import PATRON_MERGERS, require
from core.strict import text
from tables.gaming_day import gaming_day_of

from . import services, thresholds
from .models import (
    CashTransaction,
    Ctr,
    Direction,
    Patron,
    PatronDay,
    PatronMerge,
)


def _patron(value: Any, field: str) -> Patron:
    given = text(value, field).strip()
    if not given:
        raise ServiceError(f"{field}: give a patron number (P1001)", field=field)
    if not services.PATRON_NUMBER.match(given):
        raise ServiceError(f"{field}: {given!r} is not a patron number (P1001)", field=field)
    found = Patron.objects.filter(number=given).first()
    if found is None:
        raise ServiceError(f"{field}: there is no patron {given}", field=field)
    return found


def _merged_into(patron: Patron) -> PatronMerge | None:
    return PatronMerge.objects.filter(merged=patron).select_related("into").first()


def _group_ids(patron: Patron) -> list[int]:
    return [patron.pk, *PatronMerge.objects.filter(into=patron).values_list("merged_id", flat=True)]


@transaction.atomic
def patron_merge(
    *,
    merged: Any,
    into: Any,
    by: AbstractBaseUser,
    reason: Any,
    at: datetime | None = None,
) -> PatronMerge:
    """Merge the described patron `merged` into the identified patron `into` (patron numbers),
    with the reason (what showed they are one person)."""
    require(by, PATRON_MERGERS, "merge patrons")
    source = _patron(merged, "merged")
    target = _patron(into, "into")
    if source.pk == target.pk:
        raise ServiceError(f"into: {source.number} cannot be merged into itself", field="into")
    said = text(reason, "reason").strip()
    if not said:
        raise ServiceError(
            "reason: say what shows they are one person (the ID presented, ...)", field="reason"
        )
    if len(said) > 500:
        raise ServiceError("reason: at most 500 characters", field="reason")
    # Both patrons locked (in one order: two merges never wait for each other in a circle).
    both = Patron.objects.select_for_update().filter(pk__in=[source.pk, target.pk])
    locked = {p.pk: p for p in both.order_by("pk")}
    source, target = locked[source.pk], locked[target.pk]
    earlier = _merged_into(source)
    if earlier is not None:
        raise ServiceError(
            f"merged: {source.number} was already merged into {earlier.into.number}",
            field="merged",
            code="already_merged",
            status=409,
        )
    away = _merged_into(target)
    if away is not None:
        raise ServiceError(
            f"into: {target.number} was merged into {away.into.number}: merge into "
            f"{away.into.number}",
            field="into",
            code="merged_away",
            status=409,
        )
    if source.is_identified:
        raise ServiceError(
            f"merged: {source.number} is identified; only a described patron is merged away",
            field="merged",
        )
    if not target.is_identified:
        raise ServiceError(
            f"into: {target.number} is not identified yet; merge into an identified patron",
            field="into",
        )
    at = at or timezone.now()
    row = PatronMerge.objects.create(merged=source, into=target, by=by, at=at, reason=said)
    bind: list[Any] = []
    days: list[str] = []
    opened: list[str] = []
    ctr_cents = thresholds.current().ctr_cents
    # The described patron's days, locked (today's too: a transaction of theirs racing the
    # merge waits, then finds them merged); each added into the identified patron's day.
    services.locked_day(source, gaming_day_of(at))
    source_days = list(
        PatronDay.objects.select_for_update().filter(patron=source).order_by("gaming_day")
    )
    group = [target.pk, source.pk, *_group_ids(target)[1:]]
    for day in source_days:
        bind.append(day)
        if not (day.cash_in_cents or day.cash_out_cents):
            continue
        target_day = services.locked_day(target, day.gaming_day)
        target_day.cash_in_cents += day.cash_in_cents
        target_day.cash_out_cents += day.cash_out_cents
        target_day.save(update_fields=["cash_in_cents", "cash_out_cents"])
        bind.append(target_day)
        days.append(day.gaming_day.isoformat())
        for direction, total in (
            (Direction.CASH_IN, target_day.cash_in_cents),
            (Direction.CASH_OUT, target_day.cash_out_cents),
        ):
            if total <= ctr_cents:
                continue
            if Ctr.objects.filter(
                patron_id__in=group, gaming_day=day.gaming_day, direction=direction
            ).exists():
                continue  # one of them has it already: it holds both now
            last = (
                CashTransaction.objects.filter(
                    patron_id__in=group,
                    gaming_day=day.gaming_day,
                    direction=direction,
                    void__isnull=True,
                )
                .order_by("-at", "-id")
                .first()
            )
            if last is None:
                continue
            ctr = services.ctr_open(target, day.gaming_day, direction, last, at)
            if ctr is not None:
                bind.append(ctr)
                opened.append(f"{day.gaming_day.isoformat()} {direction}")
    audit_record(
        actor=by,
        kind=EventKind.PATRON_MERGED,
        obj=row,
        data={
            "patron": source.number,
            "into": target.number,
            "reason": said,
            "days": days,
            "ctrs_opened": opened,
        },
        bind=bind,
    )
    return row
