"""What cash compliance's checks add to a buy-in and to a cage transaction: CPU per
transaction, of this process and of its PostgreSQL server backend, case by case (what the
transaction makes of its patron's day), over a history of patrons' days that grows (none, a
month, a year), to see that the checks' cost does not grow with the record.

    .venv/bin/python benchmarks/bench_compliance.py [--sqlite] [--history 0,30,365]
        [--patrons 40] [--per-day 4] [--n 150] [--seed 1]

1. A fresh database (PostgreSQL `casino_compliance_bench` on 127.0.0.1:5432, or a temporary
   SQLite file with `--sqlite`), migrated, `seed_demo`; a dealer signed in at the first table.
2. For each history size (days, cumulative): `--patrons` identified patrons (half rated
   players' cards, half described), each with `--per-day` cash transactions a day over those
   days, written through the cage's service (`compliance.services.cage_record`) at past times,
   so their patron days, MTL entries and CTRs are the ones the service makes.
3. Then `--n` rounds of every mode, shuffled each round so the machine's noise falls on all
   alike, both as a buy-in slip (`accounting.services.slip_create`, as the tablet writes it)
   and as a cage transaction (`cage_record`):
   - no patron: $100 in cash, no patron named (the cash transaction and its event, no patron's
     day): what the checks add is the difference to this;
   - compliance off (buy-ins only): the same slip with no cash check registered
     (`accounting.cash._checks` emptied): the slip alone;
   - under the MTL: $100 of a patron of the history (the day stays under the MTL);
   - described, under the MTL: $100 of a new described patron (the look-alike read);
   - just under the MTL: the MTL less $100, a new identified patron (the structuring read);
   - an MTL entry: the MTL's amount, a new identified patron (the MTL entry written);
   - over the CTR: $4,000 of a patron whose day passed the CTR already.
   New patrons are made outside the timing. The CPU is `time.process_time()` of this process
   (its median) plus, on PostgreSQL, the backend's (utime + stime from /proc/<pid>/stat, in
   clock ticks: their mean) around each transaction.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if str(HERE.parent) not in sys.path:
    sys.path.insert(1, str(HERE.parent))

import bench_api_round as api  # noqa: E402  (benchmarks/, beside this script)
from common import machine  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


class Cpu:
    """CPU seconds of this process and, on PostgreSQL, of its server backend."""

    def __init__(self) -> None:
        from django.db import connection

        self.pid: int | None = None
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = int(cursor.fetchone()[0])

    def now(self) -> Mark:
        backend = 0.0
        if self.pid is not None:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
            backend = (int(fields[11]) + int(fields[12])) / TICKS
        return Mark(time.process_time(), backend)


class Mark(tuple):
    """(process CPU s, backend CPU s); a difference of two is the pair of differences."""

    def __new__(cls, process: float, backend: float) -> Mark:
        return super().__new__(cls, (process, backend))

    def __sub__(self, other: Any) -> tuple[float, float]:  # type: ignore[override]
        return (self[0] - other[0], self[1] - other[1])


def history(days: range, patrons: list[str], per_day: int, cashier: Any, rng: random.Random) -> int:
    from django.utils import timezone

    from compliance.models import Kind
    from compliance.services import cage_record

    kinds = [Kind.CHIPS_BOUGHT, Kind.CHIPS_REDEEMED, Kind.FRONT_MONEY_IN]
    written = 0
    for back in days:
        at = timezone.now() - timedelta(days=back, hours=3)
        for number in patrons:
            for _ in range(per_day):
                cents = rng.choice([200_00, 900_00, 2_500_00, 3_100_00, 4_000_00])
                cage_record(
                    kind=rng.choice(kinds),
                    patron=number,
                    amount=f"{cents // 100}.00",
                    by=cashier,
                    at=at,
                )
                written += 1
    return written


def identification(n: int) -> dict[str, str]:
    return {
        "name": f"Patron {n}",
        "date_of_birth": "1970-05-04",
        "address": f"{n} Main Street, Reno NV",
        "id_type": "drivers_license",
        "id_number": f"D{n:07d}",
        "id_issuer": "NV",
        "id_expiry": "2031-01-31",
        "occupation": "engineer",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--history", default="0,30,365", help="days of history, cumulative")
    parser.add_argument("--patrons", type=int, default=40)
    parser.add_argument("--per-day", type=int, default=4)
    parser.add_argument("--n", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    os.environ["BENCH_PG_DB"] = "casino_compliance_bench"
    api.PG_DB = "casino_compliance_bench"
    tmp = Path(tempfile.mkdtemp(prefix="casino-bench-compliance-"))
    api.setup(tmp / "db.sqlite3", None, "sqlite" if args.sqlite else "postgresql")
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    with open(os.devnull, "w") as quiet:
        call_command("migrate", verbosity=0, stdout=quiet)
        call_command("seed_demo", stdout=quiet)
    settings.DEBUG = False

    from django.utils import timezone

    from accounting import cash, rules
    from accounting.services import open_table, slip_create
    from compliance.models import CashTransaction, Kind
    from compliance.services import (
        cage_record,
        mtl_threshold,
        patron_create,
        patron_identify,
        resolve_patron,
    )
    from players.models import Player
    from tables.models import Table
    from tables.services.sessions import dealer_sign_in

    users = get_user_model().objects
    dealer, cashier = users.get(username="dealer"), users.get(username="cage")
    table = Table.objects.order_by("id").first()
    assert table is not None
    dealer_sign_in(dealer=dealer, table=table)
    pit_boss = users.get(username="pitboss")
    rng = random.Random(args.seed)

    # Half rated players (active cards: a barred one buys no chips), half described; every one
    # identified, so that a CTR their history
    # opens does not refuse their next transaction.
    made = [
        resolve_patron(card, by=cashier, at=timezone.now())
        for card in Player.objects.filter(status=Player.Status.ACTIVE).values_list(
            "card", flat=True
        )[: args.patrons // 2]
    ]
    made += [
        patron_create(
            description={"sex": "female", "clothing": f"coat {n}", "where_seen": "main cage"},
            by=cashier,
        )
        for n in range(args.patrons - len(made))
    ]
    for n, patron in enumerate(made):
        assert patron is not None
        patron_identify(patron=patron, by=cashier, identification=identification(n))
    patrons = [p.number for p in made if p is not None]
    checks = list(cash._checks)
    cpu = Cpu()
    sizes = sorted({int(s) for s in args.history.split(",")})
    mtl = mtl_threshold()
    serial = iter(range(10**6))

    def fresh(described_only: bool = False) -> str:
        n = 1000 + next(serial)
        patron = patron_create(
            description={"sex": "male", "clothing": f"jacket {n}", "where_seen": f"table {n}"},
            by=cashier,
        )
        if not described_only:
            patron_identify(patron=patron, by=cashier, identification=identification(n))
        return patron.number

    # Patrons already past the CTR today (cash in of $11,000 at the cage, outside the timing).
    over = [fresh() for _ in range(10)]
    for number in over:
        cage_record(kind=Kind.CHIPS_BOUGHT, patron=number, amount="11000.00", by=cashier)
    # What each case gives a transaction: its patron and amount (made outside the timing).
    cases: dict[str, Any] = {
        "under the MTL": lambda: (rng.choice(patrons), "100.00"),
        "described, under the MTL": lambda: (fresh(described_only=True), "100.00"),
        "just under the MTL": lambda: (fresh(), f"{(mtl - 100_00) // 100}.00"),
        "an MTL entry": lambda: (fresh(), f"{mtl // 100}.00"),
        "over the CTR": lambda: (rng.choice(over), "4000.00"),
    }
    done = 0
    results = []
    for size in sizes:
        written = history(range(done + 1, size + 1), patrons, args.per_day, cashier, rng)
        done = max(done, size)
        per: dict[str, Samples] = {}
        open_table(table=table, dealer=dealer, pit_boss=pit_boss)  # (again if the shift turned)
        for i in range(args.n):
            modes = [*cases, "no patron", "compliance off"]
            rng.shuffle(modes)  # the machine's noise falls on every mode alike
            for where in ("buy-in", "cage"):
                for mode in modes:
                    if where == "cage" and mode == "compliance off":
                        continue
                    patron, amount = cases[mode]() if mode in cases else (None, "100.00")
                    cash._checks[:] = [] if mode == "compliance off" else checks
                    start = cpu.now()
                    if where == "buy-in":
                        slip_create(
                            table=table,
                            kind=rules.BUY_IN,
                            by=dealer,
                            amount=amount,
                            seat=1 + i % 6,
                            patron=patron,
                        )
                    else:
                        cage_record(
                            kind=Kind.CHIPS_BOUGHT, patron=patron, amount=amount, by=cashier
                        )
                    per.setdefault(f"{where} {mode}", Samples()).add(cpu.now() - start)
            cash._checks[:] = checks
        results.append(
            {"days": size, "history": written, "tx": CashTransaction.objects.count(), "per": per}
        )

    info = machine(database="PostgreSQL" if not args.sqlite else "SQLite")
    print("machine: " + "; ".join(f"{k} {v}" for k, v in info.items()))
    print(
        f"{args.n} of each per size; {args.patrons} patrons with {args.per_day} cage "
        "transactions each a day of history. CPU ms per transaction: this process's median "
        + ("+ its server backend's mean " if not args.sqlite else "")
        + "(90th percentile); what the checks add is over the same transaction with no patron"
    )
    for where in ("buy-in", "cage"):
        print()
        heads = [f"{m} (adds)" for m in cases]
        off_head = "compliance off | " if where == "buy-in" else ""
        print(
            f"| {where}: history (days) | cash transactions on record | no patron | {off_head}"
            + " | ".join(heads)
            + " |"
        )
        print("| ---: " * (3 + (where == "buy-in") + len(cases)) + "|")
        for r in results:
            p = r["per"]
            plain = p[f"{where} no patron"]
            cells = [
                f"{p[f'{where} {m}']} **{p[f'{where} {m}'].cost() - plain.cost():+.2f}**"
                for m in cases
            ]
            off = f"{p[f'{where} compliance off']} | " if where == "buy-in" else ""
            print(f"| {r['days']} | {r['tx']:,} | {plain} | {off}" + " | ".join(cells) + " |")
    return 0


class Samples:
    """Per-transaction CPU: this process's (fine-grained) and the backend's (in clock ticks,
    so summed and averaged, not a median of ticks)."""

    def __init__(self) -> None:
        self.process: list[float] = []
        self.backend: list[float] = []

    def add(self, cost: tuple[float, float]) -> None:
        self.process.append(cost[0])
        self.backend.append(cost[1])

    def cost(self) -> float:
        """Milliseconds: the process's median plus the backend's mean."""
        if not self.process:
            return 0.0
        return 1000 * (statistics.median(self.process) + statistics.fmean(self.backend))

    def __str__(self) -> str:
        if not self.process:
            return "–"
        back = statistics.fmean(self.backend)
        return f"{self.cost():.2f} ({1000 * (_p90(self.process) + back):.2f})"


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


if __name__ == "__main__":
    raise SystemExit(main())
