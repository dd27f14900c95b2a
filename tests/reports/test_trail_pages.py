"""The auditor's pages: search, round replay, CSV export, void and correct from the record; who
may see and do what."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client

from audit.models import AuditEvent
from tables.models import Round

pytestmark = pytest.mark.django_db


def client_for(username: str) -> Client:
    c = Client()
    assert c.login(username=username, password="demo")
    return c


@pytest.mark.parametrize(
    ("user", "status"), [("auditor", 200), ("pitboss", 200), ("dealer", 403), ("admin", 403)]
)
def test_who_reads_the_trail(settled: Round, user: str, status: int) -> None:
    c = client_for(user)
    assert c.get("/audit/").status_code == status
    assert c.get(f"/audit/rounds/{settled.pk}/").status_code == status
    assert c.get("/audit/events.csv").status_code == status


def test_anonymous_is_sent_to_sign_in(settled: Round) -> None:
    assert Client().get("/audit/").status_code == 302


def test_refused_pages_are_recorded_in_the_trail(settled: Round) -> None:
    client_for("dealer").get("/audit/")
    refused = AuditEvent.objects.filter(kind="permission.refused", actor_name="dealer").last()
    assert refused is not None and refused.data["path"] == "/audit/"


def test_search_by_table_user_type_and_time(settled: Round) -> None:
    c = client_for("auditor")
    page = c.get(
        "/audit/", {"table": "SC-1", "user": "dealer", "kind": "round.settled"}
    ).content.decode()
    assert "round.settled" in page and "round.opened" not in page
    assert (
        "No events match"
        in c.get("/audit/", {"since": "2000-01-01", "until": "2000-01-02"}).content.decode()
    )


def test_round_replay_shows_cards_decisions_house_way_lines_who_and_when(settled: Round) -> None:
    page = client_for("auditor").get(f"/audit/rounds/{settled.pk}/").content.decode()
    for text in (
        "9d",
        "Ks",
        "King-high or better",
        "round.opened",
        "round.cards_entered",
        "round.decision",
        "round.house_way",
        "round.settled",
        "dealer",
        "ante",
    ):
        assert text in page
    assert "Void this round" not in page  # auditors read; pit bosses void


def test_csv_export_has_every_matching_event(settled: Round) -> None:
    response = client_for("auditor").get("/audit/events.csv", {"table": "SC-1"})
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {r["kind"] for r in rows} >= {"round.opened", "round.settled"}
    assert all(r["table_name"] == "SC-1" for r in rows)
    assert json.loads(rows[0]["data"]) is not None and len(rows[0]["hash"]) == 64


def test_pit_boss_voids_and_corrects_from_the_record(settled: Round) -> None:
    c = client_for("pitboss")
    assert "Void this round" in c.get(f"/audit/rounds/{settled.pk}/").content.decode()
    c.post(f"/audit/rounds/{settled.pk}/void/", {"reason": "seat 1 was an ace"})
    settled.refresh_from_db()
    assert settled.status == "voided"
    entry = {
        "game": "second_chance",
        "dealer": {"cards": ["Ks", "7d", "2c"]},
        "seats": [{"seat": 1, "wagers": {"ante": "10.00"}, "cards": ["Ad", "8h", "2s"]}],
    }
    bad = c.post(f"/audit/rounds/{settled.pk}/correct/", {"entry": "{not json"})
    assert "not valid JSON" in bad.content.decode()
    response = c.post(f"/audit/rounds/{settled.pk}/correct/", {"entry": json.dumps(entry)})
    corrected = Round.objects.get(corrects=settled)
    assert response.status_code == 302 and corrected.lines.get(wager="ante").result == "win"


def test_a_dealer_cannot_void(settled: Round) -> None:
    response = client_for("dealer").post(f"/audit/rounds/{settled.pk}/void/", {"reason": "x"})
    assert response.status_code == 403
    settled.refresh_from_db()
    assert settled.status == "settled"
