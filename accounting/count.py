"""The drop boxes and the count sheet (docs/accounting.md, "The count").

A table's drop box, numbered, is removed from the table for its gaming day and shift by someone
who did not deal there (`box_remove`, with a witness or alone), and arrives in the count room
(`box_arrive`, a count-team member); each step is a row appended and bound to the record. The
count team counts each box on a drop slip by its parts (bills by denomination, chips, markers,
coupons: `services.slip_create`). The gaming day's count sheet lists the signed drops per table
and shift, by part, with totals; it is signed by at least two count-team members
(`count_sheet_sign`), nobody twice, one of them independent of the pit (holding neither the pit
boss nor the dealer role, or holding one and not having worked the floor that day: no dealer
session that day, no slip of the day entered or signed as dealer or pit boss), and nobody who
removed one of its boxes alone. A signature names the drops it signed: a drop entered or voided
afterwards makes a new sheet, signed anew.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.roles import Role, has_role, require
from core.strict import is_whole
from tables.gaming_day import day_bounds, gaming_day_of, shift_of, shift_starts
from tables.models import DealerSession, Table

from . import rules
from .models import CountSheetSignature, DropBoxMove, DropCount, Slip, SlipSignature

# Who removes a box from the table; who receives it in the count room.
REMOVERS: tuple[Role, ...] = (Role.COUNT, Role.SECURITY, Role.PIT_BOSS)
RECEIVERS: tuple[Role, ...] = (Role.COUNT,)
# The slips a dealer or a pit boss enters or signs in that role.
_PIT_KINDS = (rules.OPENER, rules.CLOSER, rules.FILL, rules.CREDIT, rules.BUY_IN)


def _dealt_at(user: AbstractBaseUser, table: Table, day: date) -> bool:
    start, end = day_bounds(day)
    return (
        DealerSession.objects.filter(table=table, dealer_id=user.pk, started_at__lt=end)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=start))
        .exists()
    )


def _day_and_shift(gaming_day: date | None, shift: str | None, at: datetime) -> tuple[date, str]:
    day = gaming_day or gaming_day_of(at)
    shift = shift if shift is not None else shift_of(at)
    valid = [s.strftime("%H:%M") for s in shift_starts()]
    if shift not in valid:
        raise ServiceError(f"shift must be one of {', '.join(valid)}, not {shift!r}", field="shift")
    return day, shift


def _box(value: Any) -> int:
    number = value if is_whole(value) else None
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        number = int(value.strip())
    if number is None or number < 1:
        raise ServiceError(f"box: a drop box has a number, not {value!r}", field="box")
    return int(number)


def _move_data(move: DropBoxMove) -> dict[str, Any]:
    return {
        "table": move.table.name,
        "gaming_day": move.gaming_day.isoformat(),
        "shift": move.shift,
        "box": move.box_number,
        "step": move.step,
        "witness": move.witness.get_username() if move.witness else None,
    }


@transaction.atomic
def box_remove(
    *,
    table: Table,
    box: Any,
    by: AbstractBaseUser,
    witness: AbstractBaseUser | None = None,
    gaming_day: date | None = None,
    shift: str | None = None,
) -> DropBoxMove:
    """Record box `box` removed from `table` for the gaming day and shift (now's by default):
    by someone of the count team, security or a pit boss who did not deal at the table that
    day; `witness`, when one was there, another such person."""
    require(by, REMOVERS, "remove a drop box")
    table = Table.objects.select_for_update().get(pk=table.pk)
    at = timezone.now()
    day, shift = _day_and_shift(gaming_day, shift, at)
    number = _box(box)
    for person, field in ((by, "by"), (witness, "witness")):
        if person is None:
            continue
        if field == "witness":
            if person.pk == by.pk:
                raise ServiceError(
                    f"witness: {by.get_username()} removed the box: the witness is another person",
                    field="witness",
                )
            require(person, REMOVERS, "witness a drop box's removal")
        if _dealt_at(person, table, day):
            raise ServiceError(
                f"{field}: {person.get_username()} dealt at {table} that day: someone else "
                "removes its drop box",
                field=field,
                code="dealer_removes_box",
                status=403,
            )
    taken = DropBoxMove.objects.filter(
        table=table, gaming_day=day, shift=shift, step=DropBoxMove.Step.REMOVED
    ).first()
    if taken is not None:
        raise ServiceError(
            f"{table}'s box {taken.box_number} for the {shift} shift was already removed",
            field="box",
            code="conflict",
            status=409,
        )
    move = DropBoxMove.objects.create(
        table=table,
        gaming_day=day,
        shift=shift,
        box_number=number,
        step=DropBoxMove.Step.REMOVED,
        by=by,
        witness=witness,
        at=at,
    )
    audit_record(
        actor=by,
        kind=EventKind.DROP_BOX_MOVED,
        obj=move,
        table_name=table.name,
        data=_move_data(move),
    )
    return move


@transaction.atomic
def box_arrive(
    *,
    table: Table,
    by: AbstractBaseUser,
    gaming_day: date | None = None,
    shift: str | None = None,
) -> DropBoxMove:
    """Record the table's removed box for the gaming day and shift arrived in the count room
    (a count-team member receives it)."""
    require(by, RECEIVERS, "receive a drop box in the count room")
    table = Table.objects.select_for_update().get(pk=table.pk)
    at = timezone.now()
    day, shift = _day_and_shift(gaming_day, shift, at)
    moves = {
        m.step: m for m in DropBoxMove.objects.filter(table=table, gaming_day=day, shift=shift)
    }
    removed = moves.get(DropBoxMove.Step.REMOVED)
    if removed is None:
        raise ServiceError(
            f"{table}'s box for the {shift} shift is not recorded as removed from the table",
            field="box",
        )
    if DropBoxMove.Step.ARRIVED in moves:
        raise ServiceError(
            f"{table}'s box {removed.box_number} already arrived in the count room",
            field="box",
            code="conflict",
            status=409,
        )
    move = DropBoxMove.objects.create(
        table=table,
        gaming_day=day,
        shift=shift,
        box_number=removed.box_number,
        step=DropBoxMove.Step.ARRIVED,
        by=by,
        at=at,
    )
    audit_record(
        actor=by,
        kind=EventKind.DROP_BOX_MOVED,
        obj=move,
        table_name=table.name,
        data=_move_data(move),
    )
    return move


def worked_the_pit(user: AbstractBaseUser, day: date) -> bool:
    """Whether `user`, holding the pit boss or the dealer role, worked the floor on gaming day
    `day`: a dealer session that day, or a slip of the day entered, or signed as dealer or pit
    boss."""
    if not (has_role(user, Role.PIT_BOSS) or has_role(user, Role.DEALER)):
        return False
    start, end = day_bounds(day)
    if (
        DealerSession.objects.filter(dealer_id=user.pk, started_at__lt=end)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=start))
        .exists()
    ):
        return True
    if Slip.objects.filter(gaming_day=day, kind__in=_PIT_KINDS, created_by_id=user.pk).exists():
        return True
    return SlipSignature.objects.filter(
        slip__gaming_day=day, by_id=user.pk, role__in=[Role.PIT_BOSS.value, Role.DEALER.value]
    ).exists()


def count_sheet(day: date) -> dict[str, Any]:
    """Gaming day `day`'s count sheet: each signed drop (table, shift, box, bills by
    denomination, chips, markers, coupons, total), the totals by part, the drops still awaiting
    their second count signature, and the signatures given to these drops."""
    drops = list(
        Slip.objects.filter(gaming_day=day, kind=rules.DROP, status__in=["pending", "signed"])
        .select_related("table", "drop_count", "created_by")
        .prefetch_related("signatures__by")
        .order_by("table__name", "shift", "number")
    )
    signed = [s for s in drops if s.status == Slip.Status.SIGNED]
    pending = [s for s in drops if s.status == Slip.Status.PENDING]
    rows = []
    totals = {
        "bills": {str(b): 0 for b in rules.BILLS},
        "cash_cents": 0,
        "chips_cents": 0,
        "markers_cents": 0,
        "match_play_cents": 0,
        "promotional_cents": 0,
        "total_cents": 0,
    }
    for slip in signed:
        try:
            count: DropCount | None = slip.drop_count
        except Slip.drop_count.RelatedObjectDoesNotExist:
            count = None
        bills = count.bills if count else {}
        chips = sum(int(c) * n for c, n in slip.chips.items())
        row = {
            "slip": slip,
            "table": slip.table.name,
            "shift": slip.shift,
            "box": count.box_number if count else None,
            "by_parts": count is not None and bool(bills or not slip.cash_cents),
            "bills": [(int(b), bills.get(str(b), 0)) for b in rules.BILLS],
            "cash_cents": slip.cash_cents,
            "chips_cents": chips,
            "markers_cents": slip.markers_cents,
            "match_play_cents": count.match_play_cents if count else 0,
            "promotional_cents": count.promotional_cents if count else 0,
            "total_cents": slip.amount_cents,
            "counted_by": [slip.created_by.get_username()]
            + [s.by.get_username() for s in slip.signatures.all()],
        }
        rows.append(row)
        for b, n in row["bills"]:
            totals["bills"][str(b)] += n
        for key in (
            "cash_cents",
            "chips_cents",
            "markers_cents",
            "match_play_cents",
            "promotional_cents",
            "total_cents",
        ):
            totals[key] += row[key]
    key = ",".join(str(s.number) for s in signed)
    signatures = list(
        CountSheetSignature.objects.filter(gaming_day=day, slips=key)
        .select_related("by")
        .order_by("at", "id")
    )
    complete = bool(signed) and not pending and _complete(signatures)
    return {
        "day": day,
        "rows": rows,
        "totals": totals,
        "bill_values": list(rules.BILLS),
        "pending": pending,
        "key": key,
        "signatures": signatures,
        "signed": complete,
    }


def _complete(signatures: list[CountSheetSignature]) -> bool:
    return len({s.by_id for s in signatures}) >= 2 and any(s.independent for s in signatures)


@transaction.atomic
def count_sheet_sign(*, gaming_day: date, by: AbstractBaseUser) -> CountSheetSignature:
    """Sign gaming day `gaming_day`'s count sheet as it stands (a count-team member)."""
    require(by, (Role.COUNT,), "sign the count sheet")
    # One signer at a time per day: the sheet's content and its signatures are read under the
    # lock of the day's drops.
    list(Slip.objects.select_for_update().filter(gaming_day=gaming_day, kind=rules.DROP))
    sheet = count_sheet(gaming_day)
    day_words = gaming_day.strftime("%Y-%m-%d")
    name = by.get_username()
    if not sheet["rows"]:
        raise ServiceError(
            f"gaming day {day_words} has no signed drop to put on the count sheet",
            field="gaming_day",
        )
    if sheet["pending"]:
        waiting = sheet["pending"][0]
        raise ServiceError(
            f"drop slip {waiting.number} at {waiting.table}, shift {waiting.shift}, awaits its "
            "second count signature: the sheet is signed once every drop is",
            field="gaming_day",
            code="drop_pending",
        )
    signatures = sheet["signatures"]
    if any(s.by_id == by.pk for s in signatures):
        raise ServiceError(
            f"{name} already signed the count sheet of {day_words}: a different member signs next",
            field="gaming_day",
            code="already_signed",
            status=403,
        )
    tables = {r["slip"].table_id for r in sheet["rows"]}
    alone = (
        DropBoxMove.objects.filter(
            gaming_day=gaming_day,
            step=DropBoxMove.Step.REMOVED,
            by_id=by.pk,
            witness__isnull=True,
            table_id__in=tables,
        )
        .select_related("table")
        .first()
    )
    if alone is not None:
        raise PermissionDenied(
            f"{name} removed {alone.table}'s box {alone.box_number} alone: another member of the "
            "count team signs the count sheet"
        )
    independent = not worked_the_pit(by, gaming_day)
    if not independent and not any(s.independent for s in signatures) and signatures:
        others = ", ".join(s.by.get_username() for s in signatures)
        raise PermissionDenied(
            f"{name} worked the pit on {day_words}, as did {others}: the count sheet needs a "
            "signer independent of the pit"
        )
    signature = CountSheetSignature.objects.create(
        gaming_day=gaming_day,
        slips=sheet["key"],
        total_cents=sheet["totals"]["total_cents"],
        by=by,
        independent=independent,
        at=timezone.now(),
    )
    now_signed = _complete([*signatures, signature])
    audit_record(
        actor=by,
        kind=EventKind.COUNT_SHEET_SIGNED,
        obj=signature,
        data={
            "gaming_day": gaming_day.isoformat(),
            "slips": [int(n) for n in sheet["key"].split(",")],
            "total_cents": signature.total_cents,
            "independent": independent,
            "complete": now_signed,
        },
    )
    return signature


def count_team() -> list[AbstractBaseUser]:
    return list(get_user_model().objects.filter(groups__name=Role.COUNT.value).order_by("username"))
