"""Markers (casino credit): a patron's line set by one credit manager and approved by another,
a marker issued at a table seat by the pit boss within the available credit, the marker in the
table's drop, repayments at the cage (cash summed into the patron's day, chips not), the
outstanding markers by age, who may do and read what, and bad input refused naming the field
with nothing saved."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection, transaction
from django.test import Client

from accounting import rules
from accounting.selectors import shift_figures
from accounting.services import slip_create, slip_sign
from audit.models import AuditEvent, AuditEventText
from audit.verify import verify_record
from compliance import credit
from compliance.models import (
    CashTransaction,
    CreditLine,
    CreditLineApproval,
    Kind,
    Marker,
    MarkerRepayment,
    MtlEntry,
    PatronDay,
)
from core.errors import SeparationOfDuties, ServiceError
from tables.gaming_day import shift_of
from tests.compliance.conftest import buy_in, described, identify, today

CREDIT = "/compliance/credit/"
NEW = "/compliance/credit/markers/new/"
REPAY = "/compliance/credit/repay/"


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _user(name: str, *roles: str) -> Any:
    user = get_user_model().objects.create_user(name, password="demo-password-x")
    for role in roles:
        user.groups.add(Group.objects.get(name=role))
    return user


def _nothing_new(before: dict[str, int]) -> None:
    assert _counts() == before


def _counts() -> dict[str, int]:
    return {
        "lines": CreditLine.objects.count(),
        "approvals": CreditLineApproval.objects.count(),
        "markers": Marker.objects.count(),
        "repayments": MarkerRepayment.objects.count(),
        "cash": CashTransaction.objects.count(),
        "events": AuditEvent.objects.exclude(kind="permission.refused").count(),
    }


@pytest.fixture
def lined(cash: dict[str, Any]) -> dict[str, Any]:
    """An identified patron with an approved $20,000.00 line."""
    patron = identify(cash, described(cash))
    line = credit.line_set(patron=patron.number, amount="20000.00", by=cash["credit"])
    credit.line_approve(line=line, by=cash["credit2"])
    return {**cash, "patron": patron, "line": line}


def _issue(lined: dict[str, Any], amount: str = "5000.00", **extra: Any) -> Marker:
    given = {
        "table": lined["SC-1"],
        "seat": 3,
        "patron": lined["patron"].number,
        "amount": amount,
        "patron_signed": True,
        "by": lined["pitboss"],
        **extra,
    }
    return credit.marker_issue(**given)


# --- the flow ------------------------------------------------------------------------------------


def test_a_patron_s_credit_over_a_table_and_the_cage(lined: dict[str, Any]) -> None:
    patron = lined["patron"]
    assert credit.available_cents(patron) == 20_000_00
    marker = _issue(lined, "5000.00")
    assert marker.number.startswith("M") and marker.seat == 3 and marker.patron_signed
    assert marker.shift == shift_of(marker.at) and marker.gaming_day == today()
    assert credit.available_cents(patron) == 15_000_00
    second = _issue(lined, "15000.00", table=lined["LB-1"], seat=1)
    assert credit.available_cents(patron) == 0
    # A marker is not cash: nothing in the patron's day, nothing on the MTL.
    assert not PatronDay.objects.filter(patron=patron).exists()
    assert not CashTransaction.objects.exists() and not MtlEntry.objects.exists()
    # Part repaid in cash (a cash transaction of the cage), part in chips (not cash).
    cash_part = credit.marker_repay(
        marker=marker.number, method="cash", amount="2000.00", by=lined["cage"]
    )
    tx = cash_part.cash_transaction
    assert tx is not None and tx.kind == Kind.MARKER_REPAID and tx.direction == "in"
    assert tx.table is None and tx.patron == patron and tx.amount_cents == 2000_00
    chips = credit.marker_repay(
        marker=marker.number, method="chips", amount="1000.00", by=lined["cage"]
    )
    assert chips.cash_transaction is None
    day = PatronDay.objects.get(patron=patron, gaming_day=today())
    assert day.cash_in_cents == 2000_00 and day.cash_out_cents == 0
    assert credit.outstanding_cents(marker) == 2000_00
    assert credit.available_cents(patron) == 3000_00
    credit.marker_repay(marker=marker.number, method="cheque", amount="2000.00", by=lined["cage"])
    assert credit.outstanding_cents(marker) == 0
    owed = credit.outstanding(today())
    assert [r["marker"].number for r in owed["markers"]] == [second.number]
    assert owed["total"]["0-30"] == 15_000_00 and owed["total_cents"] == 15_000_00
    kinds = list(AuditEvent.objects.order_by("seq").values_list("kind", flat=True))
    for kind in ("credit.line_set", "credit.line_approved", "marker.issued", "marker.repaid"):
        assert kind in kinds
    assert verify_record().problems == ()


def test_a_cash_repayment_is_summed_with_the_buy_ins_into_one_ctr(lined: dict[str, Any]) -> None:
    patron = lined["patron"]
    marker = _issue(lined, "20000.00")
    buy_in(lined, "LB-1", "9000.00", seat=2, patron=patron.number)
    credit.marker_repay(marker=marker.number, method="cash", amount="1500.00", by=lined["cage"])
    day = PatronDay.objects.get(patron=patron, gaming_day=today())
    assert day.cash_in_cents == 10_500_00
    from compliance.selectors import day_ctrs

    (row,) = day_ctrs(today())
    assert [t.kind for t in row["transactions"]] == ["buy_in", "marker_repaid"]
    assert MtlEntry.objects.filter(patron=patron).count() == 2
    # The cage's day shows it among its cash in.
    from compliance.selectors import cage_day

    assert cage_day(today())["cash_in_cents"] == 1500_00


def test_a_changed_line_is_a_new_row_usable_once_approved(lined: dict[str, Any]) -> None:
    patron, old = lined["patron"], lined["line"]
    raised = credit.line_set(patron=patron.number, amount="30000.00", by=lined["credit"])
    assert raised.replaces == old and CreditLine.objects.filter(patron=patron).count() == 2
    # Until approved, the old line is in force.
    assert credit.line_in_force(patron) == old
    with pytest.raises(ServiceError) as err:
        _issue(lined, "25000.00")
    assert err.value.field == "amount"
    assert [line.pk for line in credit.pending_lines()] == [raised.pk]
    # The superseded line cannot be approved again, the new one can (by the other manager).
    credit.line_approve(line=raised, by=lined["credit2"])
    assert credit.line_in_force(patron) == raised and credit.pending_lines() == []
    assert _issue(lined, "25000.00").line == raised


# --- two-person rules ----------------------------------------------------------------------------


def test_the_setter_does_not_approve_their_own_line(cash: dict[str, Any]) -> None:
    patron = identify(cash, described(cash))
    line = credit.line_set(patron=patron.number, amount="10000.00", by=cash["credit"])
    before = _counts()
    with pytest.raises(SeparationOfDuties) as err:
        credit.line_approve(line=line, by=cash["credit"])
    assert err.value.field == "line" and err.value.status == 403
    _nothing_new(before)
    # Not approved: no marker against it.
    with pytest.raises(ServiceError) as refused:
        credit.marker_issue(
            table=cash["SC-1"],
            seat=1,
            patron=patron.number,
            amount="100.00",
            patron_signed=True,
            by=cash["pitboss"],
        )
    assert refused.value.field == "patron" and "not approved" in refused.value.message
    _nothing_new(before)


def test_the_one_who_set_or_approved_a_line_issues_no_marker_on_it(cash: dict[str, Any]) -> None:
    both = _user("boss_and_credit", "pit_boss", "credit")
    patron = identify(cash, described(cash))
    line = credit.line_set(patron=patron.number, amount="10000.00", by=both)
    credit.line_approve(line=line, by=cash["credit2"])
    before = _counts()
    with pytest.raises(SeparationOfDuties):
        credit.marker_issue(
            table=cash["SC-1"],
            seat=1,
            patron=patron.number,
            amount="100.00",
            patron_signed=True,
            by=both,
        )
    _nothing_new(before)


def test_the_issuer_does_not_take_the_marker_s_repayment(lined: dict[str, Any]) -> None:
    both = _user("boss_and_cage", "pit_boss", "cage")
    marker = _issue(lined, by=both)
    before = _counts()
    with pytest.raises(SeparationOfDuties):
        credit.marker_repay(marker=marker.number, method="cash", amount="10.00", by=both)
    _nothing_new(before)


def test_a_dealer_alone_issues_no_marker_and_compliance_acts_on_nothing(
    lined: dict[str, Any],
) -> None:
    with pytest.raises(PermissionDenied):
        _issue(lined, by=lined["dealer"])
    officer = _user("officer_boss", "compliance", "pit_boss", "credit", "cage")
    with pytest.raises(PermissionDenied):
        _issue(lined, by=officer)
    with pytest.raises(PermissionDenied):
        credit.line_set(patron=lined["patron"].number, amount="10.00", by=officer)
    assert not Marker.objects.exists()


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"amount": "20000.01"}, "amount"),
        ({"amount": "0"}, "amount"),
        ({"amount": "-5.00"}, "amount"),
        ({"amount": 50.0}, "amount"),
        ({"amount": "10.005"}, "amount"),
        ({"amount": ""}, "amount"),
        ({"patron": "P9999"}, "patron"),
        ({"patron": "somebody"}, "patron"),
        ({"patron": "999999"}, "patron"),
        ({"seat": 9}, "seat"),
        ({"patron_signed": False}, "patron_signed"),
        ({"patron_signed": "yes"}, "patron_signed"),
    ],
)
def test_a_bad_marker_is_refused_naming_the_field(
    lined: dict[str, Any], changes: dict[str, Any], field: str
) -> None:
    before = _counts()
    with pytest.raises(ServiceError) as err:
        _issue(lined, **changes)
    assert err.value.field == field, err.value.message
    _nothing_new(before)


@pytest.mark.parametrize(
    "patron, amount, field",
    [
        ("P9999", "1000.00", "patron"),
        ("", "1000.00", "patron"),
        (None, "1000.00", "patron"),
        ("ok", "0.00", "amount"),
        ("ok", "-1000.00", "amount"),
        ("ok", 1000.5, "amount"),
        ("ok", "1000.123", "amount"),
        ("ok", "100000000.00", "amount"),
    ],
)
def test_a_bad_line_is_refused_naming_the_field(
    cash: dict[str, Any], patron: Any, amount: Any, field: str
) -> None:
    known = identify(cash, described(cash))
    before = _counts()
    with pytest.raises(ServiceError) as err:
        credit.line_set(
            patron=known.number if patron == "ok" else patron, amount=amount, by=cash["credit"]
        )
    assert err.value.field == field, err.value.message
    _nothing_new(before)


def test_a_line_for_a_patron_not_identified_is_refused(cash: dict[str, Any]) -> None:
    patron = described(cash)
    with pytest.raises(ServiceError) as err:
        credit.line_set(patron=patron.number, amount="1000.00", by=cash["credit"])
    assert err.value.field == "patron" and "identified" in err.value.message
    assert not CreditLine.objects.exists()


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"amount": "5000.01"}, "amount"),
        ({"amount": "0"}, "amount"),
        ({"amount": 10.0}, "amount"),
        ({"amount": "1.001"}, "amount"),
        ({"method": "wire"}, "method"),
        ({"marker": "M9"}, "marker"),
        ({"marker": ""}, "marker"),
    ],
)
def test_a_bad_repayment_is_refused_naming_the_field(
    lined: dict[str, Any], changes: dict[str, Any], field: str
) -> None:
    marker = _issue(lined, "5000.00")
    given = {"marker": marker.number, "method": "cash", "amount": "100.00", **changes}
    before = _counts()
    with pytest.raises(ServiceError) as err:
        credit.marker_repay(**given, by=lined["cage"])
    assert err.value.field == field, err.value.message
    _nothing_new(before)
    assert not PatronDay.objects.filter(patron=lined["patron"]).exists()


# --- the drop ------------------------------------------------------------------------------------


def test_the_drop_expects_the_markers_issued_at_the_table(lined: dict[str, Any]) -> None:
    table = lined["SC-1"]
    marker = _issue(lined, "5000.00")
    buy_in(lined, "SC-1", "500.00")
    shift = marker.shift
    figures = shift_figures(table=table, gaming_day=marker.gaming_day, shift=shift)
    assert figures["markers_issued_cents"] == 5000_00 and figures["buy_ins_cents"] == 500_00
    assert figures["expected_drop_cents"] == 5500_00
    drop = slip_create(
        kind=rules.DROP,
        table=table,
        by=lined["count"],
        amount="500.00",
        markers="5000.00",
        gaming_day=marker.gaming_day,
        shift=shift,
    )
    slip_sign(slip=drop, by=lined["count2"])
    figures = shift_figures(table=table, gaming_day=marker.gaming_day, shift=shift)
    assert figures["drop_cents"] == 5500_00 and figures["drop_variance_cents"] == 0
    assert figures["markers_counted_cents"] == figures["markers_issued_cents"]
    # Another table's drop expects none of it.
    other = shift_figures(table=lined["LB-1"], gaming_day=marker.gaming_day, shift=shift)
    assert other["markers_issued_cents"] == 0


# --- pages and roles -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "user, credit_page, new_page, repay_page",
    [
        ("credit", 200, 403, 403),
        ("cage", 200, 403, 200),
        ("compliance", 200, 403, 403),
        ("auditor", 200, 403, 403),
        ("pitboss", 403, 200, 403),
        ("dealer", 403, 403, 403),
        ("host", 403, 403, 403),
        ("count", 403, 403, 403),
    ],
)
def test_who_reads_the_credit_pages(
    lined: dict[str, Any], user: str, credit_page: int, new_page: int, repay_page: int
) -> None:
    c = _client(lined[user])
    assert c.get(CREDIT).status_code == credit_page
    assert c.get(NEW + "?table=SC-1").status_code == new_page
    assert c.get(REPAY).status_code == repay_page


@pytest.mark.parametrize("user", ["compliance", "auditor", "cage", "pitboss", "dealer"])
def test_only_credit_managers_set_and_approve_lines_on_the_page(
    lined: dict[str, Any], user: str
) -> None:
    c = _client(lined[user])
    before = _counts()
    assert c.post(CREDIT + "lines/", {"patron": "P1", "amount": "1.00"}).status_code == 403
    pending = credit.line_set(patron=lined["patron"].number, amount="1.00", by=lined["credit"])
    before = _counts()
    assert c.post(f"{CREDIT}lines/{pending.pk}/approve/").status_code == 403
    _nothing_new(before)


def test_the_credit_page_flow_in_dollars(lined: dict[str, Any]) -> None:
    manager, other = _client(lined["credit"]), _client(lined["credit2"])
    number = lined["patron"].number
    answer = manager.post(CREDIT + "lines/", {"patron": number, "amount": "$30,000.00"})
    assert answer.status_code == 303
    page = manager.get(CREDIT).content.decode()
    assert "$30,000.00" in page and "another credit manager approves it" in page
    line = CreditLine.objects.latest("id")
    refused = manager.post(f"{CREDIT}lines/{line.pk}/approve/")
    assert refused.status_code == 403 and "another person" in refused.content.decode()
    assert other.post(f"{CREDIT}lines/{line.pk}/approve/").status_code == 303
    _issue(lined, "5000.00")
    page = other.get(CREDIT).content.decode()
    assert "$25,000.00" in page and "$5,000.00" in page and "SC-1 seat 3" in page
    assert "0-30 days" in page
    # The patron's name only for the cage and compliance.
    assert "Walter Reyes" not in page
    assert "Walter Reyes" in _client(lined["compliance"]).get(CREDIT).content.decode()


def test_a_bad_line_on_the_page_keeps_what_was_typed(lined: dict[str, Any]) -> None:
    manager = _client(lined["credit"])
    before = _counts()
    answer = manager.post(CREDIT + "lines/", {"patron": "P77777", "amount": "1234.56"})
    text = answer.content.decode()
    assert answer.status_code == 400 and "patron: there is no patron P77777" in text
    assert 'value="P77777"' in text and 'value="1234.56"' in text
    _nothing_new(before)


def test_the_pit_boss_issues_a_marker_from_the_table_s_day(lined: dict[str, Any]) -> None:
    boss = _client(lined["pitboss"])
    day = boss.get(f"/reports/tables/{lined['SC-1'].pk}/rounds/").content.decode()
    assert f'href="{NEW}?table=SC-1"' in day
    auditor_day = _client(lined["auditor"]).get(f"/reports/tables/{lined['SC-1'].pk}/rounds/")
    assert NEW not in auditor_day.content.decode()
    form = {"table": "SC-1", "seat": "2", "patron": lined["patron"].number, "amount": "2500.00"}
    before = _counts()
    unsigned = boss.post(NEW, form)
    text = unsigned.content.decode()
    assert unsigned.status_code == 400 and "patron_signed" in text and 'value="2500.00"' in text
    _nothing_new(before)
    over = boss.post(NEW, {**form, "amount": "20000.01", "patron_signed": "yes"})
    assert over.status_code == 400 and "available credit of $20,000.00" in over.content.decode()
    _nothing_new(before)
    done = boss.post(NEW, {**form, "patron_signed": "yes"}, follow=True)
    text = done.content.decode()
    assert "Marker M" in text and "for $2,500.00" in text and "SC-1 seat 2" in text
    assert "$17,500.00" in text
    assert Marker.objects.get().seat == 2


def test_the_cage_takes_a_repayment_from_its_window(lined: dict[str, Any]) -> None:
    marker = _issue(lined, "5000.00")
    cage = _client(lined["cage"])
    assert REPAY in cage.get("/compliance/cage/").content.decode()
    before = _counts()
    over = cage.post(REPAY, {"marker": marker.number, "method": "cash", "amount": "5000.01"})
    text = over.content.decode()
    assert over.status_code == 400 and "outstanding $5,000.00" in text
    assert 'value="5000.01"' in text
    _nothing_new(before)
    done = cage.post(
        REPAY, {"marker": marker.number, "method": "cash", "amount": "2000.00"}, follow=True
    )
    text = done.content.decode()
    assert "$2,000.00 in cash taken against marker" in text and "$3,000.00" in text
    assert "Marker repaid in cash" in cage.get("/compliance/cage/").content.decode()


def test_old_markers_are_aged_into_buckets(lined: dict[str, Any]) -> None:
    marker = _issue(lined, "5000.00")
    assert credit.outstanding(today() + timedelta(days=45))["total"]["31-60"] == 5000_00
    assert credit.outstanding(today() + timedelta(days=75))["total"]["61-90"] == 5000_00
    owed = credit.outstanding(today() + timedelta(days=91))
    assert owed["total"]["90+"] == 5000_00 and owed["markers"][0]["age"] == 91
    assert owed["patrons"][0]["patron"] == marker.patron


# --- the record ----------------------------------------------------------------------------------


def test_the_record_names_the_patron_by_number_only(lined: dict[str, Any]) -> None:
    marker = _issue(lined, "5000.00")
    credit.marker_repay(marker=marker.number, method="cash", amount="100.00", by=lined["cage"])
    texts = " ".join(AuditEventText.objects.values_list("text", flat=True))
    data = str(list(AuditEvent.objects.values_list("data", flat=True)))
    for secret in ("Walter", "Reyes", "1970-04-12", "D1234"):
        assert secret not in texts and secret not in data
    assert verify_record().problems == ()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE compliance_creditline SET amount_cents = 1",
        "DELETE FROM compliance_creditline",
        "DELETE FROM compliance_creditlineapproval",
        "UPDATE compliance_marker SET amount_cents = 1",
        "DELETE FROM compliance_marker",
        "UPDATE compliance_markerrepayment SET amount_cents = 1",
        "DELETE FROM compliance_markerrepayment",
    ],
)
def test_the_database_keeps_credit_s_history(lined: dict[str, Any], sql: str) -> None:
    marker = _issue(lined, "5000.00")
    credit.marker_repay(marker=marker.number, method="chips", amount="100.00", by=lined["cage"])
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert Marker.objects.get().amount_cents == 5000_00


def test_a_credit_manager_lands_on_the_credit_page_with_its_navigation(
    lined: dict[str, Any],
) -> None:
    c = _client(lined["credit"])
    assert c.get("/")["Location"] == CREDIT
    page = c.get(CREDIT).content.decode()
    assert f'href="{CREDIT}"' in page and 'aria-current="page"' in page
    assert "/compliance/cage/" not in page  # the cage's window is not the credit manager's


def test_the_trail_says_credit_in_words(lined: dict[str, Any]) -> None:
    from reports.replay import event_sentence

    credit.line_set(patron=lined["patron"].number, amount="30000.00", by=lined["credit"])
    marker = _issue(lined, "5000.00")
    credit.marker_repay(marker=marker.number, method="cash", amount="2000.00", by=lined["cage"])
    kinds = ("credit.line_set", "marker.issued", "marker.repaid")
    said = {
        e.kind: event_sentence(e) for e in AuditEvent.objects.filter(kind__in=kinds).order_by("seq")
    }
    assert (
        "Line $30,000.00" in said["credit.line_set"] and "Was $20,000.00" in said["credit.line_set"]
    )
    issued = said["marker.issued"]
    assert f"Marker {marker.number}" in issued and "Issued $5,000.00" in issued
    assert "Seat 3" in issued and "Available after $15,000.00" in issued
    repaid = said["marker.repaid"]
    assert "Repaid $2,000.00" in repaid and "Outstanding after $3,000.00" in repaid
    assert "Method cash" in repaid
