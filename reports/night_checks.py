"""Every check the night runs, and the auditor's, each on its own and beside the others: the
chain and its bound rows (`verify_audit`), a kept run as `verify_record` and the nightly job
keep it, the hold summaries against a full rebuild of their days, the reconciliation of every
counted shift, the ratings against their rebuild. One `Check` per check: its name, whether it
found the record whole, and its problems, so that a person (`manage.py play_day --check`), a
test and a benchmark read the same verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from accounting.models import Slip, VarianceAlert
from accounting.selectors import shift_figures
from audit.verify import verify_record
from core.money import dollars
from players import services as player_svc
from players.models import Rating
from tables.models import Hand, Round

from .models import HoldSummary
from .reporting import FIGURES, rebuild_day, rebuild_stale


@dataclass
class Check:
    name: str
    problems: list[str] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def chain_and_rows() -> Check:
    """`manage.py verify_audit`'s verdict."""
    report = verify_record()
    return Check(
        "verify_audit",
        list(report.problems),
        {"events": report.events, "bound_rows": report.rows},
    )


def kept_run(trigger: str = "command") -> Check:
    """`manage.py verify_record`'s (and the nightly job's) kept run."""
    from .verification import verify_now

    run = verify_now(trigger=trigger)
    problems = list(run.problems)
    if run.finished_at is None or run.ok is None:
        problems.append(f"verification {run.pk} did not finish")
    return Check(
        f"verify_record ({trigger})", problems, {"events": run.events, "bound_rows": run.rows}
    )


def nightly_job() -> Check:
    """The nightly Celery job, run here (as with the embedded default's in-process tasks)."""
    from .models import VerificationRun
    from .tasks import verify_the_record

    run = VerificationRun.objects.get(pk=verify_the_record.apply().get())
    problems = list(run.problems) if run.ok is False else []
    if run.ok is None:
        problems.append(f"the nightly run {run.pk} did not finish")
    return Check("nightly job", problems, {"events": run.events, "bound_rows": run.rows})


def _summaries() -> dict[tuple[Any, ...], dict[str, Any]]:
    fields = ("gaming_day", "table_id", "paytable_version_id", "settings_version_id")
    fields += ("dealer_id", "shift")
    rows = HoldSummary.objects.values(*fields, *FIGURES, "handle_by_wager", "theory_sums")
    return {tuple(r[f] for f in fields): r for r in rows}


def summaries_against_a_rebuild() -> Check:
    """Every day's summaries as the increments left them, against the same days rebuilt in full
    (the closed-day job): any difference is a problem. Runs in a transaction rolled back, so
    the check changes nothing."""
    problems: list[str] = []
    days: set[Any] = set()
    with transaction.atomic():
        rebuild_stale()
        before = _summaries()
        for model in (Round, Hand):
            days |= set(
                model.objects.filter(gaming_day__isnull=False)
                .order_by()
                .values_list("gaming_day", flat=True)
                .distinct()
            )
        for day in sorted(days):
            rebuild_day(day)
        after = _summaries()
        for key in sorted(set(before) | set(after), key=str):
            was, now = before.get(key), after.get(key)
            where = f"the summary of {key[0]} at table id {key[1]} ({key[5]} shift)"
            if was is None or now is None:
                problems.append(f"{where}: {'missing' if was is None else 'left over'}")
                continue
            for name, value in now.items():
                if was[name] != value:
                    shown = dollars(value) if name.endswith("_cents") else value
                    problems.append(f"{where}: {name} was {was[name]}, a rebuild says {shown}")
        transaction.set_rollback(True)
    return Check("hold summaries against a full rebuild", problems, {"days": len(days)})


def reconciliation() -> Check:
    """Every shift with a counted closer and drop compared again: its count win against its
    hands' win, within the tolerance; the markers counted in its drop against the markers
    issued at the table; and no variance alert raised on the way."""
    from django.conf import settings

    problems: list[str] = []
    shifts = (
        Slip.objects.filter(kind="drop", status=Slip.Status.SIGNED)
        .select_related("table")
        .order_by("gaming_day", "table__name", "shift")
    )
    seen = 0
    for slip in shifts:
        seen += 1
        f = shift_figures(table=slip.table, gaming_day=slip.gaming_day, shift=slip.shift)
        variance = f["variance_cents"]
        if f["markers_counted_cents"] != f["markers_issued_cents"]:
            problems.append(
                f"{slip.table} {slip.gaming_day} {slip.shift} shift: markers counted in the drop "
                f"{dollars(f['markers_counted_cents'])}, markers issued at the table "
                f"{dollars(f['markers_issued_cents'])}"
            )
        if variance is not None and abs(variance) > settings.CASINO_VARIANCE_TOLERANCE_CENTS:
            problems.append(
                f"{slip.table} {slip.gaming_day} {slip.shift} shift: count win "
                f"{dollars(f['count_win_cents'])}, the hands' win {dollars(f['win_cents'])}"
            )
    for alert in VarianceAlert.objects.select_related("table"):
        problems.append(
            f"variance alert at {alert.table} on {alert.gaming_day}, {alert.shift} shift: "
            f"{dollars(alert.variance_cents)}"
        )
    return Check("reconciliation", problems, {"shifts": seen})


def ratings_against_a_rebuild() -> Check:
    """Every rating's stored figures against its rounds and hands summed again, and again
    after each day's ratings are rebuilt (rolled back: the check changes nothing)."""
    problems = list(player_svc.figure_problems())
    with transaction.atomic():
        fields = ("id", *(f"{k}" for k in ("hands", "wagered_cents", "points")))
        before = {r["id"]: r for r in Rating.objects.values(*fields)}
        days = set(Rating.objects.values_list("gaming_day", flat=True).distinct())
        for day in days:
            player_svc.rebuild_day(day=day)
        for row in Rating.objects.values(*fields):
            if before.get(row["id"]) != row:
                problems.append(f"rating {row['id']}: a rebuild says {row}, it held {before}")
        transaction.set_rollback(True)
    return Check("ratings against a rebuild", problems, {"ratings": len(before)})


def run_checks() -> list[Check]:
    """Every check, in the night's order."""
    return [
        chain_and_rows(),
        kept_run(),
        nightly_job(),
        summaries_against_a_rebuild(),
        reconciliation(),
        ratings_against_a_rebuild(),
    ]
