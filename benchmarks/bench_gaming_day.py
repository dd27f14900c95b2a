"""Benchmark a large gaming day played and verified: a floor grown to `--tables` tables, a day
of rounds written in bulk, the seeded day (`reports.seeded_day.play_day`) played through the
services on top, then each night check of `reports.night_checks.run_checks()` timed on its own,
at two or three sizes to see how each check's cost grows with the day.

Run from the project root (PostgreSQL on 127.0.0.1:5432, user postgres, trust auth):

    .venv/bin/python benchmarks/bench_gaming_day.py [--tables 30,100,300]
        [--rounds-per-table 150] [--play-rounds 4] [--seed 1] [--jobs 2] [--sqlite] [--keep]
        [--markdown] [--json-out FILE]
    .venv/bin/python benchmarks/bench_gaming_day.py --report FILE [--markdown]  # print again

1. Recreates the database `casino_gaming_day_bench` (or, with `--sqlite`, a temporary SQLite
   file), migrates it and runs `seed_demo` (DEBUG on) once; each size starts from a copy of it
   (`CREATE DATABASE ... TEMPLATE`, or a copy of the file, and of the anchor file), named
   `casino_gaming_day_bench_<tables>`, dropped after the size unless `--keep`.
2. The bulk of the day, in a fresh process: `seed_history`'s own plan (the floor grown to
   `--tables` tables, `HIST-..` after the demo's, and its dealers), batches, writer (COPY on
   PostgreSQL), binding (`record.history_seeded` events over the rows) and stale marks, for
   `--tables x --rounds-per-table` rounds, and its slips (`seed_history --slips`: opener,
   buy-ins, fills, credits, closer and drop of every table's shift, consistent with its
   rounds). The only difference from `manage.py seed_history --days 1 --slips`: the rounds
   fill the whole *previous* gaming day rather than today up to now, so that the seeded day
   below opens today's shift at every table without finding the history's slips there (its
   opener would be refused) and its reconciliation compares only its own rounds with its own
   count. The hold reports of that day are then built (`rebuild_day`), as the closed-day job
   leaves them, timed apart.
3. `play_day(seed, --play-rounds)` in a fresh process: at every open table (the demo's five
   and every HIST table), through the services: the opener, rounds with buy-ins and fills,
   misdeals, an undone step, voids and corrections, sign-offs, a jackpot, rated players and a
   comp, the broker down and the database connection lost, the credit, closer and drop, and
   the catch-up's rebuild.
4. Each check of `run_checks()` (in the night's order: `verify_audit`'s, `verify_record`'s
   kept run, the nightly job, the hold summaries against a full rebuild, the reconciliation,
   the ratings against a rebuild), each in a fresh process: wall and CPU time of the process
   and, on PostgreSQL, of its server backend (`/proc/<pid>/stat`), its peak resident memory
   (`ru_maxrss`), its verdict. Every check must find the record whole.
5. Prints the machine (load average before the run), the figures of each size and how each
   phase's time grows against the day's bound rows from each size to the next, flagged when
   it grows faster than the day between the two largest (`--markdown`: Markdown tables).

The rounds per table are far fewer than a real day's (a table dealing every 40 s deals some
2,000 rounds in 24 hours): the whole benchmark is sized to finish in about 25 minutes on the
2-core machine; the growth across sizes is what tells how a full day would fare.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import admin_execute, machine  # noqa: E402

DB = "casino_gaming_day_bench"
ADMIN = "postgres://postgres@127.0.0.1:5432"
CHECKS = (  # (name in the tables, function of reports.night_checks), in the night's order
    ("verify_audit", "chain_and_rows"),
    ("verify_record (kept run)", "kept_run"),
    ("nightly job", "nightly_job"),
    ("hold summaries vs a full rebuild", "summaries_against_a_rebuild"),
    ("reconciliation", "reconciliation"),
    ("ratings vs a rebuild", "ratings_against_a_rebuild"),
)
GROWS_FASTER = 1.15  # a phase whose time grows as (rows ratio) ** this or more is flagged


# --- measuring a phase in this (child) process ---------------------------------------------


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _backend() -> tuple[int | None, float | None]:
    """The PostgreSQL backend of this process's connection and its CPU seconds so far (the
    server runs on this machine), or (None, None) where it cannot be read."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None, None
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return pid, None
    return pid, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(fn: Any) -> tuple[Any, dict[str, Any]]:
    """fn()'s result and its wall, CPU and the database backend's CPU seconds."""
    pid0, db0 = _backend()
    cpu0, t0 = _cpu(), time.perf_counter()
    result = fn()
    wall, cpu = time.perf_counter() - t0, _cpu() - cpu0
    pid1, db1 = _backend()
    db = db1 - db0 if pid0 == pid1 and db0 is not None and db1 is not None else None
    return result, {"wall": wall, "cpu": cpu, "db_cpu": db}


def child_bulk(tables: int, rounds_per_table: int, seed: int, jobs: int) -> dict[str, Any]:
    """The day's bulk: seed_history's plan, batches, writer and binding over the whole previous
    gaming day, its slips; then the day's hold reports built."""
    import random
    from dataclasses import replace
    from datetime import timedelta

    from django.db import connection, transaction
    from django.utils import timezone

    from accounting.simulation import seed_slips
    from audit.models import AuditHead
    from reports.management.commands.seed_history import (
        Command,
        CopyWriter,
        InsertWriter,
        Writer,
        batches,
        bind_history,
        mark_stale,
    )
    from reports.reporting import rebuild_day
    from tables.gaming_day import day_bounds, gaming_day_of

    day = gaming_day_of(timezone.now()) - timedelta(days=1)
    seq0 = AuditHead.objects.get(pk=1).seq
    out: dict[str, Any] = {"day": day.isoformat()}

    def write() -> dict[str, int]:
        plan = Command().plan(total=tables * rounds_per_table, days=1, tables=tables, seed=seed)
        start, end = day_bounds(day)
        plan = replace(plan, start=start, end=end)
        writer: Writer = CopyWriter() if connection.vendor == "postgresql" else InsertWriter()
        done = lines = voids = 0
        for batch in batches(plan, 5000, jobs):
            with transaction.atomic():
                ids = writer.write(batch)
                bind_history(ids, seed)
                mark_stale(batch.stale)
            done += len(batch.rounds)
            lines += len(batch.lines)
            voids += batch.voids
        slips = seed_slips(days=[day], rng=random.Random(f"{seed}/slips"))
        return {
            "tables": len(plan.tables),
            "rounds": done,
            "lines": lines,
            "voids": voids,
            "slips": slips["slips"],
            "variance_alerts": slips["variance_alerts"],
        }

    out["written"], out["write"] = measured(write)
    _, out["rebuild"] = measured(lambda: rebuild_day(day))
    out["events"] = AuditHead.objects.get(pk=1).seq - seq0
    out["maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return out


def child_play(seed: int, rounds: int) -> dict[str, Any]:
    """play_day through the services, and what it wrote."""
    from audit.models import AuditHead
    from reports.seeded_day import play_day
    from tables.models import Hand, Round, Table

    tables = Table.objects.filter(is_open=True).count()
    seq0 = AuditHead.objects.get(pk=1).seq
    r0, h0 = Round.objects.count(), Hand.objects.count()
    last = Round.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    # The day loses its database connection on purpose: the backend's CPU is not followed.
    cpu0, t0 = _cpu(), time.perf_counter()
    report = play_day(seed=seed, rounds=rounds)
    wall, cpu = time.perf_counter() - t0, _cpu() - cpu0
    return {
        "tables": tables,
        "rounds": Round.objects.count() - r0,
        "settled": Round.objects.filter(pk__gt=last, status=Round.Status.SETTLED).count(),
        "hands": Hand.objects.count() - h0,
        "events": AuditHead.objects.get(pk=1).seq - seq0,
        "counts": dict(report.counts),
        "play": {"wall": wall, "cpu": cpu, "db_cpu": None},
        "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def child_check(function: str) -> dict[str, Any]:
    from reports import night_checks

    check, times = measured(getattr(night_checks, function))
    return {
        "name": check.name,
        "ok": check.ok,
        "problems": check.problems[:10],
        "problem_count": len(check.problems),
        "figures": check.figures,
        "time": times,
        "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def child_totals() -> dict[str, Any]:
    from django.db import connection

    from audit.models import AuditEvent

    out: dict[str, Any] = {"events": AuditEvent.objects.count()}
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
            out["size"] = cursor.fetchone()[0]
    return out


def child(spec: str, json_out: str) -> None:
    import django

    django.setup()
    kind, _, arg = spec.partition(":")
    if kind == "bulk":
        tables, rounds, seed, jobs = map(int, arg.split(","))
        result = child_bulk(tables, rounds, seed, jobs)
    elif kind == "play":
        seed, rounds = map(int, arg.split(","))
        result = child_play(seed, rounds)
    elif kind == "check":
        result = child_check(arg)
    else:
        result = child_totals()
    Path(json_out).write_text(json.dumps(result, default=str))


# --- the parent ------------------------------------------------------------------------------


def run_child(spec: str, env: dict[str, str]) -> dict[str, Any]:
    """A phase in a fresh process; its JSON, with the process's wall time (start-up included)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, __file__, "--child", spec, "--child-out", path],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        os.unlink(path)
        raise SystemExit(f"{spec} failed (exit {proc.returncode}):\n{proc.stderr}")
    result = json.loads(Path(path).read_text())
    os.unlink(path)
    result["process_wall"] = wall
    return result


def environment(url: str, anchor: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "AUDIT_ANCHOR_PATH": str(anchor),
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        "DJANGO_DEBUG": "true",  # seed_demo, seed_history and play_day ask for it
        "PYTHONPATH": str(ROOT),
    }
    env.pop("CELERY_BROKER_URL", None)  # tasks in process: the nightly job runs here
    return env


def set_up_base(url: str, anchor: Path) -> float:
    """Migrate and seed the demo floor once (in a subprocess: this process stays off Django)."""
    env = environment(url, anchor)
    t0 = time.perf_counter()
    for argv in (["migrate", "--verbosity", "0"], ["seed_demo", "--verbosity", "0"]):
        proc = subprocess.run(
            [sys.executable, "manage.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True
        )
        if proc.returncode != 0:
            raise SystemExit(f"{argv[0]} failed:\n{proc.stderr}")
    return time.perf_counter() - t0


def pg_version() -> str:
    rows = admin_execute(ADMIN, "SHOW server_version")
    return f"PostgreSQL {rows[0][0]}" if rows else "unknown"


def one_size(
    tables: int, args: argparse.Namespace, tmp: Path, base_url: str, base_anchor: Path
) -> dict[str, Any]:
    anchor = tmp / f"anchor-{tables}.jsonl"
    shutil.copyfile(base_anchor, anchor)
    if args.sqlite:
        base_file = base_url.removeprefix("sqlite:///")
        db_file = tmp / f"bench-{tables}.sqlite3"
        shutil.copyfile(base_file, db_file)
        url = f"sqlite:///{db_file}"
    else:
        name = f"{DB}_{tables}"
        admin_execute(
            ADMIN,
            f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
            f'CREATE DATABASE "{name}" TEMPLATE "{DB}"',
        )
        url = f"{ADMIN}/{name}"
    env = environment(url, anchor)
    size: dict[str, Any] = {"tables": tables}
    print(f"[{tables} tables] bulk ...", file=sys.stderr, flush=True)
    size["bulk"] = run_child(f"bulk:{tables},{args.rounds_per_table},{args.seed},{args.jobs}", env)
    print(f"[{tables} tables] play_day ...", file=sys.stderr, flush=True)
    size["play"] = run_child(f"play:{args.seed},{args.play_rounds}", env)
    size["checks"] = []
    for label, function in CHECKS:
        print(f"[{tables} tables] {label} ...", file=sys.stderr, flush=True)
        result = run_child(f"check:{function}", env)
        result["label"] = label
        size["checks"].append(result)
    size["totals"] = run_child("totals", env)
    if not args.sqlite and not args.keep:
        admin_execute(ADMIN, f'DROP DATABASE IF EXISTS "{DB}_{tables}" WITH (FORCE)')
    return size


def _t(m: dict[str, Any]) -> str:
    db = f", db {m['db_cpu']:.1f}" if m.get("db_cpu") is not None else ""
    return f"{m['wall']:.1f} s (cpu {m['cpu']:.1f}{db})"


def figures(sizes: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """The figures table: one row a figure, one column a size."""
    head = ["figure", *(f"{s['tables']} tables" for s in sizes)]
    rows: list[list[str]] = []

    def row(name: str, fn: Any) -> None:
        rows.append([name, *(fn(s) for s in sizes)])

    row(
        "bulk rounds / settlement lines",
        lambda s: f"{s['bulk']['written']['rounds']:,} / {s['bulk']['written']['lines']:,}",
    )
    row("bulk slips", lambda s: f"{s['bulk']['written']['slips']:,}")
    row(
        "play_day rounds / poker hands",
        lambda s: f"{s['play']['rounds']:,} / {s['play']['hands']:,}",
    )
    row(
        "audit events (bulk + play_day + the rest)",
        lambda s: (
            f"{s['checks'][0]['figures']['events']:,} ({s['bulk']['events']:,} + "
            f"{s['play']['events']:,} + "
            f"{s['checks'][0]['figures']['events'] - s['bulk']['events'] - s['play']['events']:,})"
        ),
    )
    row("bound rows compared", lambda s: f"{s['checks'][0]['figures']['bound_rows']:,}")
    row("database size", lambda s: s["totals"].get("size", "-"))
    row(
        "bulk write (rounds, lines, binding, slips)",
        lambda s: (
            f"{_t(s['bulk']['write'])}; "
            f"{s['bulk']['written']['rounds'] / s['bulk']['write']['wall']:,.0f} rounds/s"
        ),
    )
    row("the day's hold reports built", lambda s: _t(s["bulk"]["rebuild"]))
    row(
        "play_day through the services",
        lambda s: (
            f"{_t(s['play']['play'])}; "
            f"{s['play']['rounds'] / s['play']['play']['wall']:,.1f} rounds/s"
        ),
    )
    for i, (label, _function) in enumerate(CHECKS):
        row(
            f"check: {label}",
            lambda s, i=i: (
                f"{_t(s['checks'][i]['time'])}, {s['checks'][i]['maxrss_kib'] / 1024:,.0f} MiB"
                + ("" if s["checks"][i]["ok"] else f", {s['checks'][i]['problem_count']} PROBLEMS")
            ),
        )
    row("all checks", lambda s: f"{sum(c['time']['wall'] for c in s['checks']):.1f} s")
    row(
        "peak memory of the verification (max of the checks)",
        lambda s: f"{max(c['maxrss_kib'] for c in s['checks']) / 1024:,.0f} MiB",
    )
    return head, rows


def growth(sizes: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Each phase's time (and the checks' peak memory) from one size to the next, against the
    day's bound rows: the exponent k of time ~ rows ** k (1: grows as the day does). The last
    pair decides the flag: the smaller sizes' times are mostly fixed costs (start-up, the
    demo's own days), which hide the growth."""
    pairs = list(zip(sizes, sizes[1:], strict=False))

    def rows(s: dict[str, Any]) -> int:
        return int(s["checks"][0]["figures"]["bound_rows"])

    head = ["phase"]
    head += [
        f"k, {a['tables']} to {b['tables']} tables (rows x {rows(b) / rows(a):.2f})"
        for a, b in pairs
    ]
    head += [f"time at {sizes[-1]['tables']} tables", "grows faster than the day"]
    out: list[list[str]] = []
    phases = [("bulk write", lambda s: s["bulk"]["write"]["wall"])]
    phases.append(("hold reports built", lambda s: s["bulk"]["rebuild"]["wall"]))
    phases.append(("play_day", lambda s: s["play"]["play"]["wall"]))
    for i, (label, _f) in enumerate(CHECKS):
        phases.append((f"check: {label}", lambda s, i=i: s["checks"][i]["time"]["wall"]))
    phases.append(("all checks", lambda s: sum(c["time"]["wall"] for c in s["checks"])))
    phases.append(
        ("peak memory of the checks", lambda s: max(c["maxrss_kib"] for c in s["checks"]))
    )
    for name, fn in phases:
        ks = []
        for a, b in pairs:
            ta, tb = fn(a), fn(b)
            ks.append(math.log(tb / ta) / math.log(rows(b) / rows(a)) if ta > 0 else math.nan)
        last = fn(sizes[-1])
        shown = f"{last / 1024:,.0f} MiB" if name.startswith("peak") else f"{last:.1f} s"
        flag = "yes" if ks[-1] >= GROWS_FASTER else "no"
        out.append([name, *(f"{k:.2f}" for k in ks), shown, flag])
    return head, out


def markdown(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="30,100,300", help="sizes, comma-separated")
    parser.add_argument(
        "--rounds-per-table", type=int, default=150, help="bulk rounds per table (150)"
    )
    parser.add_argument("--play-rounds", type=int, default=4, help="play_day's rounds (4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes settling the bulk")
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json-out", metavar="FILE")
    parser.add_argument(
        "--report", metavar="FILE", help="print the tables of a --json-out file again, no run"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--child-out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.child_out)
        return
    if args.report:
        saved = json.loads(Path(args.report).read_text())
        report(saved["machine"], saved["params"], saved["sizes"], args.markdown)
        return
    sizes_wanted = sorted({int(t) for t in args.tables.split(",")})
    if sizes_wanted[0] < 5:
        raise SystemExit("--tables: at least the demo's 5 tables")

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    info = machine(database="SQLite" if args.sqlite else pg_version())
    info["load average before the run"] = load
    started = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="gaming-day-bench-"))
    base_anchor = tmp / "anchor-base.jsonl"
    if args.sqlite:
        base_url = f"sqlite:///{tmp / 'base.sqlite3'}"
    else:
        admin_execute(
            ADMIN, f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)', f'CREATE DATABASE "{DB}"'
        )
        base_url = f"{ADMIN}/{DB}"
    print("migrate and seed_demo ...", file=sys.stderr, flush=True)
    base_seconds = set_up_base(base_url, base_anchor)
    sizes = [one_size(t, args, tmp, base_url, base_anchor) for t in sizes_wanted]
    if not args.sqlite and not args.keep:
        admin_execute(ADMIN, f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    info["load average after the run"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    total = time.perf_counter() - started
    params = (
        f"{args.rounds_per_table} bulk rounds a table, play_day --rounds {args.play_rounds}, "
        f"seed {args.seed}, {args.jobs} job(s); migrate + seed_demo {base_seconds:.1f} s; "
        f"whole run {total / 60:.1f} min"
    )
    if args.json_out:
        Path(args.json_out).write_text(
            json.dumps({"machine": info, "params": params, "sizes": sizes}, default=str)
        )
    if not report(info, params, sizes, args.markdown):
        sys.exit(1)


def report(
    info: dict[str, str], params: str, sizes: list[dict[str, Any]], as_markdown: bool
) -> bool:
    """Print the machine, the figures and the growth; False when a check found a problem."""
    head, rows = figures(sizes)
    ghead, grows = growth(sizes) if len(sizes) > 1 else ([], [])
    failed = [
        f"{s['tables']} tables, {c['label']}: {c['problems']}"
        for s in sizes
        for c in s["checks"]
        if not c["ok"]
    ]
    if as_markdown:
        print("| machine | |\n| --- | --- |")
        for k, v in info.items():
            print(f"| {k} | {v} |")
        print(f"\n{params}\n\n{markdown(head, rows)}")
        if grows:
            print(f"\n{markdown(ghead, grows)}")
    else:
        for k, v in info.items():
            print(f"{k}: {v}")
        print(params)
        for r in rows:
            print(f"{r[0]}: " + " | ".join(r[1:]))
        for r in grows:
            print(f"growth {r[0]}: " + " | ".join(r[1:]))
    if failed:
        print("\nFAILED CHECKS:\n" + "\n".join(failed))
    return not failed


if __name__ == "__main__":
    main()
