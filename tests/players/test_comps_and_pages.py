"""Comps: rates per tier drafted by one admin and approved by a second (nobody approves their
own), points from the theoretical win, redemptions by a host with a second person's approval
above the limit. The pages: the floor now, a player's page, the day's report and its CSV, the
tablet's seating page."""

from __future__ import annotations

import csv
import io
from decimal import ROUND_FLOOR, Decimal
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from audit.kinds import EventKind
from audit.models import AuditEvent
from core.errors import ServiceError
from players import services
from players.models import CompRateVersion, Rating, Redemption
from tests.helpers import client_for
from tests.players.conftest import edges, play, player, seat

pytestmark = pytest.mark.django_db

HOUSE_WAY = {"house_way": True}


def test_comp_rates_need_a_second_admin_and_apply_to_players_seated_after(
    figures: dict[str, Any], dealer_at: Any
) -> None:
    in_force = services.in_force_rates()
    assert in_force is not None and in_force.rates["gold"] == "0.20"  # the demo's
    draft = services.comp_rates_draft(
        rates={"bronze": "1", "silver": "1", "gold": "2.5", "platinum": "3"}, by=figures["admin"]
    )
    with pytest.raises(PermissionDenied, match="second admin"):
        services.comp_rates_approve(version=draft, by=figures["admin"])
    with pytest.raises(PermissionDenied):
        services.comp_rates_approve(version=draft, by=figures["pitboss"])
    with pytest.raises(ServiceError, match="silver"):
        services.comp_rates_draft(rates={"bronze": "1", "gold": "1"}, by=figures["admin"])
    client = dealer_at("PY-1")
    seat(client, figures["PY-1"], 1, "100001")  # seated under the demo's rates
    services.comp_rates_approve(version=draft, by=figures["admin2"])
    assert services.in_force_rates() == draft
    seat(client, figures["PY-1"], 2, "100003")  # platinum, seated under the new rates
    r = play(
        client,
        figures["PY-1"],
        {
            1: ({"ante": "200.00"}, "Ah Kd 2c", HOUSE_WAY),
            2: ({"ante": "200.00"}, "5s 5d 9h", HOUSE_WAY),
        },
        "Qs Jd 3h",
        "c1",
    )
    assert r["status"] == "settled"
    theo = edges(figures["PY-1"])["ante"] * 20000
    alice, chen = Rating.objects.get(seat=1), Rating.objects.get(seat=2)
    assert alice.comp_rates != draft and chen.comp_rates == draft
    assert alice.points == int((theo / 100 * Decimal("0.20")).to_integral(ROUND_FLOOR))
    assert chen.points == int((theo / 100 * Decimal("3")).to_integral(ROUND_FLOOR))
    assert services.balance(player("100003")) == chen.points > 0
    kinds = set(AuditEvent.objects.values_list("kind", flat=True))
    assert {EventKind.COMP_RATES_DRAFTED, EventKind.COMP_RATES_APPROVED} <= kinds


def test_a_redemption_above_the_limit_waits_for_a_second_person(
    figures: dict[str, Any], dealer_at: Any, settings: Any
) -> None:
    settings.CASINO_COMP_APPROVAL_POINTS = 3
    client = dealer_at("PY-1")
    seat(client, figures["PY-1"], 1, "100003")
    for key, cards in (("r1", "Ah Kd 2c"), ("r2", "7h 7c Ks"), ("r3", "2h 3d 5c")):
        play(client, figures["PY-1"], {1: ({"ante": "500.00"}, cards, HOUSE_WAY)}, "Qs Jd 3h", key)
    chen = player("100003")
    earned = services.points_earned(chen)
    assert earned >= 10
    host, pitboss = figures["host"], figures["pitboss"]
    small = services.redemption_enter(player=chen, points=2, reason="coffee", by=host)
    assert small.status == Redemption.Status.APPROVED
    assert services.balance(chen) == earned - 2
    big = services.redemption_enter(player=chen, points=5, reason="dinner for two", by=host)
    assert big.status == Redemption.Status.PENDING
    assert services.balance(chen) == earned - 2  # not yet
    with pytest.raises(PermissionDenied, match="second person"):
        services.redemption_approve(redemption=big, by=host)
    with pytest.raises(ServiceError, match="points to redeem"):
        services.redemption_enter(player=chen, points=earned, reason="too much", by=host)
    with pytest.raises(PermissionDenied):
        services.redemption_enter(player=chen, points=1, reason="x", by=figures["dealer"])
    services.redemption_approve(redemption=big, by=pitboss)
    assert services.balance(chen) == earned - 7
    # The player's page shows the balance.
    page = client_for(host).get(f"/players/{chen.pk}/").content.decode()
    assert f"{earned - 7} ({earned} earned, 7 redeemed)" in page
    assert "dinner for two" in page


def test_the_pages_show_the_ratings_and_the_csv_has_each_player(
    figures: dict[str, Any], dealer_at: Any
) -> None:
    client = dealer_at("PY-1")
    seat(client, figures["PY-1"], 1, "100001")
    play(client, figures["PY-1"], {1: ({"ante": "25.00"}, "Ah Kd 2c", HOUSE_WAY)}, "Qs Jd 3h", "p")
    rating = Rating.objects.get()
    pit = client_for(figures["pitboss"])
    floor_page = pit.get("/players/floor/").content.decode()
    assert "Alice Martin" in floor_page and "Seat 1" in floor_page and "$25.00" in floor_page
    day = rating.gaming_day.isoformat()
    report = pit.get(f"/players/day/?day={day}").content.decode()
    assert "100001" in report and "$25.00" in report
    response = pit.get(f"/players/day.csv?day={day}")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["card", "name", "hands"]
    assert rows[1][:3] == ["100001", "Alice Martin", "1"] and rows[1][4] == "$25.00"
    found = pit.get("/players/?q=martin").content.decode()
    assert "Alice Martin" in found
    assert "Alice Martin" in pit.get("/players/?q=100001").content.decode()
    # The dealer's tablet page shows the card number and first name only.
    tablet = client.get(f"/players/tablet/{figures['PY-1'].pk}/").content.decode()
    assert "card 100001 · Alice" in tablet and "Martin" not in tablet
    assert client.get("/players/floor/").status_code == 403
    assert (
        client_for(figures["dealer2"]).get(f"/players/tablet/{figures['PY-1'].pk}/").status_code
        == 403
    )


def test_comp_rates_page_is_for_admins(figures: dict[str, Any]) -> None:
    admin = client_for(figures["admin"])
    page = admin.get("/players/comp-rates/")
    assert page.status_code == 200 and "v1 (in force)" in page.content.decode()
    response = admin.post(
        "/players/comp-rates/",
        {"action": "draft", "bronze": "1", "silver": "1", "gold": "1", "platinum": "x"},
    )
    assert response.status_code == 400 and "platinum" in response.content.decode()
    assert CompRateVersion.objects.count() == 1
    assert client_for(figures["host"]).get("/players/comp-rates/").status_code == 403


def test_a_redemption_is_not_approved_by_the_one_who_set_up_the_host(
    figures: dict[str, Any], dealer_at: Any, settings: Any
) -> None:
    """An officer creates host account H, later becomes a pit boss; H enters a redemption above
    the limit: the former officer may not approve it, another pit boss may."""
    from core.roles import Role
    from tests.tables.test_two_person import _add_account, _officer, _set_roles

    settings.CASINO_COMP_APPROVAL_POINTS = 3
    client = dealer_at("PY-1")
    seat(client, figures["PY-1"], 1, "100003")
    for key, cards in (("r1", "Ah Kd 2c"), ("r2", "7h 7c Ks")):
        play(client, figures["PY-1"], {1: ({"ante": "500.00"}, cards, HOUSE_WAY)}, "Qs Jd 3h", key)
    chen = player("100003")
    first = _officer("officer-1")
    new_host = _add_account(first, "host-2", Role.HOST)
    first = _set_roles(_officer("officer-2"), first, Role.PIT_BOSS)
    big = services.redemption_enter(player=chen, points=4, reason="show tickets", by=new_host)
    with pytest.raises(PermissionDenied) as refusal:
        services.redemption_approve(redemption=big, by=first)
    assert str(refusal.value) == (
        "host-2's account, which entered the redemption of 4 points for card 100003, was "
        "created or changed by officer-1: another host or pit boss must approve it"
    )
    assert Redemption.objects.get(pk=big.pk).status == Redemption.Status.PENDING
    services.redemption_approve(redemption=big, by=figures["pitboss"])
    assert Redemption.objects.get(pk=big.pk).status == Redemption.Status.APPROVED


def test_a_card_number_is_the_same_card_in_capitals_or_not(figures: dict[str, Any]) -> None:
    made = services.player_create(by=figures["host"], card="vip77x", name="Vera Ip", tier="gold")
    assert made.card == "VIP77X"
    with pytest.raises(ServiceError, match="card VIP77X is already a player's"):
        services.player_create(by=figures["host"], card="VIP77x", name="Someone Else")
    rating = services.seat_player(
        table=figures["PY-1"], seat=3, card=" Vip77X ", by=figures["pitboss"]
    )
    assert rating.player == made
