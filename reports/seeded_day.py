"""A seeded gaming day: what a floor's day holds, played through the services the tablet and the
API call, at every table of every game (`manage.py play_day`, the suite's shared day, the large
day's benchmark).

On top of `seed_demo`'s floor, per banked table: an opener; rounds with buy-ins before them and
fills when the tray runs low; a misdeal (dealt, stepped back, cancelled); a round whose
decisions are undone and entered again; a credit; the closer and the drop. Per poker table:
hands, a misdeal, an undone action and a voided hand. Once in the day: a progressive jackpot
signed off at the tablet and a large payout signed off from the dashboard; a void that waits
for a second pit boss and one that does not; corrections (one of them into a jackpot, waiting
for its sign-off and approved); rated players seated, played and unseated, and a comp redeemed
under a second person's approval; a display key issued and revoked; a paytable version drafted,
approved by a second admin and put in force mid-day; a voided slip; each drop box removed
with a witness and received in the count room, its drop counted by bills, chips and markers,
and the day's count sheet signed by two of the count team; the broker (Redis) down for
some rounds (they settle; the catch-up rebuilds their reports); and, where the day is played
outside a transaction, the database connection lost in the middle of a step (the step fails,
nothing of it saved, and is sent again).

Deterministic by seed: the same seed on the same floor plays the same cards, wagers and
decisions. Sized by `rounds` (per table)."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.utils import timezone

from accounting import rules as slip_rules
from accounting.count import count_sheet_sign
from accounting.models import Slip
from accounting.services import slip_create, slip_sign, slip_void
from accounting.simulation import FILL_BELOW_CENTS, ShiftBook, as_chips, open_for_play, staff
from core.errors import ServiceError
from players import services as player_svc
from players.models import Player, Rating
from tables import games
from tables.engine.money import format_cents
from tables.models import Hand, Round, Table
from tables.selectors import round_state
from tables.services import controls, corrections
from tables.services import hands as hand_svc
from tables.services import rounds as svc
from tables.services.displays import display_key_issue, display_key_revoke, has_display
from tables.services.paytables import paytable_approve, paytable_assign, paytable_draft
from tables.simulation import dealer_for, play_hand, play_round

from .reporting import rebuild_stale

# A seat holding the progressive's top hand at the demo's progressive table, and a dealer's
# hand it beats.
JACKPOT_SEAT = "Ah 2c 4d"
JACKPOT_DEALER = "As 2d 4c"
# A large payout there (a seat's bonus and progressive award at a high ante): a sign-off.
LARGE_SEATS = {1: "Ah 2d 4h", 2: "Kd Qc Js", 3: "9c 9d 3s"}
LARGE_DEALER = "6h 4d 2c"
BROKER_DOWN = "redis://127.0.0.1:9/0"  # nothing listens there: every send is refused
RATED_CARDS = ("100001", "100002", "100003")


@dataclass
class DayReport:
    """What the day played: counts by kind of event, and the rows a test looks at again."""

    seed: int
    counts: Counter[str] = field(default_factory=Counter)
    rounds: dict[str, Round] = field(default_factory=dict)
    hands: dict[str, Hand] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, kind: str, n: int = 1) -> None:
        self.counts[kind] += n

    def as_data(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "events": dict(sorted(self.counts.items())),
            "rounds": {k: r.pk for k, r in self.rounds.items()},
            "hands": {k: h.pk for k, h in self.hands.items()},
            "notes": self.notes,
        }


def _user(username: str) -> AbstractBaseUser:
    return get_user_model().objects.get(username=username)


def _banked(table: Table) -> bool:
    return isinstance(games.get(table.game), games.BankedGame)


def _progressive(table: Table) -> bool:
    return table.meter is not None


@contextlib.contextmanager
def broker_down() -> Iterator[None]:
    """The broker unreachable: every task send is refused (the services go on, the reports are
    marked stale for the catch-up), as when Redis is down."""
    from celery import current_app as app

    from casino.enqueue import resume

    eager, url = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url = False, BROKER_DOWN
    resume()
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.broker_url = eager, url
        resume()


def lose_the_connection() -> bool:
    """The database connection lost as a server restart or a network cut loses it: on
    PostgreSQL the server ends this session's backend, on SQLite the connection is closed under
    Django. Only outside a transaction (inside one, a test's, nothing could go on) and on a
    database that outlives its connection; returns whether it was lost."""
    if connection.in_atomic_block:
        return False
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        return False  # the database lives in its connection: closing it would end it
    connection.ensure_connection()
    if connection.vendor == "postgresql":
        from django.db import connections

        pid = connection.connection.info.backend_pid
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        finally:
            other.close()
    else:
        connection.connection.close()  # the driver's connection, behind Django's back
    return True


def _again_after_a_lost_connection(step: Callable[[], Any]) -> Any:
    """Send a step whose connection was lost, as the tablet sends it again after the 503: the
    failed attempt saved nothing; Django opens a new connection (as at a request's end)."""
    try:
        return step()
    except Exception as exc:  # noqa: BLE001 - whatever the driver raises for a lost connection
        from core.db import unavailable

        # SQLite's driver says its closed connection in its own words.
        if not (unavailable(exc) or "closed database" in str(exc)):
            raise
    connection.close()
    return step()


DEMO = "demo"  # the demo logins' password (seed_demo, DEBUG only)


def _page(user: AbstractBaseUser) -> Any:
    """A browser signed in as `user`, posting to the site's own pages."""
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    return client


def _paid(round_: Round, answer: Any) -> Round:
    """The round a page was asked to pay, paid; else the page's refusal, as a step refused."""
    round_.refresh_from_db()
    if round_.status != Round.Status.SETTLED:
        raise ServiceError(
            f"the page did not pay round {round_.number} at {round_.table} "
            f"(it answered {answer.status_code})"
        )
    return round_


class Day:
    def __init__(self, *, seed: int, rounds: int, outages: bool = True) -> None:
        self.rng = random.Random(seed)
        self.rounds = max(rounds, 4)
        self.outages = outages
        self.report = DayReport(seed=seed)
        self.people = staff()
        self.boss = {name: _user(name) for name in ("pitboss", "pitboss_b", "pitboss_c")}
        self.tables = list(
            Table.objects.filter(is_open=True)
            .select_related("paytable_version", "meter")
            .order_by("name")
        )

    # --- the banked tables -------------------------------------------------------------------

    def play(self) -> DayReport:
        banked = [t for t in self.tables if _banked(t) and t.paytable_version is not None]
        poker = [
            t
            for t in self.tables
            if isinstance(games.get(t.game), games.PlayerVsPlayerGame) and not _banked(t)
        ]
        self.books = {t.name: self._open(t) for t in banked}
        for table in poker:  # a poker table's tray is counted too before its first hand
            open_for_play([table])
            self.report.add("opener")
        rated = banked[-1] if banked else None
        for i in range(self.rounds):
            if i == 0:
                self._rated_players(rated, seated=True)
            for table in banked:
                self._banked_round(table, i)
            for table in poker:
                self._poker_hand(table, i)
            if i == 1:
                self._misdeals(banked, poker)
                self._paytable_mid_day(banked)
            if i == 2:
                self._rated_players(rated, seated=False)
                self._controls(banked)
                self._display_keys(poker)
                self._tokens()
                self._cash_compliance(banked)
                self._ctr_filed()
                self._markers(banked)
                self._merged_patron(banked)
                self._suspicious(banked)
            if i == self.rounds // 2 and self.outages:
                self._outages(banked)
        self._poker_void(poker)
        self._voided_slip(banked)
        for table in banked:
            self._close(table)
        self._count_sheet(banked)
        rebuild_stale()  # the catch-up job, as beat runs it
        self.report.add("reports rebuilt by the catch-up")
        return self.report

    def _open(self, table: Table) -> ShiftBook:
        dealer = dealer_for(table)
        book = ShiftBook(table=table, dealer=dealer, people=self.people, rng=self.rng)
        book.open()
        self.report.add("opener")
        return book

    def _banked_round(self, table: Table, i: int, **kwargs: Any) -> Round:
        book = self.books[table.name]
        slips = book.slips
        book.before_round()
        r = play_round(table, book.dealer, self.rng, **kwargs)
        book.after_round(r)
        self.report.add("round")
        if book.slips > slips:
            self.report.add("buy-in or fill", book.slips - slips)
        return r

    def _counted(self, r: Round) -> Round:
        """A round settled outside the day's usual play: its chips moved the tray."""
        r.refresh_from_db()
        self.books[r.table.name].after_round(r)
        return r

    def _uncounted(self, r: Round) -> Round:
        """A round voided: as if never dealt, its chips go back where they came from."""
        r.refresh_from_db()
        book = self.books[r.table.name]
        book.tray_cents -= r.house_win_cents
        book.win_cents -= r.house_win_cents
        return r

    def _close(self, table: Table) -> None:
        book = self.books[table.name]
        # A credit: chips the tray does not need go back to the cage (the pit boss releases
        # them at the table with the dealer, the cage receives them).
        credit_cents = 500_00
        if book.tray_cents > credit_cents * 4:
            credit = slip_create(
                kind=slip_rules.CREDIT,
                by=self.people["pit_boss"],
                chips=as_chips(credit_cents),
                **book._where(slip_rules.CREDIT),
            )
            slip_sign(slip=credit, by=book.dealer)
            slip_sign(slip=credit, by=self.people["cage"])
            book.tray_cents -= credit_cents
            book.slips += 1
            self.report.add("credit")
        book.close()  # the chips counted: a tray's odd cents are no chip
        self.report.add("closer")
        self.report.add("drop")

    def _count_sheet(self, banked: list[Table]) -> None:
        """The count team signs each gaming day's count sheet once its drops are counted (by
        their parts, boxes removed with a witness): both members, independent of the pit."""
        days = sorted({self.books[t.name].gaming_day for t in banked})
        for day in days:
            count_sheet_sign(gaming_day=day, by=self.people["count"])
            count_sheet_sign(gaming_day=day, by=self.people["count2"])
            self.report.add("count sheet signed")

    # --- misdeals, undone steps ----------------------------------------------------------------

    def _misdeals(self, banked: list[Table], poker: list[Table]) -> None:
        for table in banked:
            dealer = self.books[table.name].dealer
            r = svc.round_open(table=table, dealer=dealer, wagers=self._wagers(table, {1: None}))
            deal = self._deal_of(table, r)
            r = svc.round_deal(round=r, dealer=dealer, **deal)
            r = controls.round_step_back(round=r, dealer=dealer, to="cards")
            controls.round_cancel(round=r, by=dealer, reason="misdeal: a card flashed")
            self.report.add("misdeal")
            # A round whose decisions are entered, undone and entered again.
            self._banked_round(table, 0, step_back="decisions")
            self.report.add("undone step")
        for table in poker:
            dealer = dealer_for(table)
            game = games.player_vs_player(table.game)
            hand = hand_svc.hand_open(table=table, dealer=dealer, players=self._buy_ins(table, 2))
            step = game.random_step(self.rng, hand.record)
            if step is not None:
                hand = hand_svc.hand_act(hand=hand, dealer=dealer, step=step)
            try:
                hand_svc.hand_misdeal(hand=hand, dealer=dealer, reason="a card was exposed")
                self.report.add("poker misdeal")
            except ServiceError:  # too late in this game for a misdeal: finished instead
                self._finish(table, dealer, hand)

    def _wagers(self, table: Table, seats: dict[int, Any]) -> dict[int, dict[str, str]]:
        version = table.paytable_version
        assert version is not None
        game = games.banked(table.game)
        meter = format_cents(table.meter.wager_cents) if table.meter is not None else None
        limits = version.limits

        def stake(wager: str) -> str:  # the table's minimum, or $5.00 where that is less
            return format_cents(max(limits.get(wager, {}).get("min_cents", 500), 500))

        return {
            n: game.simulated_wagers(game.random_round(self.rng, 1)["seats"][0], stake, meter)
            for n in seats
        }

    def _deal_of(self, table: Table, r: Round) -> dict[str, Any]:
        game = games.banked(table.game)
        data = game.random_round(self.rng, len(r.entry.get("seats", [])) or 1)
        seats = sorted(int(s["seat"]) for s in r.entry["seats"])
        return {
            "seat_cards": {n: s["cards"] for n, s in zip(seats, data["seats"], strict=False)},
            "dealer_cards": data["dealer"]["cards"],
        }

    def _buy_ins(self, table: Table, count: int) -> dict[int, int]:
        from tables.selectors import settings_in_force

        game = games.player_vs_player(table.game)
        version = settings_in_force(table)
        assert version is not None
        least = game.min_buy_in(version.values)
        return {n: max(least, 100_00) for n in range(1, count + 1)}

    def _finish(self, table: Table, dealer: AbstractBaseUser, hand: Hand) -> Hand:
        game = games.player_vs_player(table.game)
        while (step := game.random_step(self.rng, hand.record)) is not None:
            hand = hand_svc.hand_act(hand=hand, dealer=dealer, step=step)
        return hand_svc.hand_finish(hand=hand, dealer=dealer)

    def _poker_hand(self, table: Table, i: int) -> None:
        dealer = dealer_for(table)
        if i == 3:
            # An action taken back and taken again before the hand goes on.
            game = games.player_vs_player(table.game)
            hand = hand_svc.hand_open(table=table, dealer=dealer, players=self._buy_ins(table, 3))
            undone = False
            while (step := game.random_step(self.rng, hand.record)) is not None:
                hand = hand_svc.hand_act(hand=hand, dealer=dealer, step=step)
                if not undone and len(hand_svc.hand_steps(hand)[1]) >= 2:
                    hand = hand_svc.hand_undo(hand=hand, dealer=dealer)
                    hand = hand_svc.hand_act(hand=hand, dealer=dealer, step=step)
                    undone = True
                    self.report.add("poker step undone")
            self.report.hands[f"{table.name} undone"] = hand_svc.hand_finish(
                hand=hand, dealer=dealer
            )
        else:
            self.report.hands.setdefault(table.name, play_hand(table, dealer, self.rng))
            if i:
                play_hand(table, dealer, self.rng)
        self.report.add("poker hand")

    def _poker_void(self, poker: list[Table]) -> None:
        for table in poker:
            hand = self.report.hands.get(table.name)
            if hand is None:
                continue
            self.report.hands[f"{table.name} voided"] = hand_svc.hand_void(
                hand=hand, by=self.boss["pitboss"], reason="the wrong player was paid the pot"
            )
            self.report.add("poker hand voided")

    # --- sign-offs, voids, corrections --------------------------------------------------------

    def _controls(self, banked: list[Table]) -> None:
        boss, boss_b, boss_c = self.boss["pitboss"], self.boss["pitboss_b"], self.boss["pitboss_c"]
        progressive = next((t for t in banked if _progressive(t)), None)
        if progressive is not None:
            # The jackpot, signed off at the tablet: the pit boss types name and password on
            # the dealer's tablet (its page, as the dealer's browser posts it).
            jackpot = self._jackpot_round(progressive)
            dealer = self.books[progressive.name].dealer
            answer = _page(dealer).post(
                f"/tablet/table/{progressive.pk}/approve/",
                {"round": jackpot.pk, "approver": boss.get_username(), "approver-password": DEMO},
            )
            self.report.rounds["jackpot"] = self._counted(_paid(jackpot, answer))
            self.report.add("jackpot signed off at the tablet")
            # A large payout signed off from the dashboard by another pit boss: its confirm
            # page, then its button.
            large = self._jackpot_round(
                progressive, seats=LARGE_SEATS, dealer_cards=LARGE_DEALER, ante="500.00"
            )
            desk = _page(boss_b)
            confirm = desk.get(f"/audit/rounds/{large.pk}/approve/")
            assert confirm.status_code == 200, confirm.status_code
            answer = desk.post(f"/audit/rounds/{large.pk}/approve/", {"confirm": "approve"})
            self.report.rounds["large payout"] = self._counted(_paid(large, answer))
            self.report.add("large payout signed off from the dashboard")
            # Its void waits for a second pit boss (neither of the two who signed off).
            asked = corrections.round_void(
                round=self.report.rounds["large payout"],
                by=boss_c,
                reason="the dealer's cards were entered in the wrong order",
            )
            assert asked.void_waiting
            self.report.add("void waiting for a second pit boss")
            self.report.rounds["voided after waiting"] = self._uncounted(
                corrections.round_void_approve(round=asked, by=boss)
            )
            self.report.add("void approved by a second pit boss")
            # A void and its correction into a jackpot (the correction waits for its sign-off).
            small = self._banked_round(progressive, 0, seats=1)
            voided = self._uncounted(
                corrections.round_void(round=small, by=boss_c, reason="seat 1's cards were misread")
            )
            entry = self._jackpot_entry(voided)
            correction = corrections.round_correct(voided=voided, by=boss_c, entry=entry)
            if correction.status == Round.Status.OPEN:
                correction = controls.round_approve(round=correction, by=boss_b)
            self.report.rounds["correction into a jackpot"] = self._counted(correction)
            self.report.add("correction into a jackpot")
        for table in banked:
            if _progressive(table):
                continue
            r = self._banked_round(table, 0)
            voided = self._uncounted(
                corrections.round_void(round=r, by=boss, reason="the dealer's hand was read wrong")
            )
            self.report.add("void at once")
            entry = {k: v for k, v in voided.entry.items() if k not in ("decided", "dealer_done")}
            self.report.rounds[f"{table.name} correction"] = self._counted(
                corrections.round_correct(voided=voided, by=boss_b, entry=entry)
            )
            self.report.add("correction")

    def _jackpot_round(
        self,
        table: Table,
        *,
        seats: dict[int, str] | None = None,
        dealer_cards: str = JACKPOT_DEALER,
        ante: str = "10.00",
    ) -> Round:
        dealer = self.books[table.name].dealer
        seats = seats or {1: JACKPOT_SEAT}
        meter = self._meter_wager(table)
        wagers = {n: {"ante": ante, "progressive": meter} for n in seats}
        r = svc.round_open(table=table, dealer=dealer, wagers=wagers)
        r = svc.round_deal(round=r, dealer=dealer, seat_cards=seats, dealer_cards=dealer_cards)
        for n in seats:
            r = svc.round_decide(
                round=r, dealer=dealer, seat=n, decision={"discard": [], "draw": []}
            )
        spare = ["7c", "8c", "Tc"][: round_state(r)["advice"].get("draw_count", 0)]
        r = svc.round_dealer(round=r, dealer=dealer, draw=spare)
        with contextlib.suppress(svc.ApprovalRequired):  # it waits for a pit boss's sign-off
            svc.round_settle(round=r, dealer=dealer)
        r.refresh_from_db()
        assert r.status == Round.Status.OPEN and r.approval_requested_at is not None
        return r

    def _meter_wager(self, table: Table) -> str:
        assert table.meter is not None
        return format_cents(table.meter.wager_cents)

    def _jackpot_entry(self, voided: Round) -> dict[str, Any]:
        """The voided round entered again as it was really dealt: seat 1 held the jackpot."""
        entry = {k: v for k, v in voided.entry.items() if k not in ("decided", "dealer_done")}
        seats = [dict(s) for s in entry["seats"]][:1]
        seats[0]["cards"] = JACKPOT_SEAT.split()
        seats[0]["wagers"] = {
            **{k: v for k, v in seats[0].get("wagers", {}).items() if k != "progressive"},
            "progressive": self._meter_wager(voided.table),
        }
        seats[0].pop("discard", None)
        seats[0].pop("draw", None)
        seats[0].pop("decision", None)
        entry["seats"] = seats
        entry["dealer"] = {"cards": JACKPOT_DEALER.split()}
        return entry

    # --- the pit's other events -------------------------------------------------------------

    def _paytable_mid_day(self, banked: list[Table]) -> None:
        table = next((t for t in banked if not _progressive(t)), None)
        if table is None or table.paytable_version is None:
            return
        now = table.paytable_version
        draft = paytable_draft(
            author=_user("admin"),
            game=now.game,
            name=now.name,
            lines=now.lines,
            limits=now.limits,
            based_on=now,
        )
        approved = paytable_approve(version=draft, approver=_user("admin2"))
        paytable_assign(table=table, version=approved, by=_user("admin"))
        table.refresh_from_db()
        self.report.add("paytable version approved and put in force")

    def _tokens(self) -> None:
        """A dealer's API token issued (the tablet app's sign-in) and another's revoked."""
        from accounts.authentication import revoke_token
        from accounts.models import ApiToken

        ApiToken.objects.issue(_user("dealer"))
        token, _key = ApiToken.objects.issue(_user("dealer2"))
        revoke_token(token, "signed out")
        self.report.add("API token issued", 2)
        self.report.add("API token revoked")

    def _display_keys(self, poker: list[Table]) -> None:
        table = next((t for t in poker if has_display(t)), None)
        if table is None:
            return
        row, _key = display_key_issue(table=table, by=self.boss["pitboss"])
        display_key_revoke(key=row, by=self.boss["pitboss_b"])
        self.report.add("display key issued and revoked")

    def _rated_players(self, table: Table | None, *, seated: bool) -> None:
        if table is None:
            return
        dealer = self.books[table.name].dealer
        cards = [c for c in RATED_CARDS if Player.objects.filter(card=c).exists()]
        if seated:
            for seat, card in enumerate(cards[:2], start=1):
                player_svc.seat_player(table=table, seat=seat, card=card, by=dealer)
                self.report.add("rated player seated")
            return
        # Enough play at the rated seats that a comp can be earned, then the players leave.
        for _ in range(60):
            rating = Rating.objects.filter(table=table, seat=1, ended_at__isnull=True).first()
            if rating is None or player_svc.balance(rating.player) >= 1:
                break
            self._banked_round(table, 0, seats=table.seats)
        for rating in Rating.objects.filter(table=table, ended_at__isnull=True):
            player_svc.unseat_player(table=table, seat=rating.seat, by=dealer)
            self.report.add("rated player unseated")
        player = Player.objects.filter(card=cards[0]).first() if cards else None
        if player is not None and player_svc.balance(player) >= 1:
            redemption = player_svc.redemption_enter(
                player=player,
                points=player_svc.balance(player),
                reason="dinner at the steakhouse",
                by=_user("host"),
            )
            if redemption.status == redemption.Status.PENDING:
                player_svc.redemption_approve(redemption=redemption, by=self.boss["pitboss"])
            self.report.add("comp redeemed")
        else:
            self.report.notes.append("no comp points earned: no comp redeemed")

    def _cash_buy_in(self, table: Table, *, seat: int, amount_cents: int, patron: Any) -> Slip:
        book = self.books[table.name]
        slip = slip_create(
            kind=slip_rules.BUY_IN,
            by=book.dealer,
            amount=format_cents(amount_cents),
            seat=seat,
            patron=patron,
            **book._where(slip_rules.BUY_IN),
        )
        book.tray_cents -= amount_cents  # the chips paid out, the cash into the drop box
        book.drop_cents += amount_cents
        book.slips += 1
        if book.tray_cents < FILL_BELOW_CENTS:
            book._fill()
        return slip

    def _cash_compliance(self, banked: list[Table]) -> None:
        """A patron's large cash day over two tables: a described patron's buy-in past the MTL
        threshold (an MTL entry), a second at another table taking the day's cash in past
        $10,000 (a CTR), the next refused until the cage identifies the patron, then taken."""
        from compliance.models import Patron
        from compliance.services import ctr_threshold, mtl_threshold, patron_identify

        if len(banked) < 2:
            return
        first, second = banked[0], banked[1]
        big = self._cash_buy_in(
            first,
            seat=3,
            amount_cents=mtl_threshold() + 500_00,
            patron={"description": {"sex": "male", "clothing": "grey suit, red tie"}},
        )
        patron = Patron.objects.get(pk=big.cash_transaction.patron_id)
        self.report.add("cash buy-in logged on the MTL")
        self._cash_buy_in(
            second, seat=2, amount_cents=ctr_threshold() - mtl_threshold(), patron=patron.number
        )
        self.report.add("cash buy-in opening a CTR")
        try:
            self._cash_buy_in(second, seat=2, amount_cents=200_00, patron=patron.number)
        except ServiceError:
            self.report.add("cash buy-in refused until the patron is identified")
        else:
            raise ServiceError("a CTR's patron bought in again before being identified")
        patron_identify(
            patron=patron,
            by=self.people["cage"],
            identification={
                "name": "Walter Reyes",
                "date_of_birth": "1970-04-12",
                "address": "12 Harbor Road, Atlantic City, NJ 08401",
                "id_type": "drivers_license",
                "id_number": "D1234-56789-01234",
                "id_issuer": "NJ",
                "id_expiry": f"{timezone.localdate().year + 3}-06-30",
                "occupation": "contractor",
            },
        )
        self.report.add("patron identified at the cage")
        self._cash_buy_in(second, seat=2, amount_cents=200_00, patron=patron.number)
        self.report.add("cash buy-in after the identification")

    def _ctr_filed(self) -> None:
        """The compliance officer files the day's CTR (its patron identified at the cage) on
        the filing page, with the BSA ID FinCEN's acknowledgment gave it."""
        from compliance.models import Ctr

        ready = [
            c
            for c in Ctr.objects.filter(filing__isnull=True).select_related("patron")
            if c.patron.is_identified
        ]
        if not ready:
            return
        ctr = ready[-1]
        answer = _page(_user("compliance")).post(
            "/compliance/ctrs/file/",
            {"ctr": str(ctr.pk), "bsa_id": f"31000{self.report.seed:09d}"},
        )
        if answer.status_code != 303:
            raise ServiceError(f"the filing page did not file the CTR ({answer.status_code})")
        self.report.add("CTR filed by the compliance officer")

    def _markers(self, banked: list[Table]) -> None:
        """Casino credit: an identified patron's line set by one credit manager and approved by
        another, a marker issued at a table seat by the pit boss (its chips from the tray, the
        marker into the drop box), and part of it repaid in cash at the cage."""
        from compliance import credit
        from compliance.services import patron_create, patron_identify

        if not banked:
            return
        cage = self.people["cage"]
        patron = patron_create(by=cage, description={"sex": "female", "clothing": "navy coat"})
        patron_identify(
            patron=patron,
            by=cage,
            identification={
                "name": "Grace Okafor",
                "date_of_birth": "1965-09-03",
                "address": "40 Pine Street, Princeton, NJ 08540",
                "id_type": "passport",
                "id_number": "X12345678",
                "id_issuer": "US",
                "id_expiry": f"{timezone.localdate().year + 5}-01-31",
                "occupation": "architect",
            },
        )
        line = credit.line_set(patron=patron.number, amount="20000.00", by=_user("credit"))
        credit.line_approve(line=line, by=_user("credit2"))
        self.report.add("credit line set and approved")
        table, amount_cents = banked[-1], 5000_00
        book = self.books[table.name]
        credit.marker_issue(
            table=table,
            seat=4,
            patron=patron.number,
            amount=format_cents(amount_cents),
            patron_signed=True,
            by=self.people["pit_boss"],
            gaming_day=book.gaming_day,
            shift=book.shift,
        )
        book.tray_cents -= amount_cents  # the chips to the patron, the marker into the drop box
        book.markers_cents += amount_cents
        if book.tray_cents < FILL_BELOW_CENTS:
            book._fill()
        self.report.add("marker issued at a table")
        marker = patron.markers.get()
        credit.marker_repay(marker=marker.number, method="cash", amount="2000.00", by=cage)
        self.report.add("marker partly repaid in cash at the cage")

    def _merged_patron(self, banked: list[Table]) -> None:
        """A patron first known by a description: a buy-in at a table and chips bought at the
        cage; the same buy-in tapped twice, the second slip voided by two pit bosses (its cash
        off the patron's day); then the cage merges the described patron into the identified
        one (their days one, read through the merge)."""
        from compliance.merge import patron_merge
        from compliance.models import Patron
        from compliance.services import cage_record

        known = Patron.objects.filter(identified_at__isnull=False).order_by("-id").first()
        if len(banked) < 2 or known is None:
            return
        table = banked[1]
        slip = self._cash_buy_in(
            table,
            seat=5,
            amount_cents=1_500_00,
            patron={"description": {"sex": "male", "clothing": "navy blazer"}},
        )
        stranger = Patron.objects.get(pk=slip.cash_transaction.patron_id)
        twice = slip_create(
            kind=slip_rules.BUY_IN,
            by=self.books[table.name].dealer,
            amount="1500.00",
            seat=5,
            patron=stranger.number,
            **self.books[table.name]._where(slip_rules.BUY_IN),
        )
        reason = "entered twice: the navy blazer's one $1,500.00 buy-in"
        slip_void(slip=twice, by=self.boss["pitboss"], reason=reason)
        slip_void(slip=twice, by=self.boss["pitboss_b"], reason=reason)
        self.report.add("voided buy-in taken off its patron's day")
        cage_record(
            kind="chips_bought", patron=stranger.number, amount="800.00", by=self.people["cage"]
        )
        patron_merge(
            merged=stranger.number,
            into=known.number,
            by=self.people["cage"],
            reason="the navy blazer showed the same license at the window",
        )
        self.report.add("described patron merged into an identified one")

    def _suspicious(self, banked: list[Table]) -> None:
        """Suspicious activity: a patron's two buy-ins each just under the MTL at two tables (a
        structuring alert), another's chips bought and redeemed at the cage with no play (chip
        walking), and the compliance officer's case on it, noted and decided."""
        from compliance.cases import case_decide, case_note, case_open
        from compliance.models import Alert, AlertKind
        from compliance.services import cage_record, mtl_threshold

        if len(banked) < 2:
            return
        under = mtl_threshold() - 100_00
        first = self._cash_buy_in(
            banked[0],
            seat=4,
            amount_cents=under,
            patron={"description": {"sex": "female", "clothing": "blue coat, white scarf"}},
        )
        patron = first.cash_transaction.patron
        self._cash_buy_in(banked[1], seat=4, amount_cents=under, patron=patron.number)
        if Alert.objects.filter(patron=patron, kind=AlertKind.STRUCTURING).exists():
            self.report.add("structuring alert raised")
        cage = self.people["cage"]
        walker = {"description": {"sex": "male", "clothing": "black leather jacket"}}
        bought = cage_record(kind="chips_bought", patron=walker, amount="5000.00", by=cage)
        number = bought.patron.number if bought.patron else ""
        cage_record(kind="chips_redeemed", patron=number, amount="4900.00", by=cage)
        walked = Alert.objects.filter(patron=bought.patron, kind=AlertKind.CHIP_WALKING)
        if walked.exists():
            self.report.add("chip walking alert raised")
        officer = _user("compliance")
        case = case_open(by=officer, alerts=[a.pk for a in walked], note="no play at any table")
        case_note(case=case, by=officer, note="the cage confirms chips bought and redeemed")
        case_decide(case=case, by=officer, file_sar=True, reason="cash through chips without play")
        self.report.add("compliance case opened and decided")

    def _voided_slip(self, banked: list[Table]) -> None:
        """A buy-in entered twice (the dealer tapped twice for one player's cash): the second
        slip is voided, asked by one pit boss and confirmed by another; the cash was dropped
        once."""
        if not banked:
            return
        book = self.books[banked[0].name]
        twice = slip_create(
            kind=slip_rules.BUY_IN,
            by=book.dealer,
            amount="100.00",
            **book._where(slip_rules.BUY_IN),
        )
        reason = "entered twice: one player's $100.00 buy-in"
        slip_void(slip=twice, by=self.boss["pitboss"], reason=reason)
        slip_void(slip=twice, by=self.boss["pitboss_b"], reason=reason)
        self.report.add("slip voided")

    def _outages(self, banked: list[Table]) -> None:
        if not banked:
            return
        with broker_down():
            for table in banked:
                self._banked_round(table, 0)
        self.report.add("rounds played with the broker down", len(banked))
        table = banked[0]
        dealer = self.books[table.name].dealer
        r = svc.round_open(table=table, dealer=dealer, wagers=self._wagers(table, {1: None}))
        deal = self._deal_of(table, r)
        if lose_the_connection():
            r = _again_after_a_lost_connection(
                lambda: svc.round_deal(round=r, dealer=dealer, **deal)
            )
            self.report.add("database connection lost mid-step")
        else:
            r = svc.round_deal(round=r, dealer=dealer, **deal)
            self.report.notes.append(
                "played in a transaction or an in-memory database: the connection was not cut"
            )
        controls.round_cancel(round=r, by=dealer, reason="misdeal after the connection was lost")
        self.report.add("misdeal")


def play_day(*, seed: int = 1, rounds: int = 6, outages: bool = True) -> DayReport:
    """Play a seeded gaming day on the demo floor (see the module's docstring)."""
    return Day(seed=seed, rounds=rounds, outages=outages).play()
