"""Rated play keeps the record whole: players, ratings, notes, comp rates and redemptions are
bound to their latest events, and `verify_audit` sums every rating's figures again."""

from __future__ import annotations

from typing import Any

import pytest

from audit.verify import verify_record
from players import services
from players.models import Rating
from tests.players.conftest import play, player, seat, unseat

pytestmark = pytest.mark.django_db


def test_rated_play_verifies_clean_and_a_spoiled_figure_is_caught(
    figures: dict[str, Any], dealer_at: Any
) -> None:
    client = dealer_at("PY-1")
    seat(client, figures["PY-1"], 1, "100003")
    play(
        client,
        figures["PY-1"],
        {1: ({"ante": "500.00"}, "Ah Kd 2c", {"house_way": True})},
        "Qs Jd 3h",
        "v1",
    )
    unseat(client, figures["PY-1"], 1)
    rating = Rating.objects.get()
    services.rating_adjust(rating=rating, seconds=900, reason="stepped away", by=figures["pitboss"])
    services.rating_note(rating=rating, note="regular", by=figures["pitboss"])
    chen = player("100003")
    services.player_change(player=chen, by=figures["host"], tier="gold", reason="review")
    # the rating keeps the tier it was seated with: its points stand
    if services.balance(chen):
        services.redemption_enter(player=chen, points=1, reason="coffee", by=figures["host"])
    assert verify_record().problems == ()
    Rating.objects.filter(pk=rating.pk).update(wagered_cents=1)
    problems = verify_record().problems
    assert any("wagered_cents" in p for p in problems), problems
