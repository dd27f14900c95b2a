"""Benchmark `verify_audit` over a million audit events (issue 8: aim under a minute).

Run from the project root (PostgreSQL on 127.0.0.1:5432, user postgres, trust auth):

    .venv/bin/python benchmarks/bench_verify.py [--events 1000000] [--every 100] [--sqlite]
        [--keep] [--markdown]

1. Recreates the database `casino_verify_bench` (or, with `--sqlite`, a temporary SQLite
   file), migrates it, and writes `--events` chained events shaped like a floor's (three in four
   small step events, one in four a settled round with its whole settlement, ~1 KB), a signed,
   chained checkpoint every `--every` events, and the anchor file, exactly as `audit_record`
   and the checkpoints would have: hashes by `audit.chain`, signatures by `audit.checkpoints`.
   The rows go in by COPY (SQLite: executemany) with the guards lifted, for speed only.
2. Times `verify_chain()` in this process, then `manage.py verify_audit` as a subprocess
   (start-up included), and checks both say the chain is whole.
3. Prints the machine and the figures.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import admin_execute, machine  # noqa: E402

DB = "casino_verify_bench"
ADMIN = "postgres://postgres@127.0.0.1:5432"


def settlement(i: int) -> dict[str, Any]:
    return {
        "number": i,
        "settlement": {
            "game": "second_chance",
            "dealer": {"cards": ["Qs", "7d", "2c"], "hand": "high_card", "qualifies": True},
            "seats": [
                {
                    "seat": s,
                    "cards": ["9d", "8h", "2s"],
                    "hand": "high_card",
                    "lines": [
                        {"wager": "ante", "stake": "10.00", "result": "lose", "net": "-10.00"},
                        {"wager": "raise", "stake": "10.00", "result": "lose", "net": "-10.00"},
                        {"wager": "pair_plus", "stake": "5.00", "result": "lose", "net": "-5.00"},
                    ],
                }
                for s in range(1, 4)
            ],
        },
        "handle_cents": 7500,
        "players_net_cents": -7500,
        "idempotency_key": f"key-{i}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="verify-bench-"))
    if args.sqlite:
        url = f"sqlite:///{tmp / 'bench.sqlite3'}"
    else:
        admin_execute(ADMIN, f'DROP DATABASE IF EXISTS "{DB}"', f'CREATE DATABASE "{DB}"')
        url = f"{ADMIN}/{DB}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "AUDIT_ANCHOR_PATH": str(tmp / "anchor.jsonl"),
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        "DJANGO_DEBUG": "true",  # the development keys sign the benchmark's checkpoints
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from audit import triggers
    from audit.chain import GENESIS, event_hash
    from audit.checkpoints import anchor_append, iso, sign
    from audit.verify import verify_chain

    call_command("migrate", verbosity=0)

    t0 = time.perf_counter()
    start = datetime.now(UTC) - timedelta(days=30)
    step = timedelta(seconds=30 * 86400 / max(args.events, 1))
    prev, prev_sig = GENESIS, GENESIS
    events: list[tuple[Any, ...]] = []
    checkpoints: list[tuple[Any, ...]] = []
    anchor: list[dict[str, Any]] = []
    for seq in range(1, args.events + 1):
        at = start + step * seq
        settled = seq % 4 == 0
        fields = {
            "seq": seq,
            "at": at,
            "actor_id": None,
            "actor_name": f"dealer{seq % 40}",
            "kind": "round.settled" if settled else "round.step",
            "object_type": "tables.round",
            "object_id": str(seq // 4),
            "table_name": f"T-{seq % 24}",
            "data": settlement(seq) if settled else {"step": "decide", "seat": seq % 7 + 1},
            "prev_hash": prev,
        }
        h = event_hash(**fields)
        events.append((*fields.values(), h))
        prev = h
        if seq % args.every == 0 or seq == args.events:
            cp_at = at + timedelta(milliseconds=1)
            sig = sign(
                seq=seq, chain_hash=h, at_iso=iso(cp_at), key_id="k1", prev_signature=prev_sig
            )
            checkpoints.append((seq, h, cp_at, "k1", prev_sig, sig))
            anchor.append(
                {
                    "seq": seq,
                    "hash": h,
                    "at": iso(cp_at),
                    "key_id": "k1",
                    "prev_signature": prev_sig,
                    "signature": sig,
                }
            )
            prev_sig = sig
    built = time.perf_counter() - t0

    import json

    t0 = time.perf_counter()
    event_cols = (
        "seq, at, actor_id, actor_name, kind, object_type, object_id, table_name, data, "
        "prev_hash, hash"
    )
    cp_cols = "seq, hash, at, key_id, prev_signature, signature"
    with triggers.lifted(connection), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY audit_auditevent ({event_cols}) FROM STDIN") as copy:
                for row in events:
                    copy.write_row(
                        (*row[:8], json.dumps(row[8], ensure_ascii=False), row[9], row[10])
                    )
            with cursor.cursor.copy(f"COPY audit_auditcheckpoint ({cp_cols}) FROM STDIN") as copy:
                for row in checkpoints:
                    copy.write_row(row)
        else:
            cursor.executemany(
                f"INSERT INTO audit_auditevent ({event_cols}) VALUES "
                "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        *row[:1],
                        row[1].isoformat(),
                        *row[2:8],
                        json.dumps(row[8], ensure_ascii=False),
                        row[9],
                        row[10],
                    )
                    for row in events
                ],
            )
            cursor.executemany(
                f"INSERT INTO audit_auditcheckpoint ({cp_cols}) VALUES (%s, %s, %s, %s, %s, %s)",
                [(r[0], r[1], r[2].isoformat(), *r[3:]) for r in checkpoints],
            )
        cursor.execute(
            "UPDATE audit_audithead SET seq = %s, hash = %s WHERE id = 1", [args.events, prev]
        )
    for line in anchor:
        anchor_append(line)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE audit_auditevent")
    loaded = time.perf_counter() - t0
    del events

    t0 = time.perf_counter()
    count, problem = verify_chain()
    in_process = time.perf_counter() - t0
    assert problem is None, problem
    assert count == args.events

    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "manage.py", "verify_audit"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    command = time.perf_counter() - t0
    assert done.returncode == 0, done.stderr
    connection.close()
    if not args.sqlite and not args.keep:
        admin_execute(ADMIN, f'DROP DATABASE IF EXISTS "{DB}"')

    info = machine(database=connection.vendor)
    figures = {
        "events": f"{args.events:,}",
        "checkpoints (anchored)": f"{len(checkpoints):,}",
        "chain built in Python": f"{built:.1f} s",
        "rows loaded": f"{loaded:.1f} s",
        "verify_chain() in process": f"{in_process:.1f} s "
        f"({args.events / in_process:,.0f} events/s)",
        "manage.py verify_audit (start-up included)": f"{command:.1f} s",
        "output": done.stdout.strip(),
    }
    if args.markdown:
        print("| machine | |\n| --- | --- |")
        for k, v in info.items():
            print(f"| {k} | {v} |")
        print("\n| figure | value |\n| --- | --- |")
        for k, v in figures.items():
            print(f"| {k} | {v} |")
    else:
        for k, v in {**info, **figures}.items():
            print(f"{k}: {v}")


if __name__ == "__main__":
    main()
