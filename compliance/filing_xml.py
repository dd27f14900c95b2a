"""FinCEN's CTR batch XML (the "FinCEN CTR XML Schema" of BSA E-Filing's batch filing, form
type CTRX, namespace `www.fincen.gov/base`): one `Activity` per CTR, each with the parties the
schema asks (transmitter, transmitter contact, the reporting casino, its contact office, the
transaction location, the person involved) and the currency transaction activity by item.

Built with the standard library (`xml.etree`); the element names and codes follow FinCEN's
published CTR XML user guide. No XSD is shipped or checked here: the output is unvalidated
(docs/compliance.md). Only a CTR whose patron is identified goes in."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from datetime import date
from typing import Any

from django.utils import timezone

from .filing import form112, whole_dollars
from .models import Direction

NS = "www.fincen.gov/base"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_LOCATION = f"{NS} https://www.fincen.gov/base/EFL_CTRXBatchSchema.xsd"
FORM_TYPE = "CTRX"
# The reporting casino's federal examiner: casinos are examined by the IRS.
REGULATOR_IRS = "9"
CASINO_TYPE = "1"  # Casino/Card club

ET.register_namespace("fc2", NS)
ET.register_namespace("xsi", XSI)


def _q(name: str) -> str:
    return f"{{{NS}}}{name}"


class _Seq:
    """SeqNum: every element that carries one is numbered, once, across the batch."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return str(self.n)


def _el(parent: ET.Element, name: str, value: Any = None, seq: _Seq | None = None) -> ET.Element:
    child = ET.SubElement(parent, _q(name), {"SeqNum": seq()} if seq else {})
    if value is not None:
        child.text = str(value)
    return child


def _ymd(day: date | None) -> str:
    return day.strftime("%Y%m%d") if day else ""


def _digits(value: str) -> str:
    return "".join(c for c in value if c.isdigit())


def _name(party: ET.Element, seq: _Seq, full: str, code: str = "L") -> None:
    name = _el(party, "PartyName", seq=seq)
    _el(name, "PartyNameTypeCode", code)
    _el(name, "RawPartyFullName", full[:150])


def _address(party: ET.Element, seq: _Seq, a: dict[str, str]) -> None:
    address = _el(party, "Address", seq=seq)
    _el(address, "RawCityText", a.get("city", "")[:50])
    _el(address, "RawCountryCodeText", a.get("country", "")[:2])
    _el(address, "RawStateCodeText", a.get("state", "")[:3])
    _el(address, "RawStreetAddress1Text", a.get("street", "")[:100])
    _el(address, "RawZIPCode", a.get("zip", "")[:9])


def _ident(party: ET.Element, seq: _Seq, number: str, code: str) -> None:
    ident = _el(party, "PartyIdentification", seq=seq)
    _el(ident, "PartyIdentificationNumberText", number[:25])
    _el(ident, "PartyIdentificationTypeCode", code)


def _institution(activity: ET.Element, seq: _Seq, kind: str, casino: dict[str, str]) -> None:
    """The reporting casino (30) or the transaction location (34): Part III."""
    party = _el(activity, "Party", seq=seq)
    _el(party, "ActivityPartyTypeCode", kind)
    _el(party, "PrimaryRegulatorTypeCode", REGULATOR_IRS)
    _name(party, seq, casino["legal_name"])
    if casino.get("dba_name"):
        _name(party, seq, casino["dba_name"], code="DBA")
    _address(party, seq, casino)
    _ident(party, seq, _digits(casino["ein"]), "2")  # EIN
    org = _el(party, "OrganizationClassificationTypeSubtype", seq=seq)
    _el(org, "OrganizationSubtypeID", casino["gaming_type_code"])
    _el(org, "OrganizationTypeID", CASINO_TYPE)


def _person(activity: ET.Element, seq: _Seq, form: dict[str, Any]) -> None:
    """Part I: the person involved in the transactions, on their own behalf (50)."""
    party = _el(activity, "Party", seq=seq)
    _el(party, "ActivityPartyTypeCode", "50")
    if form["gender"] == "female":
        _el(party, "FemaleGenderIndicator", "Y")
    _el(party, "IndividualBirthDateText", _ymd(form["date_of_birth"]))
    _el(party, "IndividualEntityCashInAmountText", whole_dollars(form["cash_in_cents"]))
    _el(party, "IndividualEntityCashOutAmountText", whole_dollars(form["cash_out_cents"]))
    if form["gender"] == "male":
        _el(party, "MaleGenderIndicator", "Y")
    if form["gender"] not in ("male", "female"):
        _el(party, "UnknownGenderIndicator", "Y")
    name = _el(party, "PartyName", seq=seq)
    _el(name, "PartyNameTypeCode", "L")
    _el(name, "RawEntityIndividualLastName", form["last_name"][:150])
    _el(name, "RawIndividualFirstName", form["first_name"][:35])
    _address(party, seq, form["address"])
    ident = _el(party, "PartyIdentification", seq=seq)
    if form["id_issuer"]["country"]:
        _el(ident, "OtherIssuerCountryText", form["id_issuer"]["country"][:2].upper())
    if form["id_issuer"]["state"]:
        _el(ident, "OtherIssuerStateText", form["id_issuer"]["state"])
    if form["id_type_code"] == "999":
        _el(ident, "OtherPartyIdentificationTypeText", form["id_type_detail"][:50])
    _el(ident, "PartyIdentificationNumberText", form["id_number"][:25])
    _el(ident, "PartyIdentificationTypeCode", form["id_type_code"])
    occupation = _el(party, "PartyOccupationBusiness", seq=seq)
    _el(occupation, "OccupationBusinessText", form["occupation"][:50])


def _activity(batch: ET.Element, seq: _Seq, row: dict[str, Any], filed_on: date) -> list[int]:
    """One CTR's Activity; returns its detail amounts (whole dollars) for the batch's total."""
    form = form112(row)
    casino = form["casino"]
    activity = _el(batch, "Activity", seq=seq)
    _el(activity, "FilingDateText", _ymd(filed_on))
    association = _el(activity, "ActivityAssociation", seq=seq)
    _el(association, "InitialReportIndicator", "Y")
    transmitter = _el(activity, "Party", seq=seq)
    _el(transmitter, "ActivityPartyTypeCode", "35")
    _name(transmitter, seq, casino["legal_name"])
    _address(transmitter, seq, casino)
    phone = _el(transmitter, "PhoneNumber", seq=seq)
    _el(phone, "PhoneNumberText", _digits(casino["contact_phone"])[:16])
    _ident(transmitter, seq, _digits(casino["ein"]), "4")  # TIN
    _ident(transmitter, seq, casino["tcc"], "28")  # transmitter control code
    contact = _el(activity, "Party", seq=seq)
    _el(contact, "ActivityPartyTypeCode", "37")
    _name(contact, seq, casino["contact_office"])
    _institution(activity, seq, "30", casino)
    office = _el(activity, "Party", seq=seq)
    _el(office, "ActivityPartyTypeCode", "8")
    _name(office, seq, casino["contact_office"])
    phone = _el(office, "PhoneNumber", seq=seq)
    _el(phone, "PhoneNumberText", _digits(casino["contact_phone"])[:16])
    _institution(activity, seq, "34", casino)
    _person(activity, seq, form)
    cta = _el(activity, "CurrencyTransactionActivity", seq=seq)
    _el(cta, "AggregateTransactionIndicator", "Y" if form["aggregated"] else "")
    for name in (
        "ArmoredCarServiceIndicator",
        "ATMIndicator",
        "MailDepositShipmentIndicator",
        "NightDepositIndicator",
        "SharedBranchingIndicator",
    ):
        _el(cta, name, "")
    _el(cta, "TotalCashInReceiveAmountText", whole_dollars(form["cash_in_cents"]))
    _el(cta, "TotalCashOutAmountText", whole_dollars(form["cash_out_cents"]))
    _el(cta, "TransactionDateText", _ymd(form["transaction_date"]))
    amounts = []
    direction = row["ctr"].direction
    items = form["cash_in_items"] if direction == Direction.CASH_IN else form["cash_out_items"]
    for item in items:
        if not item["checked"]:
            continue
        detail = _el(cta, "CurrencyTransactionActivityDetail", seq=seq)
        _el(detail, "CurrencyTransactionActivityDetailTypeCode", item["code"])
        amount = whole_dollars(item["cents"])
        amounts.append(amount)
        _el(detail, "DetailTransactionAmountText", amount)
        _el(detail, "OtherCurrencyTransactionActivityDetailText", "")
        _el(detail, "OtherForeignCurrencyCountryText", "")
    return amounts


def batch_xml(rows: Iterable[dict[str, Any]], *, filed_on: date | None = None) -> bytes:
    """The batch of these CTR rows (`filing.with_status`; each patron identified: the caller
    leaves the others out) as UTF-8 XML bytes."""
    rows = list(rows)
    filed_on = filed_on or timezone.localdate()
    batch = ET.Element(_q("EFilingBatchXML"))
    batch.set(f"{{{XSI}}}schemaLocation", SCHEMA_LOCATION)
    _el(batch, "FormTypeCode", FORM_TYPE)
    seq = _Seq()
    amounts: list[int] = []
    for row in rows:
        amounts += _activity(batch, seq, row, filed_on)
    batch.set("ActivityCount", str(len(rows)))
    batch.set("TotalAmount", str(sum(amounts)))
    batch.set("PartyCount", str(len(batch.findall(f"{_q('Activity')}/{_q('Party')}"))))
    ET.indent(batch)
    return ET.tostring(batch, encoding="utf-8", xml_declaration=True)
