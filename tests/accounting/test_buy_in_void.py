"""A buy-in's void is completed by two people from the pages: the dealer asks on the tablet's
chips page and a pit boss confirms at the desk, or a pit boss asks and another dealer at the
table confirms on the chips page. Nobody is offered a button the service would refuse: the one
who asked, and the one who entered the slip, are told who confirms instead."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounting.models import Slip
from tables.services.sessions import dealer_sign_in, dealer_sign_out

pytestmark = pytest.mark.django_db


def client(username: str) -> Client:
    c = Client()
    assert c.login(username=username, password="demo")
    return c


def buy_in(dealer: Client, table: Any) -> Slip:
    response = dealer.post(reverse("accounting:buy_in", args=[table.pk]), {"amount": "100.00"})
    assert response.status_code == 303
    return Slip.objects.get(kind="buy_in")


def test_the_dealer_asks_and_the_pit_boss_confirms(pit: dict[str, Any]) -> None:
    table = pit["SC-1"]
    dealer, boss = client("dealer"), client("pitboss")
    chips = reverse("accounting:tablet", args=[table.pk])
    slip = buy_in(dealer, table)
    page = dealer.get(chips).content.decode()
    assert f"Ask to void slip {slip.number}" in page
    void = reverse("accounting:tablet_void", args=[table.pk, slip.pk])
    refused = dealer.post(void, {"reason": "  "})
    assert refused.status_code == 400 and "a void needs its reason" in refused.content.decode()
    assert not slip.voids.exists()
    asked = dealer.post(void, {"reason": "rang up $100, the player bought in $50"})
    assert asked.status_code == 303
    shown = dealer.get(asked["Location"]).content.decode()
    assert "void asked: a second person confirms it" in shown
    assert f"Ask to void slip {slip.number}" not in shown  # no second button for the asker
    assert "Confirm void" not in shown
    desk = boss.get(reverse("accounting:desk")).content.decode()
    row = desk.split(f'data-slip="{slip.number}"', 1)[1].split("</tr>", 1)[0]
    assert "Confirm void" in row
    done = boss.post(reverse("accounting:void", args=[slip.pk]), {"reason": "agreed"})
    assert done.status_code == 303
    slip.refresh_from_db()
    assert slip.status == "voided"
    assert "voided" in dealer.get(chips + f"?slip={slip.pk}").content.decode()


def test_the_pit_boss_asks_and_another_dealer_confirms_at_the_table(
    pit: dict[str, Any],
) -> None:
    table = pit["SC-1"]
    dealer, boss = client("dealer"), client("pitboss")
    slip = buy_in(dealer, table)
    assert boss.post(reverse("accounting:void", args=[slip.pk]), {"reason": "wrong table"})[
        "Location"
    ]
    # the pit boss who asked is not offered "Confirm void"
    desk = boss.get(reverse("accounting:desk")).content.decode()
    row = desk.split(f'data-slip="{slip.number}"', 1)[1].split("</tr>", 1)[0]
    assert "Confirm void" not in row and "Ask void" not in row
    assert "You asked: another person confirms it" in row
    # the dealer who entered the slip is told who confirms, with no button
    chips = reverse("accounting:tablet", args=[table.pk])
    page = dealer.get(chips).content.decode()
    assert "Confirm void" not in page and 'id="voids-to-confirm"' not in page
    assert "You entered it: a pit boss or another dealer confirms the void" in page
    # another dealer at the table confirms it on the chips page
    dealer_sign_out(dealer=pit["dealer"])
    dealer_sign_in(dealer=pit["dealer2"], table=table)
    other = client("dealer2")
    page = other.get(chips).content.decode()
    assert 'id="voids-to-confirm"' in page and f"Confirm void of slip {slip.number}" in page
    void = reverse("accounting:tablet_void", args=[table.pk, slip.pk])
    assert other.post(void, {"reason": "agreed: it was LB-1's"}).status_code == 303
    slip.refresh_from_db()
    assert slip.status == "voided"
    assert list(slip.voids.values_list("by__username", flat=True)) == ["pitboss", "dealer2"]


def test_a_dealer_voids_only_at_their_own_table(pit: dict[str, Any]) -> None:
    slip = buy_in(client("dealer"), pit["SC-1"])
    other = client("dealer2")
    dealer_sign_in(dealer=pit["dealer2"], table=pit["LB-1"])
    response = other.post(
        reverse("accounting:tablet_void", args=[pit["SC-1"].pk, slip.pk]), {"reason": "x"}
    )
    assert response.status_code == 403 and not slip.voids.exists()
