"""The player page's and the tablet's forms post text: a number that is not ASCII digits ("²"
passes `str.isdigit()`, `int()` refuses it) or too long for any column is refused with the
page's message naming the field (400), never a server error, and nothing is saved."""

from __future__ import annotations

from typing import Any

import pytest

from audit.models import AuditEvent
from players.models import Player, Rating, RatingNote, Redemption
from tests.helpers import client_for
from tests.players.conftest import seat, unseat

pytestmark = pytest.mark.django_db

HUGE = "9" * 5000


@pytest.mark.parametrize(
    "form",
    [
        {"action": "redeem", "points": "²", "reason": "dinner"},
        {"action": "redeem", "points": HUGE, "reason": "dinner"},
        {"action": "approve", "redemption": "²"},
        {"action": "adjust", "minutes": "²", "reason": "left early"},
        {"action": "adjust", "minutes": HUGE, "reason": "left early"},
        {"action": "adjust", "rating": "²", "minutes": "5", "reason": "left early"},
    ],
    ids=["points-sup2", "points-huge", "id-sup2", "minutes-sup2", "minutes-huge", "rating-sup2"],
)
def test_a_number_that_is_not_ascii_digits_is_refused_naming_it(
    floor: dict[str, Any], dealer_at: Any, form: dict[str, str]
) -> None:
    table = floor["PY-1"]
    dealer = dealer_at("PY-1")
    rating = seat(dealer, table, 1, "100001")
    unseat(dealer, table, 1)
    alice = Player.objects.get(card="100001")
    form = {"rating": str(rating["id"]), **form}
    before = (Redemption.objects.count(), RatingNote.objects.count(), AuditEvent.objects.count())

    response = client_for(floor["pitboss"]).post(f"/players/{alice.pk}/", form)

    assert response.status_code in (400, 404), response.status_code
    after = (Redemption.objects.count(), RatingNote.objects.count())
    assert after == before[:2]
    assert Rating.objects.get(pk=rating["id"]).adjusted_seconds is None
    if response.status_code == 400:
        field = next(k for k in ("points", "minutes") if k in form and form[k] in ("²", HUGE))
        assert field in response.content.decode()


@pytest.mark.parametrize("value", ["²", HUGE, "-3"], ids=["sup2", "huge", "negative"])
def test_the_tablets_seat_is_ascii_digits(
    floor: dict[str, Any], dealer_at: Any, value: str
) -> None:
    table = floor["PY-1"]
    dealer = dealer_at("PY-1")
    response = dealer.post(f"/players/tablet/{table.pk}/seat/", {"seat": value, "card": "100001"})
    assert response.status_code == 400
    assert "seat" in response.content.decode()
    assert not Rating.objects.exists()


@pytest.mark.parametrize("url", ["/players/day/", "/players/day.csv"])
def test_a_day_that_is_not_a_date_is_the_400_page_naming_it(
    floor: dict[str, Any], url: str
) -> None:
    response = client_for(floor["pitboss"]).get(url, {"day": "2026-13-45"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "day" in page and "2026-11-21" in page
    assert client_for(floor["pitboss"]).get(url).status_code == 200
