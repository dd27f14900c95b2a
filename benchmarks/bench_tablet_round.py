"""Benchmark: one round through the dealer tablet's pages, step by step.

Plays `--rounds` Lowball rounds at LB-1 (two seats, the progressive on one) through the real
pages with Django's test client on a fresh test database (SQLite in memory unless
DATABASE_URL says otherwise), and reports, per step, how many times the engine settled the
round (`tables.engine.contract.settle`) and the median time of the step's requests.

    .venv/bin/python benchmarks/bench_tablet_round.py --rounds 200

Figures and the reading: docs/benchmarks.md ("The tablet's round, step by step").
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DJANGO_DEBUG", "true")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from benchmarks.common import machine
    from tables.engine import contract
    from tables.models import Table

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    setup_test_environment()
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    table = Table.objects.get(name="LB-1")
    client = Client()
    assert client.login(username="dealer", password="demo")
    url = f"/tablet/table/{table.pk}/"
    assert client.post("/tablet/", {"table": table.pk}).status_code == 303

    times: dict[str, list[float]] = defaultdict(list)
    calls: dict[str, int] = defaultdict(int)
    real = contract.settle

    def step(name: str, method: str, path: str, data: dict[str, Any] | None = None) -> Any:
        before = spy.call_count
        start = time.perf_counter()
        response = getattr(client, method)(path, data or {})
        times[name].append((time.perf_counter() - start) * 1000)
        calls[name] += spy.call_count - before
        assert response.status_code in (200, 303), (name, response.status_code)
        return response

    hands = [
        (
            {"seat-2-cards": "7c 4h 2s", "seat-4-cards": "Kd 9c 3c", "dealer-cards": "Jd Jc 6h"},
            {"seat": "4", "action": "draw", "seat-4-discard": ["Kd"], "seat-4-draw": "Ad"},
            {"dealer-draw": "8s 5c"},
        ),
    ]
    with mock.patch("tables.engine.contract.settle", side_effect=real) as spy:
        for _ in range(args.rounds):
            cards, decision, dealer = hands[0]
            step(
                "wagers: open",
                "post",
                url + "open/",
                {"seat-2-ante": "10", "seat-4-ante": "5", "seat-4-progressive": "1"},
            )
            page = step("cards: page", "get", url)
            round_id = re.search(r'name="round" value="(\d+)"', page.content.decode()).group(1)
            step("cards: deal", "post", url + "deal/", {"round": round_id, **cards})
            step("decisions: page", "get", url)
            step(
                "decisions: seat 2",
                "post",
                url + "decide/",
                {"round": round_id, "seat": "2", "action": "stand"},
            )
            step("decisions: seat 4", "post", url + "decide/", {"round": round_id, **decision})
            step("house way: page", "get", url)
            step("house way: dealer", "post", url + "dealer/", {"round": round_id, **dealer})
            page = step("confirm: page", "get", url)
            key = re.search(r'name="idempotency_key" value="(\w+)"', page.content.decode())
            step(
                "settle",
                "post",
                url + "settle/",
                {"round": round_id, "idempotency_key": key.group(1)},
            )
    out = {
        "machine": machine(database=connection.vendor),
        "rounds": args.rounds,
        "settlements_per_round": sum(calls.values()) / args.rounds,
        "steps": {
            name: {
                "settlements_per_round": calls[name] / args.rounds,
                "median_ms": round(statistics.median(t), 2),
            }
            for name, t in times.items()
        },
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
