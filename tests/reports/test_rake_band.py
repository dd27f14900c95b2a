"""A poker table's theoretical win is its expected rake: per finished hand, from the game's
rake simulation for the table's settings and the hand's players, with a 95% band from the
per-hand rake variance; simulated play lands inside it, and a table without hands raises no
alert."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.kinds import EventKind
from audit.models import AuditEvent
from core.money import dollars
from reports.floor import floor_status
from reports.reporting import rebuild
from reports.theory import outside_band, rake_theory_by_table
from tables.engine.money import format_cents
from tables.gaming_day import gaming_day_of
from tables.models import Hand
from tables.selectors import rake_per_hand, settings_in_force
from tables.simulation import simulate

pytestmark = pytest.mark.django_db


def _tile(name: str, day: Any = None) -> Any:
    floor = floor_status(now=timezone.now(), gaming_day=day or gaming_day_of(timezone.now()))
    return floor, next(t for t in floor.tables if t.table.name == name)


@pytest.mark.parametrize("name", ["RI-1", "MG-1"])
def test_simulated_play_lands_inside_the_rake_band(floor: dict[str, Any], name: str) -> None:
    table = floor[name]
    summary = simulate([table], 40, seed=7, strategy="typical")
    rake = summary["tables"][name]["rake_cents"]
    assert rake > 0
    hand = Hand.objects.filter(table=table).first()
    assert hand is not None and hand.gaming_day is not None
    rebuild(hand.gaming_day, table.pk)
    dashboard, tile = _tile(name, hand.gaming_day)
    theory = tile.theory
    assert theory.theoretical_win_cents is not None and theory.theoretical_win_cents > 0
    low, high = theory.band_cents
    assert low < theory.theoretical_win_cents < high
    assert tile.win_cents == rake
    assert low <= rake <= high, (format_cents(rake), format_cents(low), format_cents(high))
    assert tile.band_alert is None
    assert theory.strategy == "typical"
    assert outside_band(day=hand.gaming_day, table=table) is None
    assert not AuditEvent.objects.filter(kind=EventKind.HOLD_OUTSIDE_BAND).exists()


def test_the_theory_adds_each_hands_expected_rake(floor: dict[str, Any]) -> None:
    table = floor["RI-1"]
    simulate([table], 12, seed=3, strategy="typical")
    version = settings_in_force(table)
    assert version is not None
    expected = sum(
        rake_per_hand("rhode_island", version.values, h.players.count())[0]
        for h in Hand.objects.filter(table=table, status=Hand.Status.FINISHED)
    )
    day = Hand.objects.filter(table=table).first().gaming_day  # type: ignore[union-attr]
    assert day is not None
    (theory,) = rake_theory_by_table(day=day, table_id=table.pk).values()
    assert theory.expected == expected


def test_a_bigger_table_and_a_cap_change_the_expected_rake(floor: dict[str, Any]) -> None:
    values = dict(settings_in_force(floor["RI-1"]).values)  # type: ignore[union-attr]
    two = rake_per_hand("rhode_island", values, 2)
    six = rake_per_hand("rhode_island", values, 6)
    assert 0 < two[0] < six[0]
    assert two[1] > 0
    no_rake = rake_per_hand("rhode_island", {**values, "rake_percent": "0"}, 6)
    assert no_rake == (0, 0)


def test_a_table_with_no_hands_has_no_alert(floor: dict[str, Any]) -> None:
    dashboard, tile = _tile("RI-1")
    assert tile.win_cents == 0
    assert tile.theory.band_cents == [0, 0]
    assert tile.theory.strategy == "typical"
    assert tile.band_alert is None
    assert tile.alert is None
    assert dashboard.total["alerts"] == 0


def test_the_dashboard_card_shows_the_rake_band_in_dollars(floor: dict[str, Any]) -> None:
    table = floor["RI-1"]
    simulate([table], 6, seed=5, strategy="typical")
    hand = Hand.objects.filter(table=table).first()
    assert hand is not None and hand.gaming_day is not None
    _dashboard, tile = _tile("RI-1", hand.gaming_day)
    low, high = tile.theory.band_cents
    client = Client()
    client.force_login(floor["pitboss"])
    page = client.get(reverse("reports:dashboard_floor"))
    text = page.content.decode()
    card = text.split('data-table="RI-1"', 1)[1].split("</article>", 1)[0]
    assert "95% band (typical play)" in card
    assert f"{dollars(low)} to {dollars(high)}" in card
    assert dollars(tile.theory.theoretical_win_cents) in card
