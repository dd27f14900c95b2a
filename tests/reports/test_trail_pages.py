"""The auditor's pages: search, round replay, CSV export, void and correct from the record; who
may see and do what."""

from __future__ import annotations

import csv
import html
import io
import json
from typing import Any

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
    assert "Round settled" in page and "Round opened" not in page
    assert (
        "No events match"
        in c.get("/audit/", {"since": "2000-01-01", "until": "2000-01-02"}).content.decode()
    )


def test_round_replay_shows_cards_decisions_house_way_lines_who_and_when(settled: Round) -> None:
    page = client_for("auditor").get(f"/audit/rounds/{settled.pk}/").content.decode()
    for text in (
        'data-card="9d"',  # cards drawn as cards
        'data-card="Ks"',
        "King-high or better",
        "Wagers placed, round #1 opened",  # the replay, step by step
        "The deal",
        "Seat 1 decides",
        "The dealer plays the house way",
        "Paid and closed",
        "Round opened",  # each event in words
        "Cards entered",
        "Round settled",
        "dealer",
        "Ante $10.00",
        "$10.00",
    ):
        assert text in page, text
    assert "cents" not in page
    assert "{&#x27;" not in page and "round.settled" not in page  # no Python dicts, no codes
    assert "Void this round" not in page  # auditors read; pit bosses void


def test_search_by_words_partial_kind_table_dealer_and_amount_range(settled: Round) -> None:
    c = client_for("auditor")
    found = c.get("/audit/", {"q": "settled SC dealer"}).content.decode()
    assert "Round settled" in found and "Round opened" not in found
    assert "Round opened" in c.get("/audit/", {"kind": "open"}).content.decode()
    handle = settled.handle_cents // 100
    within = c.get("/audit/", {"min": str(handle), "max": str(handle)}).content.decode()
    assert "Round settled" in within and "Round opened" not in within
    none = c.get("/audit/", {"min": str(handle + 1), "kind": "settled"}).content.decode()
    assert "No events match" in none
    bad = c.get("/audit/", {"min": "lots"})
    assert bad.status_code == 400 and "is not an amount in dollars" in bad.content.decode()


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
    record = c.get(f"/audit/rounds/{settled.pk}/").content.decode()
    assert f'href="/audit/rounds/{settled.pk}/correct/"' in record
    form = c.get(f"/audit/rounds/{settled.pk}/correct/").content.decode()
    # prefilled from the voided round, like the tablet's boxes (no JSON anywhere)
    assert 'name="seat-1-ante" value="10.00"' in form
    assert 'name="seat-1-cards" value="9d 8h 2s"' in form
    assert 'name="dealer-cards" value="Ks 7d 2c"' in form
    assert "<textarea" not in form
    post = {"seat-1-ante": "10.00", "seat-1-cards": "Ad 8h 2s", "dealer-cards": "Ks 7d 2c"}
    response = c.post(f"/audit/rounds/{settled.pk}/correct/", post)
    corrected = Round.objects.get(corrects=settled)
    assert response.status_code == 303 and corrected.lines.get(wager="ante").result == "win"
    assert corrected.number == settled.number  # the correction of #N, not a new live number
    page = c.get(response["Location"]).content.decode()
    assert f"correction of #{settled.number}" in page


def test_the_correction_form_shows_every_refusal_at_once_and_keeps_the_input(
    settled: Round,
) -> None:
    c = client_for("pitboss")
    c.post(f"/audit/rounds/{settled.pk}/void/", {"reason": "seat 1 was an ace"})
    url = f"/audit/rounds/{settled.pk}/correct/"
    post = {"seat-1-ante": "ten", "seat-1-cards": "Ad 8h Zz", "dealer-cards": "Ks 7d 2c"}
    response = c.post(url, post)
    assert response.status_code == 303 and response["Location"] == url  # no 405 on reload
    page = html.unescape(c.get(url).content.decode())
    assert 'id="err-seat-1-ante"' in page and 'id="err-seat-1-cards"' in page
    assert 'name="seat-1-cards" value="Ad 8h Zz"' in page
    # validated like a new round: a wager over the limit, named at its seat
    response = c.post(url, {**post, "seat-1-ante": "5000", "seat-1-cards": "Ad 8h 2s"})
    page = html.unescape(c.get(url).content.decode())
    assert "seat 1 ante must be from" in page.lower()
    assert not Round.objects.filter(corrects=settled).exists()
    assert client_for("dealer").get(url).status_code == 403


def test_a_dealer_cannot_void(settled: Round) -> None:
    response = client_for("dealer").post(f"/audit/rounds/{settled.pk}/void/", {"reason": "x"})
    assert response.status_code == 403
    settled.refresh_from_db()
    assert settled.status == "settled"


@pytest.mark.parametrize(
    ("username", "home"),
    [
        ("dealer", "/tablet/"),
        ("pitboss", "/reports/dashboard/"),
        ("auditor", "/audit/"),
        ("admin", "/admin/"),
    ],
)
def test_each_role_lands_on_its_home_with_one_navigation(
    floor: Any, username: str, home: str
) -> None:
    c = client_for(username)
    response = c.get("/")
    assert response.status_code == 302 and response["Location"] == home
    if home.startswith("/admin/"):
        return
    page = c.get(home).content.decode()
    assert page.count('<nav aria-label="Main">') == 1
    assert 'aria-current="page"' in page


def test_refused_and_missing_pages_are_styled_with_the_navigation(floor: Any) -> None:
    c = client_for("dealer")
    refused = c.get("/audit/")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert '<nav aria-label="Main">' in page and "Not allowed" in page and "Dealer tablet" in page
    missing = client_for("pitboss").get("/audit/rounds/999999/")
    assert missing.status_code == 404 and "Nothing here" in missing.content.decode()
    assert '<nav aria-label="Main">' in missing.content.decode()


def test_the_administration_carries_the_sites_navigation(floor: Any) -> None:
    page = client_for("admin").get("/admin/").content.decode()
    assert page.count('<nav aria-label="Main"') == 1 and 'aria-current="page"' in page


def test_a_lowball_and_a_pyramid_round_are_corrected_through_the_form(floor: Any) -> None:
    from tables.services import rounds as svc
    from tables.services.corrections import round_void
    from tables.services.sessions import dealer_sign_in

    boss = client_for("pitboss")
    dealer_sign_in(dealer=floor["dealer"], table=floor["LB-1"])
    d = floor["dealer"]
    r = svc.round_open(table=floor["LB-1"], dealer=d, wagers={2: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=d, seat_cards={2: "Qh Qd 6s"}, dealer_cards="5s 5c Kh")
    r = svc.round_decide(
        round=r, dealer=d, seat=2, decision={"discard": ["Qh", "Qd"], "draw": ["6h", "7d"]}
    )
    r = svc.round_dealer(round=r, dealer=d, draw=["8d", "9c"], discard=["5c", "Kh"])
    r = round_void(round=svc.round_settle(round=r, dealer=d), by=floor["pitboss"], reason="x")
    url = f"/audit/rounds/{r.pk}/correct/"
    form = html.unescape(boss.get(url).content.decode())
    assert (
        'name="seat-2-discard" value="Qh Qd"' in form and 'name="seat-2-draw" value="6h 7d"' in form
    )
    assert (
        'name="dealer-discard" value="5c Kh"' in form
        and 'name="seat-2-bonus" value="10.00"' in form
    )
    post = {
        "seat-2-ante": "10.00",
        "seat-2-bonus": "10.00",
        "seat-2-cards": "Qh Qd 6s",
        "seat-2-discard": "Qh",
        "seat-2-draw": "2h",
        "dealer-cards": "5s 5c Kh",
        "dealer-discard": "5c Kh",
        "dealer-draw": "8d 9c",
    }
    done = boss.post(url, post)
    assert done.status_code == 303, html.unescape(boss.get(url).content.decode())[-3000:]
    corrected = Round.objects.get(corrects=r)
    assert corrected.entry["seats"][0]["discard"] == ["Qh"] and corrected.number == r.number

    dealer_sign_in(dealer=floor["dealer2"], table=floor["PY-1"])
    d2 = floor["dealer2"]
    p = svc.round_open(table=floor["PY-1"], dealer=d2, wagers={1: {"ante": "10.00"}})
    p = svc.round_deal(round=p, dealer=d2, seat_cards={1: "Ah Qs 7c"}, dealer_cards="Kc 9d 5h")
    p = svc.round_decide(round=p, dealer=d2, seat=1, decision={"house_way": True})
    p = svc.round_dealer(round=p, dealer=d2)
    p = round_void(round=svc.round_settle(round=p, dealer=d2), by=floor["pitboss"], reason="x")
    url = f"/audit/rounds/{p.pk}/correct/"
    form = html.unescape(boss.get(url).content.decode())
    assert 'name="seat-1-house_way" value="1" checked' in form
    post = {
        "seat-1-ante": "10.00",
        "seat-1-cards": "Ah Qs 7c",
        "seat-1-one_card": "Qs",
        "dealer-cards": "Kc 9d 5h",
    }
    assert boss.post(url, post).status_code == 303
    assert Round.objects.get(corrects=p).entry["seats"][0]["one_card"] == "Qs"
