"""A misdeal asks once (the form's data-confirm, asked by tablet.js) and carries the cards
already entered: refused for want of a reason, the page comes back with the cards as entered
and the refusal at the reason's box. Leaving the table while a round is open asks first."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from tables.models import Round

from .test_tablet_views import client_for, hidden, refused, sign_in, step, text

pytestmark = pytest.mark.django_db


def form_tag(page: str, marker: str) -> str:
    return next(m.group(0) for m in re.finditer(r"<form[^>]*>", page) if marker in m.group(0))


def test_a_refused_misdeal_keeps_the_cards_entered(floor: dict[str, Any]) -> None:
    dealer = client_for("dealer")
    table = floor["SC-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    dealer.post(url + "open/", {"seat-1-ante": "10", "seat-2-ante": "10"})
    page = text(dealer.get(url))
    round_id = hidden(dealer.get(url), "round")
    cancel = form_tag(page, 'id="cancel-form"')
    assert 'data-confirm="Cancel round 1 as a misdeal?' in cancel and "data-carry-cards" in cancel
    # what tablet.js sends: the reason box (empty) and the cards tapped so far
    cards = {"seat-1-cards": "9d 8h 2s", "seat-2-cards": "As", "dealer-cards": "Ks 7d"}
    shown = text(refused(dealer, url + "cancel/", {"round": round_id, "reason": " ", **cards}))
    assert step_is_cards(shown)
    for name, typed in cards.items():
        assert re.search(rf'name="{name}"[^>]*value="{typed}"', shown), name
    error = shown.split('id="err-reason"', 1)[1].split("</p>", 1)[0]
    assert 'The reason ("Why") is missing: say why round 1 is cancelled' in html.unescape(error)
    assert '<details class="misdeal" open>' in shown
    assert Round.objects.get(pk=round_id).status == "open"
    # a reload shows the round as it is (the cards were never saved)
    assert "9d 8h 2s" not in text(dealer.get(url))
    done = dealer.post(url + "cancel/", {"round": round_id, "reason": "misdeal", **cards})
    assert done.status_code == 303 and Round.objects.get(pk=round_id).status == "cancelled"
    assert step(dealer.get(url)) == "Wagers"


def step_is_cards(page: str) -> bool:
    return bool(re.search(r'<li class="now" aria-current="step">Cards</li>', page))


def test_leaving_an_open_round_asks_first(floor: dict[str, Any]) -> None:
    dealer = client_for("dealer")
    table = floor["SC-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    leave = form_tag(text(dealer.get(url)), "/tablet/sign-out/")
    assert "data-confirm" not in leave  # no round open: nothing to warn about
    dealer.post(url + "open/", {"seat-1-ante": "10"})
    page = text(dealer.get(url))
    leave = form_tag(page, "/tablet/sign-out/")
    assert 'data-confirm="Round 1 is still open at SC-1.' in leave
    assert "The round stays open for the next dealer" in leave
    assert "Round 1 is open</small>" in page
