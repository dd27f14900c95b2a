"""The API answers a round with `round_data`, built from the instance the service left, without
reading the round again: it must be exactly what `RoundSerializer` (the documented shape) gives
for the round as stored, in every state and at every step."""

from __future__ import annotations

import json
import random
from typing import Any

from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from tables.api.representation import round_data
from tables.api.selectors import rounds
from tables.api.serializers import RoundSerializer
from tables.models import Round
from tables.services import rounds as svc
from tables.services.controls import round_cancel
from tables.services.corrections import round_void
from tables.services.sessions import dealer_sign_in
from tables.simulation import play_round
from tests.helpers import ok
from tests.tables.test_api import dealer_at, play_to_confirm  # noqa: F401  (fixture)


def as_sent(data: Any) -> Any:
    """What the client receives: the body rendered as the API renders it, parsed back."""
    return json.loads(JSONRenderer().render(data))


def assert_same_as_serializer(given: Round | dict[str, Any], pk: int | None = None) -> None:
    body = as_sent(round_data(given) if isinstance(given, Round) else given)
    stored = rounds().get(pk=pk if pk is not None else body["id"])
    expected = as_sent(RoundSerializer(stored).data)
    assert list(body) == list(expected)  # the same keys, in the same order
    assert body == expected


def test_rounds_in_every_state_read_as_the_serializer_reads_them(floor) -> None:
    rng = random.Random(7)
    dealer = floor["dealer"]
    for name in ("SC-1", "LB-1", "PY-1"):
        dealer_sign_in(dealer=dealer, table=floor[name])
        for _ in range(4):
            settled = play_round(floor[name], dealer, rng, seats=3)
            assert_same_as_serializer(settled)  # the instance the settle step returned
    voided = Round.objects.filter(table=floor["SC-1"]).first()
    round_void(round=voided, by=floor["pitboss"], reason="wrong cards")
    # a void waiting for a second pit boss (as a signed-off payout's void leaves it)
    waiting = Round.objects.filter(table=floor["LB-1"]).first()
    Round.objects.filter(pk=waiting.pk).update(
        void_requested_at=timezone.now(), void_requested_by=floor["pitboss"], void_reason="x"
    )
    dealer_sign_in(dealer=dealer, table=floor["SC-1"])
    r = svc.round_open(table=floor["SC-1"], dealer=dealer, wagers={2: {"ante": "5.00"}})
    round_cancel(round=r, by=dealer, reason="misdeal")
    dealer_sign_in(dealer=dealer, table=floor["PY-1"])
    r = svc.round_open(table=floor["PY-1"], dealer=dealer, wagers={1: {"ante": "10.00"}})
    assert_same_as_serializer(r)  # an open round, from the instance the service returned
    for stored in rounds():
        assert_same_as_serializer(stored)
    assert {r.status for r in Round.objects.all()} >= {"settled", "voided", "cancelled", "open"}
    assert any(r.void_waiting for r in Round.objects.all())


def test_each_play_step_answers_the_round_as_stored(floor, dealer_at) -> None:  # noqa: F811
    client = dealer_at("LB-1")
    url = "/api/rounds/"
    body = ok(
        client.post(
            url,
            {"table": floor["LB-1"].pk, "wagers": {3: {"ante": "10.00", "progressive": "1.00"}}},
            format="json",
        ),
        201,
    )
    assert_same_as_serializer(body)
    body = ok(
        client.post(
            f"{url}{body['id']}/deal/", {"cards": {3: "9c 5d 2h"}, "dealer": "Kc Qh 4s"}, "json"
        )
    )
    assert_same_as_serializer(body)
    body = ok(
        client.post(
            f"{url}{body['id']}/decide/",
            {"seat": 3, "decision": {"discard": "9c", "draw": "3s"}},
            "json",
        )
    )
    assert_same_as_serializer(body)
    body = ok(client.post(f"{url}{body['id']}/dealer/", {"draw": ["7c", "6d"]}, "json"))
    assert_same_as_serializer(body)
    settled = ok(client.post(f"{url}{body['id']}/settle/", {}, "json", HTTP_IDEMPOTENCY_KEY="k-1"))
    assert settled["status"] == "settled" and settled["lines"]
    assert_same_as_serializer(settled)
    assert_same_as_serializer(ok(client.get(f"{url}{body['id']}/")))
    for listed in ok(client.get(url))["results"]:
        assert_same_as_serializer(listed)
    sc = dealer_at("SC-1")
    body = play_to_confirm(
        sc,
        floor["SC-1"],
        {1: {"ante": "10.00", "pair_plus": "5.00"}},
        {1: "9d 8h 2s"},
        "Ks 7d 2c",
        {1: {}},
    )
    assert_same_as_serializer(body)
