"""Voids and corrections: a pit boss voids with a reason, the corrected round references the
voided one, the trail shows both; a dealer cannot void; a settled round is never edited."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, IntegrityError, transaction

from audit.models import AuditEvent
from tables.models import Round, SettlementLine
from tables.services import ServiceError
from tables.services.corrections import round_correct, round_void

pytestmark = pytest.mark.django_db


CORRECT = {
    "game": "second_chance",
    "dealer": {"cards": ["Ks", "7d", "2c"]},
    "seats": [{"seat": 1, "wagers": {"ante": "10.00"}, "cards": ["Ad", "8h", "2s"]}],
}


def test_pit_boss_voids_and_corrects_and_the_trail_shows_both(
    floor: dict[str, Any], settled: Round
) -> None:
    voided = round_void(
        round=settled, by=floor["pitboss"], reason="seat 1's ace was entered as a nine"
    )
    assert voided.status == "voided" and voided.settlement == settled.settlement  # the record stays
    corrected = round_correct(voided=voided, by=floor["pitboss"], entry=CORRECT)
    assert corrected.corrects_id == voided.pk and corrected.status == "settled"
    assert corrected.number == voided.number  # the correction of #N
    assert corrected.lines.get(wager="ante").net_cents == 1000  # A-high beats K-high
    assert voided.lines.get(wager="ante").net_cents == -1000
    kinds = list(
        AuditEvent.objects.filter(kind__in=["round.voided", "round.corrected"]).values_list(
            "kind", "actor_name", "data__corrects_round_id"
        )
    )
    assert kinds == [("round.voided", "pitboss", None), ("round.corrected", "pitboss", voided.pk)]


@pytest.mark.parametrize("who", ["dealer", "auditor", "admin"])
def test_only_a_pit_boss_voids(floor: dict[str, Any], settled: Round, who: str) -> None:
    with pytest.raises(PermissionDenied):
        round_void(round=settled, by=floor[who], reason="x")
    settled.refresh_from_db()
    assert settled.status == "settled"


def test_a_void_needs_a_reason_and_a_settled_round(floor: dict[str, Any], settled: Round) -> None:
    with pytest.raises(ServiceError):
        round_void(round=settled, by=floor["pitboss"], reason="  ")
    round_void(round=settled, by=floor["pitboss"], reason="wrong card")
    with pytest.raises(ServiceError):
        round_void(round=settled, by=floor["pitboss"], reason="again")


def test_a_correction_needs_a_voided_round_and_only_one(
    floor: dict[str, Any], settled: Round
) -> None:
    with pytest.raises(ServiceError):
        round_correct(voided=settled, by=floor["pitboss"], entry=CORRECT)
    round_void(round=settled, by=floor["pitboss"], reason="wrong card")
    round_correct(voided=settled, by=floor["pitboss"], entry=CORRECT)
    with pytest.raises(ServiceError):
        round_correct(voided=settled, by=floor["pitboss"], entry=CORRECT)


def test_a_refused_correction_saves_nothing(floor: dict[str, Any], settled: Round) -> None:
    round_void(round=settled, by=floor["pitboss"], reason="wrong card")
    bad = {**CORRECT, "seats": [{**CORRECT["seats"][0], "cards": ["Ks", "8h", "2s"]}]}
    with pytest.raises(ServiceError) as err:
        round_correct(voided=settled, by=floor["pitboss"], entry=bad)
    assert "Ks" in err.value.message
    assert Round.objects.count() == 1


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE tables_round SET players_net_cents = 0 WHERE status = 'settled'",
        "UPDATE tables_round SET status = 'open' WHERE status = 'settled'",
        "DELETE FROM tables_round WHERE status = 'settled'",
        "UPDATE tables_settlementline SET net_cents = 0",
        "DELETE FROM tables_settlementline",
    ],
)
def test_the_database_refuses_to_edit_a_settled_round(settled: Round, sql: str) -> None:
    from django.db import connection

    with (
        pytest.raises((DatabaseError, IntegrityError)),
        transaction.atomic(),
        connection.cursor() as c,
    ):
        c.execute(sql)
    settled.refresh_from_db()
    assert settled.status == "settled" and SettlementLine.objects.filter(round=settled).count() == 1
