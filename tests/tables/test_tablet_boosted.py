"""A step posted from a page boosted by htmx answers with the page that comes next, the same page
the 303 and the GET after it show, with the address that GET would have put in the browser's
history (`HX-Push-Url`); without JavaScript the browser is still sent there (303), and a
refused step is still sent to the page that shows the refusal. A boosted answer holds what htmx
swaps in (`#tablet`, the layout's `hx-select`) and the page's title, not the site's bar around
them; a page loaded whole, or restored from the history, is the whole page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tables.models import Round

from .test_tablet_views import client_for, hidden, sign_in, step, text

pytestmark = pytest.mark.django_db

BOOSTED = {"HTTP_HX_REQUEST": "true", "HTTP_HX_BOOSTED": "true", "HTTP_HX_TARGET": "tablet"}


def without_tokens(page: str) -> str:
    """The page without what differs on every render (the form's CSRF token, a new
    idempotency key)."""
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
    return re.sub(r'name="idempotency_key" value="[^"]+"', "", page)


def shown(page: str) -> tuple[str, str]:
    """What the browser shows of a page once htmx has swapped it in: its title and the
    `#tablet` element (up to the end of the page's main part)."""
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title is not None and '<div id="tablet"' in page
    body = page[page.index('<div id="tablet"') :].split("</main>")[0].rstrip()
    assert body.endswith("</div>")
    return title.group(1).strip(), without_tokens(body)


def boosted_step(dealer: Client, path: str, data: dict[str, Any]) -> str:
    """Post `data` as a boosted form: the answer is the page a GET of the address it names
    shows (a reload of that address shows the same)."""
    answer = dealer.post(path, data, **BOOSTED)
    assert answer.status_code == 200, answer.status_code
    again = dealer.get(answer["HX-Push-Url"], **BOOSTED)
    assert without_tokens(text(answer)) == without_tokens(text(again))
    return str(answer["HX-Push-Url"])


def test_each_step_answers_with_the_next_page(floor: dict[str, Any]) -> None:
    dealer = client_for("dealer")
    table = floor["LB-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    wagers = {"seat-1-ante": "10", "seat-2-ante": "5"}
    assert boosted_step(dealer, url + "open/", wagers) == url
    round_id = hidden(dealer.get(url), "round")
    assert step(dealer.get(url)) == "Cards"
    cards = {"seat-1-cards": "7c 4h 2s", "seat-2-cards": "Kd 9c 3c", "dealer-cards": "Jd Jc 6h"}
    assert boosted_step(dealer, url + "deal/", {"round": round_id, **cards}) == url
    assert step(dealer.get(url)) == "Players"
    stand = {"round": round_id, "seat": "1", "action": "stand"}
    assert boosted_step(dealer, url + "decide/", stand) == url
    draw = {"round": round_id, "seat": "2", "action": "draw", "seat-2-discard": ["Kd"]}
    assert boosted_step(dealer, url + "decide/", {**draw, "seat-2-draw": "Ad"}) == url
    assert step(dealer.get(url)) == "House way"
    assert boosted_step(dealer, url + "dealer/", {"round": round_id, "dealer-draw": "8s 5c"}) == url
    confirm = dealer.get(url)
    assert step(confirm) == "Pay and close"
    key = hidden(confirm, "idempotency_key")
    answer = dealer.post(url + "settle/", {"round": round_id, "idempotency_key": key}, **BOOSTED)
    assert answer.status_code == 200
    assert answer["HX-Push-Url"] == f"/tablet/round/{round_id}/"
    assert Round.objects.get(pk=round_id).status == Round.Status.SETTLED
    payout = text(answer)
    assert 'id="pay-list"' in payout and 'id="next-round"' in payout
    assert without_tokens(payout) == without_tokens(
        text(dealer.get(answer["HX-Push-Url"], **BOOSTED))
    )
    assert shown(payout) == shown(text(dealer.get(answer["HX-Push-Url"])))


def test_the_same_tablet_boosted_or_not_sees_the_same_page(floor: dict[str, Any]) -> None:
    dealer = client_for("dealer")
    table = floor["LB-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    answer = dealer.post(url + "open/", {"seat-1-ante": "10"}, **BOOSTED)
    assert answer.status_code == 200 and answer["HX-Push-Url"] == url
    assert shown(text(answer)) == shown(text(dealer.get(url)))
    assert step(answer) == "Cards"


def test_a_boosted_answer_is_what_htmx_swaps_in(floor: dict[str, Any]) -> None:
    dealer = client_for("dealer")
    table = floor["LB-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    whole = text(dealer.get(url))
    part = text(dealer.get(url, **BOOSTED))
    assert whole.startswith("<!doctype html>") and 'class="topbar"' in whole
    assert part.startswith("<title>") and 'class="topbar"' not in part
    assert shown(part) == shown(whole)
    # htmx restoring a page missing from its history cache swaps the whole body in
    restored = text(dealer.get(url, HTTP_HX_HISTORY_RESTORE_REQUEST="true", **BOOSTED))
    assert without_tokens(restored) == without_tokens(whole)
    # a boosted request for another target than the tablet's gets the whole page
    other = text(dealer.get(url, **{**BOOSTED, "HTTP_HX_TARGET": "main"}))
    assert without_tokens(other) == without_tokens(whole)


def test_a_refused_step_is_still_sent_to_the_page_that_shows_it(floor: dict[str, Any]) -> None:
    dealer = client_for("dealer")
    table = floor["LB-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    refused = dealer.post(url + "open/", {"seat-1-ante": "ten"}, **BOOSTED)
    assert refused.status_code == 303 and refused["Location"] == url
    page = text(dealer.get(url, **BOOSTED))
    assert "must be an amount in dollars" in page
    assert not Round.objects.filter(table=table).exists()
    # nothing boosted: the plain form is sent on as before
    plain = dealer.post(url + "open/", {"seat-1-ante": "10"})
    assert plain.status_code == 303 and plain["Location"] == url
