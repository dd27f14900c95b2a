"""The players' display on its own screen: a table's display key, issued and revoked by a pit
boss or an admin on the record, opens that table's display and nothing else (every other page
sends it to the sign-in or refuses it, the API refuses it, the dealer's tablet never opens); the
display shows no staff link and follows the table from one game to the next."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from audit.kinds import EventKind
from audit.models import AuditEvent
from tables.models import DisplayKey, Hand, display_key_digest
from tests.audit.tamper import run_verify
from tests.games.mulligan.floor import mulligan_table
from tests.games.mulligan.script import HANDS_4, to_a_fold

pytestmark = pytest.mark.django_db


def signed_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


def display_url(table: Any) -> str:
    return f"/tablet/table/{table.pk}/mulligan/display/"


def issue(client: Client, table: Any) -> str:
    """Issue a display key on the pit boss's page; the key shown once."""
    response = client.post("/tablet/displays/", {"do": "issue", "table": table.pk})
    assert response.status_code == 200, response.content.decode()[:2000]
    key = re.search(r"<code data-key>(\w+)</code>", response.content.decode())
    assert key is not None
    return key.group(1)


def display_screen(key: str) -> Client:
    """A fresh browser signed in with the display key, as the table's screen is."""
    screen = Client()
    page = screen.get(f"/display/{key}/")
    assert page.status_code == 200
    response = screen.post("/display/", {"key": key})
    assert response.status_code == 302
    return screen


@pytest.fixture
def table(floor: dict[str, Any]) -> Any:
    return mulligan_table(floor)


def test_a_pit_boss_issues_a_key_on_the_record_and_only_its_digest_is_kept(floor, table):
    boss = signed_in("pitboss")
    assert "Displays" in boss.get("/tablet/displays/").content.decode()
    key = issue(boss, table)
    row = DisplayKey.objects.get()
    assert row.table == table and row.issued_by == floor["pitboss"] and row.active
    assert row.digest == display_key_digest(key) and key not in row.digest
    event = AuditEvent.objects.filter(kind=EventKind.DISPLAY_KEY_ISSUED).get()
    assert event.actor_id == floor["pitboss"].pk and event.table_name == table.name
    assert key not in json.dumps(event.data)
    # An admin issues one too.
    issue(signed_in("admin"), table)
    assert DisplayKey.objects.count() == 2
    assert run_verify()[0] == 0


@pytest.mark.parametrize("username", ["dealer", "auditor"])
def test_no_other_role_issues_or_revokes_a_key(floor, table, username):
    key_row_key = issue(signed_in("pitboss"), table)
    row = DisplayKey.objects.get(digest=display_key_digest(key_row_key))
    other = signed_in(username)
    assert other.get("/tablet/displays/").status_code == 403
    assert other.post("/tablet/displays/", {"do": "issue", "table": table.pk}).status_code == 403
    assert other.post("/tablet/displays/", {"do": "revoke", "key": row.pk}).status_code == 403
    assert DisplayKey.objects.count() == 1 and DisplayKey.objects.get().active
    assert "Displays" not in other.get("/").content.decode()


def test_a_table_without_a_players_display_gets_no_key(floor, table):
    boss = signed_in("pitboss")
    response = boss.post("/tablet/displays/", {"do": "issue", "table": floor["SC-1"].pk})
    assert response.status_code == 400
    assert "SC-1 has no players&#x27; display" in response.content.decode()
    assert not DisplayKey.objects.exists()


def test_the_key_opens_its_tables_display_without_staff_links(floor, table):
    key = issue(signed_in("pitboss"), table)
    screen = Client()
    page = screen.get(f"/display/{key}/").content.decode()
    assert f"Open the display of {table.name}" in page
    response = screen.post("/display/", {"key": key})
    assert response.status_code == 302 and response["Location"] == display_url(table)
    html = screen.get(display_url(table)).content.decode()
    assert "No game is running at this table." in html
    for staff in ("Dealer tablet", "Sign out", "/tablet/", "/accounts/logout/", "Casino floor"):
        assert staff not in html.replace(display_url(table), "")
    assert 'aria-label="Main"' not in html
    opened = AuditEvent.objects.filter(kind=EventKind.DISPLAY_OPENED).get()
    assert opened.actor_id is None and opened.table_name == table.name
    assert run_verify()[0] == 0


def test_the_display_shows_no_staff_link_to_the_floor_either(floor, table):
    for username in ("pitboss", "dealer"):
        html = signed_in(username).get(display_url(table)).content.decode()
        assert "Dealer tablet" not in html and "Sign out" not in html
        assert 'aria-label="Main"' not in html


def test_a_wrong_or_revoked_key_opens_nothing(floor, table):
    screen = Client()
    assert screen.get("/display/0123456789abcdef0123456789abcdef01234567/").status_code == 403
    assert screen.post("/display/", {"key": "nope"}).status_code == 403
    assert screen.get(display_url(table)).status_code == 302  # no grant: the sign-in
    assert not AuditEvent.objects.filter(kind=EventKind.DISPLAY_OPENED).exists()


def test_a_revoked_key_stops_the_screen_at_its_next_refresh(floor, table):
    boss = signed_in("pitboss")
    key = issue(boss, table)
    screen = display_screen(key)
    assert screen.get(display_url(table)).status_code == 200
    row = DisplayKey.objects.get()
    assert boss.post("/tablet/displays/", {"do": "revoke", "key": row.pk}).status_code == 302
    row.refresh_from_db()
    assert not row.active and row.revoked_by == floor["pitboss"]
    revoked = AuditEvent.objects.filter(kind=EventKind.DISPLAY_KEY_REVOKED).get()
    assert revoked.actor_id == floor["pitboss"].pk
    # htmx's refresh is sent to the sign-in whole; a plain request gets the sign-in page.
    polled = screen.get(display_url(table), headers={"HX-Request": "true"})
    assert polled.status_code == 403 and polled["HX-Redirect"] == "/display/"
    again = screen.get(display_url(table))
    assert again.status_code in (302, 403)
    assert screen.post("/display/", {"key": key}).status_code == 403
    # Revoked twice: refused, nothing changed.
    twice = boss.post("/tablet/displays/", {"do": "revoke", "key": row.pk})
    assert twice.status_code == 400 and "already revoked" in twice.content.decode()
    assert run_verify()[0] == 0


def test_signing_a_screen_in_with_a_key_ends_the_staff_session_there(floor, table):
    key = issue(signed_in("pitboss"), table)
    screen = signed_in("dealer")
    assert screen.get(f"/tablet/table/{table.pk}/").status_code == 200
    assert screen.post("/display/", {"key": key}).status_code == 302
    tablet = screen.get(f"/tablet/table/{table.pk}/")
    assert tablet.status_code == 302 and tablet["Location"].startswith("/accounts/login/")


def _paths(patterns: list[Any], prefix: str = "") -> list[str]:
    """Every route of the site as a path, its parameters filled in (a regex route is left out:
    the admin's, whose index and models are reached by routes)."""
    out: list[str] = []
    for p in patterns:
        route = getattr(p.pattern, "_route", None)
        if route is None:
            continue
        if isinstance(p, URLResolver):
            out += _paths(p.url_patterns, prefix + route)
        elif isinstance(p, URLPattern):
            out.append(prefix + route)
    return out


def _fill(route: str, table: Any, other: Any, key: str) -> str:
    route = route.replace("<str:key>", key)
    route = re.sub(r"<int:table_id>", str(other.pk), route)
    route = re.sub(r"<slug:game>", "mulligan", route)
    route = re.sub(r"<slug:page>", "display", route)
    route = re.sub(r"<(int|path|str|slug|uuid):\w+>", "1", route)
    return "/" + route


def test_the_key_is_refused_on_every_other_page_and_the_api(floor, table):
    other = mulligan_table(floor, name="MG-O", sign_in=False)
    key = issue(signed_in("pitboss"), table)
    screen = display_screen(key)
    sign_ins = ("/accounts/login/", "/admin/login/", "/display/", "/api/auth-token/")
    seen = 0
    for route in sorted(set(_paths(get_resolver().url_patterns))):
        path = _fill(route, table, other, key)
        if path.startswith(sign_ins) or "logout" in path:
            continue  # the sign-in pages themselves; signing out ends the screen (below)
        for method in ("get", "post"):
            response = getattr(screen, method)(path)
            seen += 1
            assert response.status_code in (301, 302, 308, 401, 403, 404, 405), (method, path)
            if response.status_code in (301, 302, 308):  # to a sign-in, maybe by way of a move
                final = getattr(screen, method)(path, follow=True).redirect_chain[-1][0]
                assert final.startswith(sign_ins), (method, path, final)
            body = response.content.decode(errors="replace")
            assert "Seat 1" not in body, (method, path)
    assert seen > 100
    # The tablet, the other table's display, the API: refused.
    assert screen.get(f"/tablet/table/{table.pk}/").status_code == 302
    assert screen.get(display_url(other)).status_code == 302
    assert screen.get("/api/hands/").status_code in (401, 403)
    assert screen.get(f"/tablet/table/{table.pk}/mulligan/tablet/").status_code in (302, 404)
    # Its own table's display still opens, until the screen is signed out.
    assert screen.get(display_url(table)).status_code == 200
    screen.post("/accounts/logout/")
    assert screen.get(display_url(table)).status_code == 302


def test_the_display_follows_the_table_from_one_game_to_the_next(floor, table):
    key = issue(signed_in("pitboss"), table)
    screen = display_screen(key)
    dealer = signed_in("dealer")

    def deal() -> None:
        base = f"/tablet/table/{table.pk}/"
        buy_ins = {f"seat-{n}-buy_in": "40" for n in (1, 2, 3, 4)}
        assert dealer.post(base + "hand/open/", buy_ins).status_code == 303
        hand = Hand.objects.get(table=table, status="open")
        form = {"hand": hand.pk, "do": "deal", "burn": ""}
        form.update({f"hand_{n}": HANDS_4[n] for n in range(4)})
        assert dealer.post(base + "hand/step/", form).status_code == 303

    def play_out() -> int:
        from tables.games.mulligan.play import from_record

        base = f"/tablet/table/{table.pk}/"
        for _ in range(100):
            hand = Hand.objects.get(table=table, status="open")
            played, game = from_record(hand.record)
            if game.is_over:
                return game.winner
            posted = to_a_fold(game)
            form = {"hand": hand.pk, "at": len(played.actions), "do": posted.do}
            form["player"] = posted.player
            if posted.card is not None:
                form["card"] = posted.card
            if posted.offer_of is not None:
                form["offer_of"] = posted.offer_of
            if posted.do == "fold":
                form["confirmed"] = "1"
            assert dealer.post(base + "hand/step/", form).status_code == 303
        raise AssertionError("the game did not end")

    deal()
    assert "Turn 1: Seat 1 is the auctioneer" in screen.get(display_url(table)).content.decode()
    winner = play_out()
    over = screen.get(display_url(table)).content.decode()
    assert f"Seat {winner + 1} wins" in over
    assert 'hx-trigger="every' in over  # a game over keeps asking: the next one replaces it
    assert dealer.post(f"/tablet/table/{table.pk}/hand/finish/").status_code == 303
    deal()
    polled = screen.get(display_url(table), headers={"HX-Request": "true"})
    body = polled.content.decode()
    headline = re.search(r'<p class="headline" role="status">([^<]*)</p>', body)
    assert polled.status_code == 200 and headline is not None
    assert headline.group(1).startswith("Turn 1: "), headline.group(1)
    assert "wins" not in body
