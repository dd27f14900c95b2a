"""Filing CTRs: a patron's large cash day over two tables opens a CTR, the compliance officer
cannot file it until the cage identifies the patron, then files it once with the BSA ID;
only the compliance role files, never one whose transactions they recorded; the due date and
overdue; the printable Form 112, the CSV with Form 112's fields, FinCEN's batch XML; bad input
naming the field with nothing saved."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from audit.models import AuditEvent, AuditEventText
from audit.verify import verify_record
from compliance import filing
from compliance.models import Ctr, CtrFiling, Kind
from compliance.services import cage_record
from core.errors import SeparationOfDuties, ServiceError
from tests.compliance.conftest import buy_in, described, identify, today

NS = {"fc2": "www.fincen.gov/base"}
SECRETS = ("Walter", "Reyes", "1970-04-12", "D1234-56789-01234", "Harbor", "contractor")
BSA_ID = "31000123456789"


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def officer(cash: dict[str, Any]) -> Any:
    return get_user_model().objects.get(username="compliance")


@pytest.fixture
def ctr_day(cash: dict[str, Any]) -> dict[str, Any]:
    """A described patron's $6,000.00 at SC-1 seat 3 and $5,000.00 at LB-1 seat 1: a CTR."""
    patron = described(cash)
    buy_in(cash, "SC-1", "6000.00", seat=3, patron=patron.number)
    buy_in(cash, "LB-1", "5000.00", seat=1, patron=patron.number)
    return {**cash, "patron": patron, "ctr": Ctr.objects.get()}


def _counts() -> tuple[int, int]:
    return CtrFiling.objects.count(), AuditEvent.objects.count()


def _file(c: Client, ctr: Any, **fields: Any) -> Any:
    return c.post("/compliance/ctrs/file/", {"ctr": str(ctr), "bsa_id": BSA_ID, **fields})


# --- the flow ------------------------------------------------------------------------------------


def test_a_ctr_is_filed_once_the_patron_is_identified(
    ctr_day: dict[str, Any], officer: Any
) -> None:
    c = _client(officer)
    ctr, patron = ctr_day["ctr"], ctr_day["patron"]
    day = c.get("/compliance/").content.decode()
    to_file = day.split('id="ctrs"')[1].split("</table>")[0]
    assert patron.number in to_file and "Record its filing" not in to_file  # not identified
    assert "No CTR of" in day.split('id="filed"')[1].split("</table>")[0]

    before = _counts()
    refused = _file(c, ctr.pk)
    assert refused.status_code == 409
    html = refused.content.decode()
    assert "is not identified" in html and "date of birth" in html and "ID number" in html
    assert f'value="{BSA_ID}"' in html  # the typed BSA ID kept
    assert _counts() == before

    identify(ctr_day, patron)
    answer = _file(c, ctr.pk, note="filed on the BSA E-Filing System")
    assert answer.status_code == 303 and answer["Location"] == f"/compliance/ctr/{ctr.pk}/?filed=1"
    made = CtrFiling.objects.get()
    assert (made.ctr_id, made.filed_by, made.bsa_id) == (ctr.pk, officer, BSA_ID)
    assert made.note == "filed on the BSA E-Filing System"
    event = AuditEvent.objects.filter(kind="ctr.filed").get()
    assert event.data["patron"] == patron.number and event.data["bsa_id"] == BSA_ID
    assert event.data["total_cents"] == 11_000_00 and event.data["late"] is False
    assert event.data["bound"]["compliance.ctrfiling"][str(made.pk)]["note"].startswith("sha256:")
    texts = " ".join(AuditEventText.objects.values_list("text", flat=True)).lower()
    for e in AuditEvent.objects.all():
        for secret in SECRETS:
            assert secret not in str(e.data), (e.kind, secret)
            assert secret.lower() not in texts, secret
    assert verify_record().problems == ()

    day = c.get("/compliance/").content.decode()
    filed = day.split('id="filed"')[1].split("</table>")[0]
    assert patron.number in filed and BSA_ID in filed and "compliance" in filed
    assert "No CTR to file on" in day.split('id="ctrs"')[1].split("</table>")[0]
    assert "Every CTR is filed." in day
    printable = c.get(f"/compliance/ctr/{ctr.pk}/").content.decode()
    assert f"BSA ID {BSA_ID}" in printable and "Record this CTR" not in printable

    # filed twice: refused, nothing saved
    before = _counts()
    again = _file(c, ctr.pk, bsa_id="31000999999999")
    assert again.status_code == 409 and "a CTR is filed once" in again.content.decode()
    assert _counts() == before
    with pytest.raises(ServiceError) as err:
        filing.ctr_file(ctr=ctr, by=officer, bsa_id="31000999999999")
    assert err.value.field == "ctr" and err.value.code == "already_filed"


def test_the_service_refuses_an_unidentified_patron_naming_what_is_missing(
    ctr_day: dict[str, Any], officer: Any
) -> None:
    with pytest.raises(ServiceError) as err:
        filing.ctr_file(ctr=ctr_day["ctr"], by=officer, bsa_id=BSA_ID)
    assert err.value.field == "ctr" and err.value.code == "identification_required"
    for words in ("name", "date of birth", "address", "ID type", "occupation"):
        assert words in err.value.message
    assert CtrFiling.objects.count() == 0


# --- roles and separation of duties --------------------------------------------------------------


@pytest.mark.parametrize(
    "who", ["cage", "pitboss", "admin", "auditor", "dealer", "host", "security"]
)
def test_only_the_compliance_role_files(ctr_day: dict[str, Any], who: str) -> None:
    identify(ctr_day, ctr_day["patron"])
    user = ctr_day[who]
    c = _client(user)
    before = _counts()
    assert c.get("/compliance/ctrs/file/").status_code == 403
    assert _file(c, ctr_day["ctr"].pk).status_code == 403
    for url in (
        "/compliance/ctrs.csv",
        "/compliance/ctrs.xml",
        f"/compliance/ctr/{ctr_day['ctr'].pk}/",
    ):
        assert c.get(url).status_code == 403, (who, url)
    with pytest.raises(PermissionDenied):
        filing.ctr_file(ctr=ctr_day["ctr"], by=user, bsa_id=BSA_ID)
    assert CtrFiling.objects.count() == before[0]


def test_an_officer_who_recorded_a_transaction_of_the_ctr_cannot_file_it(
    cash: dict[str, Any], officer: Any
) -> None:
    both = get_user_model().objects.create_user("cage_officer", password="demo-password-9")
    both.groups.add(Group.objects.get(name="cage"), Group.objects.get(name="compliance"))
    patron = identify(cash, described(cash))
    buy_in(cash, "SC-1", "6000.00", seat=2, patron=patron.number)
    cage_record(kind=Kind.CHIPS_BOUGHT, patron=patron.number, amount="5000.00", by=both)
    ctr = Ctr.objects.get()
    before = _counts()
    with pytest.raises(SeparationOfDuties):
        filing.ctr_file(ctr=ctr, by=both, bsa_id=BSA_ID)
    answer = _file(_client(both), ctr.pk)
    assert answer.status_code == 403 and "another compliance officer files it" in (
        answer.content.decode()
    )
    assert CtrFiling.objects.count() == before[0]
    refused = AuditEvent.objects.filter(kind="permission.refused").latest("seq")
    assert refused.data["action"] == "file a CTR" and refused.data["ctr"] == ctr.pk
    assert _file(_client(officer), ctr.pk).status_code == 303  # another officer files it


# --- due and overdue -----------------------------------------------------------------------------


def test_due_fifteen_days_after_the_day_and_overdue_after(
    cash: dict[str, Any], officer: Any
) -> None:
    """Two patrons' days at the cage: one 15 days ago (due today, still to file), one 20 days
    ago (overdue; filed now, it is filed late)."""
    now = timezone.now()
    due_today, late = identify(cash, described(cash)), identify(cash, described(cash))
    cage_record(
        kind=Kind.CHIPS_BOUGHT,
        patron=due_today.number,
        amount="10500.00",
        by=cash["cage"],
        at=now - timedelta(days=15),
    )
    cage_record(
        kind=Kind.FRONT_MONEY_IN,
        patron=late.number,
        amount="12000.00",
        by=cash["cage"],
        at=now - timedelta(days=20),
    )
    first, second = Ctr.objects.get(patron=due_today), Ctr.objects.get(patron=late)
    assert filing.due_of(first) == first.gaming_day + timedelta(days=15)
    rows = {r["patron"].number: r for r in filing.to_file()}
    assert rows[due_today.number]["status"] == "to file"
    assert rows[late.number]["status"] == "overdue"
    assert [r["patron"].number for r in filing.to_file()] == [late.number, due_today.number]

    page = _client(officer).get("/compliance/").content.decode()
    still = page.split('id="still-to-file"')[1].split("</table>")[0]
    assert still.count("overdue</strong>") == 1 and due_today.number in still
    assert f"{filing.due_of(second):%a %-d %b %Y}" in still  # dates as the site writes them
    old = _client(officer).get(f"/compliance/?day={second.gaming_day.isoformat()}")
    assert "overdue</strong>" in old.content.decode().split('id="ctrs"')[1]

    out = StringIO()
    call_command("cash_compliance", "--day", second.gaming_day.isoformat(), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["ctrs"][0]["filing"]["status"] == "overdue"
    assert {"patron", "direction", "cash_in", "cash_out", "identified", "due", "transactions"} <= (
        set(report["ctrs"][0])
    )

    made = filing.ctr_file(ctr=second, by=officer, bsa_id=BSA_ID)
    assert AuditEvent.objects.filter(kind="ctr.filed").get().data["late"] is True
    out = StringIO()
    call_command("cash_compliance", "--day", second.gaming_day.isoformat(), "--json", stdout=out)
    status = json.loads(out.getvalue())["ctrs"][0]["filing"]
    assert status["status"] == "filed" and status["late"] is True
    assert (status["bsa_id"], status["filed_by"]) == (BSA_ID, "compliance")
    assert status["filed_at"] == made.filed_at.isoformat()
    text = StringIO()
    call_command("cash_compliance", "--day", second.gaming_day.isoformat(), stdout=text)
    assert "filed" in text.getvalue() and "Reyes" not in text.getvalue()


# --- the printable Form 112 ----------------------------------------------------------------------


def test_the_printable_ctr_shows_every_part_of_form_112(
    ctr_day: dict[str, Any], officer: Any
) -> None:
    identify(ctr_day, ctr_day["patron"])
    html = _client(officer).get(f"/compliance/ctr/{ctr_day['ctr'].pk}/").content.decode()
    for words in (
        "Part I",
        "Part II",
        "Part III",
        "Reyes",
        "Walter",
        "12 Harbor Road",
        "Atlantic City",
        "08401",
        "Sun 12 Apr 1970",
        "contractor",
        "Driver&#x27;s license/State ID",
        "D1234-56789-01234",
        "Purchase(s) of casino chips, tokens, and other gaming instruments",
        "Redemption(s) of casino chips",
        "$11,000.00",
        "Harbor Lights Casino LLC",
        "12-3456789",
        "Internal Revenue Service",
        "SC-1 seat 3",
        "LB-1 seat 1",
        f"due {filing.due_of(ctr_day['ctr']):%a %-d %b %Y}",
        "Record this CTR",
        'href="/static/css/ctr.css"',
    ):
        assert words in html, words
    cash_in = html.split('id="cash-in-items"')[1].split("</table>")[0]
    assert cash_in.count("☒") == 1 and "$11,000.00" in cash_in
    assert "☒" not in html.split('id="cash-out-items"')[1].split("</table>")[0]


# --- the CSV and the batch XML -------------------------------------------------------------------


def test_the_csv_carries_form_112s_fields(ctr_day: dict[str, Any], officer: Any) -> None:
    identify(ctr_day, ctr_day["patron"])
    body = _client(officer).get(f"/compliance/ctrs.csv?day={today().isoformat()}").content
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert len(rows) == 1
    row = rows[0]
    assert row["patron"] == ctr_day["patron"].number and row["direction"] == "Cash in"
    assert (row["last_name"], row["first_name"]) == ("Reyes", "Walter")
    assert (row["street"], row["city"], row["state"], row["zip"], row["country"]) == (
        "12 Harbor Road",
        "Atlantic City",
        "NJ",
        "08401",
        "US",
    )
    assert row["date_of_birth"] == "1970-04-12" and row["occupation"] == "contractor"
    assert row["id_type"] == "Driver's license/State ID" and row["id_number"] == "D1234-56789-01234"
    assert (row["id_issuer_state"], row["id_issuer_country"]) == ("NJ", "US")
    assert row["cash_in_g"] == "$11,000.00" and row["cash_in_a"] == "" and row["cash_out_g"] == ""
    assert row["cash_in"] == "$11,000.00" and row["cash_out"] == "$0.00"
    assert row["transactions"] == "2" and row["status"] == "to file" and row["bsa_id"] == ""
    filing.ctr_file(ctr=ctr_day["ctr"], by=officer, bsa_id=BSA_ID)
    body = _client(officer).get("/compliance/ctrs.csv").content.decode()
    row = next(csv.DictReader(io.StringIO(body)))
    assert (row["status"], row["bsa_id"], row["filed_by"]) == ("filed", BSA_ID, "compliance")


def test_the_batch_xml_holds_each_identified_ctr(cash: dict[str, Any], officer: Any) -> None:
    """One identified patron (buy-ins, chips and front money at the cage) and one described
    only: the XML holds the first, the second is left out and named."""
    patron = identify(cash, described(cash))
    buy_in(cash, "SC-1", "6000.00", seat=3, patron=patron.number)
    cage_record(kind=Kind.CHIPS_BOUGHT, patron=patron.number, amount="2500.50", by=cash["cage"])
    cage_record(kind=Kind.FRONT_MONEY_IN, patron=patron.number, amount="4000.00", by=cash["cage"])
    other = described(cash)
    buy_in(cash, "LB-1", "6000.00", seat=1, patron=other.number)
    buy_in(cash, "PY-1", "5000.00", seat=1, patron=other.number)

    answer = _client(officer).get(f"/compliance/ctrs.xml?day={today().isoformat()}")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/xml"
    assert answer["X-CTRs-Left-Out"] == other.number
    root = ET.fromstring(answer.content)
    assert root.tag == "{www.fincen.gov/base}EFilingBatchXML"
    assert root.findtext("fc2:FormTypeCode", namespaces=NS) == "CTRX"
    assert root.get("ActivityCount") == "1"
    activities = root.findall("fc2:Activity", NS)
    assert len(activities) == 1
    activity = activities[0]
    parties = activity.findall("fc2:Party", NS)
    assert [p.findtext("fc2:ActivityPartyTypeCode", namespaces=NS) for p in parties] == [
        "35",
        "37",
        "30",
        "8",
        "34",
        "50",
    ]
    assert root.get("PartyCount") == "6"
    person = parties[-1]
    assert (
        person.findtext("fc2:PartyName/fc2:RawEntityIndividualLastName", namespaces=NS) == "Reyes"
    )
    assert person.findtext("fc2:PartyName/fc2:RawIndividualFirstName", namespaces=NS) == "Walter"
    assert person.findtext("fc2:IndividualBirthDateText", namespaces=NS) == "19700412"
    assert person.findtext("fc2:MaleGenderIndicator", namespaces=NS) == "Y"
    assert person.findtext("fc2:Address/fc2:RawCityText", namespaces=NS) == "Atlantic City"
    assert person.findtext("fc2:Address/fc2:RawZIPCode", namespaces=NS) == "08401"
    ident = person.find("fc2:PartyIdentification", NS)
    assert ident is not None
    assert ident.findtext("fc2:PartyIdentificationTypeCode", namespaces=NS) == "5"
    assert ident.findtext("fc2:PartyIdentificationNumberText", namespaces=NS) == (
        "D1234-56789-01234"
    )
    assert ident.findtext("fc2:OtherIssuerStateText", namespaces=NS) == "NJ"
    occupation = "fc2:PartyOccupationBusiness/fc2:OccupationBusinessText"
    assert person.findtext(occupation, namespaces=NS) == "contractor"
    assert person.findtext("fc2:IndividualEntityCashInAmountText", namespaces=NS) == "12501"
    casino = parties[2]
    assert casino.findtext("fc2:PartyName/fc2:RawPartyFullName", namespaces=NS) == (
        "Harbor Lights Casino LLC"
    )
    assert (
        casino.findtext("fc2:PartyIdentification/fc2:PartyIdentificationNumberText", namespaces=NS)
        == "123456789"
    )
    cta = activity.find("fc2:CurrencyTransactionActivity", NS)
    assert cta is not None
    # $6,000.00 + $2,500.50 of chips, $4,000.00 of front money: whole dollars, cents rounded up
    assert cta.findtext("fc2:TotalCashInReceiveAmountText", namespaces=NS) == "12501"
    assert cta.findtext("fc2:TotalCashOutAmountText", namespaces=NS) == "0"
    assert cta.findtext("fc2:TransactionDateText", namespaces=NS) == f"{today():%Y%m%d}"
    assert cta.findtext("fc2:AggregateTransactionIndicator", namespaces=NS) == "Y"
    details = {
        d.findtext("fc2:CurrencyTransactionActivityDetailTypeCode", namespaces=NS): d.findtext(
            "fc2:DetailTransactionAmountText", namespaces=NS
        )
        for d in cta.findall("fc2:CurrencyTransactionActivityDetail", NS)
    }
    assert details == {"18": "8501", "55": "4000"}
    assert root.get("TotalAmount") == "12501"
    seqs = [e.get("SeqNum") for e in root.iter() if e.get("SeqNum")]
    assert seqs == [str(n) for n in range(1, len(seqs) + 1)]  # numbered once, in order


def test_the_batch_xml_is_refused_when_no_ctr_can_go_in(
    ctr_day: dict[str, Any], officer: Any
) -> None:
    answer = _client(officer).get("/compliance/ctrs.xml")
    assert answer.status_code == 409
    assert ctr_day["patron"].number in answer.content.decode() and "not identified" in (
        answer.content.decode()
    )
    empty = _client(officer).get("/compliance/ctrs.xml?day=2020-01-01")
    assert empty.status_code == 409 and "no CTR" in empty.content.decode()
    assert _client(officer).get("/compliance/ctrs.xml?day=2020-13-01").status_code == 400


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"bsa_id": ""}, "bsa_id", "type the BSA ID"),
        ({"bsa_id": "   "}, "bsa_id", "type the BSA ID"),
        ({"bsa_id": "3" * 41}, "bsa_id", "at most 40 characters"),
        ({"bsa_id": "31000 1234"}, "bsa_id", "letters, digits and hyphens"),
        ({"bsa_id": "３１０００"}, "bsa_id", "letters, digits and hyphens"),
        ({"note": "x" * 501}, "note", "at most 500 characters"),
        ({"ctr": "999999"}, "ctr", "there is no CTR number 999999"),
        ({"ctr": "abc"}, "ctr", "is not a CTR&#x27;s number"),
        ({"ctr": "-1"}, "ctr", "is not a CTR&#x27;s number"),
        ({"ctr": ""}, "ctr", "choose the CTR"),
    ],
)
def test_bad_input_names_the_field_and_saves_nothing(
    ctr_day: dict[str, Any], officer: Any, fields: dict[str, str], field: str, words: str
) -> None:
    identify(ctr_day, ctr_day["patron"])
    c = _client(officer)  # signing in is an event of its own
    before = _counts()
    posted = {"ctr": str(ctr_day["ctr"].pk), "bsa_id": BSA_ID, "note": "typed", **fields}
    answer = c.post("/compliance/ctrs/file/", posted)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert f'data-field="{field}"' in html and f"{field}: " in html and words in html
    assert 'aria-invalid="true"' in html
    if field != "bsa_id":
        assert f'value="{BSA_ID}"' in html  # the typed values kept
    if field != "note":
        assert 'value="typed"' in html
    assert _counts() == before


def test_an_unknown_ctr_page_is_not_found(officer: Any) -> None:
    assert _client(officer).get("/compliance/ctr/999999/").status_code == 404
