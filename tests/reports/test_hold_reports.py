"""Hold reports: the gaming day and shifts, summaries that agree to the cent with the day's
settlements, idempotent rebuilds, voids and corrections, and rounds settled while the broker
is down (the stale mark waits for the catch-up job)."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.test import override_settings

from reports import reporting
from reports.models import HoldSummary, StaleReport
from reports.selectors import hold_rows, totals
from tables.gaming_day import gaming_day_of, shift_of
from tables.models import Round, SettlementLine
from tables.services.corrections import round_correct, round_void
from tables.simulation import dealer_for, play_round

pytestmark = pytest.mark.django_db


@override_settings(
    TIME_ZONE="America/Los_Angeles",
    CASINO_GAMING_DAY_START="06:00",
    CASINO_SHIFTS=["06:00", "14:00", "22:00"],
)
def test_gaming_day_starts_at_six_in_the_casinos_time_zone_and_shifts_follow() -> None:
    # 2026-11-21 13:30 UTC is 05:30 in Los Angeles: still the gaming day of the 20th, grave shift.
    assert gaming_day_of(datetime(2026, 11, 21, 13, 30, tzinfo=UTC)) == date(2026, 11, 20)
    assert shift_of(datetime(2026, 11, 21, 13, 30, tzinfo=UTC)) == "22:00"
    assert gaming_day_of(datetime(2026, 11, 21, 14, 0, tzinfo=UTC)) == date(2026, 11, 21)
    assert shift_of(datetime(2026, 11, 21, 14, 0, tzinfo=UTC)) == "06:00"
    assert shift_of(datetime(2026, 11, 21, 23, 0, tzinfo=UTC)) == "14:00"


def play(floor: dict[str, Any], n: int, seed: int = 7) -> list[Round]:
    rng = random.Random(seed)
    played = []
    for name in ("SC-1", "LB-1", "PY-1"):
        table = floor[name]
        dealer = dealer_for(table)
        played += [play_round(table, dealer, rng) for _ in range(n)]
    return played


def test_summaries_agree_to_the_cent_with_the_settlements(
    floor: dict[str, Any], django_capture_on_commit_callbacks: Any, eager_celery: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        played = play(floor, 12)
    day = played[0].gaming_day
    assert not StaleReport.objects.exists()  # the in-process task rebuilt every report
    for name in ("SC-1", "LB-1", "PY-1"):
        lines = SettlementLine.objects.filter(round__table__name=name, round__gaming_day=day)
        (row,) = hold_rows(start=day, end=day, by="table", table=name)
        assert row["rounds"] == 12
        assert row["handle_cents"] == lines.aggregate(s=Sum("stake_cents"))["s"]
        assert row["win_cents"] == -lines.aggregate(s=Sum("net_cents"))["s"]
        assert row["hands"] == lines.filter(wager="ante").count()
        assert sum(row["handle_by_wager"].values()) == row["handle_cents"]
    out = StringIO()
    call_command("hold_report", "--day", day.isoformat(), "--json", stdout=out)
    report = json.loads(out.getvalue())
    all_lines = SettlementLine.objects.filter(round__gaming_day=day)
    assert report["total"]["handle_cents"] == all_lines.aggregate(s=Sum("stake_cents"))["s"]
    assert report["total"]["win_cents"] == -all_lines.aggregate(s=Sum("net_cents"))["s"]
    assert {t["table"] for t in report["tables"]} == {"SC-1", "LB-1", "PY-1"}


def test_a_rounds_rebuild_already_covered_by_an_earlier_one_does_nothing(
    floor: dict[str, Any],
) -> None:
    """Rounds settled while the worker was away leave one task each; the first rebuild covers
    them all and clears the mark, the others find no mark and write nothing."""
    from reports.tasks import refresh_hold_report

    played = play(floor, 3)  # no broker, callbacks not run: marked, not yet rebuilt
    day, table = played[0].gaming_day, played[0].table_id
    assert StaleReport.objects.filter(gaming_day=day, table_id=table).exists()
    assert not HoldSummary.objects.filter(table_id=table).exists()
    assert refresh_hold_report.apply(args=(day.isoformat(), table, True)).get() == 1
    assert not StaleReport.objects.filter(gaming_day=day, table_id=table).exists()
    (row,) = HoldSummary.objects.filter(table_id=table).values("rounds", "computed_at")
    assert row["rounds"] == 3
    for _ in range(2):  # the other rounds' tasks
        assert refresh_hold_report.apply(args=(day.isoformat(), table, True)).get() == 0
    assert list(HoldSummary.objects.filter(table_id=table).values("rounds", "computed_at")) == [row]
    # Asked for directly (the day's job, an operator), a rebuild always runs.
    assert reporting.rebuild(day, table) == 1
    assert HoldSummary.objects.get(table_id=table).computed_at > row["computed_at"]


def test_rebuilding_again_changes_nothing(floor: dict[str, Any]) -> None:
    played = play(floor, 5)
    day, table = played[0].gaming_day, played[0].table_id
    reporting.rebuild(day, table)
    first = list(
        HoldSummary.objects.values("rounds", "handle_cents", "win_cents", "handle_by_wager")
    )
    reporting.rebuild(day, table)
    reporting.rebuild_stale()
    assert (
        list(
            HoldSummary.objects.filter(table_id=table).values(
                "rounds", "handle_cents", "win_cents", "handle_by_wager"
            )
        )
        == first
    )


def test_voids_leave_the_figures_and_corrections_count_on_the_original_day(
    floor: dict[str, Any],
) -> None:
    played = play(floor, 3)
    victim = next(r for r in played if r.table.name == "SC-1")
    round_void(round=victim, by=floor["pitboss"], reason="wrong card")
    entry = {k: v for k, v in victim.entry.items() if k not in ("decided", "dealer_done")}
    corrected = round_correct(voided=victim, by=floor["pitboss"], entry=entry)
    reporting.rebuild_stale()
    (row,) = hold_rows(start=victim.gaming_day, end=victim.gaming_day, by="table", table="SC-1")
    assert row["voids"] == 1 and row["voided_handle_cents"] == victim.handle_cents
    assert row["corrections"] == 1 and row["rounds"] == 3  # two originals and the correction
    settled = Round.objects.filter(table__name="SC-1", status="settled")
    assert row["handle_cents"] == settled.aggregate(s=Sum("handle_cents"))["s"]
    assert corrected.gaming_day == victim.gaming_day


@override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0")
def test_rounds_settle_while_the_broker_is_down_and_reports_catch_up(
    floor: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    from casino.celery import app

    saved = (
        app.conf.task_always_eager,
        app.conf.broker_url,
        app.conf.broker_connection_retry,
        app.conf.broker_connection_max_retries,
    )
    app.conf.task_always_eager = False
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens there: the broker is down
    app.conf.broker_connection_retry = False
    app.conf.broker_connection_max_retries = 0
    app._pool = None
    try:
        with django_capture_on_commit_callbacks(execute=True):
            played = play(floor, 2)
    finally:
        (
            app.conf.task_always_eager,
            app.conf.broker_url,
            app.conf.broker_connection_retry,
            app.conf.broker_connection_max_retries,
        ) = saved
        app._pool = None
    assert all(r.status == "settled" for r in played)
    assert StaleReport.objects.count() == 3 and not HoldSummary.objects.exists()
    assert reporting.rebuild_stale() == 3
    assert not StaleReport.objects.exists()
    day = played[0].gaming_day
    assert totals(hold_rows(start=day, end=day))["rounds"] == 6


def test_hold_report_refuses_a_bad_day() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("hold_report", "--day", "21/11/2026", "--json")
