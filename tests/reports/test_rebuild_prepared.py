"""The rebuild's reads, compiled once (core.prepared), give what their querysets give."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.db import transaction

from core.prepared import PreparedQuery
from reports import reporting
from reports.models import PendingRound, StaleReport
from reports.theory import _PER_ROUND_AT_TABLE, _per_round, theory_by_table
from tables.models import Round, SettlementLine

pytestmark = pytest.mark.django_db

READS = [
    (reporting._ROUNDS, reporting._rounds_query),
    (reporting._LINES, reporting._lines_query),
    (reporting._CONTRIBUTIONS, reporting._contributions_query),
    (reporting._HANDS, reporting._hands_query),
]


def rows(found: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return sorted((tuple(sorted(r.items())) for r in found), key=repr)


@pytest.mark.parametrize(("prepared", "build"), READS)
def test_each_aggregate_as_its_queryset(settled: Round, prepared: PreparedQuery, build) -> None:
    day, table = settled.gaming_day, settled.table_id
    assert isinstance(day, date)
    got = prepared.values(day=day, table=table)
    assert rows(got) == rows(list(build(day=day, table=table)))
    assert prepared.values(day=date(2001, 1, 1), table=table) == []
    assert prepared.values(day=day, table=10**9) == []


BATCH_READS = [
    (reporting._ROUNDS_BATCH, reporting._rounds_batch_query),
    (reporting._LINES_BATCH, reporting._lines_batch_query),
    (reporting._CONTRIBUTIONS_BATCH, reporting._contributions_batch_query),
]


def test_the_aggregates_see_the_round_once_it_no_longer_waits(settled: Round) -> None:
    day, table = settled.gaming_day, settled.table_id
    # Settled (its transaction's rebuild not run here): it waits for a fold, and a full sum
    # started now leaves it to that fold.
    assert PendingRound.objects.filter(round=settled, batch=None).exists()
    assert reporting._ROUNDS.values(day=day, table=table) == []
    PendingRound.objects.filter(round=settled).delete()
    (r,) = reporting._ROUNDS.values(day=day, table=table)
    assert (r["n"], r["handle"], r["net"]) == (1, settled.handle_cents, settled.players_net_cents)
    lines = reporting._LINES.values(day=day, table=table)
    assert sum(line["stake"] for line in lines) == settled.handle_cents
    (summed,) = reporting._lines_sums(reporting._LINES, day=day, table=table)
    assert (summed["stake"], summed["n"], summed["jackpot"]) == (settled.handle_cents, 1, None)
    assert summed["square"] == summed["round_square"] == settled.handle_cents**2


@pytest.mark.parametrize(("prepared", "build"), BATCH_READS)
def test_each_batch_aggregate_as_its_queryset(
    settled: Round, prepared: PreparedQuery, build
) -> None:
    PendingRound.objects.filter(round=settled).update(batch=77)
    got = prepared.values(batch=77)
    assert rows(got) == rows(list(build(batch=77)))
    assert got if prepared is not reporting._CONTRIBUTIONS_BATCH else True
    assert prepared.values(batch=78) == []


def test_the_locked_table_and_mark(settled: Round) -> None:
    day, table = settled.gaming_day, settled.table_id
    StaleReport.objects.update_or_create(gaming_day=day, table_id=table, defaults={"version": 3})
    with transaction.atomic():
        assert reporting._TABLE.first(table=table).pk == table
        mark = reporting._MARK.first(day=day, table=table)
        assert (mark.gaming_day, mark.table_id, mark.version) == (day, table, 3)
        assert reporting._MARK.first(day=date(2001, 1, 1), table=table) is None


def test_the_theory_per_round_read(settled: Round) -> None:
    day, table = settled.gaming_day, settled.table_id
    sql, params = _PER_ROUND_AT_TABLE.sql(day=day, table=table)
    want = _per_round(
        SettlementLine.objects.filter(
            round__gaming_day=day, round__status=Round.Status.SETTLED, round__table_id=table
        )
    )
    assert rows(list(want)) and len(params) == len(want.query.sql_with_params()[1])
    # the table's figures read through the compiled SQL match those read by its name
    by_id = theory_by_table(day=day, table_id=table)
    by_name = theory_by_table(day=day, table=settled.table.name)
    assert by_id.keys() == by_name.keys()
    for key in by_id:
        assert by_id[key].expected == by_name[key].expected
        assert by_id[key].variance == by_name[key].variance
