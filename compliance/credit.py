"""Markers (casino credit, docs/compliance.md): a patron's credit line, set by a credit manager
and approved by another; markers issued at a table seat against the line's available credit
(the line in force minus the patron's outstanding markers), signed by the pit boss with the
patron's signature; repayments at the cage in cash, chips or by cheque.

Writes are keyword-only, atomic and audited in the same transaction; the reads follow them. A
marker is not a cash transaction: its chips go to the table and the marker into the table's
drop box (the count expects it, `accounting.cash.markers_issued`). A repayment in cash is one:
it goes through the cash compliance path (`services.marker_repaid_check`, kind
`marker_repaid`, cash in), so it is summed into the patron's day, on the MTL and in a CTR like
the cage's other cash.

Separation of duties: the approver of a line is not who set it; a pit boss does not issue a
marker against a line they set or approved; the cashier does not take the repayment of a
marker they issued; the compliance role reads and acts on none of it."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Max, Sum
from django.utils import timezone

from accounting.services import buy_in_seat
from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import SeparationOfDuties, ServiceError
from core.money import dollars
from core.roles import (
    CREDIT_MANAGERS,
    MARKER_ISSUERS,
    MARKER_REPAYERS,
    Role,
    has_role,
    require,
)
from core.strict import flag, text
from tables.engine.errors import EngineError
from tables.engine.money import parse_cents
from tables.gaming_day import gaming_day_of, shift_of, shift_starts
from tables.models import Table

from .models import CreditLine, CreditLineApproval, Marker, MarkerRepayment, Patron
from .services import CARD_NUMBER, PATRON_NUMBER, marker_repaid_check

# The most a credit line may be: above any line a casino extends, far below a mistyped figure.
LINE_MOST_CENTS = 10_000_000_00
# The age buckets of outstanding markers, in days since the marker's gaming day.
AGE_BUCKETS: tuple[tuple[str, int, int | None], ...] = (
    ("0-30", 0, 30),
    ("31-60", 31, 60),
    ("61-90", 61, 90),
    ("90+", 91, None),
)


def _refuse_compliance(by: AbstractBaseUser, what: str) -> None:
    """The compliance officer reads credit; they set, approve, issue and take nothing."""
    if has_role(by, Role.COMPLIANCE):
        raise PermissionDenied(f"the compliance role reads credit and does not {what}")


def _cents(value: Any, field: str) -> int:
    if not isinstance(value, str):
        raise ServiceError(
            f'{field} must be a decimal string of dollars ("2500.00"), not {value!r}', field=field
        )
    try:
        return parse_cents(value.strip(), where=field)
    except EngineError as e:
        raise ServiceError(e.message, field=field) from None


def _patron(value: Any) -> Patron:
    """The patron a credit form names: a patron number (P1001) or a rated player's card."""
    given = text(value if value is not None else "", "patron").strip()
    if not given:
        raise ServiceError("patron: name the patron (a patron number or a card)", field="patron")
    if not (PATRON_NUMBER.match(given) or CARD_NUMBER.match(given)):
        raise ServiceError(
            "patron: give a patron number (P1001) or a player's card number", field="patron"
        )
    if CARD_NUMBER.match(given):
        found = Patron.objects.filter(player__card=given).first()
        if found is None:
            raise ServiceError(
                f"patron: no patron holds card {given} (the cage records the patron first)",
                field="patron",
            )
        return found
    patron = Patron.objects.filter(number=given).first()
    if patron is None:
        raise ServiceError(f"patron: there is no patron {given}", field="patron")
    return patron


# --- reads ---------------------------------------------------------------------------------------


def line_in_force(patron: Patron) -> CreditLine | None:
    """The patron's newest approved line (a change waiting for approval is not usable yet)."""
    return (
        CreditLine.objects.filter(patron=patron, approval__isnull=False)
        .order_by("-set_at", "-id")
        .first()
    )


def newest_line(patron: Patron) -> CreditLine | None:
    return CreditLine.objects.filter(patron=patron).order_by("-set_at", "-id").first()


def repaid_cents(marker: Marker) -> int:
    return int(marker.repayments.aggregate(s=Sum("amount_cents"))["s"] or 0)


def outstanding_cents(marker: Marker) -> int:
    return marker.amount_cents - repaid_cents(marker)


def patron_outstanding_cents(patron: Patron) -> int:
    issued = Marker.objects.filter(patron=patron).aggregate(s=Sum("amount_cents"))["s"] or 0
    repaid = (
        MarkerRepayment.objects.filter(marker__patron=patron).aggregate(s=Sum("amount_cents"))["s"]
        or 0
    )
    return int(issued - repaid)


def available_cents(patron: Patron) -> int | None:
    """The line in force minus the patron's outstanding markers; None: no approved line."""
    line = line_in_force(patron)
    if line is None:
        return None
    return max(line.amount_cents - patron_outstanding_cents(patron), 0)


def pending_lines() -> list[CreditLine]:
    """Lines waiting for their second person: each patron's newest line, not yet approved."""
    newest = {}
    for line in CreditLine.objects.select_related("patron", "set_by", "replaces").order_by(
        "set_at", "id"
    ):
        newest[line.patron_id] = line
    return [
        line
        for line in sorted(newest.values(), key=lambda x: x.patron.number)
        if not CreditLineApproval.objects.filter(line=line).exists()
    ]


def lines() -> list[dict[str, Any]]:
    """Each patron with a line: the line in force, a change waiting, outstanding, available."""
    rows = []
    patrons = Patron.objects.filter(credit_lines__isnull=False).distinct().order_by("number")
    for patron in patrons:
        force, newest = line_in_force(patron), newest_line(patron)
        owed = patron_outstanding_cents(patron)
        rows.append(
            {
                "patron": patron,
                "line": force,
                "pending": newest if newest is not None and newest != force else None,
                "outstanding_cents": owed,
                "available_cents": None if force is None else max(force.amount_cents - owed, 0),
            }
        )
    return rows


def bucket_of(age_days: int) -> str:
    for name, least, most in AGE_BUCKETS:
        if age_days >= least and (most is None or age_days <= most):
            return name
    return AGE_BUCKETS[0][0]


def outstanding(today: date, *, patron: Patron | None = None) -> dict[str, Any]:
    """Every marker with money still owed: its age (days since its gaming day) and bucket;
    the totals per patron and overall, by bucket."""
    markers = Marker.objects.select_related("patron", "table", "issued_by").annotate(
        repaid=Sum("repayments__amount_cents")
    )
    if patron is not None:
        markers = markers.filter(patron=patron)
    names = [name for name, _least, _most in AGE_BUCKETS]
    rows: list[dict[str, Any]] = []
    per_patron: dict[str, dict[str, Any]] = {}
    total = dict.fromkeys(names, 0)
    for marker in markers.order_by("gaming_day", "number"):
        owed = marker.amount_cents - (marker.repaid or 0)
        if owed <= 0:
            continue
        age = (today - marker.gaming_day).days
        bucket = bucket_of(age)
        rows.append({"marker": marker, "outstanding_cents": owed, "age": age, "bucket": bucket})
        mine = per_patron.setdefault(
            marker.patron.number,
            {"patron": marker.patron, "buckets": dict.fromkeys(names, 0), "total_cents": 0},
        )
        mine["buckets"][bucket] += owed
        mine["total_cents"] += owed
        total[bucket] += owed
    return {
        "buckets": names,
        "markers": rows,
        "patrons": [per_patron[k] for k in sorted(per_patron)],
        "total": total,
        "total_cents": sum(total.values()),
    }


def markers_issued(*, gaming_day: date, tables: list[int] | None) -> dict[tuple[int, str], int]:
    """{(table id, shift): cents} of the markers issued on a gaming day (the count's source)."""
    qs = Marker.objects.filter(gaming_day=gaming_day)
    if tables is not None:
        qs = qs.filter(table_id__in=tables)
    return {
        (r["table_id"], r["shift"]): int(r["cents"])
        for r in qs.values("table_id", "shift").annotate(cents=Sum("amount_cents")).order_by()
    }


def patron_name_for(patron: Patron, user: AbstractBaseUser | AnonymousUser | None) -> str:
    """How a credit page names a patron: the name only for those who see identification."""
    from .selectors import sees_identification

    if sees_identification(user) and patron.name:
        return f"{patron.number} ({patron.name})"
    return patron.number


# --- writes --------------------------------------------------------------------------------------


@transaction.atomic
def line_set(*, patron: Any, amount: Any, by: AbstractBaseUser) -> CreditLine:
    """A credit manager sets (or changes) a patron's line: a new row, usable once another
    person approves it. The patron is identified (a line is extended to a known person)."""
    require(by, CREDIT_MANAGERS, "set a credit line")
    _refuse_compliance(by, "set a credit line")
    found = _patron(patron)
    cents = _cents(amount, "amount")
    if cents > LINE_MOST_CENTS:
        raise ServiceError(
            f"amount: a credit line may be at most {dollars(LINE_MOST_CENTS)}, not "
            f"{dollars(cents)}",
            field="amount",
        )
    found = Patron.objects.select_for_update().get(pk=found.pk)
    if not found.is_identified:
        raise ServiceError(
            f"patron: {found.number} is not identified; the cage identifies the patron (name, "
            "date of birth, address, ID) before a credit line is set",
            field="patron",
        )
    now = timezone.now()
    line = CreditLine.objects.create(
        patron=found, amount_cents=cents, replaces=newest_line(found), set_by=by, set_at=now
    )
    audit_record(
        actor=by,
        kind=EventKind.CREDIT_LINE_SET,
        obj=line,
        # In words on the trail: "Patron P1001; Line $30,000.00; Was $20,000.00".
        data={
            "patron": found.number,
            "line_cents": cents,
            "was_cents": line.replaces.amount_cents if line.replaces else None,
        },
    )
    return line


@transaction.atomic
def line_approve(*, line: CreditLine, by: AbstractBaseUser) -> CreditLineApproval:
    """The second person approves a line: another credit manager than the one who set it, and
    only the patron's newest line (a line changed since is approved as changed)."""
    require(by, CREDIT_MANAGERS, "approve a credit line")
    _refuse_compliance(by, "approve a credit line")
    Patron.objects.select_for_update().get(pk=line.patron_id)
    line = CreditLine.objects.select_related("patron").get(pk=line.pk)
    if line.set_by_id == by.pk:
        raise SeparationOfDuties(
            "line: a credit line is approved by another person than the one who set it",
            field="line",
            action="approve",
            about={"line": line.pk, "patron": line.patron.number},
        )
    if CreditLineApproval.objects.filter(line=line).exists():
        raise ServiceError("line: this credit line is already approved", field="line")
    if newest_line(line.patron) != line:
        raise ServiceError(
            f"line: {line.patron.number}'s line was changed since; approve the newest",
            field="line",
        )
    approval = CreditLineApproval.objects.create(line=line, by=by, at=timezone.now())
    audit_record(
        actor=by,
        kind=EventKind.CREDIT_LINE_APPROVED,
        obj=approval,
        data={"patron": line.patron.number, "line_cents": line.amount_cents},
    )
    return approval


def _next_marker_number() -> str:
    last = Marker.objects.aggregate(n=Max("id"))["n"] or 0
    return f"M{1000 + last + 1}"


def _shift(value: Any) -> str:
    names = [s.strftime("%H:%M") for s in shift_starts()]
    if value not in names:
        raise ServiceError(f"shift must be one of {', '.join(names)}", field="shift")
    return str(value)


@transaction.atomic
def marker_issue(
    *,
    table: Table,
    seat: Any,
    patron: Any,
    amount: Any,
    patron_signed: Any,
    by: AbstractBaseUser,
    gaming_day: date | None = None,
    shift: str | None = None,
) -> Marker:
    """A marker at a table seat, signed by the pit boss, the patron's signature acknowledged:
    within the available credit of the patron's approved line. Its chips go to the table, the
    marker into the drop box of the table's shift (`gaming_day`, `shift`: now's by default)."""
    require(by, MARKER_ISSUERS, "issue a marker")
    _refuse_compliance(by, "issue a marker")
    if not table.is_open:
        raise ServiceError(f"table: {table.name} is closed", field="table")
    seat_number = buy_in_seat(seat, table)
    found = _patron(patron)
    cents = _cents(amount, "amount")
    if not flag(patron_signed, "patron_signed"):
        raise ServiceError(
            "patron_signed: the patron signs the marker before its chips are given",
            field="patron_signed",
        )
    found = Patron.objects.select_for_update().get(pk=found.pk)  # one marker at a time
    line = line_in_force(found)
    if line is None:
        waiting = newest_line(found) is not None
        raise ServiceError(
            f"patron: {found.number}'s credit line "
            + ("is not approved yet (a second credit manager approves it)" if waiting else "")
            + ("" if waiting else "is not set: a credit manager sets and another approves it"),
            field="patron",
            code="no_line",
        )
    if by.pk in (line.set_by_id, line.approval.by_id):
        raise SeparationOfDuties(
            "patron: a marker is issued by another pit boss than who set or approved the line",
            field="patron",
            action="issue",
            about={"patron": found.number},
            table_name=table.name,
        )
    free = max(line.amount_cents - patron_outstanding_cents(found), 0)
    if cents > free:
        raise ServiceError(
            f"amount: {dollars(cents)} is over {found.number}'s available credit of "
            f"{dollars(free)} (a line of {dollars(line.amount_cents)} less the markers "
            "outstanding)",
            field="amount",
            code="over_credit",
        )
    now = timezone.now()
    marker = None
    for _attempt in range(5):  # another marker may take the next number at the same moment
        try:
            with transaction.atomic():
                marker = Marker.objects.create(
                    number=_next_marker_number(),
                    patron=found,
                    line=line,
                    table=table,
                    seat=seat_number,
                    gaming_day=gaming_day or gaming_day_of(now),
                    shift=_shift(shift) if shift is not None else shift_of(now),
                    amount_cents=cents,
                    patron_signed=True,
                    issued_by=by,
                    at=now,
                )
            break
        except IntegrityError:
            continue
    if marker is None:
        raise ServiceError("another marker took the next number: try again", field="amount")
    audit_record(
        actor=by,
        kind=EventKind.MARKER_ISSUED,
        obj=marker,
        table_name=table.name,
        data={
            "marker": marker.number,
            "patron": found.number,
            "seat": seat_number,
            "issued_cents": cents,
            "available_after_cents": free - cents,
        },
    )
    return marker


@transaction.atomic
def marker_repay(
    *, marker: Any, method: Any, amount: Any, by: AbstractBaseUser, at: datetime | None = None
) -> MarkerRepayment:
    """A repayment at the cage against a marker (partial allowed, never more than outstanding).
    In cash it is also the cage's cash transaction (`marker_repaid`, cash in) with the cage's
    rules: summed into the patron's day, on the MTL, in a CTR, refused until identified."""
    require(by, MARKER_REPAYERS, "take a marker's repayment")
    _refuse_compliance(by, "take a marker's repayment")
    given = text(marker if marker is not None else "", "marker").strip()
    found = Marker.objects.filter(number=given).first() if given else None
    if found is None:
        raise ServiceError(
            f"marker: there is no marker {given}" if given else "marker: name the marker",
            field="marker",
        )
    if method not in MarkerRepayment.Method.values:
        raise ServiceError(
            f"method must be one of {', '.join(MarkerRepayment.Method.values)}", field="method"
        )
    cents = _cents(amount, "amount")
    found = Marker.objects.select_for_update().select_related("patron").get(pk=found.pk)
    if found.issued_by_id == by.pk:
        raise SeparationOfDuties(
            "marker: the repayment of a marker is taken by another person than who issued it",
            field="marker",
            action="repay",
            about={"marker": found.number},
        )
    owed = outstanding_cents(found)
    if cents > owed:
        raise ServiceError(
            f"amount: {dollars(cents)} is more than marker {found.number}'s outstanding "
            f"{dollars(owed)}",
            field="amount",
            code="over_outstanding",
        )
    at = at or timezone.now()
    tx = None
    if method == MarkerRepayment.Method.CASH:
        tx = marker_repaid_check(patron=found.patron, cash_cents=cents, by=by, at=at)(None)
    repayment = MarkerRepayment.objects.create(
        marker=found, method=method, amount_cents=cents, cash_transaction=tx, by=by, at=at
    )
    audit_record(
        actor=by,
        kind=EventKind.MARKER_REPAID,
        obj=repayment,
        data={
            "marker": found.number,
            "patron": found.patron.number,
            "method": method,
            "repaid_cents": cents,
            "outstanding_after_cents": owed - cents,
        },
    )
    return repayment
