"""Each round's settlement is computed once per step: the dealer's step (which checks the whole
round) and the settle step. The confirm page shows the dealer step's settlement, and computes
it again only when what it depends on changed (here: the progressive meter)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from tables.engine import contract
from tables.models import ProgressiveMeter
from tables.services.meters import meter_correct

from .test_tablet_views import ROUNDS, client_for, hidden, play_to_confirm, sign_in, step

pytestmark = pytest.mark.django_db


def _spy() -> Any:
    return mock.patch("tables.engine.contract.settle", side_effect=contract.settle)


@pytest.mark.parametrize("name", ["SC-1", "LB-1", "PY-1"])
def test_a_round_is_settled_once_at_the_dealer_step_and_once_at_the_settle_step(
    floor: dict[str, Any], name: str
) -> None:
    client, table = client_for("dealer"), floor[name]
    sign_in(client, table)
    url = f"/tablet/table/{table.pk}/"
    with _spy() as settle:
        page = play_to_confirm(client, table, ROUNDS[name])  # ends with the confirm page
        assert settle.call_count == 1  # the dealer's step; the confirm page reused it
        assert step(client.get(url)) == "Pay and close"
        assert settle.call_count == 1
        response = client.post(
            url + "settle/",
            {"round": hidden(page, "round"), "idempotency_key": hidden(page, "idempotency_key")},
        )
        assert response.status_code == 303
        assert settle.call_count == 2  # the settle step, under the meter's lock
        client.get(response["Location"])  # the result page reads the stored settlement
        assert settle.call_count == 2


def test_the_confirm_page_settles_again_when_the_meter_moved(floor: dict[str, Any]) -> None:
    client, table = client_for("dealer"), floor["LB-1"]
    sign_in(client, table)
    url = f"/tablet/table/{table.pk}/"
    with _spy() as settle:
        play_to_confirm(client, table, ROUNDS["LB-1"])
        assert settle.call_count == 1
        # the shared meter moved meanwhile: the kept preview is for its old value
        meter_correct(
            meter=ProgressiveMeter.objects.get(pk=table.meter_id),
            by=floor["admin"],
            amount_cents=10_000,
            reason="test: the meter moves while the round waits to be paid",
        )
        page = client.get(url)
        assert step(page) == "Pay and close"
        assert settle.call_count == 2
