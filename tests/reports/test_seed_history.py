"""`manage.py seed_history`: a synthetic history the engine agrees with, inside the limits, on
the right gaming days and shifts, whose rebuilt hold reports agree to the cent with its
settlement lines; synthetic, so no audit events and no meter movement."""

from __future__ import annotations

import os
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncHour
from django.test import override_settings
from django.utils import timezone

from audit.models import AuditEvent
from audit.verify import verify_record
from reports import reporting
from reports.management.commands import seed_history
from reports.models import StaleReport
from reports.selectors import hold_rows, totals
from tables.engine import contract
from tables.engine.money import parse_cents
from tables.gaming_day import day_bounds, gaming_day_of, shift_of
from tables.models import MeterEntry, ProgressiveMeter, Round, SettlementLine, Table
from tables.selectors import engine_paytable, meter_config

pytestmark = pytest.mark.django_db

ROUNDS, DAYS, TABLES = 200, 3, 5


@pytest.fixture
def history(floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """200 rounds over 3 gaming days at SC-1, LB-1, PY-1, HIST-01 and HIST-02; one round in
    twenty voided (the command's rate is one in a thousand: too few to test in 200)."""
    monkeypatch.setattr(seed_history, "VOID_RATE", 0.05)
    meter = ProgressiveMeter.objects.get()
    before = {"events": AuditEvent.objects.count(), "meter": meter.value_cents}
    out = StringIO()
    with override_settings(DEBUG=True):
        call_command(
            "seed_history",
            f"--rounds={ROUNDS}",
            f"--days={DAYS}",
            f"--tables={TABLES}",
            "--seed=11",
            stdout=out,
        )
    return {**floor, "before": before, "output": out.getvalue()}


def test_rebuilt_reports_agree_to_the_cent_with_the_settlement_lines(
    history: dict[str, Any],
) -> None:
    days = sorted(set(Round.objects.values_list("gaming_day", flat=True)))
    for day in days:
        assert (
            reporting.rebuild_day(day)
            == Round.objects.filter(gaming_day=day).values("table").distinct().count()
        )
    assert not StaleReport.objects.exists()  # every mark the seeding left was cleared
    settled = SettlementLine.objects.filter(round__status=Round.Status.SETTLED)
    voided = Round.objects.filter(status=Round.Status.VOIDED)
    assert voided.exists()

    rows = hold_rows(start=days[0], end=days[-1], by="table")
    assert {r["table__name"] for r in rows} == {"SC-1", "LB-1", "PY-1", "HIST-01", "HIST-02"}
    for row in rows:
        lines = settled.filter(round__table__name=row["table__name"])
        table_voids = voided.filter(table__name=row["table__name"])
        assert (
            row["rounds"]
            == Round.objects.filter(
                table__name=row["table__name"], status=Round.Status.SETTLED
            ).count()
        )
        assert row["handle_cents"] == lines.aggregate(s=Sum("stake_cents"))["s"]
        assert row["win_cents"] == -lines.aggregate(s=Sum("net_cents"))["s"]
        assert row["hands"] == lines.filter(wager="ante").count()
        assert row["handle_by_wager"] == dict(
            lines.values_list("wager").annotate(s=Sum("stake_cents")).values_list("wager", "s")
        )
        assert row["voids"] == table_voids.count()
        assert row["voided_handle_cents"] == (
            table_voids.aggregate(s=Sum("handle_cents"))["s"] or 0
        )
        assert row["jackpots_paid_cents"] == sum(
            line.stake_cents + line.net_cents for line in lines.filter(award="jackpot")
        )
        assert row["progressive_contributions_cents"] == 0  # synthetic: no meter entries

    total = totals(rows)
    assert total["handle_cents"] == settled.aggregate(s=Sum("stake_cents"))["s"]
    assert total["win_cents"] == -settled.aggregate(s=Sum("net_cents"))["s"]
    assert total["rounds"] + total["voids"] == ROUNDS
    for row in hold_rows(start=days[0], end=days[-1], by="gaming_day"):
        day_lines = settled.filter(round__gaming_day=row["gaming_day"])
        assert row["handle_cents"] == day_lines.aggregate(s=Sum("stake_cents"))["s"]
        assert row["win_cents"] == -day_lines.aggregate(s=Sum("net_cents"))["s"]
    by_shift = {r["shift"]: r["rounds"] for r in hold_rows(start=days[0], end=days[-1], by="shift")}
    assert set(by_shift) == {"06:00", "14:00", "22:00"}


def test_every_round_is_legal_within_limits_and_what_the_engine_settles(
    history: dict[str, Any],
) -> None:
    now = timezone.now()
    first = day_bounds(gaming_day_of(now) - timedelta(days=DAYS - 1))[0]
    rounds = Round.objects.select_related("paytable_version", "table__meter").prefetch_related(
        "lines"
    )
    assert rounds.count() == ROUNDS
    for r in rounds:
        version = r.paytable_version
        assert version.is_approved and r.paytable_version_id == r.table.paytable_version_id
        meter = r.table.meter
        data = {k: v for k, v in r.entry.items() if k not in ("decided", "dealer_done")}
        settlement = contract.settle(
            data,
            paytable=engine_paytable(version),
            meter=meter_config(meter) if meter is not None else None,
        )
        assert r.settlement == contract.settlement_to_json(settlement)
        assert r.players_net_cents == settlement.net_cents
        lines = sorted(
            (ln.seat, ln.wager, ln.stake_cents, ln.result, ln.net_cents, ln.award)
            for ln in r.lines.all()
        )
        assert lines == sorted(
            (s.seat, ln.wager, ln.stake_cents, ln.result.value, ln.net_cents, ln.award or "")
            for s in settlement.seats
            for ln in s.lines
        )
        assert r.handle_cents == sum(line[2] for line in lines)
        for seat in r.entry["seats"]:
            for wager, stake in seat["wagers"].items():
                limit = version.limits.get(wager)
                if limit:
                    assert (
                        limit["min_cents"] <= parse_cents(stake, where=wager) <= limit["max_cents"]
                    )
            mulligan_pp = seat.get("mulligan", {}).get("pair_plus")
            if mulligan_pp is not None:
                limit = version.limits["pair_plus"]
                stake = parse_cents(mulligan_pp, where="mulligan")
                assert limit["min_cents"] <= stake <= limit["max_cents"]
            if r.game == "lowball":
                assert seat["wagers"]["bonus"] == seat["wagers"]["ante"]
                if "progressive" in seat["wagers"]:
                    assert meter is not None
                    assert (
                        parse_cents(seat["wagers"]["progressive"], where="progressive")
                        == meter.wager_cents
                    )
        assert r.opened_at < r.settled_at and first <= r.settled_at <= now
        assert r.gaming_day == gaming_day_of(r.settled_at)
        assert r.shift == shift_of(r.settled_at)
        if r.status == Round.Status.VOIDED:
            assert r.voided_by == history["pitboss"] and r.void_reason
            assert r.settled_at < r.voided_at <= now
        else:
            assert r.status == Round.Status.SETTLED and r.voided_at is None
    for table in Table.objects.filter(rounds__isnull=False).distinct():
        in_time = list(table.rounds.order_by("settled_at").values_list("number", flat=True))
        assert in_time == list(range(1, len(in_time) + 1))  # numbered in the order played
    per_table = Round.objects.values("table").annotate(n=Count("id"))
    assert {row["n"] for row in per_table} == {ROUNDS // TABLES}
    assert len(set(Round.objects.values_list("gaming_day", flat=True))) <= DAYS
    hours = Round.objects.annotate(hour=TruncHour("settled_at")).values("dealer", "hour")
    tables_at_once = hours.annotate(n=Count("table", distinct=True)).values_list("n", flat=True)
    assert set(tables_at_once) == {1}  # a dealer deals at one table at a time
    assert len({d for d in Round.objects.values_list("dealer", flat=True)}) > TABLES


def test_the_history_is_synthetic_bound_as_seeded_and_the_meter_stays(
    history: dict[str, Any],
) -> None:
    # The rounds are on the record only as seeded history (their rows bound, so verify_audit
    # checks them); the history's dealer accounts are on the chain, as every account is.
    new = AuditEvent.objects.order_by("seq")[history["before"]["events"] :]
    assert {e.kind for e in new} <= {
        "account.created",
        "account.password_set",
        "account.roles_changed",
        "record.history_seeded",
        "table.created",
    }
    report = verify_record()
    assert report.ok, report.problems
    assert report.rows >= Round.objects.count() + SettlementLine.objects.count()
    assert not MeterEntry.objects.exclude(kind="opening").exists()
    assert ProgressiveMeter.objects.get().value_cents == history["before"]["meter"]
    stale = set(StaleReport.objects.values_list("gaming_day", "table_id"))
    assert stale == set(Round.objects.values_list("gaming_day", "table_id").distinct())
    assert "rounds/s" in history["output"]
    assert Round.objects.filter(~Q(dealer__username__startswith="hist-dealer-")).count() == 0


def test_seeding_again_numbers_on_after_the_rounds_already_there(history: dict[str, Any]) -> None:
    with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
        call_command("seed_history", "--rounds=10", "--days=1", "--tables=2", stdout=quiet)
    numbers = Round.objects.filter(table__name="SC-1").order_by("number")
    assert list(numbers.values_list("number", flat=True)) == list(range(1, ROUNDS // TABLES + 6))


def test_refuses_without_debug(floor: dict[str, Any]) -> None:
    with override_settings(DEBUG=False), pytest.raises(CommandError, match="DEBUG"):
        call_command("seed_history", "--rounds=5", "--days=1")
    assert not Round.objects.exists()


def test_refuses_without_the_demo_floor(db: Any) -> None:
    with override_settings(DEBUG=True), pytest.raises(CommandError, match="seed_demo"):
        call_command("seed_history", "--rounds=5", "--days=1")
    assert not Round.objects.exists()


def _row_counts() -> dict[str, int]:
    from django.apps import apps

    return {m._meta.label: m.objects.count() for m in apps.get_models() if m._meta.managed}


def test_a_run_that_fails_at_its_slips_keeps_nothing(
    floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slips fail after the rounds are written: every table's row count and the audit
    chain's head are as before, and the command says nothing was kept."""
    import accounting.simulation

    def broken(**_kwargs: Any) -> dict[str, Any]:
        raise ValueError("$14398.20 cannot be made of the active chips")

    monkeypatch.setattr(accounting.simulation, "seed_slips", broken)
    before = _row_counts()
    head = AuditEvent.objects.order_by("-seq").values_list("seq", "hash").first()
    with override_settings(DEBUG=True), pytest.raises(CommandError) as err:
        call_command(
            "seed_history",
            "--rounds=60",
            "--days=2",
            "--tables=4",
            "--slips",
            "--seed=5",
            stdout=StringIO(),
        )
    assert "nothing of this run was kept" in str(err.value)
    assert "$14398.20 cannot be made" in str(err.value)
    assert _row_counts() == before
    assert AuditEvent.objects.order_by("-seq").values_list("seq", "hash").first() == head


def test_a_run_with_slips_whose_trays_have_odd_cents_succeeds_and_verifies(
    floor: dict[str, Any],
) -> None:
    from accounting.models import Slip

    with override_settings(DEBUG=True):
        call_command(
            "seed_history",
            "--rounds=300",
            "--days=3",
            "--tables=4",
            "--slips",
            "--seed=7",
            stdout=StringIO(),
        )
    assert Slip.objects.filter(kind="closer").exists()
    odd = [s for s in Slip.objects.filter(kind="closer") if s.amount_cents % 50]
    assert not odd, "every closer is made of chips"
    assert verify_record().problems == ()
