"""Reading the pit's accounting: the count's figures per table, gaming day and shift, reconciled
with the hands.

count win = drop + (closer - opener) + credits - fills, from signed slips only; it is known once
the shift's opener, closer and drop are all signed. hold % of drop = count win / drop. The
variance is the count win minus the hands' win (the house's win of the settled rounds of that
table, day and shift, and at a poker table the rake of its finished hands: rake is the house's
win, in the table's own drop box and tray): zero when every chip is where the hands say it
is. The buy-ins and the markers issued at the table are the expected drop (cash changed at the
table and the markers signed there go into the drop box; `accounting.cash.markers_issued`).
A day's row adds its shifts' rows; its count win is known when every shift with slips or hands
has its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet, Sum

from core.money import dollars
from tables.models import Hand, Round, Table

from . import rules
from .cash import markers_issued
from .models import HandoverAlert, Slip, VarianceAlert

FIGURES = (
    "opener_cents",
    "closer_cents",
    "drop_cents",
    "fills_cents",
    "credits_cents",
    "buy_ins_cents",
    "count_win_cents",
    "hold_percent_drop",
    "win_cents",
    "variance_cents",
)


def hold_percent_drop(count_win_cents: int | None, drop_cents: int | None) -> Decimal | None:
    if count_win_cents is None or not drop_cents:
        return None
    return (Decimal(count_win_cents) * 100 / Decimal(drop_cents)).quantize(Decimal("0.01"))


def _empty() -> dict[str, Any]:
    return {
        "opener_cents": None,
        "closer_cents": None,
        "drop_cents": None,
        "fills_cents": 0,
        "credits_cents": 0,
        "buy_ins_cents": 0,
        "markers_issued_cents": 0,
        "markers_counted_cents": None,
        "win_cents": 0,
        "pending_slips": 0,
        "has_activity": False,
    }


def _finish(row: dict[str, Any]) -> dict[str, Any]:
    complete = None not in (row["opener_cents"], row["closer_cents"], row["drop_cents"])
    if complete:
        row["count_win_cents"] = (
            row["drop_cents"]
            + row["closer_cents"]
            - row["opener_cents"]
            + row["credits_cents"]
            - row["fills_cents"]
        )
        row["variance_cents"] = row["count_win_cents"] - row["win_cents"]
    else:
        row["count_win_cents"] = row["variance_cents"] = None
    row["hold_percent_drop"] = hold_percent_drop(row["count_win_cents"], row["drop_cents"])
    row["expected_drop_cents"] = row["buy_ins_cents"] + row["markers_issued_cents"]
    row["drop_variance_cents"] = (
        None if row["drop_cents"] is None else row["drop_cents"] - row["expected_drop_cents"]
    )
    row["complete"] = complete
    return row


def shift_rows(
    *, gaming_day: date, tables: Iterable[int] | None = None
) -> dict[tuple[int, str], dict[str, Any]]:
    """{(table id, shift): figures} for one gaming day (see the module's overview)."""
    rows: dict[tuple[int, str], dict[str, Any]] = defaultdict(_empty)
    slips: QuerySet[Slip] = Slip.objects.filter(gaming_day=gaming_day)
    rounds = Round.objects.filter(gaming_day=gaming_day, status=Round.Status.SETTLED)
    hands = Hand.objects.filter(gaming_day=gaming_day, status=Hand.Status.FINISHED)
    if tables is not None:
        ids = list(tables)
        slips, rounds = slips.filter(table_id__in=ids), rounds.filter(table_id__in=ids)
        hands = hands.filter(table_id__in=ids)
    for s in slips.exclude(status=Slip.Status.VOIDED).values(
        "table_id", "shift", "kind", "status", "amount_cents", "markers_cents"
    ):
        row = rows[(s["table_id"], s["shift"])]
        row["has_activity"] = True
        if s["status"] != Slip.Status.SIGNED:
            row["pending_slips"] += 1
            continue
        kind, amount = s["kind"], s["amount_cents"]
        if kind == rules.OPENER:
            row["opener_cents"] = amount
        elif kind == rules.CLOSER:
            row["closer_cents"] = amount
        elif kind == rules.DROP:
            row["drop_cents"] = amount
            row["markers_counted_cents"] = s["markers_cents"]
        elif kind == rules.FILL:
            row["fills_cents"] += amount
        elif kind == rules.CREDIT:
            row["credits_cents"] += amount
        elif kind == rules.BUY_IN:
            row["buy_ins_cents"] += amount
    issued = markers_issued(gaming_day=gaming_day, tables=None if tables is None else ids)
    for (table_id, shift), cents in issued.items():
        row = rows[(table_id, shift)]
        row["has_activity"] = True
        row["markers_issued_cents"] += cents
    for r in rounds.values("table_id", "shift").annotate(net=Sum("players_net_cents")):
        row = rows[(r["table_id"], r["shift"])]
        row["has_activity"] = True
        row["win_cents"] += -(r["net"] or 0)
    for h in hands.values("table_id", "shift").annotate(rake=Sum("rake_cents")).order_by():
        row = rows[(h["table_id"], h["shift"])]
        row["has_activity"] = True
        row["win_cents"] += h["rake"] or 0
    return {key: _finish(row) for key, row in rows.items()}


def shift_figures(*, table: Table, gaming_day: date, shift: str) -> dict[str, Any]:
    return shift_rows(gaming_day=gaming_day, tables=[table.pk]).get(
        (table.pk, shift), _finish(_empty())
    )


def day_rows(*, gaming_day: date, tables: Iterable[int] | None = None) -> dict[int, dict[str, Any]]:
    """{table id: the day's figures}: the shifts' sums; count win known when every active shift
    has its own."""
    days: dict[int, dict[str, Any]] = {}
    for (table_id, _shift), row in sorted(shift_rows(gaming_day=gaming_day, tables=tables).items()):
        day = days.setdefault(
            table_id,
            {
                "drop_cents": 0,
                "fills_cents": 0,
                "credits_cents": 0,
                "buy_ins_cents": 0,
                "markers_issued_cents": 0,
                "win_cents": 0,
                "count_win_cents": 0,
                "pending_slips": 0,
                "complete": True,
            },
        )
        for figure in (
            "fills_cents",
            "credits_cents",
            "buy_ins_cents",
            "markers_issued_cents",
            "win_cents",
            "pending_slips",
        ):
            day[figure] += row[figure]
        day["drop_cents"] += row["drop_cents"] or 0
        if row["complete"] and day["complete"]:
            day["count_win_cents"] += row["count_win_cents"]
        else:
            day["complete"] = False
    for day in days.values():
        if not day["complete"]:
            day["count_win_cents"] = None
        day["variance_cents"] = (
            None if day["count_win_cents"] is None else day["count_win_cents"] - day["win_cents"]
        )
        day["hold_percent_drop"] = hold_percent_drop(day["count_win_cents"], day["drop_cents"])
        day["expected_drop_cents"] = day["buy_ins_cents"] + day["markers_issued_cents"]
    return days


def open_alerts(*, tables: Iterable[int] | None = None) -> QuerySet[VarianceAlert]:
    alerts = VarianceAlert.objects.filter(acknowledged_at__isnull=True).select_related("table")
    if tables is not None:
        alerts = alerts.filter(table_id__in=list(tables))
    return alerts


def handover_alerts(*, gaming_day: date) -> QuerySet[HandoverAlert]:
    """The shift handovers of a gaming day whose opener differs from the last closer (the
    dashboard's alerts, beside the variance alerts)."""
    return HandoverAlert.objects.filter(opener__gaming_day=gaming_day).select_related(
        "table", "closer", "opener"
    )


def handover_lines(alert: HandoverAlert) -> list[str]:
    """Each chip that differs, in floor words: "$25.00 chips: 1 fewer"."""
    lines = []
    for chip, moved in alert.difference.items():
        more = "more" if moved > 0 else "fewer"
        lines.append(f"{dollars(int(chip))} chips: {abs(moved)} {more} at the opener")
    return lines


def slips_awaiting(*, user_roles: Iterable[str]) -> QuerySet[Slip]:
    """Pending slips whose next signature one of these roles may give."""
    from .models import SignatureRuleApproval

    roles = set(user_roles)
    q = Q(pk__in=[])
    for kind, steps in rules.SIGN_STEPS.items():
        for index, allowed in enumerate(steps):
            if roles & {r.value for r in allowed}:
                q |= Q(
                    kind=kind,
                    signatures_required__gte=index + 1,
                    signature_count=index,
                    rule_steps__isnull=True,
                )
    # Fills and credits entered under a property's signature rule sign by that rule.
    for approval in SignatureRuleApproval.objects.select_related("proposal"):
        for index, role in enumerate(approval.proposal.steps):
            if role in roles:
                q |= Q(rule_steps__approval=approval, signature_count=index)
    from django.db.models import Count

    return (
        Slip.objects.filter(status=Slip.Status.PENDING)
        .annotate(signature_count=Count("signatures"))
        .filter(q)
        .select_related("table", "created_by", "rule_steps")
        .order_by("number")
    )


def slips() -> QuerySet[Slip]:
    return (
        Slip.objects.select_related("table", "created_by", "replaces", "rule_steps", "drop_count")
        .prefetch_related("signatures__by", "voids__by")
        .order_by("-number")
    )


def slips_visible_to(user: Any) -> QuerySet[Slip]:
    """Pit bosses and auditors see every slip; the cage the fills and credits; the count team
    the drops; security the fills and credits signed under a property's rule; a dealer the
    slips of the table they are signed in at."""
    from core.roles import Role, has_role
    from tables.models import DealerSession

    qs = slips()
    if has_role(user, Role.PIT_BOSS) or has_role(user, Role.AUDITOR):
        return qs
    q = Q(pk__in=[])
    if has_role(user, Role.CAGE):
        q |= Q(kind__in=[rules.FILL, rules.CREDIT])
    if has_role(user, Role.COUNT):
        q |= Q(kind=rules.DROP)
    if has_role(user, Role.SECURITY):  # carries the fills and credits a property's rule names
        q |= Q(kind__in=[rules.FILL, rules.CREDIT], rule_steps__isnull=False)
    if has_role(user, Role.DEALER):
        tables = DealerSession.objects.filter(dealer_id=user.pk, ended_at__isnull=True)
        q |= Q(table_id__in=tables.values("table_id"))
    return qs.filter(q)


GROUPED = ("table", "shift", "gaming_day")  # the hold report's groupings the count knows


def accounting_by(
    *,
    start: date,
    end: date,
    by: str,
    table: str | None = None,
    game: str | None = None,
) -> dict[Any, dict[str, Any]]:
    """The count's figures over `start`..`end` grouped like the hold report's rows: by table
    (its name), shift or gaming day; {} for the other groupings (a drop box belongs to no dealer
    or paytable). A group's count win (and variance) is known when every shift in it with slips
    or hands has its count complete; `null` otherwise."""
    if by not in GROUPED:
        return {}
    tables = Table.objects.all()
    if table:
        tables = tables.filter(name=table)
    if game:
        tables = tables.filter(game=game)
    names = dict(tables.values_list("pk", "name"))
    days = sorted(
        set(
            Slip.objects.filter(gaming_day__gte=start, gaming_day__lte=end, table_id__in=names)
            .values_list("gaming_day", flat=True)
            .distinct()
        )
        | set(
            Round.objects.filter(gaming_day__gte=start, gaming_day__lte=end, table_id__in=names)
            .values_list("gaming_day", flat=True)
            .distinct()
        )
        | set(
            Hand.objects.filter(gaming_day__gte=start, gaming_day__lte=end, table_id__in=names)
            .values_list("gaming_day", flat=True)
            .distinct()
        )
    )
    groups: dict[Any, dict[str, Any]] = {}
    for day in days:
        for (table_id, shift), row in shift_rows(gaming_day=day, tables=list(names)).items():
            key = {"table": names[table_id], "shift": shift, "gaming_day": day}[by]
            group = groups.setdefault(
                key,
                {
                    "drop_cents": 0,
                    "fills_cents": 0,
                    "credits_cents": 0,
                    "expected_drop_cents": 0,
                    "count_win_cents": 0,
                    "hands_win_cents": 0,
                    "complete": True,
                },
            )
            group["drop_cents"] += row["drop_cents"] or 0
            group["fills_cents"] += row["fills_cents"]
            group["credits_cents"] += row["credits_cents"]
            group["expected_drop_cents"] += row["expected_drop_cents"]
            group["hands_win_cents"] += row["win_cents"]
            if row["complete"] and group["complete"]:
                group["count_win_cents"] += row["count_win_cents"]
            else:
                group["complete"] = False
    for group in groups.values():
        if not group["complete"]:
            group["count_win_cents"] = None
        win = group.pop("hands_win_cents")
        group["variance_cents"] = (
            None if group["count_win_cents"] is None else group["count_win_cents"] - win
        )
        group["hold_percent_drop"] = hold_percent_drop(
            group["count_win_cents"], group["drop_cents"]
        )
    return groups


ACCOUNTING_COLUMNS = (
    "drop_cents",
    "fills_cents",
    "credits_cents",
    "count_win_cents",
    "hold_percent_drop",
    "variance_cents",
    "expected_drop_cents",
)


def empty_accounting() -> dict[str, Any]:
    """A report row's accounting columns where the count has nothing for it."""
    return {
        "drop_cents": 0,
        "fills_cents": 0,
        "credits_cents": 0,
        "count_win_cents": None,
        "hold_percent_drop": None,
        "variance_cents": None,
        "expected_drop_cents": 0,
    }
