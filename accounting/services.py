"""Writing the pit's accounting: slips, their signatures and voids, chip denominations, and the
variance alerts of the reconciliation. Keyword-only, atomic, each change on the audit chain in
its own transaction. Who may do what is `accounting.rules`; the database enforces the rest
(migration 0002): these checks give the message that names the field.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import SeparationOfDuties, ServiceError
from core.roles import ADMINS, PIT_BOSSES, Role, has_role, require, role_names
from core.strict import is_whole, text
from tables.engine.errors import EngineError
from tables.engine.money import format_cents, parse_cents
from tables.gaming_day import gaming_day_of, shift_begins, shift_of, shift_starts
from tables.models import DealerSession, Table
from tables.services.limits import check_amount, limit_cents
from tables.services.sessions import dealer_sign_in

from . import rules, signature_rules
from .cash import buy_in_voided, check_cash_in
from .models import (
    ChipDenomination,
    DropBoxMove,
    DropCount,
    HandoverAlert,
    Slip,
    SlipSignature,
    SlipSteps,
    SlipVoid,
    VarianceAlert,
)
from .opening import open_state, require_open
from .opening import required as opening_required


def _signed_in_at(user: AbstractBaseUser, table: Table) -> bool:
    return DealerSession.objects.filter(
        table=table, dealer_id=user.pk, ended_at__isnull=True
    ).exists()


def acting_role(user: AbstractBaseUser, allowed: tuple[Role, ...], table: Table, what: str) -> Role:
    """The role in which `user` acts among `allowed` (a dealer only at the table they are signed
    in at); PermissionDenied naming who may."""
    for role in allowed:
        if has_role(user, role) and (role != Role.DEALER or _signed_in_at(user, table)):
            return role
    if Role.DEALER in allowed and has_role(user, Role.DEALER):
        raise PermissionDenied(f"{what}: {user.get_username()} is not signed in at {table}")
    raise PermissionDenied(f"{what}: only for the {role_names(allowed)} role")


def parse_chips(value: Any, *, field: str = "chips") -> dict[str, int]:
    """`{"5.00": 40, "25": 2}` -> `{"500": 40, "2500": 2}`: active denominations, whole counts
    (a number: `"40"` is refused; zero counts dropped). Refused with a message naming the
    denomination."""
    if not isinstance(value, dict):
        raise ServiceError(
            f'{field} must map chip values to counts, like {{"5.00": 40}}', field=field
        )
    active = set(
        ChipDenomination.objects.filter(is_active=True).values_list("value_cents", flat=True)
    )
    chips: dict[int, int] = {}
    for key, count in value.items():
        where = f"{field}.{key}"
        try:
            cents = parse_cents(str(key).removeprefix("$"), where=where)
        except EngineError as e:
            raise ServiceError(e.message, field=where) from None
        if cents not in active:
            raise ServiceError(
                f"{where}: there is no active ${format_cents(cents)} chip", field=where
            )
        if not is_whole(count) or count < 0:
            raise ServiceError(
                f"{where}: the count must be a whole number, not {count!r}", field=where
            )
        if count > 1_000_000:
            raise ServiceError(f"{where}: {count} chips is more than a tray holds", field=where)
        if cents in chips:
            raise ServiceError(
                f"{where}: the ${format_cents(cents)} chip is given twice", field=where
            )
        chips[cents] = count
    return {str(c): n for c, n in sorted(chips.items()) if n}


def chips_total(chips: dict[str, int]) -> int:
    return sum(int(c) * n for c, n in chips.items())


def parse_bills(value: Any, *, field: str = "bills") -> dict[str, int]:
    """`{"100": 12, "$20": 40}` -> `{"10000": 12, "2000": 40}`: the drop's bills by denomination,
    whole counts (zero counts dropped); refused naming the bill."""
    if not isinstance(value, dict):
        raise ServiceError(
            f'{field} must map bills to counts, like {{"100": 12, "20": 40}}', field=field
        )
    bills: dict[int, int] = {}
    for key, count in value.items():
        where = f"{field}.{key}"
        try:
            cents = parse_cents(str(key).strip().removeprefix("$"), where=where)
        except EngineError as e:
            raise ServiceError(e.message, field=where) from None
        if cents not in rules.BILLS:
            offered = ", ".join(f"${b // 100}" for b in rules.BILLS)
            raise ServiceError(
                f"{where}: the count takes {offered} bills, not ${format_cents(cents)}",
                field=where,
            )
        if not is_whole(count) or count < 0:
            raise ServiceError(
                f"{where}: the count of ${cents // 100} bills must be a whole number, "
                f"not {count!r}",
                field=where,
            )
        if count > 1_000_000:
            raise ServiceError(
                f"{where}: {count} ${cents // 100} bills is more than a box holds", field=where
            )
        if cents in bills:
            raise ServiceError(f"{where}: the ${cents // 100} bill is given twice", field=where)
        bills[cents] = count
    return {str(c): n for c, n in sorted(bills.items(), reverse=True) if n}


def bills_total(bills: dict[str, int]) -> int:
    return sum(int(c) * n for c, n in bills.items())


def parse_coupons(value: Any, *, field: str = "coupons") -> dict[str, int]:
    """`{"match_play": "50.00", "promotional": "25"}` -> cents per kind of coupon (by value)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ServiceError(
            f"{field} must map match_play and promotional to their value, like "
            f'{{"match_play": "50.00"}}',
            field=field,
        )
    coupons: dict[str, int] = {}
    for key, amount in value.items():
        where = f"{field}.{key}"
        if key not in rules.COUPONS:
            raise ServiceError(
                f"{where}: the count takes match-play and promotional coupons, not {key!r}",
                field=where,
            )
        if amount is None or amount == "":
            continue
        coupons[key] = _amount(amount, field=where, allow_zero=True)
    return coupons


def drop_box_number(value: Any, *, table: Table, gaming_day: date, shift: str) -> int | None:
    """The drop slip's box number: a whole number, the one recorded as removed from the table
    for that shift (when its removal is recorded)."""
    if value is None or value == "":
        return None
    number = value if is_whole(value) else None
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        number = int(value.strip())
    if number is None or number < 1:
        raise ServiceError(f"box: a drop box has a number, not {value!r}", field="box")
    removed = DropBoxMove.objects.filter(
        table=table, gaming_day=gaming_day, shift=shift, step=DropBoxMove.Step.REMOVED
    ).first()
    if removed is not None and removed.box_number != number:
        raise ServiceError(
            f"box: {table}'s box for the {shift} shift is box {removed.box_number}, "
            f"not box {number}",
            field="box",
        )
    return int(number)


def _amount(value: Any, *, field: str, allow_zero: bool = False) -> int:
    if isinstance(value, Decimal | int) and not isinstance(value, bool):
        value = str(value)
    try:
        return parse_cents(value, where=field, allow_zero=allow_zero)
    except (EngineError, InvalidOperation) as e:
        raise ServiceError(getattr(e, "message", str(e)), field=field) from None


def _next_number() -> int:
    return (Slip.objects.aggregate(n=Max("number"))["n"] or 0) + 1


@transaction.atomic
def slip_create(
    *,
    table: Table,
    kind: str,
    by: AbstractBaseUser,
    chips: dict[str, Any] | None = None,
    amount: Any = None,
    markers: Any = None,
    gaming_day: date | None = None,
    shift: str | None = None,
    replaces: Slip | None = None,
    note: str = "",
    reason: str = "",
    at: datetime | None = None,
    seat: Any = None,
    patron: Any = None,
    bills: dict[str, Any] | None = None,
    coupons: dict[str, Any] | None = None,
    box: Any = None,
) -> Slip:
    """Enter a slip. Chip kinds take `chips`; a drop is counted by its parts: `bills` by
    denomination (counts: {"100": 12, "20": 40}), `markers`, `coupons` by value
    ({"match_play": "50.00", "promotional": "25.00"}), any `chips` found in the box, and the
    `box` number (an amount-only drop, `amount` as its cash, stays for the older API); a buy-in
    `amount`, its `seat` and, from the MTL threshold, its
    `patron` (passed as given to the cash compliance check, `accounting.cash`). The gaming day
    and shift default to now's (a drop counted the next morning names the shift whose box it
    is); see `check_day` for the days a slip may name. Every amount is within the kind's
    limit (`tables.services.limits`, set by admins)."""
    if kind not in rules.KINDS:
        raise ServiceError(
            f"kind must be one of {', '.join(rules.KINDS)}, not {kind!r}", field="kind"
        )
    note = text(note, "note")
    reason = text(reason, "reason").strip()
    role = acting_role(
        by, rules.CREATE_ROLES[kind], table, f"enter a {kind.replace('_', '-')} slip"
    )
    table = Table.objects.select_for_update().get(pk=table.pk)
    at = at or timezone.now()
    day = gaming_day or gaming_day_of(at)
    shift = shift if shift is not None else shift_of(at)
    valid_shifts = [s.strftime("%H:%M") for s in shift_starts()]
    if shift not in valid_shifts:
        raise ServiceError(
            f"shift must be one of {', '.join(valid_shifts)}, not {shift!r}", field="shift"
        )
    check_day(kind=kind, day=day, shift=shift, at=at, reason=reason)
    check_open_for(kind=kind, table=table, day=day, shift=shift)
    cash = markers_cents = 0
    if kind != rules.DROP and (bills is not None or coupons is not None or box is not None):
        raise ServiceError(
            "only a drop is counted by bills and coupons and names a box", field="bills"
        )
    if kind in rules.CHIP_KINDS:
        if amount is not None or markers is not None:
            raise ServiceError(
                f"a {kind} slip counts chips by denomination: give chips, not an amount",
                field="amount",
            )
        parsed = parse_chips(chips if chips is not None else None)
        if kind in (rules.FILL, rules.CREDIT) and not parsed:
            raise ServiceError(f"a {kind} moves at least one chip", field="chips")
    else:
        if kind == rules.DROP and bills is not None:
            if amount is not None:
                raise ServiceError(
                    "a drop counted by bills gives no amount: its cash is the bills' total",
                    field="amount",
                )
            bill_counts = parse_bills(bills)
            cash = bills_total(bill_counts)
        else:
            if amount is None:
                raise ServiceError(
                    f"a {kind.replace('_', '-')} slip needs its amount"
                    + (" (or its bills by denomination)" if kind == rules.DROP else ""),
                    field="amount",
                )
            cash = _amount(amount, field="amount", allow_zero=kind == rules.DROP)
            bill_counts = {}
        parsed = {}
        if kind == rules.DROP:
            if markers is not None:
                markers_cents = _amount(markers, field="markers", allow_zero=True)
            if chips:
                parsed = parse_chips(chips)
        elif chips or markers is not None:
            raise ServiceError("a buy-in is cash: give its amount only", field="chips")
    if kind != rules.BUY_IN and (seat is not None or patron is not None):
        raise ServiceError("only a buy-in names a seat and a patron", field="seat")
    seat_number = buy_in_seat(seat, table) if kind == rules.BUY_IN else None
    coupon_cents = parse_coupons(coupons) if kind == rules.DROP else {}
    box_number = (
        drop_box_number(box, table=table, gaming_day=day, shift=shift)
        if kind == rules.DROP
        else None
    )
    check_limits(
        kind,
        cash=cash,
        markers=markers_cents,
        chips=chips_total(parsed),
        coupons=sum(coupon_cents.values()),
    )
    if replaces is not None:
        replaces = Slip.objects.select_for_update().get(pk=replaces.pk)
        if replaces.status != Slip.Status.VOIDED:
            raise ServiceError(
                f"slip {replaces.number} is {replaces.status}: only a voided slip is replaced",
                field="replaces",
            )
        if replaces.table_id != table.pk or replaces.kind != kind:
            raise ServiceError(
                f"slip {replaces.number} is a {replaces.kind} at {replaces.table}: a replacement "
                "is the same kind at the same table",
                field="replaces",
            )
        if Slip.objects.filter(replaces=replaces).exists():
            raise ServiceError(
                f"slip {replaces.number} is already replaced",
                field="replaces",
                code="conflict",
                status=409,
            )
    if kind in rules.ONE_PER_SHIFT:
        live = Slip.objects.filter(
            table=table,
            gaming_day=day,
            shift=shift,
            kind=kind,
            status__in=[Slip.Status.PENDING, Slip.Status.SIGNED],
        ).first()
        if live is not None:
            raise ServiceError(
                f"{table} already has {kind} slip {live.number} for {day} shift {shift}: void it "
                "first to replace it",
                field="kind",
                code="conflict",
                status=409,
            )
    finish = (
        check_cash_in(
            table=table,
            seat=seat_number,
            patron=patron,
            cash_cents=cash,
            gaming_day=day,
            by=by,
            at=at,
        )
        if kind == rules.BUY_IN
        else []
    )
    steps, rule = signature_rules.steps_for_new(kind)
    required = len(steps)
    fields = {
        "table": table,
        "kind": kind,
        "gaming_day": day,
        "shift": shift,
        "chips": parsed,
        "cash_cents": cash,
        "markers_cents": markers_cents,
        "amount_cents": cash + markers_cents + chips_total(parsed) + sum(coupon_cents.values()),
        "created_by": by,
        "created_at": at,
        "signatures_required": required,
        "status": Slip.Status.PENDING if required else Slip.Status.SIGNED,
        "signed_at": None if required else at,
        "replaces": replaces,
        "note": note,
    }
    slip = None
    for _attempt in range(5):  # another table's slip may take the number first
        try:
            with transaction.atomic():
                slip = Slip.objects.create(number=_next_number(), **fields)
            break
        except IntegrityError:
            continue
    if slip is None:
        raise ServiceError(
            "another slip took the next number at the same moment: try again",
            field="number",
            code="conflict",
            status=409,
        )
    late = {"late_reason": reason} if reason else {}
    bound: list[Any] = []
    extra: dict[str, Any] = {}
    if kind == rules.DROP and (bills is not None or coupons is not None or box is not None):
        count = DropCount.objects.create(
            slip=slip,
            box_number=box_number,
            bills=bill_counts,
            match_play_cents=coupon_cents.get("match_play", 0),
            promotional_cents=coupon_cents.get("promotional", 0),
        )
        bound.append(count)
        extra["count"] = {
            "box": box_number,
            "bills": bill_counts,
            "match_play_cents": count.match_play_cents,
            "promotional_cents": count.promotional_cents,
        }
    if rule is not None:
        bound.append(SlipSteps.objects.create(slip=slip, approval=rule, steps=rule.proposal.steps))
        extra["signature_rule"] = rule.proposal.steps
    audit_record(
        actor=by,
        kind=EventKind.SLIP_CREATED,
        obj=slip,
        table_name=table.name,
        data={**slip_data(slip), "role": role.value, **late, **extra},
        bind=bound,
    )
    for record in finish:
        record(slip)
    if not required:
        reconcile(table=table, gaming_day=day, shift=shift)
    return slip


def check_open_for(*, kind: str, table: Table, day: date, shift: str) -> None:
    """A buy-in, a fill, a credit or a closer needs the table open for the slip's gaming day and
    shift (its opener signed, its closer not yet); an opener, a table not already open
    (`accounting.opening`)."""
    if kind in rules.NEED_OPEN:
        what = {
            rules.BUY_IN: "a buy-in",
            rules.FILL: "a fill",
            rules.CREDIT: "a credit",
            rules.CLOSER: "a closer",
        }[kind]
        require_open(table=table, what=what, gaming_day=day, shift=shift)
    elif kind == rules.OPENER and opening_required():
        state = open_state(table=table, gaming_day=day, shift=shift)
        if state.is_open:
            raise ServiceError(
                f"{table} is already open for the {shift} shift of {day.isoformat()} "
                f"(opener slip {state.opener.number} signed): its closer closes it",
                field="kind",
                code="table_open",
                status=409,
            )


def handover(*, opener: Slip) -> HandoverAlert | None:
    """Within the opener's signing transaction: compare it, chip by chip, with the table's last
    signed closer before its shift (the shift it takes over from); a difference raises a
    handover alert at once, on the chain. None when they agree or no closer came before."""
    begins = shift_begins(opener.gaming_day, opener.shift)
    earlier = [
        s
        for s in Slip.objects.filter(
            table_id=opener.table_id,
            kind=rules.CLOSER,
            status=Slip.Status.SIGNED,
            gaming_day__lte=opener.gaming_day,
            gaming_day__gte=opener.gaming_day - timedelta(days=7),
        )
        if shift_begins(s.gaming_day, s.shift) < begins
    ]
    if not earlier:
        return None
    closer = max(earlier, key=lambda s: (shift_begins(s.gaming_day, s.shift), s.number))
    difference = {}
    for chip in sorted({*opener.chips, *closer.chips}, key=int):
        moved = int(opener.chips.get(chip, 0)) - int(closer.chips.get(chip, 0))
        if moved:
            difference[chip] = moved
    if not difference:
        return None
    alert = HandoverAlert.objects.create(
        table_id=opener.table_id,
        closer=closer,
        opener=opener,
        difference=difference,
        difference_cents=chips_total(difference),
        raised_at=timezone.now(),
    )
    table = opener.table
    audit_record(
        actor=None,
        actor_name="system",
        kind=EventKind.HANDOVER_ALERT_RAISED,
        obj=alert,
        table_name=table.name,
        data={
            "table": table.name,
            "closer": closer.number,
            "closer_shift": f"{closer.gaming_day.isoformat()} {closer.shift}",
            "opener": opener.number,
            "opener_shift": f"{opener.gaming_day.isoformat()} {opener.shift}",
            "difference": difference,
            "difference_cents": alert.difference_cents,
        },
    )
    return alert


def open_table(
    *,
    table: Any,
    dealer: AbstractBaseUser,
    pit_boss: AbstractBaseUser,
    chips: dict[str, Any] | None = None,
    at: datetime | None = None,
) -> Slip:
    """Open `table` for the current gaming day and shift as the floor does: the dealer (signed
    in at the table; signed in here if not) counts the tray, the pit boss signs the opener.
    `chips` as a slip takes them (`{"25.00": 40}`); by default a $10,000.00 tray. Returns the
    signed opener; a table already open is left as it is (its opener returned)."""
    state = open_state(table=table, at=at)
    if state.is_open:
        return state.opener  # type: ignore[return-value]
    if not DealerSession.objects.filter(
        table_id=table.pk, dealer_id=dealer.pk, ended_at__isnull=True
    ).exists():
        dealer_sign_in(dealer=dealer, table=table)
    opener = slip_create(
        table=table,
        kind=rules.OPENER,
        by=dealer,
        chips=chips if chips is not None else {"100.00": 60, "25.00": 120, "5.00": 200},
        at=at,
    )
    return slip_sign(slip=opener, by=pit_boss)


def buy_in_seat(value: Any, table: Table) -> int | None:
    """A buy-in's seat: empty (none named), or a seat of the table, "3" or 3."""
    if value is None or value == "":
        return None
    number = value if is_whole(value) else None
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        number = int(value.strip())
    if number is None or not 1 <= number <= table.seats:
        raise ServiceError(
            f"seat: {table} has seats 1 to {table.seats}, not {value!r}", field="seat"
        )
    return int(number)


def check_day(*, kind: str, day: date, shift: str, at: datetime, reason: str) -> None:
    """A slip is for the current gaming day, in a shift that has begun, or for the previous
    gaming day with a reason (recorded on the chain with the slip), whatever its kind: the
    morning count of yesterday's drop boxes gives its reason too
    (`rules.MORNING_COUNT_REASON`, which the slip desk offers). Any other day is refused (a
    typed year, a date to come)."""
    today = gaming_day_of(at)
    yesterday = today - timedelta(days=1)
    if not yesterday <= day <= today:
        raise ServiceError(
            f"a slip is for the current gaming day ({today.isoformat()}), or the previous one "
            f"({yesterday.isoformat()}) with a reason, not {day.isoformat()}",
            field="gaming_day",
            code="bad_gaming_day",
        )
    if day == today:
        if reason:
            raise ServiceError(
                f"only a slip for the previous gaming day ({yesterday.isoformat()}) takes a reason",
                field="reason",
            )
        if shift_begins(day, shift) > at:
            raise ServiceError(
                f"the {shift} shift of {day.isoformat()} has not begun",
                field="shift",
                code="bad_shift",
            )
    elif not reason:
        raise ServiceError(
            f"a {kind.replace('_', '-')} slip for the previous gaming day "
            f"({day.isoformat()}) needs a reason"
            + (f', such as "{rules.MORNING_COUNT_REASON}"' if kind == rules.DROP else ""),
            field="reason",
            code="reason_required",
        )


def check_limits(kind: str, *, cash: int, markers: int, chips: int, coupons: int = 0) -> None:
    """Each amount of the slip, and its total, within the kind's limit (naming the field)."""
    slip, most = f"a {kind.replace('_', '-')} slip's", limit_cents(kind)
    if kind in rules.CHIP_KINDS:
        check_amount(kind, chips, field="chips", what=f"{slip} chips", most=most)
        return
    check_amount(kind, cash, field="amount", what=f"{slip} amount", most=most)
    check_amount(kind, markers, field="markers", what=f"{slip} markers", most=most)
    check_amount(kind, chips, field="chips", what=f"{slip} chips", most=most)
    check_amount(kind, coupons, field="coupons", what=f"{slip} coupons", most=most)
    total = cash + markers + chips + coupons
    check_amount(
        kind,
        total,
        field="amount",
        what=f"{slip} total (cash, markers, chips" + (", coupons)" if coupons else ")"),
        most=most,
    )


def slip_data(slip: Slip) -> dict[str, Any]:
    return {
        "number": slip.number,
        "kind": slip.kind,
        "gaming_day": slip.gaming_day.isoformat(),
        "shift": slip.shift,
        "chips": slip.chips,
        "cash_cents": slip.cash_cents,
        "markers_cents": slip.markers_cents,
        "amount_cents": slip.amount_cents,
        "replaces": slip.replaces.number if slip.replaces else None,
        "note": slip.note,
    }


@transaction.atomic
def slip_sign(*, slip: Slip, by: AbstractBaseUser) -> Slip:
    """The next signature the slip needs (a fill: the cage's issue, then the dealer's receipt).
    Once it has them all it counts."""
    slip = Slip.objects.select_for_update().select_related("table").get(pk=slip.pk)
    if slip.status != Slip.Status.PENDING:
        raise ServiceError(
            f"slip {slip.number} is {slip.status}: nothing to sign",
            field="slip",
            code="conflict",
            status=409,
        )
    if slip.created_by_id == by.pk:
        raise ServiceError(
            f"{by.get_username()} created slip {slip.number}: a second person signs it",
            field="slip",
            code="creator_cannot_sign",
            status=403,
        )
    if slip.signatures.filter(by=by).exists():
        raise ServiceError(
            f"{by.get_username()} already signed slip {slip.number}: a different person signs next",
            field="slip",
            code="already_signed",
            status=403,
        )
    step = slip.signatures.count() + 1
    this = signature_rules.steps_of(slip)[step - 1]
    allowed = this.roles
    what = f"sign slip {slip.number} ({this.meaning})"
    role = acting_role(by, allowed, slip.table, what)
    now = timezone.now()
    signature = SlipSignature.objects.create(slip=slip, step=step, role=role.value, by=by, at=now)
    if step == slip.signatures_required:
        slip.status, slip.signed_at = Slip.Status.SIGNED, now
        slip.save(update_fields=["status", "signed_at"])
    audit_record(
        actor=by,
        kind=EventKind.SLIP_SIGNED,
        obj=slip,
        table_name=slip.table.name,
        data={
            "number": slip.number,
            "kind": slip.kind,
            "step": step,
            "role": role.value,
            "meaning": this.meaning,
            "counts": slip.status == Slip.Status.SIGNED,
        },
        bind=[signature],
    )
    if slip.status == Slip.Status.SIGNED:
        if slip.kind == rules.OPENER:
            handover(opener=slip)
        reconcile(table=slip.table, gaming_day=slip.gaming_day, shift=slip.shift)
    return slip


def void_confirm_refusal(
    slip: Slip, user: AbstractBaseUser, *, signatures: list[SlipSignature] | None = None
) -> str | None:
    """Why `user` may not confirm the slip's void (None: the rule lets them): whoever entered
    the slip or signed it may ask for its void, never confirm it, whatever roles they hold.
    `signatures`: the slip's, when the caller has read them already (the pages' rows)."""
    name = user.get_username()
    if slip.created_by_id == user.pk:
        return f"{name} entered slip {slip.number}: another person confirms its void"
    if signatures is None:
        signatures = list(slip.signatures.order_by("step"))
    steps = signature_rules.steps_of(slip) if signatures else []
    for signature in signatures:
        if signature.by_id == user.pk:
            meaning = steps[signature.step - 1].meaning
            return f"{name} signed slip {slip.number} ({meaning}): another person confirms its void"
    return None


@transaction.atomic
def slip_void(*, slip: Slip, by: AbstractBaseUser, reason: str) -> Slip:
    """Ask for a void (the first person, with the reason) or confirm it (a second person, never
    one who entered or signed the slip: `void_confirm_refusal`): the slip stops counting once
    confirmed, and a new slip replaces it."""
    slip = Slip.objects.select_for_update().select_related("table").get(pk=slip.pk)
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("a void needs its reason", field="reason")
    if slip.status == Slip.Status.VOIDED:
        raise ServiceError(
            f"slip {slip.number} is already voided", field="slip", code="conflict", status=409
        )
    acting_role(by, rules.VOID_ROLES[slip.kind], slip.table, f"void slip {slip.number}")
    asked = slip.voids.first()
    if asked is not None and asked.by_id == by.pk:
        raise ServiceError(
            f"{by.get_username()} asked for this void: a second person confirms it",
            field="slip",
            code="void_needs_second_person",
            status=403,
        )
    refusal = void_confirm_refusal(slip, by) if asked is not None else None
    if refusal is not None:
        raise SeparationOfDuties(
            refusal,
            field="slip",
            action="confirm_void",
            about={"slip_id": slip.pk, "slip": slip.number},
            table_name=slip.table.name,
        )
    now = timezone.now()
    step = 2 if asked is not None else 1
    void = SlipVoid.objects.create(slip=slip, step=step, by=by, reason=reason, at=now)
    if step == 2:
        slip.status, slip.voided_at = Slip.Status.VOIDED, now
        slip.save(update_fields=["status", "voided_at"])
    audit_record(
        actor=by,
        kind=EventKind.SLIP_VOIDED if step == 2 else EventKind.SLIP_VOID_REQUESTED,
        obj=slip,
        table_name=slip.table.name,
        data={"number": slip.number, "kind": slip.kind, "reason": reason, "step": step},
        bind=[void],
    )
    if step == 2:
        if slip.kind == rules.BUY_IN:
            buy_in_voided(slip=slip, by=by, at=now, reason=reason)  # its cash stops counting
        reconcile(table=slip.table, gaming_day=slip.gaming_day, shift=slip.shift)
    return slip


def reconcile_after_play(*, table_id: int, gaming_day: date, shift: str) -> VarianceAlert | None:
    """Within the transaction of a round settled, voided or corrected, or of a hand finished or
    voided: when its shift has a signed closer or drop (so it may be counted), reconcile it
    again (`reconcile`); a shift still in play costs one indexed look-up."""
    counted = Slip.objects.filter(
        table_id=table_id,
        gaming_day=gaming_day,
        shift=shift,
        status=Slip.Status.SIGNED,
        kind__in=(rules.CLOSER, rules.DROP),
    ).exists()
    if not counted:
        return None
    return reconcile(table=Table.objects.get(pk=table_id), gaming_day=gaming_day, shift=shift)


def reconcile(*, table: Table, gaming_day: date, shift: str) -> VarianceAlert | None:
    """Within the slip's transaction: once the shift's count is complete (opener, closer and
    drop signed), compare its win with the hands' and raise an alert past the tolerance (once per
    distinct variance)."""
    from .selectors import shift_figures

    figures = shift_figures(table=table, gaming_day=gaming_day, shift=shift)
    variance = figures["variance_cents"]
    tolerance = settings.CASINO_VARIANCE_TOLERANCE_CENTS
    if variance is None or abs(variance) <= tolerance:
        return None
    if VarianceAlert.objects.filter(
        table=table, gaming_day=gaming_day, shift=shift, variance_cents=variance
    ).exists():
        return None
    alert = VarianceAlert.objects.create(
        table=table,
        gaming_day=gaming_day,
        shift=shift,
        count_win_cents=figures["count_win_cents"],
        hands_win_cents=figures["win_cents"],
        variance_cents=variance,
        tolerance_cents=tolerance,
        raised_at=timezone.now(),
    )
    audit_record(
        actor=None,
        actor_name="system",
        kind=EventKind.VARIANCE_ALERT_RAISED,
        obj=alert,
        table_name=table.name,
        data={
            "table": table.name,
            "gaming_day": gaming_day.isoformat(),
            "shift": shift,
            "count_win_cents": alert.count_win_cents,
            "hands_win_cents": alert.hands_win_cents,
            "variance_cents": variance,
            "tolerance_cents": tolerance,
        },
    )
    return alert


@transaction.atomic
def variance_acknowledge(*, alert: VarianceAlert, by: AbstractBaseUser, note: str) -> VarianceAlert:
    """A pit boss acknowledges a variance alert with a note (once)."""
    require(by, PIT_BOSSES, "acknowledge a variance alert")
    note = (note or "").strip()
    if not note:
        raise ServiceError(
            "acknowledging a variance needs a note saying what was found", field="note"
        )
    alert = VarianceAlert.objects.select_for_update().select_related("table").get(pk=alert.pk)
    if alert.acknowledged_at is not None:
        raise ServiceError(
            f"this alert was acknowledged by {alert.acknowledged_by}",
            field="alert",
            code="conflict",
            status=409,
        )
    alert.acknowledged_by, alert.acknowledged_at, alert.note = by, timezone.now(), note
    alert.save(update_fields=["acknowledged_by", "acknowledged_at", "note"])
    audit_record(
        actor=by,
        kind=EventKind.VARIANCE_ACKNOWLEDGED,
        obj=alert,
        table_name=alert.table.name,
        data={
            "gaming_day": alert.gaming_day.isoformat(),
            "shift": alert.shift,
            "variance_cents": alert.variance_cents,
            "note": note,
        },
    )
    return alert


@transaction.atomic
def denomination_save(
    *, by: AbstractBaseUser, value_cents: int, label: str = "", is_active: bool = True
) -> ChipDenomination:
    """Add a chip denomination, or relabel / (de)activate one (admins; on the chain)."""
    require(by, ADMINS, "configure chip denominations")
    if value_cents <= 0:
        raise ServiceError("a chip is worth more than zero", field="value_cents")
    chip, created = ChipDenomination.objects.select_for_update().get_or_create(
        value_cents=value_cents, defaults={"label": label, "is_active": is_active}
    )
    if not created:
        chip.label, chip.is_active = label, is_active
        chip.save(update_fields=["label", "is_active"])
    audit_record(
        actor=by,
        kind=EventKind.CHIP_DENOMINATION_SAVED,
        obj=chip,
        data={"value_cents": value_cents, "label": label, "is_active": is_active, "new": created},
    )
    return chip


# The usual chips (value in cents, colour); the admin adds, relabels or deactivates others.
USUAL_CHIPS = ((50, "half-dollar (3 to 2 payouts)"), (100, "white"), (500, "red"))
USUAL_CHIPS += ((2500, "green"), (10000, "black"), (50000, "purple"), (100000, "yellow"))


def ensure_usual_chips(*, using: str = "default") -> None:
    """The usual chips, where missing (migration 0002 installs them; after a flush of a
    development or test database, `post_migrate` puts them back). Leaves existing ones as
    configured (relabelled, deactivated)."""
    for value_cents, label in USUAL_CHIPS:
        ChipDenomination.objects.using(using).get_or_create(
            value_cents=value_cents, defaults={"label": label}
        )
