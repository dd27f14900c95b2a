"""Two tablets settling the same round at the same moment, on the real database: one settles,
the other is told the round is already settled; lines and meter move once."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.test import override_settings

from tables.models import Round, SettlementLine, Table
from tables.services import ServiceError
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_tablets_cannot_settle_one_round_twice() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL) for real row locks between connections")
    with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    from django.contrib.auth import get_user_model

    dealer = get_user_model().objects.get(username="dealer2")
    table = Table.objects.get(name="LB-1")
    dealer_sign_in(dealer=dealer, table=table)
    r = svc.round_open(
        table=table,
        dealer=dealer,
        wagers={s: {"ante": "10.00", "progressive": "1.00"} for s in range(1, 8)},
    )
    r = svc.round_deal(
        round=r,
        dealer=dealer,
        seat_cards={
            1: "2c 3c 5d",
            2: "2d 3d 6c",
            3: "2h 3h 7c",
            4: "2s 3s 8c",
            5: "4c 4d 9c",
            6: "5c 5h Tc",
            7: "6d 6h Jc",
        },
        dealer_cards="Kd 8s 7d",
    )
    for seat in range(1, 8):
        r = svc.round_decide(round=r, dealer=dealer, seat=seat, decision={})
    r = svc.round_dealer(round=r, dealer=dealer, draw=["Ah"])
    meter_before = table.meter.value_cents

    barrier = threading.Barrier(2)
    outcomes: list[Any] = []

    def tablet(key: str) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(svc.round_settle(round=r, dealer=dealer, idempotency_key=key).status)
        except ServiceError as err:
            outcomes.append(err.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet, args=(f"tablet-{i}",)) for i in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == ["already_settled", "settled"]
    assert Round.objects.get(pk=r.pk).status == "settled"
    assert SettlementLine.objects.filter(round=r, wager="ante").count() == 7
    table.meter.refresh_from_db()
    assert table.meter.value_cents == meter_before + 140  # 7 x 20 % of 1.00, once
