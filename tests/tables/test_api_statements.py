"""A play step through the API reads its round once for the access check and once under the
service's lock, writes it once, and answers without reading it again (nor its lines)."""

from __future__ import annotations

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.helpers import ok
from tests.tables.test_api import dealer_at  # noqa: F401  (fixture)

ROUND_TABLE = re.compile(r'\b(FROM|UPDATE|INTO) "?tables_round"?[\s(]')


def statements_on_rounds(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if ROUND_TABLE.search(q["sql"])]


def step(client, url: str, body: dict, **headers: str) -> tuple[dict, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        answer = ok(client.post(url, body, format="json", **headers))
    return answer, statements_on_rounds(captured)


def test_each_play_step_reads_its_round_twice_and_writes_it_once(floor, dealer_at) -> None:  # noqa: F811
    client = dealer_at("SC-1")
    r = ok(
        client.post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "10.00"}, 2: {"ante": "5.00"}}},
            format="json",
        ),
        201,
    )
    url = f"/api/rounds/{r['id']}/"
    r, on_rounds = step(
        client, url + "deal/", {"cards": {1: "9d 8h 2s", 2: "Ac Kd 3h"}, "dealer": "Ks 7d 2c"}
    )
    assert len(on_rounds) == 3, on_rounds  # access check, locked read, the entry's update
    for seat in (1, 2):
        r, on_rounds = step(client, url + "decide/", {"seat": seat, "decision": {}})
        assert len(on_rounds) == 3, on_rounds
    r, on_rounds = step(client, url + "dealer/", {"draw": []})
    assert len(on_rounds) == 3, on_rounds
    r, on_rounds = step(client, url + "settle/", {}, HTTP_IDEMPOTENCY_KEY="statements-1")
    assert r["status"] == "settled" and len(r["lines"]) == 2
    # access check, locked read, the closing update, the round as stored (a key another round
    # has is refused by the unique index, not read first)
    assert len(on_rounds) == 4, on_rounds
