"""Slips beside simulated play, consistent with the hands (`simulate_rounds --slips`,
`seed_history --slips`) and, on request, a shortage, so the reconciliation has something to show.

The model of a table's shift: the tray opens with `OPENING_TRAY_CENTS`; players buy in with cash
(the tray pays out the chips, the cash goes into the drop box, so the buy-ins are the drop); each
hand moves the tray by the house's win; a fill comes from the cage when the tray runs low; the
tray is counted at the close (less the shortage, when one is asked for) and the drop box counted.
So count win = drop + closer - opener + credits - fills = the hands' win - the shortage.

`ShiftBook` plays that through the services (each slip entered and signed by the right people,
on the audit chain) beside rounds played live; `seed_slips` writes the same slips directly for
a synthetic history, as `seed_history` writes its rounds (no audit events, no services).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import chain
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import bind_rows
from core.roles import Role
from tables.engine.money import format_cents
from tables.gaming_day import gaming_day_of, shift_of, shift_starts
from tables.models import Round, Table

from . import rules
from .count import box_arrive, box_remove
from .models import ChipDenomination, DropBoxMove, Slip, SlipSignature
from .opening import open_state
from .services import open_table, reconcile, slip_create, slip_sign

OPENING_TRAY_CENTS = 20_000_00
FILL_BELOW_CENTS = 10_000_00
FILL_CENTS = 10_000_00
BUY_INS_CENTS = (100_00, 200_00, 300_00, 500_00, 1_000_00)
BUY_IN_CHANCE = 0.3  # before a round, one player in three hands over cash
# The reason a simulated shift's slips give once the run has passed into the next gaming day.
LATE_REASON = "Simulated shift played past the end of its gaming day"

# Who enters and signs the simulation's slips: the demo users when they are there.
STAFF = {"pit_boss": ("pitboss", Role.PIT_BOSS), "cage": ("cage", Role.CAGE)}
STAFF |= {"count": ("count", Role.COUNT), "count2": ("count2", Role.COUNT)}


def staff() -> dict[str, AbstractBaseUser]:
    """The pit boss, cage and two count team members the simulation's slips need: the demo
    users, else `sim-*` users (no usable password) made for the purpose."""
    User = get_user_model()
    people: dict[str, AbstractBaseUser] = {}
    for key, (username, role) in STAFF.items():
        user = User.objects.filter(username=username, groups__name=role.value).first()
        if user is None:
            user, created = User.objects.get_or_create(username=f"sim-{username}")
            if created:
                user.set_unusable_password()
                user.save()
            user.groups.add(Group.objects.get(name=role.value))
        people[key] = user
    return people


def as_chips(cents: int) -> dict[str, int]:
    """A sum in the active chips, largest first, as the services take it (`{"25.00": 4}`);
    exactly, or a ValueError."""
    chips, made = tray_chips(cents)
    if made != cents:
        raise ValueError(f"${format_cents(cents)} cannot be made of the active chips")
    return chips


def tray_chips(cents: int) -> tuple[dict[str, int], int]:
    """A tray's count in the active chips, largest first, and the cents it comes to. A tray
    holds chips only: the odd cents of the rounds' payouts under the smallest chip (a $14,398.20
    tray with half-dollars the smallest) are not in it, so the count is what the chips make
    ($14,398.00) and the shift's count differs from its hands by those cents, far within the
    variance tolerance."""
    values = sorted(
        ChipDenomination.objects.filter(is_active=True).values_list("value_cents", flat=True),
        reverse=True,
    )
    if cents < 0 or not values:
        raise ValueError(f"${format_cents(cents)} cannot be made of the active chips")
    chips: dict[str, int] = {}
    left = cents
    for value in values:
        n, left = divmod(left, value)
        if n:
            chips[format_cents(value)] = n
    return chips, cents - left


def fill_chips(cents: int) -> dict[str, int]:
    """A fill as the cage sends it: racks of $100, $25 and $5 chips."""
    hundreds = cents * 6 // 10 // 10000
    quarters = (cents - hundreds * 10000) * 3 // 4 // 2500
    rest = cents - hundreds * 10000 - quarters * 2500
    chips = {"100.00": hundreds, "25.00": quarters}
    for value, n in as_chips(rest).items():
        chips[value] = chips.get(value, 0) + n
    return {k: n for k, n in chips.items() if n}


def open_for_play(tables: list[Table]) -> int:
    """Open each table not yet open for the current gaming day and shift (`open_table`: the
    dealer at the table counts the opening tray, the pit boss signs), as the floor does before
    its first round. Returns how many were opened."""
    from tables.simulation import dealer_for

    people, opened = staff(), 0
    for table in tables:
        if open_state(table=table).is_open:
            continue
        open_table(
            table=table,
            dealer=dealer_for(table),
            pit_boss=people["pit_boss"],
            chips=as_chips(OPENING_TRAY_CENTS),
        )
        opened += 1
    return opened


@dataclass
class ShiftBook:
    """One table's shift played live: the slips through the services, beside the rounds."""

    table: Table
    dealer: AbstractBaseUser
    people: dict[str, AbstractBaseUser]
    rng: random.Random
    shortage_cents: int = 0
    gaming_day: date = field(default_factory=lambda: gaming_day_of(timezone.now()))
    shift: str = field(default_factory=lambda: shift_of(timezone.now()))
    tray_cents: int = OPENING_TRAY_CENTS
    drop_cents: int = 0
    markers_cents: int = 0  # markers issued at the table: in its drop box with the cash
    fills_cents: int = 0
    win_cents: int = 0
    slips: int = 0

    def _where(self, kind: str) -> dict[str, Any]:
        """The slip's table, gaming day and shift; once the run has passed into the next gaming
        day, the reason a slip of the previous one gives (the drop's: the morning count)."""
        where: dict[str, Any] = {
            "table": self.table,
            "gaming_day": self.gaming_day,
            "shift": self.shift,
        }
        if self.gaming_day < gaming_day_of(timezone.now()):
            where["reason"] = rules.MORNING_COUNT_REASON if kind == rules.DROP else LATE_REASON
        return where

    def open(self) -> None:
        """The opener, counted by the dealer and signed by the pit boss."""
        opener = slip_create(
            kind=rules.OPENER,
            by=self.dealer,
            chips=as_chips(self.tray_cents),
            **self._where(rules.OPENER),
        )
        slip_sign(slip=opener, by=self.people["pit_boss"])
        self.slips += 1

    def before_round(self) -> None:
        if self.rng.random() < BUY_IN_CHANCE:
            amount = self.rng.choice(BUY_INS_CENTS)
            if self.tray_cents - amount < FILL_BELOW_CENTS:
                self._fill()
            slip_create(
                kind=rules.BUY_IN,
                by=self.dealer,
                amount=format_cents(amount),
                **self._where(rules.BUY_IN),
            )
            self.tray_cents -= amount
            self.drop_cents += amount
            self.slips += 1

    def after_round(self, round_: Round) -> None:
        self.tray_cents += round_.house_win_cents
        self.win_cents += round_.house_win_cents
        if self.tray_cents < FILL_BELOW_CENTS:
            self._fill()

    def _fill(self) -> None:
        """The pit boss requests it, the cage issues it, the dealer confirms receipt."""
        fill = slip_create(
            kind=rules.FILL,
            by=self.people["pit_boss"],
            chips=fill_chips(FILL_CENTS),
            **self._where(rules.FILL),
        )
        slip_sign(slip=fill, by=self.people["cage"])
        slip_sign(slip=fill, by=self.dealer)
        self.tray_cents += FILL_CENTS
        self.fills_cents += FILL_CENTS
        self.slips += 1

    def _drop_parts(self) -> dict[str, Any]:
        """The drop counted by its parts: the box (removed from the table by one of the count
        team with the other as witness, then received in the count room) and its cash in bills
        by denomination; a sum of odd cents is given as an amount, as the older API does."""
        where = {"table": self.table, "gaming_day": self.gaming_day, "shift": self.shift}
        shifts = [s.strftime("%H:%M") for s in shift_starts()]
        box = self.table.pk * 10 + shifts.index(self.shift) + 1
        moved = set(DropBoxMove.objects.filter(**where).values_list("step", flat=True))
        if DropBoxMove.Step.REMOVED not in moved:
            box_remove(box=box, by=self.people["count"], witness=self.people["count2"], **where)
        if DropBoxMove.Step.ARRIVED not in moved:
            box_arrive(by=self.people["count2"], **where)
        if self.drop_cents % 100:
            return {"amount": format_cents(self.drop_cents), "box": box}
        bills, left = {}, self.drop_cents
        for value in rules.BILLS:
            n, left = divmod(left, value)
            if n:
                bills[str(value // 100)] = n
        return {"bills": bills, "box": box}

    def close(self) -> dict[str, Any]:
        """The closer (the pit boss counts, the dealer signs) and the drop (two of the count
        team); returns what the reconciliation should show."""
        chips, counted = tray_chips(self.tray_cents - self.shortage_cents)
        odd_cents = self.tray_cents - self.shortage_cents - counted
        closer = slip_create(
            kind=rules.CLOSER,
            by=self.people["pit_boss"],
            chips=chips,
            **self._where(rules.CLOSER),
        )
        slip_sign(slip=closer, by=self.dealer)
        drop = slip_create(
            kind=rules.DROP,
            by=self.people["count"],
            markers=format_cents(self.markers_cents) if self.markers_cents else None,
            **self._drop_parts(),
            **self._where(rules.DROP),
        )
        slip_sign(slip=drop, by=self.people["count2"])
        self.slips += 2
        return {
            "gaming_day": self.gaming_day.isoformat(),
            "shift": self.shift,
            "slips": self.slips,
            "drop_cents": self.drop_cents,
            "fills_cents": self.fills_cents,
            "expected_variance_cents": -self.shortage_cents - odd_cents,
        }


def simulate_with_slips(
    tables: list[Table],
    rounds: int,
    *,
    seed: int | None = None,
    seats: int | None = None,
    strategy: str | None = None,
    shortage_cents: int = 0,
    shortage_table: str | None = None,
) -> dict[str, Any]:
    """`tables.simulation.simulate` with the pit's slips: per table an opener, buy-ins, fills
    when the tray runs low, a closer and the drop, all through the services. A shortage (in
    cents) is taken from `shortage_table`'s closer (the first table's by default). The summary
    gains each table's accounting and the variance the reconciliation should show."""
    from tables.simulation import dealer_for, play_round

    rng = random.Random(seed)
    people = staff()
    summary: dict[str, Any] = {"rounds": 0, "handle_cents": 0, "house_win_cents": 0, "tables": {}}
    if strategy is not None:
        summary["strategy"] = strategy
    from tables import games

    # The count here is of the banked games' hands; a poker table (its house win is its rake)
    # is left to `tables.simulation.simulate`.
    banked = [t for t in tables if not isinstance(games.get(t.game), games.PlayerVsPlayerGame)]
    skipped = [t.name for t in tables if t not in banked]
    if skipped:
        summary["skipped"] = {name: "player-vs-player table: no slips" for name in skipped}
    tables = banked
    short = shortage_table or (tables[0].name if tables else None)
    for table in tables:
        dealer = dealer_for(table)
        book = ShiftBook(
            table=table,
            dealer=dealer,
            people=people,
            rng=rng,
            shortage_cents=shortage_cents if table.name == short else 0,
        )
        book.open()
        per = {"game": table.game, "rounds": 0, "handle_cents": 0, "house_win_cents": 0}
        for _ in range(rounds):
            book.before_round()
            r = play_round(table, dealer, rng, seats=seats, strategy=strategy)
            book.after_round(r)
            per["rounds"] += 1
            per["handle_cents"] += r.handle_cents
            per["house_win_cents"] += r.house_win_cents
        per["accounting"] = book.close()
        summary["tables"][table.name] = per
        for key in ("rounds", "handle_cents", "house_win_cents"):
            summary[key] += per[key]
    return summary


# --- a synthetic history ---------------------------------------------------------------------


def _next_number() -> int:
    return (Slip.objects.aggregate(n=Max("number"))["n"] or 0) + 1


@dataclass
class _Batch:
    """A gaming day's slips, numbered in sequence, and who signs each (role, user id)."""

    number: int
    slips: list[Slip] = field(default_factory=list)
    signers: list[list[tuple[str, int]]] = field(default_factory=list)

    def add(
        self,
        where: dict[str, Any],
        kind: str,
        by: int,
        sign: list[tuple[str, int]],
        **fields: Any,
    ) -> None:
        self.slips.append(
            Slip(
                number=self.number,
                kind=kind,
                created_by_id=by,
                signatures_required=len(sign),
                status=Slip.Status.PENDING if sign else Slip.Status.SIGNED,
                signed_at=None if sign else where["created_at"],
                **where,
                **fields,
            )
        )
        self.signers.append(sign)
        self.number += 1

    def write(self) -> int:
        """Insert the slips, then their signatures, then mark them signed (as the triggers
        want it: entered pending, signed in step order, counted once signed)."""
        if not self.slips:
            return 0
        Slip.objects.bulk_create(self.slips)
        ids = dict(
            Slip.objects.filter(number__gte=self.slips[0].number).values_list("number", "pk")
        )
        SlipSignature.objects.bulk_create(
            SlipSignature(slip_id=ids[s.number], step=i, role=role, by_id=by, at=s.created_at)
            for s, sign in zip(self.slips, self.signers, strict=True)
            for i, (role, by) in enumerate(sign, start=1)
        )
        pending = [ids[s.number] for s, sign in zip(self.slips, self.signers, strict=True) if sign]
        Slip.objects.filter(pk__in=pending).update(
            status=Slip.Status.SIGNED, signed_at=timezone.now()
        )
        # On the record as seeded history, so that verify_audit checks these slips too.
        written = list(ids.values())
        bind_rows(
            chain(
                Slip.objects.filter(pk__in=written).order_by("pk").iterator(),
                SlipSignature.objects.filter(slip_id__in=written).order_by("pk").iterator(),
            ),
            kind=EventKind.HISTORY_SEEDED,
            actor_name="seed_history",
            data={"synthetic": True},
        )
        return len(self.slips)


def _stored_chips(cents: int) -> dict[str, Any]:
    """A tray's count as stored: the chips that make it (`tray_chips`) and their amount."""
    given, counted = tray_chips(cents)
    return {
        "chips": {str(int(k.replace(".", ""))): n for k, n in given.items()},
        "amount_cents": counted,
    }


def seed_slips(
    *,
    days: list[date],
    rng: random.Random,
    shortage: tuple[int, date, str, int] | None = None,
) -> dict[str, Any]:
    """Slips for every (gaming day, table, shift) of `days` that has settled rounds, consistent
    with them; `shortage` (table id, day, shift, cents) takes chips from one closer. Written
    directly (signed by the demo staff), one transaction per gaming day. A table's next opener
    is its last closer; a tray grown past twice the opening sends the excess back (a credit)."""
    people = staff()
    boss, cage = people["pit_boss"].pk, people["cage"].pk
    count, count2 = people["count"].pk, people["count2"].pk
    last_closer: dict[int, int] = {}
    tables: dict[int, Table] = {}
    written = alerts = 0
    for day in days:
        dealer_of: dict[tuple[int, str], int] = {}
        for r in Round.objects.filter(gaming_day=day).values("table_id", "shift", "dealer_id"):
            dealer_of.setdefault((r["table_id"], r["shift"]), r["dealer_id"])
        wins = (
            Round.objects.filter(gaming_day=day, status=Round.Status.SETTLED)
            .values("table_id", "shift")
            .annotate(net=Sum("players_net_cents"), handle=Sum("handle_cents"))
            .order_by("table_id", "shift")
        )
        at = timezone.make_aware(datetime.combine(day, datetime.min.time()))
        with transaction.atomic():
            batch = _Batch(number=_next_number())
            already = set(
                Slip.objects.filter(gaming_day=day).values_list("table_id", "shift").distinct()
            )
            for row in wins:
                table_id, shift = row["table_id"], row["shift"]
                if (table_id, shift) in already:  # counted before (a second run): left as is
                    closer = (
                        Slip.objects.filter(
                            gaming_day=day, table_id=table_id, shift=shift, kind=rules.CLOSER
                        )
                        .filter(status=Slip.Status.SIGNED)
                        .values_list("amount_cents", flat=True)
                        .first()
                    )
                    if closer is not None:
                        last_closer[table_id] = closer
                    continue
                dealer = dealer_of[(table_id, shift)]
                where = {"table_id": table_id, "gaming_day": day, "shift": shift, "created_at": at}
                opener = last_closer.get(table_id, OPENING_TRAY_CENTS)
                # The buy-ins: about a fifth of the handle, in the usual amounts.
                target = max(BUY_INS_CENTS[0], (row["handle"] or 0) // 5)
                buy_ins: list[int] = []
                while sum(buy_ins) < target:
                    buy_ins.append(rng.choice(BUY_INS_CENTS))
                drop = sum(buy_ins)
                closer = opener - drop - (row["net"] or 0)
                fills = 0
                while closer < FILL_BELOW_CENTS:
                    closer += FILL_CENTS
                    fills += 1
                credit = 0
                if closer > 2 * OPENING_TRAY_CENTS:
                    credit = (closer - OPENING_TRAY_CENTS) // 10000 * 10000
                    closer -= credit
                if shortage is not None and (table_id, day, shift) == shortage[:3]:
                    closer -= shortage[3]
                batch.add(
                    where, rules.OPENER, dealer, [("pit_boss", boss)], **_stored_chips(opener)
                )
                for amount in buy_ins:
                    batch.add(
                        where, rules.BUY_IN, dealer, [], cash_cents=amount, amount_cents=amount
                    )
                for _ in range(fills):
                    batch.add(
                        where,
                        rules.FILL,
                        boss,
                        [("cage", cage), ("dealer", dealer)],
                        chips={"10000": FILL_CENTS // 10000},
                        amount_cents=FILL_CENTS,
                    )
                if credit:
                    batch.add(
                        where,
                        rules.CREDIT,
                        boss,
                        [("dealer", dealer), ("cage", cage)],
                        chips={"10000": credit // 10000},
                        amount_cents=credit,
                    )
                counted = _stored_chips(closer)
                batch.add(where, rules.CLOSER, boss, [("dealer", dealer)], **counted)
                last_closer[table_id] = counted["amount_cents"]
                batch.add(
                    where,
                    rules.DROP,
                    count,
                    [("count", count2)],
                    cash_cents=drop,
                    amount_cents=drop,
                )
            written += batch.write()
            # Raise the alerts the services would have (a shortage beyond the tolerance).
            for row in wins:
                table = tables.setdefault(row["table_id"], Table.objects.get(pk=row["table_id"]))
                if reconcile(table=table, gaming_day=day, shift=row["shift"]) is not None:
                    alerts += 1
    return {"slips": written, "variance_alerts": alerts}
