"""Seating at the edges: a closed table rates nobody (a rating there would count time with no
hands), though a rating already open there can still be ended; the tablet's notice after a
seating keeps the player's first name whole whatever it holds."""

from __future__ import annotations

from typing import Any

import pytest

from audit.models import AuditEvent
from players.models import Player, Rating
from tests.helpers import client_for, refused
from tests.players.conftest import seat, unseat

pytestmark = pytest.mark.django_db


def test_a_closed_table_seats_nobody_but_ends_a_rating(floor: dict[str, Any]) -> None:
    table = floor["PY-1"]
    boss = client_for(floor["pitboss"])
    seat(boss, table, 1, "100001")
    table.is_open = False
    table.save(update_fields=["is_open"])
    before = (Rating.objects.count(), AuditEvent.objects.count())

    body = {"seat": 2, "card": "100002"}
    error = refused(
        boss.post(f"/api/tables/{table.pk}/seat-player/", body, format="json"), 409, "table_closed"
    )
    assert "PY-1" in error["message"] and "closed" in error["message"]
    assert (Rating.objects.count(), AuditEvent.objects.count()) == before
    assert unseat(boss, table, 1)["ended_at"] is not None


def test_the_tablets_notice_keeps_the_first_name_whole(
    floor: dict[str, Any], dealer_at: Any
) -> None:
    table = floor["PY-1"]
    dealer = dealer_at("PY-1")
    Player.objects.filter(card="100001").update(name="Anne&Co #1 Smith")
    answer = dealer.post(f"/players/tablet/{table.pk}/seat/", {"seat": "1", "card": "100001"})
    assert answer.status_code == 303
    page = dealer.get(answer["Location"]).content.decode()
    assert "Seat 1: card 100001, Anne&amp;Co, rated" in page
