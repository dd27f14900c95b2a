"""A settled round's rebuild adds that round to its day's summaries (a fold) instead of summing
the whole day again, and the summaries it leaves are exactly those a full rebuild gives, through
settles, voids, corrections and rebuilds in any order."""

from __future__ import annotations

import random
from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from reports import reporting
from reports.models import HoldSummary, PendingRound, StaleReport
from reports.theory import _theory, outside_band, theory_by_table
from tables.models import PaytableVersion, Round
from tables.services.controls import round_approve
from tables.services.corrections import round_correct, round_void
from tables.services.duties import round_parts
from tables.services.figures import paytable_figures_compute
from tables.simulation import dealer_for, play_round

pytestmark = pytest.mark.django_db

TABLES = ("SC-1", "LB-1", "PY-1")


def summaries(table_id: int | None = None) -> list[dict[str, Any]]:
    rows = HoldSummary.objects.order_by("table_id", "paytable_version", "dealer", "shift")
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    return [
        {k: v for k, v in row.items() if k not in ("id", "computed_at")} for row in rows.values()
    ]


def summed_again(day: date, table_ids: list[int]) -> list[dict[str, Any]]:
    """The summaries a full rebuild of each table gives (the database then holds them)."""
    for table_id in table_ids:
        reporting.rebuild(day, table_id, full=True)
    return summaries()


def no_full_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(**values: Any) -> Any:
        raise AssertionError("the day was summed again")

    for name in ("_ROUNDS", "_LINES", "_CONTRIBUTIONS", "_HANDS"):
        monkeypatch.setattr(getattr(reporting, name), "values", refused)
        monkeypatch.setattr(getattr(reporting, name), "sql", refused)


def test_a_settled_rounds_rebuild_adds_that_round_alone(
    floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = floor["LB-1"]  # with a progressive: the meter's contributions are folded too
    dealer, rng = dealer_for(table), random.Random(3)
    first = play_round(table, dealer, rng)
    day = first.gaming_day
    assert StaleReport.objects.get(gaming_day=day, table=table).full is False
    assert reporting.rebuild(day, table.pk, only_if_marked=True) == 1
    for _ in range(5):
        play_round(table, dealer, rng)
    assert PendingRound.objects.filter(table=table).count() == 5
    with monkeypatch.context() as patched:
        no_full_sum(patched)
        assert reporting.rebuild(day, table.pk, only_if_marked=True) == 1
    assert not PendingRound.objects.exists() and not StaleReport.objects.exists()
    folded = summaries()
    assert folded[0]["rounds"] == 6 and folded[0]["theory_sums"]
    assert summed_again(day, [table.pk]) == folded
    # The band from the summaries' sums is the band from the day's lines.
    for pk in PaytableVersion.objects.filter(status="approved").values_list("pk", flat=True):
        paytable_figures_compute(version_id=pk, seed=7)
    from_lines = theory_by_table(day=day, table_id=table.pk)[("LB-1", "lowball")]
    (from_sums,) = _theory(
        {
            ("LB-1", "lowball", first.paytable_version_id, w): v
            for w, v in folded[0]["theory_sums"].items()
        }
    ).values()
    assert (from_sums.expected, from_sums.variance, from_sums.pending) == (
        from_lines.expected,
        from_lines.variance,
        from_lines.pending,
    )
    assert from_lines.band_cents is not None and not from_lines.pending
    for win in (from_lines.band_cents[0] - 1, from_lines.band_cents[1] + 1, 0):
        sums = {
            ("lowball", first.paytable_version_id, w): v
            for w, v in folded[0]["theory_sums"].items()
        }
        assert outside_band(day=day, table=table, win=win, sums=sums) == outside_band(
            day=day, table=table, win=win
        )


def test_a_void_or_a_correction_sums_the_day_again(floor: dict[str, Any]) -> None:
    table = floor["SC-1"]
    dealer, rng = dealer_for(table), random.Random(4)
    played = [play_round(table, dealer, rng) for _ in range(3)]
    day = played[0].gaming_day
    reporting.rebuild(day, table.pk)
    round_void(round=played[1], by=floor["pitboss"], reason="wrong card")
    assert StaleReport.objects.get(gaming_day=day, table=table).full is True
    play_round(table, dealer, rng)  # a settle does not make the mark foldable again
    assert StaleReport.objects.get(gaming_day=day, table=table).full is True
    reporting.rebuild(day, table.pk, only_if_marked=True)
    (row,) = summaries()
    assert (row["rounds"], row["voids"]) == (3, 1)
    assert not PendingRound.objects.exists()


def test_a_summary_without_the_bands_sums_is_summed_again(
    floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Summaries written before the sums were kept (an upgrade) are not added to."""
    table = floor["PY-1"]
    dealer, rng = dealer_for(table), random.Random(5)
    day = play_round(table, dealer, rng).gaming_day
    reporting.rebuild(day, table.pk)
    want = summaries()
    HoldSummary.objects.update(theory_sums={})
    play_round(table, dealer, rng)
    with monkeypatch.context() as patched:
        patched.setattr(reporting._ROUNDS_BATCH, "values", lambda **v: pytest.fail("folded"))
        reporting.rebuild(day, table.pk, only_if_marked=True)
    (row,) = summaries()
    assert row["rounds"] == 2 and row["theory_sums"]
    assert row["theory_sums"] != want[0]["theory_sums"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_folds_in_any_order_give_what_a_full_rebuild_gives(
    floor: dict[str, Any], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    folds = []
    real = reporting._ROUNDS_BATCH.values
    monkeypatch.setattr(reporting._ROUNDS_BATCH, "values", lambda **v: folds.append(v) or real(**v))
    tables = [floor[name] for name in TABLES]
    dealers = {t.pk: dealer_for(t) for t in tables}
    bosses = [floor["pitboss"]]
    for name in ("pitboss2", "pitboss3"):
        boss = get_user_model().objects.create_user(name, password="a long demo password")
        boss.groups.add(Group.objects.get(name="pit_boss"))
        bosses.append(boss)

    def apart(r: Round) -> Any:
        """A pit boss who took no part in the round (nobody voids what they dealt, entered or
        signed off)."""
        parts = round_parts(r)
        return next(b for b in bosses if all(b.pk not in who for who in parts.values()))

    settled: list[Round] = []
    day = None
    for _step in range(60):
        table = rng.choice(tables)
        action = rng.random()
        if action < 0.6 or not settled:
            r = play_round(table, dealers[table.pk], rng)
            settled.append(r)
            day = r.gaming_day
        elif action < 0.68:
            victim = rng.choice(settled)
            settled.remove(victim)
            round_void(round=victim, by=apart(victim), reason="wrong card")
        elif action < 0.74:
            victim = rng.choice(settled)
            settled.remove(victim)
            round_void(round=victim, by=apart(victim), reason="misdealt")
            entry = {k: v for k, v in victim.entry.items() if k not in ("decided", "dealer_done")}
            corrected = round_correct(voided=victim, by=apart(victim), entry=entry)
            if corrected.awaiting_approval:  # a large payout: a pit boss apart from it signs
                corrected = round_approve(round=corrected, by=apart(corrected))
            settled.append(corrected)
        else:
            assert day is not None
            reporting.rebuild(day, table.pk, only_if_marked=rng.random() < 0.5)
    assert day is not None
    for table in tables:  # what the settled rounds' own rebuilds leave
        reporting.rebuild(day, table.pk, only_if_marked=True)
    assert not PendingRound.objects.exists()
    assert len(folds) >= 3  # most rebuilds folded
    folded = summaries()
    assert folded and summed_again(day, [t.pk for t in tables]) == folded


def test_on_postgresql_a_fold_is_planned_for_its_batch(floor: dict[str, Any]) -> None:
    """The fold's reads are not kept as prepared statements (a plan made for any batch, kept
    from before the statistics were gathered, read every round of the day)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): psycopg's prepared statements")
    table = floor["SC-1"]
    dealer, rng = dealer_for(table), random.Random(6)
    day = play_round(table, dealer, rng).gaming_day
    reporting.rebuild(day, table.pk, full=True)
    threshold = connection.connection.prepare_threshold
    for _ in range(8):  # past psycopg's threshold
        play_round(table, dealer, rng)
        assert reporting.rebuild(day, table.pk, only_if_marked=True) == 1
    assert connection.connection.prepare_threshold == threshold
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert not [sql for sql in prepared if '"reports_pendinground"."batch"' in sql]
    (row,) = summaries(table.pk)
    assert row["rounds"] == 9
