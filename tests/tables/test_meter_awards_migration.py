"""Migration tables 0020: a meter's four award columns become its game's `awards`, and a meter
bound to the record before it verifies clean after it; one that no longer said what its record
said is still named, and so is an awards value changed afterwards."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from audit.binding import check_rows
from audit.kinds import EventKind
from audit.services import audit_record
from tests.audit.tamper import raw, run_verify

BEFORE = [("tables", "0019_display_key")]
OLD_AWARDS = {
    "award_one_colour_cents": 25_000,
    "award_two_colour_cents": 5_000,
    "award_four_high_cents": 1_000,
    "award_five_high_cents": 300,
}


def old_content(name: str, awards: dict[str, int]) -> dict[str, Any]:
    """A meter's bound content as the record held it before the migration (audit.binding's
    canonical form of the fields the meter bound then)."""
    return {
        "name": name,
        "value_cents": 0,
        "reset_cents": 1_000_000,
        "rate": "0.2000",
        "wager_cents": 100,
        **awards,
        "split": "equal",
        "cap_cents": None,
        "overflow_cents": 0,
        "approval_award_cents": None,
    }


def meter_problems() -> list[str]:
    return [str(p) for p in check_rows()[1] if p.table == "tables_progressivemeter"]


def migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_meter_bound_before_the_migration_verifies_clean_after_it() -> None:
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        old_apps = migrate(BEFORE)
        Meter = old_apps.get_model("tables", "ProgressiveMeter")
        kept = Meter.objects.create(
            name="Kept",
            value_cents=0,
            reset_cents=1_000_000,
            rate=Decimal("0.2000"),
            wager_cents=100,
            **OLD_AWARDS,
        )
        edited = Meter.objects.create(
            name="Edited",
            value_cents=0,
            reset_cents=1_000_000,
            rate=Decimal("0.2000"),
            wager_cents=100,
            **OLD_AWARDS,
        )
        for meter in (kept, edited):
            audit_record(
                actor=None,
                actor_name="system",
                kind=EventKind.METER_CREATED,
                data={
                    "bound": {
                        "tables.progressivemeter": {
                            str(meter.pk): old_content(meter.name, OLD_AWARDS)
                        }
                    }
                },
            )
        # Someone changes one award in the database before the migration runs.
        raw(
            "UPDATE tables_progressivemeter SET award_five_high_cents = 9900 WHERE id = %s",
            [edited.pk],
        )
    finally:
        migrate(latest)

    from tables.models import ProgressiveMeter

    moved = ProgressiveMeter.objects.get(pk=kept.pk)
    assert moved.game == "lowball"
    assert moved.awards == {
        "one_colour": 25_000,
        "two_colour": 5_000,
        "four_high": 1_000,
        "five_high": 300,
    }
    assert ProgressiveMeter.objects.get(pk=edited.pk).awards["five_high"] == 9900
    # The kept meter is bound again by the migration's own event; the edited one is not
    # vouched for, and is still named (by the fields the record held then).
    problems = meter_problems()
    assert not [p for p in problems if f"id {kept.pk}:" in p], problems
    assert [p for p in problems if f"id {edited.pk}:" in p and "award_five_high_cents" in p]
    status, said = run_verify()
    assert status != 0 and f"tables_progressivemeter id {edited.pk}" in said
    assert f"tables_progressivemeter id {kept.pk}:" not in said
    # Nothing else is named: the chain with the migration's events in it verifies.
    assert all(f"id {edited.pk}:" in line for line in said.strip().splitlines()), said

    # An award changed in the database after the migration is named too.
    value = "CAST(%s AS jsonb)" if connection.vendor == "postgresql" else "%s"
    raw(
        f"UPDATE tables_progressivemeter SET awards = {value} WHERE id = %s",
        [
            '{"one_colour": 25000, "two_colour": 5000, "four_high": 1000, "five_high": 30000}',
            kept.pk,
        ],
    )
    assert [p for p in meter_problems() if f"id {kept.pk}:" in p and "awards is" in p]
