"""A barred or self-excluded player's card buys no chips, at a table or at the cage; chips the
player holds are still redeemed."""

from __future__ import annotations

from typing import Any

import pytest

from accounting.models import Slip
from compliance.models import CashTransaction, Patron
from compliance.services import cage_record
from core.errors import ServiceError
from players.models import Player

from .conftest import buy_in

pytestmark = pytest.mark.django_db


def _card(status: str) -> str:
    player = Player.objects.filter(status=Player.Status.ACTIVE).order_by("card").first()
    assert player is not None
    Player.objects.filter(pk=player.pk).update(status=status)
    return player.card


@pytest.mark.parametrize("status", ["barred", "self_excluded"])
def test_a_barred_card_buys_in_nowhere(cash: dict[str, Any], status: str) -> None:
    card = _card(status)
    slips, txs = Slip.objects.count(), CashTransaction.objects.count()
    with pytest.raises(ServiceError) as refused:
        buy_in(cash, "SC-1", "500.00", seat=2, patron=card)
    assert refused.value.field == "patron" and refused.value.status == 403
    assert f"card {card}" in refused.value.message and "call the pit boss" in refused.value.message
    with pytest.raises(ServiceError):
        cage_record(kind="chips_bought", patron=card, amount="500.00", by=cash["cage"])
    assert (Slip.objects.count(), CashTransaction.objects.count()) == (slips, txs)


def test_a_barred_players_chips_are_still_redeemed(cash: dict[str, Any]) -> None:
    card = _card("active")
    buy_in(cash, "SC-1", "500.00", seat=2, patron=card)
    Player.objects.filter(card=card).update(status="barred")
    tx = cage_record(kind="chips_redeemed", patron=card, amount="450.00", by=cash["cage"])
    assert tx.patron == Patron.objects.get(player__card=card)
