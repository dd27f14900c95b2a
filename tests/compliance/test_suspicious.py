"""Suspicious activity: alerts raised as the cash is written (structuring just under the MTL over
tables and days, a day just under the CTR split between tables and the cage, described patrons
alike past the CTR, chip walking at the redemption) and by the nightly scan (cash beyond play),
each once; the compliance officer's case queue (open from alerts or by hand, notes, a decision
with its reason, the SAR's 30 days), who may see it, and refusals that name the field and save
nothing."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.test import Client, override_settings
from django.utils import timezone

from audit.models import AuditEvent
from audit.verify import verify_record
from compliance import alerts as detection
from compliance.cases import case_decide, case_note, case_open, due_on
from compliance.models import (
    Alert,
    AlertKind,
    Case,
    CaseAlert,
    CaseDecision,
    CaseNote,
    Patron,
)
from compliance.services import cage_record
from core.errors import ServiceError
from tables.services import rounds as svc
from tests.compliance.conftest import IDENTIFICATION, buy_in, described, identify, today

SUIT = {"sex": "male", "clothing": "grey suit, red tie"}


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _patron(cash: dict[str, Any]) -> Patron:
    return identify(cash, described(cash))


def _kinds(patron: Patron) -> list[str]:
    return sorted(Alert.objects.filter(patron=patron).values_list("kind", flat=True))


def _play(cash: dict[str, Any], seat: int, ante: str = "10.00") -> None:
    """One settled round of 2nd Chance at SC-1 with `seat` anteing."""
    dealer, table = cash["dealers"]["SC-1"], cash["SC-1"]
    r = svc.round_open(table=table, dealer=dealer, wagers={seat: {"ante": ante}})
    r = svc.round_deal(
        round=r, dealer=dealer, seat_cards={seat: "9d 8h 2s"}, dealer_cards="Ks 7d 2c"
    )
    r = svc.round_decide(round=r, dealer=dealer, seat=seat, decision={})
    r = svc.round_dealer(round=r, dealer=dealer)
    svc.round_settle(round=r, dealer=dealer)


# --- structuring ---------------------------------------------------------------------------------


def test_buy_ins_just_under_the_mtl_at_two_tables_are_structuring(cash: dict[str, Any]) -> None:
    patron = _patron(cash)
    buy_in(cash, "SC-1", "2850.00", seat=1, patron=patron.number)
    assert _kinds(patron) == []  # once just under is ordinary
    slip = buy_in(cash, "LB-1", "2900.00", seat=2, patron=patron.number)
    [alert] = Alert.objects.filter(patron=patron)
    assert alert.kind == AlertKind.STRUCTURING and alert.amount_cents == 5_750_00
    assert alert.transaction == slip.cash_transaction and not alert.raised_by_night
    assert "2 cash in transactions" in alert.detail and "$3,000.00" in alert.detail
    event = AuditEvent.objects.filter(kind="cash.transaction").latest("seq")
    assert event.data["alerts"] == ["structuring"]
    assert str(alert.pk) in event.data["bound"]["compliance.alert"]
    # a third just under is the same pattern: no second alert
    buy_in(cash, "PY-1", "2950.00", seat=3, patron=patron.number)
    assert Alert.objects.filter(patron=patron).count() == 1
    assert verify_record().problems == ()


def test_an_ordinary_patron_just_under_once_raises_nothing(cash: dict[str, Any]) -> None:
    patron = _patron(cash)
    buy_in(cash, "SC-1", "2950.00", seat=1, patron=patron.number)
    buy_in(cash, "LB-1", "500.00", seat=1, patron=patron.number)
    detection.scan_day(today())
    assert _kinds(patron) == []


def test_structuring_across_consecutive_gaming_days(cash: dict[str, Any]) -> None:
    patron = _patron(cash)
    yesterday = timezone.now() - timedelta(days=1)
    cage_record(
        kind="chips_bought", patron=patron.number, amount="2900.00", by=cash["cage"], at=yesterday
    )
    assert _kinds(patron) == []
    buy_in(cash, "SC-1", "2800.00", seat=1, patron=patron.number)
    [alert] = Alert.objects.filter(patron=patron)
    assert alert.kind == AlertKind.STRUCTURING
    assert alert.first_day == today() - timedelta(days=1) and alert.gaming_day == today()


def test_a_ctr_avoided_by_splitting_between_a_table_and_the_cage(cash: dict[str, Any]) -> None:
    patron = _patron(cash)
    buy_in(cash, "SC-1", "5000.00", seat=1, patron=patron.number)
    cage_record(kind="chips_bought", patron=patron.number, amount="4600.00", by=cash["cage"])
    [alert] = Alert.objects.filter(patron=patron)
    assert alert.kind == AlertKind.SPLIT and alert.amount_cents == 9_600_00
    assert "between tables and the cage" in alert.detail


def test_described_patrons_alike_whose_cash_passes_the_ctr(cash: dict[str, Any]) -> None:
    numbers = []
    for table in ("SC-1", "LB-1", "PY-1"):
        slip = buy_in(cash, table, "4000.00", seat=4, patron={"description": dict(SUIT)})
        numbers.append(slip.cash_transaction.patron.number)
    assert len(set(numbers)) == 3  # three patron numbers: no CTR for any of them
    [alert] = Alert.objects.filter(kind=AlertKind.LOOKALIKE)
    assert alert.amount_cents == 12_000_00 and all(n in alert.detail for n in numbers)
    # a fourth alike the same day: the same pattern, no second alert
    buy_in(cash, "SC-1", "1000.00", seat=5, patron={"description": dict(SUIT)})
    assert Alert.objects.filter(kind=AlertKind.LOOKALIKE).count() == 1
    # different people are not alike
    buy_in(cash, "LB-1", "9000.00", seat=5, patron={"description": {"sex": "female"}})
    assert Alert.objects.count() == 1


# --- play ----------------------------------------------------------------------------------------


@override_settings(CASINO_CHIP_WALK_MIN_CENTS=100_000, CASINO_CHIP_WALK_PLAY_PERCENT=1)
def test_chip_walking_caught_at_the_redemption(cash: dict[str, Any]) -> None:
    walker, player = _patron(cash), _patron(cash)
    buy_in(cash, "SC-1", "1500.00", seat=1, patron=walker.number)
    buy_in(cash, "SC-1", "1000.00", seat=2, patron=player.number)
    _play(cash, seat=2, ante="15.00")  # the player's seat plays; the walker's does not
    cage_record(kind="chips_redeemed", patron=walker.number, amount="1400.00", by=cash["cage"])
    cage_record(kind="chips_redeemed", patron=player.number, amount="900.00", by=cash["cage"])
    [alert] = Alert.objects.filter(kind=AlertKind.CHIP_WALKING)
    assert alert.patron == walker and alert.wagered_cents == 0
    assert alert.detail == "cash in $1,500.00, wagered $0.00, chips redeemed for $1,400.00"
    assert _kinds(player) == []
    assert detection.played_cents(player, today()) >= 15_00
    # the night sees the same pattern: no second alert
    detection.scan_day(today())
    assert Alert.objects.filter(kind=AlertKind.CHIP_WALKING).count() == 1


def test_cash_far_beyond_the_play_found_by_the_night(cash: dict[str, Any]) -> None:
    big, small = _patron(cash), _patron(cash)
    buy_in(cash, "SC-1", "6000.00", seat=1, patron=big.number)
    buy_in(cash, "LB-1", "4000.00", seat=1, patron=small.number)  # under the minimum
    _play(cash, seat=1, ante="10.00")
    assert Alert.objects.count() == 0  # no cash out: found by the night
    raised = detection.scan_day(today())
    assert [(a.kind, a.patron) for a in raised] == [(AlertKind.BEYOND_PLAY, big)]
    assert raised[0].raised_by_night and raised[0].wagered_cents and raised[0].wagered_cents > 0
    assert detection.scan_day(today()) == []  # once
    event = AuditEvent.objects.filter(kind="compliance.alert_raised").get()
    assert event.actor_name == detection.NIGHT and event.data["patron"] == big.number
    assert verify_record().problems == ()


def test_the_command_lists_the_days_open_alerts(cash: dict[str, Any]) -> None:
    patron = _patron(cash)
    buy_in(cash, "SC-1", "2900.00", seat=1, patron=patron.number)
    buy_in(cash, "LB-1", "2900.00", seat=1, patron=patron.number)
    out = StringIO()
    call_command("cash_compliance", "--day", today().isoformat(), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert {"gaming_day", "mtl", "ctrs", "alerts"} <= set(report)
    [alert] = report["alerts"]
    assert (alert["kind"], alert["patron"], alert["amount"]) == (
        "structuring",
        patron.number,
        "5800.00",
    )
    case_open(by=cash["compliance"], alerts=[alert["id"]])
    out = StringIO()
    call_command("cash_compliance", "--day", today().isoformat(), "--json", stdout=out)
    assert json.loads(out.getvalue())["alerts"] == []  # taken by a case


# --- cases ---------------------------------------------------------------------------------------


@pytest.fixture
def structured(cash: dict[str, Any]) -> dict[str, Any]:
    patron = _patron(cash)
    buy_in(cash, "SC-1", "2900.00", seat=1, patron=patron.number)
    buy_in(cash, "LB-1", "2950.00", seat=2, patron=patron.number)
    _play(cash, seat=1)
    return {**cash, "patron": patron, "alert": Alert.objects.get(patron=patron)}


def test_the_case_flow_on_the_pages(structured: dict[str, Any]) -> None:
    officer, alert = structured["compliance"], structured["alert"]
    c = _client(officer)
    page = c.get("/compliance/alerts/").content.decode()
    assert f'data-alert="{alert.pk}"' in page and "Structuring" in page and "$5,850.00" in page
    answer = c.post("/compliance/alerts/", {"alert": [str(alert.pk)], "note": "two tables"})
    assert answer.status_code == 303
    case = Case.objects.get()
    assert answer["Location"] == f"/compliance/cases/{case.pk}/"
    assert case.patron == structured["patron"] and case.first_day == today()
    assert due_on(case) == case.detected_on + timedelta(days=30)
    assert f'data-alert="{alert.pk}"' not in c.get("/compliance/alerts/").content.decode()
    html = c.get(f"/compliance/cases/{case.pk}/").content.decode()
    assert "$2,900.00" in html and "SC-1 seat 1" in html and "LB-1 seat 2" in html
    assert "SC-1 #" in html and "two tables" in html and "not decided yet" in html
    assert (
        c.post(
            f"/compliance/cases/{case.pk}/", {"action": "note", "note": "asked the pit"}
        ).status_code
        == 303
    )
    assert (
        c.post(
            f"/compliance/cases/{case.pk}/",
            {"action": "decide", "file_sar": "file", "reason": "split to stay under the MTL"},
        ).status_code
        == 303
    )
    decision = CaseDecision.objects.get(case=case)
    assert decision.file_sar and decision.by == officer
    assert CaseNote.objects.filter(case=case).count() == 2
    queue = c.get("/compliance/cases/").content.decode()
    assert f'data-case="{case.pk}"' in queue and "SAR to file" in queue
    kinds = list(
        AuditEvent.objects.filter(kind__startswith="compliance.case").values_list("kind", flat=True)
    )
    assert kinds == ["compliance.case_opened", "compliance.case_note", "compliance.case_decided"]
    # decided once: a second decision is refused
    with pytest.raises(ServiceError) as refused:
        case_decide(case=case, by=officer, file_sar=False, reason="again")
    assert refused.value.field == "decision"
    assert verify_record().problems == ()


def test_an_overdue_case_is_marked(structured: dict[str, Any]) -> None:
    case = case_open(by=structured["compliance"], alerts=[structured["alert"].pk])
    later = timezone.now() + timedelta(days=31)
    with override_settings(), pytest.MonkeyPatch.context() as mp:
        mp.setattr(timezone, "localdate", lambda *a, **k: later.date())
        html = _client(structured["compliance"]).get("/compliance/cases/").content.decode()
    assert f'data-case="{case.pk}"' in html and "overdue" in html


def test_a_case_by_hand_for_a_patron(cash: dict[str, Any]) -> None:
    patron = _patron(cash)
    c = _client(cash["compliance"])
    answer = c.post("/compliance/cases/", {"patron": patron.number, "day": today().isoformat()})
    assert answer.status_code == 303
    case = Case.objects.get()
    assert case.patron == patron and not CaseAlert.objects.exists()


def test_the_officer_cannot_decide_over_a_transaction_they_recorded(
    structured: dict[str, Any],
) -> None:
    both = structured["cage"]
    both.groups.add(Group.objects.get(name="compliance"))
    patron = structured["patron"]
    cage_record(kind="chips_redeemed", patron=patron.number, amount="500.00", by=both)
    case = case_open(by=both, alerts=[structured["alert"].pk])
    c = _client(both)
    events = AuditEvent.objects.exclude(kind="permission.refused").count()
    answer = c.post(
        f"/compliance/cases/{case.pk}/",
        {"action": "decide", "file_sar": "no", "reason": "a regular"},
    )
    assert answer.status_code == 403 and "another compliance officer" in answer.content.decode()
    assert not CaseDecision.objects.exists()
    assert AuditEvent.objects.exclude(kind="permission.refused").count() == events
    case_decide(case=case, by=structured["compliance"], file_sar=False, reason="a regular")
    assert CaseDecision.objects.get().by == structured["compliance"]


@pytest.mark.parametrize(
    "who", ["pitboss", "auditor", "cage", "dealer", "host", "security", "admin", "count"]
)
def test_only_the_compliance_role_sees_the_cases(structured: dict[str, Any], who: str) -> None:
    case = case_open(by=structured["compliance"], alerts=[structured["alert"].pk])
    c = _client(structured[who])
    for url in ("/compliance/alerts/", "/compliance/cases/", f"/compliance/cases/{case.pk}/"):
        assert c.get(url).status_code == 403, (who, url)
    taken = {"alert": [str(structured["alert"].pk)]}
    assert c.post("/compliance/alerts/", taken).status_code == 403
    answer = c.post(
        f"/compliance/cases/{case.pk}/", {"action": "decide", "file_sar": "no", "reason": "x"}
    )
    assert answer.status_code == 403 and not CaseDecision.objects.exists()
    with pytest.raises(Exception, match="compliance"):
        case_note(case=case, by=structured[who], note="seen")
    assert (
        structured["compliance"]
        and _client(structured["compliance"]).get(f"/compliance/cases/{case.pk}/").status_code
        == 200
    )


# --- refusals ------------------------------------------------------------------------------------


def _counts() -> tuple[int, ...]:
    return (
        Case.objects.count(),
        CaseAlert.objects.count(),
        CaseNote.objects.count(),
        CaseDecision.objects.count(),
        AuditEvent.objects.count(),
    )


def _nothing_saved(before: tuple[int, ...]) -> None:
    assert _counts() == before


def test_a_decision_without_its_reason_or_choice_is_refused(structured: dict[str, Any]) -> None:
    case = case_open(by=structured["compliance"], alerts=[structured["alert"].pk])
    c = _client(structured["compliance"])
    url = f"/compliance/cases/{case.pk}/"
    before = _counts()
    for posted, field in (
        ({"action": "decide", "file_sar": "file", "reason": "  "}, "reason"),
        ({"action": "decide", "reason": "structuring"}, "file_sar"),
        ({"action": "decide", "file_sar": "maybe", "reason": "structuring"}, "file_sar"),
        ({"action": "note", "note": ""}, "note"),
        ({"action": "close"}, "action"),
    ):
        answer = c.post(url, posted)
        html = answer.content.decode()
        assert answer.status_code == 400, posted
        assert f'data-field="{field}"' in html and f"{field}:" in html or field == "action"
        if posted.get("reason", "").strip():
            assert posted["reason"] in html  # the typed reason kept
        _nothing_saved(before)


@pytest.mark.parametrize(
    ("posted", "field", "status"),
    [
        ({"alert": ["999999"]}, "alerts", 400),
        ({"alert": ["x1"]}, "alerts", 400),
        ({}, "alerts", 400),
    ],
)
def test_unknown_alerts_are_refused(
    structured: dict[str, Any], posted: dict[str, Any], field: str, status: int
) -> None:
    c = _client(structured["compliance"])
    before = _counts()
    answer = c.post("/compliance/alerts/", posted)
    assert answer.status_code == status and f'data-field="{field}"' in answer.content.decode()
    _nothing_saved(before)


def test_an_alert_in_a_case_or_of_two_patrons_is_refused(structured: dict[str, Any]) -> None:
    officer, alert = structured["compliance"], structured["alert"]
    case_open(by=officer, alerts=[alert.pk])
    c = _client(officer)
    before = _counts()
    answer = c.post("/compliance/alerts/", {"alert": [str(alert.pk)]})
    assert answer.status_code == 409 and "already in case" in answer.content.decode()
    other = _patron(structured)
    buy_in(structured, "SC-1", "2900.00", seat=6, patron=other.number)
    buy_in(structured, "PY-1", "2900.00", seat=6, patron=other.number)
    second = Alert.objects.get(patron=other)
    before = _counts()
    with pytest.raises(ServiceError) as refused:
        case_open(by=officer, alerts=[second.pk, alert.pk])
    assert refused.value.field == "alerts"
    _nothing_saved(before)


def test_a_case_by_hand_names_a_known_patron_and_a_day(cash: dict[str, Any]) -> None:
    c = _client(cash["compliance"])
    before = _counts()
    for posted, field in (
        ({"patron": "P999999"}, "patron"),
        ({"patron": ""}, "alerts"),
        ({"patron": _patron(cash).number, "day": "yesterday"}, "day"),
    ):
        before = _counts()
        answer = c.post("/compliance/cases/", posted)
        html = answer.content.decode()
        assert answer.status_code == 400 and f'data-field="{field}"' in html, posted
        if posted.get("patron"):
            assert posted["patron"] in html
        _nothing_saved(before)


def test_an_unknown_case_is_not_found(cash: dict[str, Any]) -> None:
    c = _client(cash["compliance"])
    assert c.get("/compliance/cases/999999/").status_code == 404
    assert c.post("/compliance/cases/999999/", {"action": "note", "note": "x"}).status_code == 404
    assert not CaseNote.objects.exists()


# --- the record ----------------------------------------------------------------------------------


def test_notes_and_reasons_stay_out_of_the_events(structured: dict[str, Any]) -> None:
    officer = structured["compliance"]
    case = case_open(by=officer, alerts=[structured["alert"].pk], note="Walter Reyes again")
    case_note(case=case, by=officer, note=f"ID {IDENTIFICATION['id_number']} checked")
    case_decide(case=case, by=officer, file_sar=True, reason="Walter Reyes split his cash")
    data = str(list(AuditEvent.objects.values_list("data", flat=True)))
    assert "Walter" not in data and IDENTIFICATION["id_number"] not in data
    assert verify_record().problems == ()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE compliance_alert SET amount_cents = 1",
        "DELETE FROM compliance_alert",
        "DELETE FROM compliance_casealert",
        "UPDATE compliance_case SET last_day = first_day",
        "UPDATE compliance_casenote SET text = 'other'",
        "DELETE FROM compliance_casedecision",
    ],
)
def test_the_database_keeps_alerts_and_cases(structured: dict[str, Any], sql: str) -> None:
    officer = structured["compliance"]
    case = case_open(by=officer, alerts=[structured["alert"].pk], note="first look")
    case_decide(case=case, by=officer, file_sar=False, reason="a regular's pattern")
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert Alert.objects.count() == 1 and CaseDecision.objects.count() == 1


def test_the_nightly_task_and_the_command_scan_a_day(cash: dict[str, Any]) -> None:
    from compliance.tasks import scan_for_alerts

    patron = _patron(cash)
    buy_in(cash, "SC-1", "6000.00", seat=1, patron=patron.number)
    out = StringIO()
    call_command("cash_compliance", "--day", today().isoformat(), "--scan", "--json", stdout=out)
    [alert] = json.loads(out.getvalue())["alerts"]
    assert (alert["kind"], alert["wagered"]) == ("beyond_play", "0.00")
    assert scan_for_alerts.apply(kwargs={"day": today().isoformat()}).get() == 0  # once


def test_the_write_path_reads_only_inside_a_band(
    cash: dict[str, Any], django_assert_num_queries: Any
) -> None:
    from compliance import thresholds
    from compliance.models import PatronDay

    limits = thresholds.current()
    patron = _patron(cash)
    plain = buy_in(cash, "SC-1", "500.00", seat=1, patron=patron.number).cash_transaction
    row = PatronDay.objects.get(patron=patron, gaming_day=today())
    with django_assert_num_queries(0):  # identified, outside every band: nothing read
        assert detection.on_transaction(plain, row, limits) == []
    walker = buy_in(cash, "LB-1", "500.00", seat=1, patron={"description": dict(SUIT)})
    tx = walker.cash_transaction
    row = PatronDay.objects.get(patron=tx.patron, gaming_day=today())
    with django_assert_num_queries(1):  # described: the day's patrons alike, one statement
        assert detection.on_transaction(tx, row, limits) == []
