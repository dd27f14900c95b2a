"""The Master Game Report (MGR) of a gaming day, its signatures and adjustments, and the day's
exceptions report (docs/regulator.md).

The report gives, per table and shift, the opener, fills, credits, closer, the drop by its
parts (cash, markers, chips), the count's win or loss (drop + closer − opener + credits −
fills, `accounting.selectors`), its hold % of drop, the hands' win and the variance. Until the
day is signed final the figures are read live from the record (signed slips, settled rounds,
finished hands); the final signature stores them as rows (`MgrFigure`, bound to its event) and
the report of a final day reads those. After final, a figure changes only by an adjustment
with its reason, entered by one person and approved by another; the report shows each figure
as signed, beside it the approved adjustments and the adjusted figure.

States: draft (no signature), reviewed (an auditor or revenue auditor signed it), final (a
revenue auditor, not the reviewer, who did not work that day's floor: dealt, signed off,
voided, signed or entered a slip). A day is closed once the current gaming day is a later one.

`master_report` and `exceptions_report` return plain dicts (cents, names, dates): the pages,
a print template and `manage.py regulator_report` all print the same figures.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from accounting import rules
from accounting.models import Slip, SlipSignature, SlipVoid
from accounting.selectors import hold_percent_drop, shift_rows
from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.money import dollars
from core.roles import MGR_ADJUSTERS, MGR_FINALIZERS, MGR_REVIEWERS, require
from core.strict import text
from tables.engine.errors import EngineError
from tables.engine.money import parse_cents
from tables.gaming_day import day_bounds, gaming_day_of
from tables.models import Hand, Round, Table

from .models import MgrAdjustment, MgrAdjustmentApproval, MgrFigure, MgrSignature

# The figures an adjustment may change, with the words the forms print; the drop's total, the
# win, the hold % and the variance follow from them.
ADJUSTABLE: dict[str, str] = {
    "opener": "Opener",
    "closer": "Closer",
    "fills": "Fills",
    "credits": "Credits",
    "drop_cash": "Drop: cash",
    "drop_markers": "Drop: markers",
    "drop_chips": "Drop: chips",
    "hands_win": "Hands' win",
}
BASE = tuple(f"{name}_cents" for name in ADJUSTABLE)
NAMED_ADJUSTMENT_CENTS = 2_000_00  # an adjustment over this is named on the exceptions report
INVENTORY_LISTED_CENTS = 25_00  # an opener this far (or more) from the last closer is listed
INVENTORY_REGULATOR_CENTS = 100_00  # ... and from this, marked for the regulator


def day_closed(day: date) -> bool:
    return day < gaming_day_of(timezone.now())


def _name(user: Any) -> str:
    return "" if user is None else user.get_username()


# --- the figures ---------------------------------------------------------------------------------


def _drop_parts(day: date) -> dict[tuple[int, str], dict[str, int]]:
    """{(table id, shift): the signed drop's cash, markers and chips}."""
    parts = {}
    for s in Slip.objects.filter(gaming_day=day, kind=rules.DROP, status=Slip.Status.SIGNED).values(
        "table_id", "shift", "cash_cents", "markers_cents", "amount_cents"
    ):
        parts[(s["table_id"], s["shift"])] = {
            "drop_cash_cents": s["cash_cents"],
            "drop_markers_cents": s["markers_cents"],
            "drop_chips_cents": s["amount_cents"] - s["cash_cents"] - s["markers_cents"],
        }
    return parts


def live_figures(day: date) -> dict[tuple[int, str], dict[str, int | None]]:
    """{(table id, shift): the base figures} read from the record now."""
    parts = _drop_parts(day)
    figures = {}
    for key, row in shift_rows(gaming_day=day).items():
        drop = parts.get(
            key, dict.fromkeys(("drop_cash_cents", "drop_markers_cents", "drop_chips_cents"))
        )
        figures[key] = {
            "opener_cents": row["opener_cents"],
            "closer_cents": row["closer_cents"],
            "fills_cents": row["fills_cents"],
            "credits_cents": row["credits_cents"],
            **drop,
            "hands_win_cents": row["win_cents"],
        }
    return figures


def derive(base: dict[str, int | None]) -> dict[str, Any]:
    """The base figures with the drop's total, the count's win, its hold % and the variance."""
    parts = [base["drop_cash_cents"], base["drop_markers_cents"], base["drop_chips_cents"]]
    drop = None if all(p is None for p in parts) else sum(p or 0 for p in parts)
    known = None not in (base["opener_cents"], base["closer_cents"], drop)
    win = (
        drop
        + base["closer_cents"]
        - base["opener_cents"]
        + base["credits_cents"]
        - base["fills_cents"]  # type: ignore[operator]
        if known
        else None
    )
    return {
        **base,
        "drop_cents": drop,
        "win_cents": win,
        "hold_percent": hold_percent_drop(win, drop),
        "variance_cents": None if win is None else win - base["hands_win_cents"],  # type: ignore[operator]
    }


def _signatures(day: date) -> dict[str, MgrSignature]:
    return {s.step: s for s in MgrSignature.objects.filter(gaming_day=day).select_related("by")}


def _adjustments(day: date) -> list[MgrAdjustment]:
    return list(
        MgrAdjustment.objects.filter(gaming_day=day)
        .select_related("table", "entered_by", "approval", "approval__approved_by")
        .order_by("id")
    )


def _approval(a: MgrAdjustment) -> MgrAdjustmentApproval | None:
    try:
        return a.approval
    except MgrAdjustmentApproval.DoesNotExist:
        return None


def adjustment_row(a: MgrAdjustment) -> dict[str, Any]:
    approval = _approval(a)
    return {
        "id": a.pk,
        "table": a.table.name,
        "shift": a.shift,
        "figure": a.figure,
        "figure_label": ADJUSTABLE.get(a.figure, a.figure),
        "amount_cents": a.amount_cents,
        "reason": a.reason,
        "entered_by": _name(a.entered_by),
        "entered_at": a.entered_at,
        "approved_by": _name(approval.approved_by) if approval else None,
        "approved_at": approval.approved_at if approval else None,
        "over_named_limit": abs(a.amount_cents) > NAMED_ADJUSTMENT_CENTS,
    }


def _total(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    base: dict[str, int | None] = {}
    for figure in BASE:
        values = [r[key][figure] for r in rows if r[key][figure] is not None]
        base[figure] = sum(values) if values else None
    for figure in ("fills_cents", "credits_cents", "hands_win_cents"):
        base[figure] = base[figure] or 0
    total = derive(base)
    if any(r[key]["win_cents"] is None for r in rows):  # a shift not counted: no day's win
        total["win_cents"] = total["variance_cents"] = total["hold_percent"] = None
    return total


def master_report(day: date) -> dict[str, Any]:
    """The day's MGR: {gaming_day, state, closed, reviewed, final, rows, totals, adjustments}.
    Each row: table, shift, `figures` (as computed, or as signed final) and `adjusted` (with
    the approved adjustments; equal to `figures` when there are none), its adjustments."""
    signatures = _signatures(day)
    final = signatures.get(MgrSignature.Step.FINAL)
    names = dict(Table.objects.values_list("pk", "name"))
    if final is not None:
        base = {
            (f.table_id, f.shift): {name: getattr(f, name) for name in BASE}
            for f in MgrFigure.objects.filter(signature=final)
        }
    else:
        base = live_figures(day)
    adjustments = _adjustments(day)
    by_shift: dict[tuple[int, str], list[MgrAdjustment]] = defaultdict(list)
    for a in adjustments:
        by_shift[(a.table_id, a.shift)].append(a)
    rows = []
    for (table_id, shift), figures in sorted(
        base.items(), key=lambda kv: (names.get(kv[0][0], ""), kv[0][1])
    ):
        adjusted = dict(figures)
        mine = by_shift.get((table_id, shift), [])
        for a in mine:
            if _approval(a) is not None:
                key = f"{a.figure}_cents"
                adjusted[key] = (adjusted[key] or 0) + a.amount_cents
        rows.append(
            {
                "table": names.get(table_id, "?"),
                "table_id": table_id,
                "shift": shift,
                "figures": derive(figures),
                "adjusted": derive(adjusted),
                "adjustments": [adjustment_row(a) for a in mine],
            }
        )
    reviewed = signatures.get(MgrSignature.Step.REVIEWED)
    state = "final" if final else "reviewed" if reviewed else "draft"
    return {
        "gaming_day": day,
        "state": state,
        "closed": day_closed(day),
        "reviewed": _signed(reviewed),
        "final": _signed(final),
        "rows": rows,
        "totals": {"figures": _total(rows, "figures"), "adjusted": _total(rows, "adjusted")},
        "adjustments": [adjustment_row(a) for a in adjustments],
    }


def _signed(s: MgrSignature | None) -> dict[str, Any] | None:
    return None if s is None else {"by": _name(s.by), "at": s.at}


def floor_workers(day: date) -> set[int]:
    """The accounts that worked the day's floor: dealt a round or hand, signed off, voided,
    asked a void of or cancelled a round, voided a hand, entered, signed or voided a slip."""
    ids: set[int] = set()
    rounds = Round.objects.filter(gaming_day=day)
    for field in ("dealer", "approved_by", "voided_by", "void_requested_by", "cancelled_by"):
        ids.update(
            rounds.exclude(**{f"{field}__isnull": True}).values_list(f"{field}_id", flat=True)
        )
    hands = Hand.objects.filter(gaming_day=day)
    for field in ("dealer", "voided_by"):
        ids.update(
            hands.exclude(**{f"{field}__isnull": True}).values_list(f"{field}_id", flat=True)
        )
    ids.update(Slip.objects.filter(gaming_day=day).values_list("created_by_id", flat=True))
    ids.update(SlipSignature.objects.filter(slip__gaming_day=day).values_list("by_id", flat=True))
    ids.update(SlipVoid.objects.filter(slip__gaming_day=day).values_list("by_id", flat=True))
    return ids


# --- the report's life ---------------------------------------------------------------------------


def _refuse_open_day(day: date, what: str) -> None:
    if not day_closed(day):
        raise ServiceError(
            f"gaming_day: the gaming day {day:%Y-%m-%d} is not closed yet; {what} once it is",
            field="gaming_day",
            code="day_open",
            status=409,
        )


def _locked_signatures(day: date) -> dict[str, MgrSignature]:
    return {
        s.step: s
        for s in MgrSignature.objects.select_for_update()
        .filter(gaming_day=day)
        .select_related("by")
    }


@transaction.atomic
def mgr_review(*, gaming_day: date, by: AbstractBaseUser) -> MgrSignature:
    """Sign the day's report as reviewed (an auditor or a revenue auditor; once)."""
    require(by, MGR_REVIEWERS, "review the Master Game Report")
    _refuse_open_day(gaming_day, "review its report")
    signatures = _locked_signatures(gaming_day)
    if MgrSignature.Step.REVIEWED in signatures:
        raise ServiceError(
            f"gaming_day: the report of {gaming_day:%Y-%m-%d} was reviewed by "
            f"{_name(signatures[MgrSignature.Step.REVIEWED].by)} already",
            field="gaming_day",
            code="already_reviewed",
            status=409,
        )
    signature = MgrSignature.objects.create(
        gaming_day=gaming_day, step=MgrSignature.Step.REVIEWED, by=by, at=timezone.now()
    )
    audit_record(
        actor=by,
        kind=EventKind.MGR_REVIEWED,
        obj=signature,
        data={"gaming_day": gaming_day.isoformat()},
    )
    return signature


@transaction.atomic
def mgr_finalize(*, gaming_day: date, by: AbstractBaseUser) -> MgrSignature:
    """Sign the day's report final (a revenue auditor who neither reviewed it nor worked that
    day's floor): the figures are stored as they stand, bound to the event."""
    require(by, MGR_FINALIZERS, "sign the Master Game Report final")
    _refuse_open_day(gaming_day, "sign its report final")
    signatures = _locked_signatures(gaming_day)
    if MgrSignature.Step.FINAL in signatures:
        raise ServiceError(
            f"gaming_day: the report of {gaming_day:%Y-%m-%d} is final already",
            field="gaming_day",
            code="already_final",
            status=409,
        )
    reviewed = signatures.get(MgrSignature.Step.REVIEWED)
    if reviewed is None:
        raise ServiceError(
            f"gaming_day: the report of {gaming_day:%Y-%m-%d} is reviewed before it is signed "
            "final",
            field="gaming_day",
            code="not_reviewed",
            status=409,
        )
    if reviewed.by_id == by.pk:
        raise PermissionDenied(
            f"{by.get_username()} reviewed the report of {gaming_day:%Y-%m-%d}: another revenue "
            "auditor signs it final"
        )
    if by.pk in floor_workers(gaming_day):
        raise PermissionDenied(
            f"{by.get_username()} worked the floor on {gaming_day:%Y-%m-%d}: a revenue auditor who "
            "did not signs its report final"
        )
    signature = MgrSignature.objects.create(
        gaming_day=gaming_day, step=MgrSignature.Step.FINAL, by=by, at=timezone.now()
    )
    rows = [
        MgrFigure(signature=signature, table_id=table_id, shift=shift, **derived_for_storage(base))
        for (table_id, shift), base in sorted(live_figures(gaming_day).items())
    ]
    MgrFigure.objects.bulk_create(rows)
    stored = list(MgrFigure.objects.filter(signature=signature))
    audit_record(
        actor=by,
        kind=EventKind.MGR_FINALIZED,
        obj=signature,
        bind=stored,
        data={"gaming_day": gaming_day.isoformat(), "shifts": len(stored)},
    )
    return signature


def derived_for_storage(base: dict[str, int | None]) -> dict[str, int | None]:
    d = derive(base)
    return {
        **{name: base[name] for name in BASE},
        "drop_cents": d["drop_cents"],
        "win_cents": d["win_cents"],
    }


def _amount(value: Any) -> int:
    """A signed dollar amount: "-25.00" lowers the figure, "25.00" raises it."""
    given = text(value, "amount").strip().replace("$", "").replace(",", "")
    sign = -1 if given.startswith("-") else 1
    try:
        cents = sign * parse_cents(given.lstrip("+-"), where="amount", allow_zero=True)
    except EngineError as e:
        raise ServiceError(e.message, field="amount") from None
    if cents == 0:
        raise ServiceError(
            "amount: an adjustment changes the figure; give an amount", field="amount"
        )
    return cents


@transaction.atomic
def mgr_adjust(
    *,
    gaming_day: date,
    table: Table,
    shift: Any,
    figure: Any,
    amount: Any,
    reason: Any,
    by: AbstractBaseUser,
) -> MgrAdjustment:
    """Enter an adjustment of a final report's figure (amount as "-25.00" or "125.00"), with
    its reason; it counts once another person approves it."""
    require(by, MGR_ADJUSTERS, "adjust the Master Game Report")
    if MgrSignature.Step.FINAL not in _locked_signatures(gaming_day):
        raise ServiceError(
            f"gaming_day: the report of {gaming_day:%Y-%m-%d} is not final; its figures come from "
            "the record until it is (correct the slip or the round instead)",
            field="gaming_day",
            code="not_final",
            status=409,
        )
    said = text(reason, "reason").strip()
    if not said:
        raise ServiceError("reason: say why the figure is adjusted", field="reason")
    if len(said) > 500:
        raise ServiceError("reason: at most 500 characters", field="reason")
    figure = text(figure, "figure")
    if figure not in ADJUSTABLE:
        raise ServiceError(
            "figure: choose one of " + ", ".join(ADJUSTABLE.values()), field="figure"
        )
    shift = text(shift, "shift")
    if not MgrFigure.objects.filter(
        signature__gaming_day=gaming_day, table=table, shift=shift
    ).exists():
        raise ServiceError(
            f"shift: {table.name} has no shift {shift} on the report of {gaming_day:%Y-%m-%d}",
            field="shift",
        )
    cents = _amount(amount)
    adjustment = MgrAdjustment.objects.create(
        gaming_day=gaming_day,
        table=table,
        shift=shift,
        figure=figure,
        amount_cents=cents,
        reason=said,
        entered_by=by,
        entered_at=timezone.now(),
    )
    audit_record(
        actor=by,
        kind=EventKind.MGR_ADJUSTMENT_ENTERED,
        obj=adjustment,
        table_name=table.name,
        data={
            "gaming_day": gaming_day.isoformat(),
            "shift": shift,
            "figure": figure,
            "amount_cents": cents,
            "reason": said,
        },
    )
    return adjustment


@transaction.atomic
def mgr_adjustment_approve(
    *, adjustment: MgrAdjustment, by: AbstractBaseUser
) -> MgrAdjustmentApproval:
    """Approve an adjustment: a second person, never the one who entered it."""
    require(by, MGR_ADJUSTERS, "approve an adjustment of the Master Game Report")
    adjustment = (
        MgrAdjustment.objects.select_for_update().select_related("table").get(pk=adjustment.pk)
    )
    if MgrAdjustmentApproval.objects.filter(adjustment=adjustment).exists():
        raise ServiceError(
            "adjustment: this adjustment is approved already",
            field="adjustment",
            code="already_approved",
            status=409,
        )
    if adjustment.entered_by_id == by.pk:
        raise PermissionDenied(
            f"{by.get_username()} entered this adjustment of {adjustment.table.name}, shift "
            f"{adjustment.shift}: another person approves it"
        )
    approval = MgrAdjustmentApproval.objects.create(
        adjustment=adjustment, approved_by=by, approved_at=timezone.now()
    )
    audit_record(
        actor=by,
        kind=EventKind.MGR_ADJUSTMENT_APPROVED,
        obj=approval,
        table_name=adjustment.table.name,
        data={
            "gaming_day": adjustment.gaming_day.isoformat(),
            "shift": adjustment.shift,
            "figure": adjustment.figure,
            "amount_cents": adjustment.amount_cents,
            "entered_by": _name(adjustment.entered_by),
        },
    )
    return approval


# --- the day's exceptions ------------------------------------------------------------------------

# What the rule lists that this record does not hold (the report says so).
NOT_IN_RECORD = "overrides: the record holds no override of a control; each control refuses"


def inventory_differences(day: date) -> list[dict[str, Any]]:
    """Each signed opener of the day against the table's closer before it (the previous shift's,
    or the previous gaming day's last): differences of more than $25, marked from $100."""
    rows = shift_rows(gaming_day=day)
    before = shift_rows(gaming_day=day - timedelta(days=1))
    names = dict(Table.objects.values_list("pk", "name"))
    closers: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for (table_id, shift), row in sorted(before.items()):
        if row["closer_cents"] is not None:
            closers[table_id].append((shift, row["closer_cents"]))
    last = {t: c[-1] for t, c in closers.items()}
    out = []
    for (table_id, shift), row in sorted(rows.items()):
        previous = last.get(table_id)
        if row["opener_cents"] is not None and previous is not None:
            difference = row["opener_cents"] - previous[1]
            if abs(difference) > INVENTORY_LISTED_CENTS:
                out.append(
                    {
                        "table": names.get(table_id, "?"),
                        "shift": shift,
                        "opener_cents": row["opener_cents"],
                        "previous_closer_cents": previous[1],
                        "previous_shift": previous[0],
                        "difference_cents": difference,
                        "for_regulator": abs(difference) >= INVENTORY_REGULATOR_CENTS,
                    }
                )
        if row["closer_cents"] is not None:
            last[table_id] = (shift, row["closer_cents"])
    out.sort(key=lambda r: (r["table"], r["shift"]))
    return out


def _void_steps(slip: Slip) -> tuple[str, str, str]:
    steps = {v.step: v for v in slip.voids.all()}
    asked, confirmed = steps.get(1), steps.get(2)
    return (
        asked.reason if asked else "",
        _name(asked.by) if asked else "",
        _name(confirmed.by) if confirmed else "",
    )


def _late_reasons(slips: list[Slip]) -> dict[int, str]:
    """{slip id: the reason it was entered late}, as its creation event on the chain gives it."""
    if not slips:
        return {}
    from audit.models import AuditEvent

    events = AuditEvent.objects.filter(
        kind=EventKind.SLIP_CREATED,
        object_type="accounting.slip",
        object_id__in=[str(s.pk) for s in slips],
    ).values_list("object_id", "data")
    return {int(oid): (data or {}).get("late_reason", "") for oid, data in events}


def exceptions_report(day: date) -> dict[str, Any]:
    """The day's exceptions from the record: adjustments (over $2,000 named), inventory
    differences, voided slips, rounds and hands, corrections, late slips, payouts signed off,
    refused cards; and what of the rule the record does not hold."""
    slips = Slip.objects.filter(gaming_day=day).select_related("table", "created_by")
    voided_slips = []
    for s in (
        slips.filter(status=Slip.Status.VOIDED).prefetch_related("voids__by").order_by("number")
    ):
        reason, asked, confirmed = _void_steps(s)
        voided_slips.append(
            {
                "number": s.number,
                "table": s.table.name,
                "shift": s.shift,
                "kind": s.get_kind_display(),
                "amount_cents": s.amount_cents,
                "reason": reason,
                "asked_by": asked,
                "confirmed_by": confirmed,
            }
        )
    late = [s for s in slips.order_by("number") if gaming_day_of(s.created_at) != day]
    reasons = _late_reasons(late)
    late_slips = [
        {
            "number": s.number,
            "table": s.table.name,
            "shift": s.shift,
            "kind": s.get_kind_display(),
            "amount_cents": s.amount_cents,
            "entered_by": _name(s.created_by),
            "entered_on": gaming_day_of(s.created_at),
            "reason": reasons.get(s.pk, ""),
        }
        for s in late
    ]
    rounds = Round.objects.filter(gaming_day=day).select_related(
        "table", "voided_by", "approved_by"
    )
    voided_rounds = [
        {
            "table": r.table.name,
            "round": r.number,
            "shift": r.shift,
            "house_win_cents": -r.players_net_cents,
            "voided_by": _name(r.voided_by),
            "reason": r.void_reason,
        }
        for r in rounds.filter(status=Round.Status.VOIDED).order_by("table__name", "number")
    ]
    voided_hands = [
        {
            "table": h.table.name,
            "hand": h.number,
            "shift": h.shift,
            "rake_cents": h.rake_cents,
            "voided_by": _name(h.voided_by),
            "reason": h.void_reason,
        }
        for h in Hand.objects.filter(gaming_day=day, status=Hand.Status.VOIDED)
        .select_related("table", "voided_by")
        .order_by("table__name", "number")
    ]
    corrections = [
        {
            "table": r.table.name,
            "round": r.number,
            "corrects_round": r.corrects.number,
            "shift": r.shift,
            "status": r.get_status_display(),
            "dealer": _name(r.dealer),
        }
        for r in rounds.filter(corrects__isnull=False)
        .select_related("corrects", "dealer")
        .order_by("table__name", "number")
    ]
    sign_offs = [
        {
            "table": r.table.name,
            "round": r.number,
            "shift": r.shift,
            "status": r.get_status_display(),
            "players_net_cents": r.players_net_cents,
            "reasons": list(r.approval_reasons or []),
            "signed_off_by": _name(r.approved_by),
        }
        for r in rounds.filter(approved_by__isnull=False).order_by("table__name", "number")
    ]
    from players.models import RefusedCardAlert

    start, end = day_bounds(day)
    refused_cards = [
        {
            "table": a.table.name,
            "seat": a.seat,
            "status": a.status.replace("_", "-"),
            "entered_by": _name(a.by),
            "at": a.at,
            "acknowledged_by": _name(a.acknowledged_by) or None,
        }
        for a in RefusedCardAlert.objects.filter(at__gte=start, at__lt=end)
        .select_related("table", "by", "acknowledged_by")
        .order_by("at", "id")
    ]
    adjustments = [adjustment_row(a) for a in _adjustments(day)]
    return {
        "gaming_day": day,
        "adjustments": adjustments,
        "named_adjustments": [a for a in adjustments if a["over_named_limit"]],
        "inventory_differences": inventory_differences(day),
        "voided_slips": voided_slips,
        "voided_rounds": voided_rounds,
        "voided_hands": voided_hands,
        "corrections": corrections,
        "late_slips": late_slips,
        "sign_offs": sign_offs,
        "refused_cards": refused_cards,
        "not_in_record": [NOT_IN_RECORD],
    }


# --- printing ------------------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """A report as JSON-ready data: dates as the site's one format, times ISO, hold % text."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def money(cents: int | None) -> str:
    return dollars(cents)
