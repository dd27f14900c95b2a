"""The state is bound to the record: every row that holds or decides money says what its
latest audit event says, and `verify_audit` names, by table, id and field, any row that does
not (a changed, deleted or forged row), on both databases and past every guard."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection, transaction
from rest_framework.test import APIClient

from accounting.models import Slip, SlipSignature
from accounting.services import slip_create, slip_sign, slip_void
from accounts.lockout import lockout_lift, record_failure
from accounts.models import AccountLock
from audit import binding
from audit.models import AuditEvent
from audit.verify import verify_record
from core.roles import Role
from tables.models import (
    Hand,
    HandPlayer,
    MeterEntry,
    PaytableVersion,
    ProgressiveMeter,
    Round,
    SettlementLine,
    Table,
)
from tables.services import controls, corrections
from tables.services import hands as hand_svc
from tables.services import rounds as svc
from tables.services.meters import meter_correct
from tables.services.paytables import paytable_approve, paytable_assign, paytable_draft
from tables.services.sessions import dealer_sign_in
from tables.simulation import simulate
from tests.replay_writes import replayed

from .tamper import raw, run_verify

pytestmark = pytest.mark.django_db
User = get_user_model()


def _jackpot(f: dict[str, Any]) -> Round:
    """LB-1: seat 1's A-2-4 against the dealer's A-2-4 wins the progressive; a pit boss signs."""
    d = f["dealer2"]
    dealer_sign_in(dealer=d, table=f["LB-1"])
    r = svc.round_open(
        table=f["LB-1"], dealer=d, wagers={1: {"ante": "10.00", "progressive": "1.00"}}
    )
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: "Ah 2c 4d"}, dealer_cards="As 2d 4c")
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={"discard": [], "draw": []})
    r = svc.round_dealer(round=r, dealer=d)
    with pytest.raises(svc.ServiceError):
        svc.round_settle(round=r, dealer=d)
    return controls.round_approve(round=r, by=f["pitboss"])


def _sc_round(f: dict[str, Any], cards: str = "9d 8h 2s") -> Round:
    d = f["dealer"]
    r = svc.round_open(table=f["SC-1"], dealer=d, wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: cards}, dealer_cards="Ks 7d 2c")
    return r


def busy_day(f: dict[str, Any]) -> dict[str, Any]:
    """A day of the floor's ordinary work, every kind of change, through the services."""
    made: dict[str, Any] = {"jackpot": _jackpot(f)}
    dealer_sign_in(dealer=f["dealer"], table=f["SC-1"])
    # a misdeal, a step back, a settle, a void and its correction
    controls.round_cancel(round=_sc_round(f), by=f["dealer"], reason="misdeal: four cards")
    r = _sc_round(f)
    r = controls.round_step_back(round=r, dealer=f["dealer"], to="cards")
    r = svc.round_deal(
        round=r, dealer=f["dealer"], seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c"
    )
    r = svc.round_decide(round=r, dealer=f["dealer"], seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=f["dealer"])
    r = svc.round_settle(round=r, dealer=f["dealer"])
    voided = corrections.round_void(round=r, by=f["pitboss"], reason="wrong card entered")
    entry = {k: v for k, v in voided.entry.items() if k not in ("decided", "dealer_done")}
    made["corrected"] = corrections.round_correct(voided=voided, by=f["pitboss"], entry=entry)
    simulate(list(Table.objects.exclude(name__in=["SC-1", "LB-1"]).order_by("name")), 2, seed=11)
    # a poker hand voided
    hand = Hand.objects.filter(status=Hand.Status.FINISHED).order_by("id").first()
    assert hand is not None
    made["hand"] = hand_svc.hand_void(hand=hand, by=f["pitboss"], reason="wrong pot")
    # slips: a fill signed, another voided by two people
    fill = slip_create(table=f["SC-1"], kind="fill", by=f["pitboss"], chips={"25.00": 20})
    slip_sign(slip=fill, by=f["cage"])
    slip_sign(slip=fill, by=f["dealer"])
    other = slip_create(table=f["SC-1"], kind="fill", by=f["pitboss"], chips={"5.00": 20})
    slip_void(slip=other, by=f["pitboss"], reason="entered twice")
    pitboss2 = User.objects.create_user("pitboss2", password="a long demo password")
    pitboss2.groups.add(Group.objects.get(name=Role.PIT_BOSS.value))
    slip_void(slip=other, by=pitboss2, reason="entered twice")
    made["fill"] = fill
    # a paytable changed and put in force; the meter corrected
    old = f["SC-1"].paytable_version
    draft = paytable_draft(
        author=f["admin"], game=old.game, name=old.name, lines=old.lines, limits=old.limits
    )
    paytable_approve(version=draft, approver=f["admin2"])
    paytable_assign(table=f["SC-1"], version=draft, by=f["admin"])
    meter = ProgressiveMeter.objects.get()
    meter_correct(meter=meter, by=f["admin"], amount_cents=500, reason="count found $5 short")
    # an account locked by failed sign-ins and lifted; a role given and taken
    for _ in range(10):
        record_failure("dealer2", "10.0.0.9")
    lockout_lift(lock=AccountLock.objects.get(user=f["dealer2"]), by=f["security"])
    f["auditor"].groups.add(Group.objects.get(name=Role.PIT_BOSS.value))
    f["auditor"].groups.remove(Group.objects.get(name=Role.PIT_BOSS.value))
    # API tokens: two issued, one used and signed out with, the other left in force
    keys = [
        APIClient()
        .post("/api/auth-token/", {"username": "pitboss", "password": "demo"}, format="json")
        .json()["token"]
        for _ in range(2)
    ]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {keys[0]}")
    assert api.get("/api/tables/").status_code == 200
    assert api.delete("/api/auth-token/").json() == {"revoked": 1}
    return made


@pytest.fixture
def day(floor: dict[str, Any]) -> dict[str, Any]:
    return {**floor, **replayed("busy day", lambda: busy_day(floor))}


def test_ordinary_use_verifies_clean(day: dict[str, Any]) -> None:
    report = verify_record()
    assert report.problems == ()
    assert report.ok
    counts = {spec.table: spec.model._default_manager.count() for spec in binding.specs().values()}
    assert report.rows == sum(counts.values())
    for table in (
        "tables_round",
        "tables_settlementline",
        "tables_meterentry",
        "tables_hand",
        "tables_handplayer",
        "accounting_slip",
        "accounting_slipsignature",
        "accounting_slipvoid",
        "accounts_accountlock",
        "accounts_apitoken",
        "tables_paytableversion",
        "tables_tablesettingsassignment",
        "auth_user",
    ):
        assert counts[table] > 0, table
    code, out = run_verify()
    assert code == 0 and f"{report.rows} bound rows match their events" in out


def test_every_money_model_is_bound() -> None:
    tables = {spec.table for spec in binding.specs().values()}
    assert tables >= {
        "tables_round",
        "tables_settlementline",
        "tables_hand",
        "tables_handplayer",
        "tables_paytableversion",
        "tables_tablesettingsversion",
        "tables_tablesettingsassignment",
        "tables_table",
        "tables_progressivemeter",
        "tables_meterentry",
        "accounting_slip",
        "accounting_slipsignature",
        "accounting_slipvoid",
        "accounts_accountlock",
        "accounts_apitoken",
        "auth_user",
        "players_player",
        "players_rating",
        "players_ratingnote",
        "players_redemption",
        "players_comprateversion",
    }


def test_an_event_carries_the_rows_canonical_content(settled: Round) -> None:
    event = AuditEvent.objects.filter(kind="round.settled").get()
    bound = event.data["bound"]
    assert bound["tables.round"][str(settled.pk)]["status"] == "settled"
    assert bound["tables.round"][str(settled.pk)]["players_net_cents"] == settled.players_net_cents
    assert bound["tables.round"][str(settled.pk)]["settlement"].startswith("sha256:")
    lines = bound["tables.settlementline"]
    assert set(lines) == {str(pk) for pk in settled.lines.values_list("pk", flat=True)}
    assert {line["breakage"] for line in lines.values()} <= {"0E-8", "0.00000000"} or all(
        isinstance(line["breakage"], str) for line in lines.values()
    )


def test_a_nullable_field_bound_after_its_rows_were_recorded(
    day: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A migration that adds a nullable field to a model's bound fields leaves it null in the
    rows recorded before it: those rows still say what their record says; a value in it does
    not (named by field)."""
    spec = binding.specs()[Round]
    later: dict[str, Any] = {}
    monkeypatch.setitem(spec.computed, "added_later", lambda row: later.get(row.pk))
    assert verify_record().problems == ()
    r = Round.objects.filter(status="settled").order_by("id").first()
    assert r is not None
    later[r.pk] = 5
    _broken(f"tables_round id {r.pk}: added_later is 5 but the record says None")


# --- tampering: each is caught, naming the table, the row and the field -------------------------


def _broken(*expected: str) -> str:
    code, out = run_verify()
    assert code == 1, out
    for text in expected:
        assert text in out, out
    return out


def test_a_settled_lines_net_raised_is_caught(day: dict[str, Any]) -> None:
    line = SettlementLine.objects.filter(round__status="settled", net_cents__gt=0).first()
    assert line is not None
    raw("UPDATE tables_settlementline SET net_cents = net_cents + 100000 WHERE id = %s", [line.pk])
    raw(
        "UPDATE tables_round SET players_net_cents = players_net_cents + 100000 WHERE id = %s",
        [line.round_id],
    )
    _broken(
        f"tables_settlementline id {line.pk}: net_cents is {line.net_cents + 100000}",
        f"tables_round id {line.round_id}: players_net_cents",
    )


def test_a_settled_round_deleted_is_caught(day: dict[str, Any]) -> None:
    r = Round.objects.filter(status="settled", corrects__isnull=True).order_by("id").first()
    assert r is not None
    raw("DELETE FROM reports_pendinground WHERE round_id = %s", [r.pk])
    raw("DELETE FROM tables_meterentry WHERE round_id = %s", [r.pk])
    raw("DELETE FROM tables_settlementline WHERE round_id = %s", [r.pk])
    raw("DELETE FROM tables_round WHERE id = %s", [r.pk])
    _broken(f"tables_round id {r.pk}: the row is gone", "tables_settlementline id")


def test_a_forged_settled_round_is_caught(day: dict[str, Any]) -> None:
    r = Round.objects.filter(status="settled").order_by("-id").first()
    assert r is not None
    columns = [f.column for f in Round._meta.concrete_fields if not f.primary_key]
    chosen = {"number": "number + 1000", "idempotency_key": "NULL"}
    picked = ", ".join(chosen.get(c, c) for c in columns)
    raw(
        f"INSERT INTO tables_round ({', '.join(columns)}) SELECT {picked} "
        "FROM tables_round WHERE id = %s",
        [r.pk],
    )
    forged = Round.objects.order_by("-id").first()
    assert forged is not None and forged.pk != r.pk
    _broken(f"tables_round id {forged.pk}: no audit event records this row")


def test_an_approved_paytables_odds_changed_is_caught(day: dict[str, Any]) -> None:
    version = PaytableVersion.objects.filter(status="approved").order_by("id").first()
    assert version is not None
    lines = dict(version.lines)
    wager, pays = next(iter(lines.items()))
    hand, _odds = next(iter(pays.items()))
    lines[wager] = {**pays, hand: "1000 to 1"}
    import json

    raw(
        "UPDATE tables_paytableversion SET lines = %s WHERE id = %s",
        [json.dumps(lines), version.pk],
    )
    _broken(f"tables_paytableversion id {version.pk}: lines is 'sha256:")


def test_the_meter_and_its_last_entry_lowered_are_caught(day: dict[str, Any]) -> None:
    meter = ProgressiveMeter.objects.get()
    entry = MeterEntry.objects.filter(meter=meter).order_by("-id").first()
    assert entry is not None
    raw("UPDATE tables_progressivemeter SET value_cents = 100 WHERE id = %s", [meter.pk])
    raw(
        "UPDATE tables_meterentry SET value_after_cents = 100, amount_cents = amount_cents - "
        "%s WHERE id = %s",
        [entry.value_after_cents - 100, entry.pk],
    )
    _broken(
        f"tables_progressivemeter id {meter.pk}: value_cents is 100",
        f"tables_meterentry id {entry.pk}: amount_cents",
    )


def test_a_poker_hands_payoffs_moved_between_players_are_caught(day: dict[str, Any]) -> None:
    hand = Hand.objects.filter(status=Hand.Status.FINISHED).order_by("id").first()
    assert hand is not None
    a, b = list(HandPlayer.objects.filter(hand=hand).order_by("position"))[:2]
    swap = "UPDATE tables_handplayer SET payoff_cents = %s, stack_after_cents = %s WHERE id = %s"
    raw(swap, [b.payoff_cents, a.buy_in_cents + b.payoff_cents, a.pk])
    raw(swap, [a.payoff_cents, b.buy_in_cents + a.payoff_cents, b.pk])
    if a.payoff_cents != b.payoff_cents:
        _broken(f"tables_handplayer id {a.pk}: payoff_cents", f"tables_handplayer id {b.pk}")


def test_a_slips_chips_multiplied_are_caught(day: dict[str, Any]) -> None:
    slip = Slip.objects.get(pk=day["fill"].pk)
    raw(
        "UPDATE accounting_slip SET amount_cents = amount_cents * 10, chips = %s WHERE id = %s",
        ['{"2500": 200}', slip.pk],
    )
    _broken(
        f"accounting_slip id {slip.pk}: amount_cents is {slip.amount_cents * 10}",
        f"accounting_slip id {slip.pk}: chips",
    )


def test_a_signature_reattributed_is_caught(day: dict[str, Any]) -> None:
    signature = SlipSignature.objects.filter(slip=day["fill"]).order_by("step").last()
    assert signature is not None
    raw(
        "UPDATE accounting_slipsignature SET by_id = %s WHERE id = %s",
        [day["admin"].pk, signature.pk],
    )
    _broken(f"accounting_slipsignature id {signature.pk}: by is {day['admin'].pk}")


def test_a_role_given_with_sql_is_caught(day: dict[str, Any]) -> None:
    group = Group.objects.get(name=Role.PIT_BOSS.value)
    raw(
        "INSERT INTO auth_user_groups (user_id, group_id) VALUES (%s, %s)",
        [day["dealer"].pk, group.pk],
    )
    _broken(f"auth_user id {day['dealer'].pk}: roles is")


def test_a_lock_lifted_with_sql_is_caught(day: dict[str, Any]) -> None:
    for _ in range(10):
        record_failure("dealer", "10.0.0.8")
    lock = AccountLock.objects.get(user=day["dealer"], lifted_at__isnull=True)
    raw("UPDATE accounts_accountlock SET lifted_at = locked_at WHERE id = %s", [lock.pk])
    _broken(f"accounts_accountlock id {lock.pk}: lifted_at is")


def test_a_correcting_round_in_force_is_bound_too(day: dict[str, Any]) -> None:
    corrected = day["corrected"]
    raw("UPDATE tables_round SET handle_cents = 1 WHERE id = %s", [corrected.pk])
    _broken(f"tables_round id {corrected.pk}: handle_cents is 1")


# --- past the guards: the database's own ways round its triggers --------------------------------


def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's replica role and disabled triggers (needs DATABASE_URL)")
    with connection.cursor() as cursor:  # the day's deferred checks run now, as at its commit
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@pytest.mark.services
def test_postgresql_replica_role_change_is_caught(day: dict[str, Any]) -> None:
    _postgresql()
    line = SettlementLine.objects.filter(round__status="settled", net_cents__gt=0).first()
    assert line is not None
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        try:
            cursor.execute(
                "UPDATE tables_settlementline SET net_cents = net_cents + 100000 WHERE id = %s",
                [line.pk],
            )
            cursor.execute(
                "UPDATE tables_round SET players_net_cents = players_net_cents + 100000 "
                "WHERE id = %s",
                [line.round_id],
            )
        finally:
            cursor.execute("SET session_replication_role = origin")
    _broken(f"tables_settlementline id {line.pk}: net_cents is {line.net_cents + 100000}")


@pytest.mark.services
def test_postgresql_disabled_triggers_change_is_caught(day: dict[str, Any]) -> None:
    _postgresql()
    version = PaytableVersion.objects.filter(status="approved").order_by("id").first()
    assert version is not None
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE tables_paytableversion DISABLE TRIGGER ALL")
        try:
            cursor.execute(
                "UPDATE tables_paytableversion SET limits = '{}'::jsonb WHERE id = %s",
                [version.pk],
            )
        finally:
            cursor.execute("ALTER TABLE tables_paytableversion ENABLE TRIGGER ALL")
    _broken(f"tables_paytableversion id {version.pk}: limits")


def test_sqlite_insert_or_replace_is_refused_or_caught(day: dict[str, Any]) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("INSERT OR REPLACE is SQLite's")
    version = PaytableVersion.objects.filter(status="approved").order_by("id").first()
    assert version is not None
    columns = [f.column for f in PaytableVersion._meta.concrete_fields]
    values = ", ".join("'{}'" if c == "limits" else c for c in columns)
    from django.db import IntegrityError

    refused = pytest.raises(IntegrityError, match="an insert never replaces one")
    with refused, transaction.atomic(), connection.cursor() as cursor:  # every guard in place
        cursor.execute(
            f"INSERT OR REPLACE INTO tables_paytableversion ({', '.join(columns)}) "
            f"SELECT {values} FROM tables_paytableversion WHERE id = %s",
            [version.pk],
        )
    assert run_verify()[0] == 0  # refused whole: nothing changed
    # With the insert guard dropped too, the replace goes through, and the binding names it.
    raw(
        f"INSERT OR REPLACE INTO tables_paytableversion ({', '.join(columns)}) "
        f"SELECT {values} FROM tables_paytableversion WHERE id = %s",
        [version.pk],
    )
    _broken(f"tables_paytableversion id {version.pk}: limits")
