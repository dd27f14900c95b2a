"""Benchmark `verify_audit` over a million audit events that bind the rows they record
(the whole record, bound rows included, must verify in under 10 minutes).

Run from the project root (PostgreSQL on 127.0.0.1:5432, user postgres, trust auth):

    .venv/bin/python benchmarks/bench_verify.py [--events 1000000] [--every 100] [--sqlite]
        [--jobs 2] [--keep] [--markdown] [--json-out FILE]

1. Recreates the database `casino_verify_bench` (or, with `--sqlite`, a temporary SQLite
   file), migrates it and runs `seed_demo` (its floor, users and paytables bound by their own
   events). Then `--events / 5` settled rounds of the demo tables with their settlement lines,
   written as `seed_history` writes them (its plan, batches and COPY/INSERT writer, a few
   voided), and for each round five chained events as the floor's services write them: opened,
   cards entered, decision and house way binding the round as it stood at that step, settled
   binding the round and its lines as stored (`audit.binding.bound_data` on the rows read
   back), with the data the services give those kinds. Hashes by `audit.chain`, a signed,
   chained checkpoint every `--every` events (continuing `seed_demo`'s) and the anchor file by
   `audit.checkpoints`, exactly as `audit_record` and the checkpoints would have. The events
   go in by COPY (SQLite: executemany) with the guards lifted, for speed only.
   The hold reports of those days are rebuilt, as the floor's rebuilds leave them.
2. Times `verify_record()` (the chain, then `check_rows`, then the hold summaries summed
   again) in a fresh process, then `manage.py verify_audit` as a subprocess (start-up
   included); checks both say the record is whole and that every bound row was compared, and
   reads each one's peak resident memory.
3. Prints the machine and the figures.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import admin_execute, machine  # noqa: E402

DB = "casino_verify_bench"
ADMIN = "postgres://postgres@127.0.0.1:5432"


STEPS = 5  # events a round: opened, cards entered, decision, house way, settled


def _step_round(round_: Any, step: int) -> Any:
    """The round as it stood after step `step` (0: opened) of its play: open, unsettled."""
    from copy import copy

    from tables.models import Round

    before = copy(round_)
    before.status = Round.Status.OPEN
    before.settlement = {}
    before.settled_at = None
    before.handle_cents = 0
    before.players_net_cents = 0
    before.idempotency_key = None
    before.voided_at = None
    before.voided_by_id = None
    before.void_reason = ""
    entry = dict(round_.entry)
    if step == 0:
        entry = {"game": entry.get("game"), "seats": []}
    elif step < 3:
        entry.pop("dealer_done", None)
    if step < 2:
        entry.pop("decided", None)
    before.entry = entry
    if step < 3:
        before.house_way = {}
    return before


def round_events(round_: Any, lines: list[Any], table_name: str) -> list[dict[str, Any]]:
    """The five events of a round's play, as (kind, data) with `bound` and the common fields."""
    from audit.binding import KEY, bound_data

    entry = round_.entry or {}
    seats = [s.get("seat") for s in entry.get("seats", [])]
    steps: list[tuple[str, dict[str, Any]]] = [
        (
            "round.opened",
            {
                "number": round_.number,
                "paytable_version_id": round_.paytable_version_id,
                "seats": seats,
            },
        ),
        (
            "round.cards_entered",
            {
                "dealer": (entry.get("dealer") or {}).get("cards"),
                "seats": {str(s.get("seat")): s.get("cards") for s in entry.get("seats", [])},
            },
        ),
        ("round.decision", {"seat": seats[0] if seats else 1, "decision": "raise"}),
        ("round.house_way", dict(round_.house_way or {})),
    ]
    out = []
    for step, (kind, data) in enumerate(steps):
        data[KEY] = bound_data([_step_round(round_, step)])
        out.append({"kind": kind, "data": data, "at": round_.opened_at})
    out.append(
        {
            "kind": "round.settled",
            "data": {
                "number": round_.number,
                "settlement": round_.settlement,
                "handle_cents": round_.handle_cents,
                "players_net_cents": round_.players_net_cents,
                "idempotency_key": round_.idempotency_key,
                "approved_by": None,
                KEY: bound_data([round_, *lines]),
            },
            "at": round_.settled_at,
        }
    )
    for i, ev in enumerate(out):
        ev["at"] = ev["at"] + timedelta(seconds=i)
        ev["object_id"] = str(round_.pk)
        ev["table_name"] = table_name
    return out


def seed_rounds(total: int, jobs: int) -> tuple[int, int]:
    """`total` settled rounds of the demo tables with their lines, as `seed_history` writes
    them (without its events: this script writes the floor's own); (rounds, lines)."""
    from django.db import connection, transaction

    from reports.management.commands.seed_history import (
        Command,
        CopyWriter,
        InsertWriter,
        Writer,
        batches,
    )
    from tables.management.commands.seed_demo import demo_tables

    plan = Command().plan(total=total, days=30, tables=len(demo_tables()), seed=8)
    writer: Writer = CopyWriter() if connection.vendor == "postgresql" else InsertWriter()
    lines = 0
    for batch in batches(plan, 5000, jobs):
        with transaction.atomic():
            writer.write(batch)
        lines += len(batch.lines)
    # The hold reports of those days, as the floor's rebuilds leave them (verify sums each
    # summary again from its rounds).
    from reports.reporting import rebuild_day
    from tables.models import Round

    for day in Round.objects.order_by().values_list("gaming_day", flat=True).distinct():
        rebuild_day(day)
    return total, lines


class EventWriter:
    """Chains events after the head, signs a checkpoint every `every` events, and writes both
    (COPY on PostgreSQL, executemany elsewhere) a chunk at a time."""

    EVENT_COLS = (
        "seq, at, actor_id, actor_name, kind, object_type, object_id, table_name, data, "
        "prev_hash, hash, seal"
    )
    CP_COLS = "seq, hash, at, key_id, prev_signature, signature"

    def __init__(self, connection: Any, every: int) -> None:
        from audit.models import AuditCheckpoint, AuditHead

        head = AuditHead.objects.get(pk=1)
        last = AuditCheckpoint.objects.order_by("-seq", "-id").first()
        self.connection = connection
        self.every = every
        self.seq, self.prev = head.seq, head.hash
        self.first = head.seq + 1
        self.prev_sig = last.signature if last is not None else "0" * 64
        self.key_id = last.key_id if last is not None else "k1"
        self.checkpoints = 0
        self.anchor: list[dict[str, Any]] = []

    def add(self, events: list[dict[str, Any]], last: bool) -> None:
        import json

        from audit.chain import canonical_parts, event_hash, json_text, seal
        from audit.checkpoints import iso, sign, signing_key

        key = signing_key()

        rows, cps = [], []
        for n, ev in enumerate(events):
            self.seq += 1
            fields = {
                "seq": self.seq,
                "at": ev["at"],
                "actor_id": None,
                "actor_name": f"hist-dealer-{self.seq % 5 + 1:02d}",
                "kind": ev["kind"],
                "object_type": "tables.round",
                "object_id": ev["object_id"],
                "table_name": ev["table_name"],
                "data": ev["data"],
                "prev_hash": self.prev,
            }
            h = event_hash(**fields)
            text = json_text(fields["data"])
            rows.append((*fields.values(), h, seal(canonical_parts(fields, text), key)))
            self.prev = h
            if self.seq % self.every == 0 or (last and n == len(events) - 1):
                cp_at = ev["at"] + timedelta(milliseconds=1)
                sig = sign(
                    seq=self.seq,
                    chain_hash=h,
                    at_iso=iso(cp_at),
                    key_id=self.key_id,
                    prev_signature=self.prev_sig,
                )
                cps.append((self.seq, h, cp_at, self.key_id, self.prev_sig, sig))
                self.anchor.append(
                    {
                        "seq": self.seq,
                        "hash": h,
                        "at": iso(cp_at),
                        "key_id": self.key_id,
                        "prev_signature": self.prev_sig,
                        "signature": sig,
                    }
                )
                self.prev_sig = sig
        self.checkpoints += len(cps)
        with self.connection.cursor() as cursor:
            if self.connection.vendor == "postgresql":
                with cursor.cursor.copy(
                    f"COPY audit_auditevent ({self.EVENT_COLS}) FROM STDIN"
                ) as copy:
                    for row in rows:
                        copy.write_row((*row[:8], json.dumps(row[8], ensure_ascii=False), *row[9:]))
                with cursor.cursor.copy(
                    f"COPY audit_auditcheckpoint ({self.CP_COLS}) FROM STDIN"
                ) as copy:
                    for cp in cps:
                        copy.write_row(cp)
            else:
                cursor.executemany(
                    f"INSERT INTO audit_auditevent ({self.EVENT_COLS}) VALUES "
                    "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        (
                            row[0],
                            row[1].isoformat(),
                            *row[2:8],
                            json_text(row[8]),  # SQLite keeps the canonical text
                            *row[9:],
                        )
                        for row in rows
                    ],
                )
                cursor.executemany(
                    f"INSERT INTO audit_auditcheckpoint ({self.CP_COLS}) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    [(c[0], c[1], c[2].isoformat(), *c[3:]) for c in cps],
                )

    def finish(self) -> None:
        from audit.checkpoints import anchor_append

        with self.connection.cursor() as cursor:
            cursor.execute(
                "UPDATE audit_audithead SET seq = %s, hash = %s WHERE id = 1", [self.seq, self.prev]
            )
        for line in self.anchor:
            anchor_append(line)


def write_events(every: int, chunk: int = 2000) -> tuple[int, int, int]:
    """The five events of every round in the database, bound as `bound_data` binds them,
    appended to the chain; (first seq written, events, checkpoints)."""
    from django.db import connection, transaction

    from audit import triggers
    from tables.models import Round, SettlementLine, Table

    names = dict(Table.objects.values_list("pk", "name"))
    total = Round.objects.count()
    with transaction.atomic(), triggers.lifted(connection):
        writer = EventWriter(connection, every)
        after, done = 0, 0
        while True:
            rounds = list(Round.objects.filter(pk__gt=after).order_by("pk")[:chunk])
            if not rounds:
                break
            after = rounds[-1].pk
            by_round: dict[int, list[Any]] = {r.pk: [] for r in rounds}
            for line in SettlementLine.objects.filter(round_id__in=list(by_round)).order_by("pk"):
                by_round[line.round_id].append(line)
            events = []
            for r in rounds:
                events += round_events(r, by_round[r.pk], names[r.table_id])
            done += len(rounds)
            writer.add(events, last=done == total)
        writer.finish()
    return writer.first, writer.seq - writer.first + 1, writer.checkpoints


def run_measured(argv: list[str], env: dict[str, str]) -> tuple[float, int, str, str, int]:
    """(wall seconds, exit code, stdout, stderr, peak resident KiB) of a child process."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        child = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=err, text=True)
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t0
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return wall, child.returncode, out.read(), err.read(), usage.ru_maxrss


def verify_in_process(json_out: str) -> None:
    """In this fresh process: `verify_record()`, its two parts timed, written to `json_out`."""
    import json
    import resource

    import django

    django.setup()
    import audit.binding
    import audit.verify

    parts: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        def run(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                parts[name] = time.perf_counter() - t0

        return run

    audit.verify.verify_chain = timed("chain", audit.verify.verify_chain)  # type: ignore[method-assign]
    audit.binding.check_rows = timed("rows", audit.binding.check_rows)  # type: ignore[method-assign]
    for name, check in list(audit.verify.DERIVED_CHECKS.items()):
        audit.verify.DERIVED_CHECKS[name] = timed(name, check)
    t0 = time.perf_counter()
    report = audit.verify.verify_record()
    total = time.perf_counter() - t0
    Path(json_out).write_text(
        json.dumps(
            {
                "events": report.events,
                "rows": report.rows,
                "problems": list(report.problems[:20]),
                "total": total,
                "chain": parts.get("chain"),
                "check_rows": parts.get("rows"),
                "summaries": parts.get("hold summaries"),
                "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--jobs", type=int, default=2, help="processes settling the rounds")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json-out", metavar="FILE")
    parser.add_argument("--verify-in-process", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.verify_in_process:  # the child that times verify_record() (env set by the parent)
        verify_in_process(args.verify_in_process)
        return

    tmp = Path(tempfile.mkdtemp(prefix="verify-bench-"))
    if args.sqlite:
        url = f"sqlite:///{tmp / 'bench.sqlite3'}"
    else:
        admin_execute(
            ADMIN, f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)', f'CREATE DATABASE "{DB}"'
        )
        url = f"{ADMIN}/{DB}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "AUDIT_ANCHOR_PATH": str(tmp / "anchor.jsonl"),
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        "DJANGO_DEBUG": "true",  # seed_demo asks for it; the development keys sign checkpoints
        "PYTHONPATH": str(ROOT),
    }
    env.pop("CELERY_BROKER_URL", None)
    os.environ.clear()
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    t0 = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command("seed_demo", verbosity=0, stdout=io.StringIO())
    rounds, lines = seed_rounds(max(args.events // STEPS, 1), args.jobs)
    seeded = time.perf_counter() - t0

    t0 = time.perf_counter()
    first, written, checkpoints = write_events(args.every)
    floor_events = first - 1  # seed_demo's and the history dealers' own events
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    built = time.perf_counter() - t0
    events = floor_events + written
    size = ""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_size_pretty(pg_total_relation_size('audit_auditevent'))")
            size = cursor.fetchone()[0]
    connection.close()

    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        report_path = f.name
    wall, code, out, err, child_rss = run_measured(
        [sys.executable, __file__, "--verify-in-process", report_path], env
    )
    assert code == 0, err
    import json

    report = json.loads(Path(report_path).read_text())
    os.unlink(report_path)
    assert not report["problems"], report["problems"]
    assert report["events"] == events, (report["events"], events)
    assert report["rows"] >= rounds + lines, (report["rows"], rounds, lines)

    command, code, out, err, command_rss = run_measured(
        [sys.executable, "manage.py", "verify_audit"], env
    )
    assert code == 0, err
    assert f"{events} events" in out and f"{report['rows']} bound rows match" in out, out
    if not args.sqlite and not args.keep:
        admin_execute(ADMIN, f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')

    info = machine(database=connection.vendor)
    figures = {
        "events (seed_demo's + generated)": f"{events:,} ({floor_events:,} + {written:,})",
        "rounds / settlement lines bound": f"{rounds:,} / {lines:,}",
        "bound rows compared": f"{report['rows']:,}",
        "checkpoints (anchored)": f"{checkpoints:,}",
        "audit_auditevent on disk": size or "-",
        "floor and rounds seeded": f"{seeded:.1f} s",
        "events built and loaded": f"{built:.1f} s",
        "verify_record() in process": f"{report['total']:.1f} s",
        "  the chain (verify_chain)": f"{report['chain']:.1f} s "
        f"({events / report['chain']:,.0f} events/s)",
        "  the rows (check_rows)": f"{report['check_rows']:.1f} s "
        f"({report['rows'] / report['check_rows']:,.0f} rows/s)",
        "  the hold summaries summed again": f"{report['summaries'] or 0:.1f} s",
        "  peak memory (maxrss)": f"{report['maxrss_kib'] / 1024:,.0f} MiB",
        "manage.py verify_audit (start-up included)": f"{command:.1f} s",
        "  its peak memory (maxrss)": f"{command_rss / 1024:,.0f} MiB",
        "output": out.strip(),
    }
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"machine": info, "figures": figures}))
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
