"""The tablet follows a sign-off made elsewhere: a pit boss who approves a waiting payout from
the dashboard sends the dealer's tablet (its poll, or a reload) to the round's payout ("Pay
seat 1 ..."), before the next wagers; a jackpot's words name what the meter pays and the net
apart."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Round

from .test_tablet_controls import jackpot_to_confirm
from .test_tablet_views import client_for, hidden, sign_in, step, text

pytestmark = pytest.mark.django_db


def waiting_jackpot(floor: dict[str, Any]) -> tuple[Client, str, str]:
    dealer = client_for("dealer")
    table = floor["LB-1"]
    sign_in(dealer, table)
    url, round_id = jackpot_to_confirm(dealer, table)
    key = hidden(dealer.get(url), "idempotency_key")
    assert (
        dealer.post(url + "settle/", {"round": round_id, "idempotency_key": key})["Location"] == url
    )
    page = text(dealer.get(url))  # the tablet shows the round waiting
    assert "Waiting for a pit boss's sign-off" in page
    return dealer, url, round_id


def approve_on_dashboard(round_id: str) -> None:
    boss = client_for("pitboss")
    assert (
        boss.post(
            reverse("audit:round_approve", args=[round_id]), {"confirm": "approve"}
        ).status_code
        == 303
    )
    assert Round.objects.get(pk=round_id).status == "settled"


def test_the_poll_follows_a_dashboard_sign_off_to_the_payout(floor: dict[str, Any]) -> None:
    dealer, url, round_id = waiting_jackpot(floor)
    page = text(dealer.get(url))
    watch = page.split('id="round-watch" hx-get="', 1)[1].split('"', 1)[0]
    assert f"round={round_id}" in watch
    assert dealer.get(watch).status_code == 204  # still waiting: nothing to say
    approve_on_dashboard(round_id)
    notice = dealer.get(watch)
    assert notice.status_code == 200
    assert notice["HX-Redirect"] == f"/tablet/round/{round_id}/"
    shown = text(notice)
    assert "Pit boss pitboss signed off round 1: pay the players." in shown
    assert "Show what to pay" in shown and "changed on another tablet" not in shown
    payout = text(dealer.get(notice["HX-Redirect"]))
    assert 'id="pay-list"' in payout and "Pay seat 1 $" in payout
    assert "Signed off by pit boss pitboss" in payout
    # the payout was shown: the table page goes on to the next wagers
    assert step(dealer.get(url)) == "Wagers"


def test_a_reload_after_a_dashboard_sign_off_shows_the_payout_first(
    floor: dict[str, Any],
) -> None:
    dealer, url, round_id = waiting_jackpot(floor)
    approve_on_dashboard(round_id)
    reload = dealer.get(url)
    assert reload.status_code == 303 and reload["Location"] == f"/tablet/round/{round_id}/"
    payout = text(dealer.get(reload["Location"]))
    assert "Pay seat 1 $" in payout and "nothing is paid yet" not in payout
    assert step(dealer.get(url)) == "Wagers"  # once: then the next round


def test_a_round_cancelled_while_waiting_is_not_followed(floor: dict[str, Any]) -> None:
    dealer, url, round_id = waiting_jackpot(floor)
    done = dealer.post(url + "cancel/", {"round": round_id, "reason": "misdeal"})
    assert done.status_code == 303
    assert dealer.get(url).status_code == 200 and step(dealer.get(url)) == "Wagers"


def test_a_jackpot_names_the_award_and_the_net_apart(floor: dict[str, Any]) -> None:
    dealer, url, round_id = waiting_jackpot(floor)
    r = Round.objects.get(pk=round_id)
    meter = floor["LB-1"].meter
    meter.refresh_from_db()
    [reason] = [x for x in r.approval_reasons if "jackpot" in x]
    stake = meter.wager_cents
    # the meter pays its value (plus the round's contribution); the net is that less the wager
    assert reason.startswith("seat 1 wins the progressive jackpot: $")
    assert " paid from the meter; net +$" in reason
    assert reason.endswith(f"after the ${stake // 100}.{stake % 100:02d} wager")
    paid, net = reason.split(": ", 1)[1].split(" paid from the meter; net +")
    net = net.split(" after")[0]
    cents = lambda d: int(d.replace("$", "").replace(",", "").replace(".", ""))  # noqa: E731
    assert cents(paid) - cents(net) == stake
    page = text(dealer.get(url))
    assert reason[0].upper() + reason[1:] in page  # the sign-off's reasons on the tablet
    approve_on_dashboard(round_id)
    payout = text(dealer.get(f"/tablet/round/{round_id}/"))
    assert f"Seat 1 wins the progressive jackpot: {paid} paid from the meter; net +{net}" in payout
    trail = text(client_for("auditor").get(reverse("audit:round", args=[round_id])))
    assert f"{paid} paid from the meter" in trail
