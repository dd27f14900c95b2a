"""`simulate_rounds --slips` writes slips consistent with its hands, and `--shortage` a variance
and its alert at the table asked for."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from accounting import selectors
from accounting.models import Slip, VarianceAlert
from audit.models import AuditEvent

from .conftest import Clock

pytestmark = pytest.mark.django_db


def simulate(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("simulate_rounds", *args, stdout=out)
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def test_simulated_slips_reconcile_and_a_shortage_shows(floor: Any, clock: Clock) -> None:
    clock.set(16)
    summary = simulate(
        "--all",
        "--rounds",
        "30",
        "--seed",
        "5",
        "--slips",
        "--shortage",
        "25.00",
        "--shortage-table",
        "PY-1",
    )
    day = clock.now.date()
    rows = selectors.shift_rows(gaming_day=day)
    names = {t.pk: t.name for t in floor["tables"].values()}
    variances = {names[t]: r["variance_cents"] for (t, shift), r in rows.items()}
    assert variances == {"SC-1": 0, "LB-1": 0, "PY-1": -2500}
    for name, per in summary["tables"].items():
        assert per["accounting"]["expected_variance_cents"] == variances[name]
        assert per["accounting"]["slips"] == Slip.objects.filter(table__name=name).count()
    assert not Slip.objects.exclude(status="signed").exists()
    (alert,) = VarianceAlert.objects.all()
    assert (alert.table.name, alert.shift) == ("PY-1", "14:00")
    assert AuditEvent.objects.filter(kind="slip.signed").exists()


def test_a_shortage_needs_slips(floor: Any) -> None:
    with pytest.raises(CommandError, match="need --slips"):
        simulate("--all", "--rounds", "1", "--shortage", "25")
    with pytest.raises(CommandError, match="more than zero"):
        simulate("--all", "--rounds", "1", "--slips", "--shortage", "-5")


def test_seed_history_slips_reconcile_but_for_the_shortage(floor: Any, settings: Any) -> None:
    settings.DEBUG = True
    out = io.StringIO()
    call_command(
        "seed_history",
        "--rounds",
        "600",
        "--days",
        "2",
        "--tables",
        "3",
        "--seed",
        "4",
        "--slips",
        "--shortage",
        "25",
        stdout=out,
    )
    text = out.getvalue()
    assert "slips for 2 gaming days" in text and "(1 variance alerts)" in text
    (alert,) = VarianceAlert.objects.all()
    assert (
        f"missing from {alert.table.name}'s closer, gaming day {alert.gaming_day}, "
        f"shift {alert.shift}" in text
    )
    days = sorted(set(Slip.objects.values_list("gaming_day", flat=True)))
    variances = [
        ((t, d, s), r["variance_cents"])
        for d in days
        for (t, s), r in selectors.shift_rows(gaming_day=d).items()
    ]
    assert [v for _k, v in variances if v] == [-2500]
    assert all(r is not None for _k, r in variances)
    assert not Slip.objects.exclude(status="signed").exists()
    # A second run leaves the counted shifts as they are.
    before = list(Slip.objects.order_by("pk").values_list("pk", "amount_cents", "status"))
    call_command(
        "seed_history",
        "--rounds",
        "30",
        "--days",
        "1",
        "--tables",
        "3",
        "--seed",
        "5",
        "--slips",
        stdout=io.StringIO(),
    )
    after = list(Slip.objects.order_by("pk").values_list("pk", "amount_cents", "status"))
    assert after[: len(before)] == before  # no slip of a counted shift written again
