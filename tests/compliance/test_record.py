"""A patron's identification on the record: bound as one salted digest, so verify_audit sees a
change, while no event's data, search words or the trail's CSV exports hold a name, a date of
birth or an ID number."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from audit import binding
from audit.models import AuditEvent, AuditEventText
from audit.verify import verify_record
from compliance.models import CashTransaction, Ctr, Patron
from tests.audit.tamper import raw
from tests.compliance.conftest import IDENTIFICATION, buy_in, described, identify
from tests.helpers import client_for

SECRETS = ("Walter", "Reyes", "1970-04-12", "D1234-56789-01234", "Harbor", "contractor")


def _a_day(cash: dict[str, Any]) -> Patron:
    patron = identify(cash, described(cash))
    buy_in(cash, "SC-1", "6000.00", seat=1, patron=patron.number)
    buy_in(cash, "LB-1", "6000.00", seat=2, patron=patron.number)
    return patron


def test_the_record_holds_no_identification(cash: dict[str, Any]) -> None:
    patron = _a_day(cash)
    texts = " ".join(AuditEventText.objects.values_list("text", flat=True)).lower()
    for event in AuditEvent.objects.all():
        data = str(event.data)
        for secret in SECRETS:
            assert secret not in data, (event.kind, secret)
            assert secret.lower() not in texts, secret
    assert patron.number.lower() in texts  # the trail finds the patron by number
    bound = AuditEvent.objects.filter(kind="patron.identified").get().data["bound"]
    row = bound["compliance.patron"][str(patron.pk)]
    assert row["identification"].startswith("sha256:")
    assert "id_number" not in row and "name" not in row
    auditor = client_for(cash["auditor"])
    for url in ("/audit/events.csv", "/audit/events-readable.csv"):
        response = auditor.get(url)
        assert response.status_code == 200
        body = (
            b"".join(response.streaming_content).decode()
            if response.streaming
            else (response.content.decode())
        )
        assert patron.number in body or "patron" in body
        for secret in SECRETS:
            assert secret not in body, (url, secret)


def test_the_digest_is_salted_per_patron(cash: dict[str, Any]) -> None:
    one = identify(cash, described(cash))
    two = identify(cash, described(cash))
    assert binding.content(one)["identification"] != binding.content(two)["identification"]
    assert (
        one.salt
        and one.salt != two.salt
        and one.salt not in str(list(AuditEvent.objects.values_list("data", flat=True)))
    )


def test_a_changed_id_number_or_day_total_is_caught(cash: dict[str, Any]) -> None:
    patron = _a_day(cash)
    assert verify_record().problems == ()
    raw("UPDATE compliance_patron SET id_number = 'X999' WHERE id = %s", [patron.pk])
    raw("UPDATE compliance_patronday SET cash_in_cents = 100 WHERE patron_id = %s", [patron.pk])
    problems = " ".join(str(p) for p in verify_record().problems)
    assert "compliance_patron" in problems and "identification" in problems
    assert "compliance_patronday" in problems and "cash_in_cents" in problems
    assert IDENTIFICATION["id_number"] not in problems


def test_the_trail_says_a_cash_transaction_in_words(cash: dict[str, Any]) -> None:
    from reports.replay import event_sentence

    patron = identify(cash, described(cash))
    buy_in(cash, "SC-1", "11000.00", seat=2, patron=patron.number)
    event = AuditEvent.objects.get(kind="cash.transaction")
    sentence = event_sentence(event)
    assert sentence.startswith("Cash transaction recorded: ")  # its details in any order
    for words in (
        "Cash $11,000.00;",
        "CTR opened yes",
        "MTL entry yes",
        "Direction cash in",
        "Day total $11,000.00",
    ):
        assert words in sentence, sentence
    assert f"Patron {patron.number}" in sentence and "Seat 2" in sentence


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE compliance_cashtransaction SET amount_cents = 1",
        "DELETE FROM compliance_cashtransaction",
        "UPDATE compliance_mtlentry SET day_total_cents = 1",
        "DELETE FROM compliance_mtlentry",
        "UPDATE compliance_ctr SET direction = 'out'",
        "DELETE FROM compliance_ctr",
        "DELETE FROM compliance_patronday",
        "DELETE FROM compliance_patron",
    ],
)
def test_the_database_keeps_the_history(cash: dict[str, Any], sql: str) -> None:
    _a_day(cash)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert CashTransaction.objects.count() == 2 and Ctr.objects.count() == 1
