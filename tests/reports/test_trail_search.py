"""The trail's search by what happened (`audit.search`), the readable CSV export, and a poker
hand's page replayed step by step in seats, dollars and cards."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from audit.models import AuditEvent, AuditEventText
from audit.selectors import amount_words, search_events, words_of
from tables.models import Hand
from tests.replay_writes import replayed

from .played_day import play_a_day

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(floor: dict[str, Any]) -> dict[str, Any]:
    return {**floor, **replayed("played day", lambda: play_a_day(floor))}


def _auditor(day: dict[str, Any]) -> Client:
    c = Client()
    c.force_login(day["auditor"])
    return c


def test_words_and_amounts_as_typed() -> None:
    assert words_of('jackpot "seat 1"  LB-1') == ["jackpot", "seat 1", "LB-1"]
    assert amount_words("$25,000") == "$25,000.00"
    assert amount_words("25000.00") == "$25,000.00"
    assert amount_words("25,000") == "$25,000.00"
    assert amount_words("$12.5") == "$12.50"
    assert amount_words("25000") is None  # bare digits: an id, a seat, a rank
    assert amount_words("jackpot") is None


def test_every_event_has_its_words(day: dict[str, Any]) -> None:
    assert AuditEventText.objects.count() == AuditEvent.objects.count()


def test_jackpot_finds_the_jackpot_rounds_events(day: dict[str, Any]) -> None:
    jackpot = day["jackpot"]
    found = search_events(words="jackpot")
    rounds = {e.object_id for e in found if e.object_type == "tables.round"}
    assert str(jackpot.pk) in rounds
    kinds = {e.kind for e in found if e.object_id == str(jackpot.pk)}
    assert {"round.approval_requested", "round.settled"} <= kinds
    # the search box, as the auditor types it
    page = _auditor(day).get("/audit/", {"q": "jackpot"}).content.decode()
    assert f"round {jackpot.pk}" in page


def test_an_amount_in_dollars_finds_its_events(day: dict[str, Any]) -> None:
    meter = day["LB-1"].meter
    paid = (
        AuditEvent.objects.filter(kind="meter.round", data__round_id=day["jackpot"].pk)
        .get()
        .data["paid_cents"]
    )
    assert paid > 0
    whole, cents = divmod(paid, 100)
    for typed in (f"${whole:,}.{cents:02d}", f"{whole}.{cents:02d}"):
        found = search_events(words=typed)
        assert found.filter(kind="meter.round", data__round_id=day["jackpot"].pk).exists(), typed
    assert meter is not None


def test_a_card_and_a_seat_find_their_events(day: dict[str, Any]) -> None:
    jackpot = day["jackpot"]
    dealt = search_events(words="A♥ 2♣ 4♦").filter(kind="round.cards_entered")
    assert str(jackpot.pk) in {e.object_id for e in dealt}
    by_code = search_events(words="Ah 2c 4d").filter(kind="round.cards_entered")
    assert str(jackpot.pk) in {e.object_id for e in by_code}
    hand = day["voided_hand"]
    folded = search_events(words='"seat 4 folds"')
    assert {e.object_id for e in folded} >= {str(hand.pk)}
    assert not search_events(words='"seat 9 folds"').exists()


def test_the_words_are_written_again_by_the_command(day: dict[str, Any]) -> None:
    total = AuditEvent.objects.count()
    out = io.StringIO()
    call_command("audit_search_text", "--all", stdout=out)
    assert f"{total} events' search words written" in out.getvalue()
    assert search_events(words="jackpot").exists()


def test_the_readable_csv_says_each_event_in_a_sentence(day: dict[str, Any]) -> None:
    c = _auditor(day)
    page = c.get("/audit/").content.decode()
    assert 'id="export-readable"' in page and 'id="export-raw"' in page
    response = c.get("/audit/events-readable.csv", {"table": "LB-1"})
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows and set(rows[0]) == {
        "event",
        "time_utc",
        "who",
        "table",
        "round_or_hand",
        "what",
        "sentence",
        "amount_dollars",
        "seats",
    }
    jackpot = day["jackpot"]
    mine = [r for r in rows if r["round_or_hand"] == f"Round LB-1 #{jackpot.number}"]
    kinds = [r["what"] for r in mine]
    assert "Round opened" in kinds and "Round voided" in kinds and "Meter moved by a round" in kinds
    dealt = next(r for r in mine if r["what"] == "Cards entered")
    assert "A♥ 2♣ 4♦" in dealt["sentence"] and dealt["seats"] == "Seat 1"
    for r in rows:
        assert r["sentence"].endswith("."), r
        assert not re.search(r"[\[\]{}]|sha256|_cents", r["sentence"]), r
        assert not re.search(r"\bSeat 0\b", r["sentence"]), r
        assert r["amount_dollars"] == "" or re.match(r"^-?\d+\.\d\d$", r["amount_dollars"]), r
    # the raw export is unchanged: the data as hashed, for tools
    raw = c.get("/audit/events.csv", {"table": "LB-1"})
    header = b"".join(raw.streaming_content).decode().splitlines()[0]
    assert header.startswith("seq,at,actor_id") and header.endswith("prev_hash,hash")


def test_the_hand_page_replays_the_hand_in_seats_dollars_and_cards(day: dict[str, Any]) -> None:
    c = _auditor(day)
    for hand in Hand.objects.filter(status__in=["finished", "voided"]).order_by("game", "pk")[:60]:
        page = c.get(f"/audit/hands/{hand.pk}/").content.decode()
        readable = page.split('<details class="raw-record">')[0]
        steps = readable.split('id="hand-steps"')[1]
        assert "Pot" in steps and "Stacks" in steps and "Seat " in steps
        assert not re.search(r"\bSeat 0\b|\bplayer \d", steps)
        for stacks in re.findall(r"<dt>Stacks</dt><dd>(.*?)</dd>", steps):
            for stack in re.findall(r"Seat \d+ ([^ ·<]+)", stacks):
                assert stack.startswith("$"), stack
        for pot in re.findall(r"<dt>Pot</dt><dd>(.*?)</dd>", steps):
            assert pot.startswith("$"), pot
        assert 'id="hand-result"' in readable and "rake" in readable.lower()
        assert "Record as stored (JSON)" in page
    ri = day["voided_hand"]
    page = c.get(f"/audit/hands/{ri.pk}/").content.decode()
    readable = page.split('<details class="raw-record">')[0]
    assert "Each player antes $5.00; hole cards dealt: Seat 2 A♥, Seat 4 K♦" in readable
    assert "Seat 2 bets $10.00 in the first round" in readable
    assert "Seat 4 folds in the first round" in readable
    assert "won by Seat 2" in readable


def test_the_hold_csv_names_its_two_counts_of_hands(floor: dict[str, Any]) -> None:
    c = Client()
    c.force_login(floor["pitboss"])
    header = c.get("/reports/hold.csv").content.decode().splitlines()[0].split(",")
    assert "seat_hands" in header and "poker_hands" in header and "hands" not in header
    page = c.get("/reports/").content.decode()
    assert "Seat hands" in page and "Poker hands" in page
