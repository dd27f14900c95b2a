"""Filing CTRs (docs/compliance.md, "Filing CTRs"): the write that records a CTR filed with
FinCEN, and the reads of what is still to file, what is filed, what is overdue, and each CTR
as FinCEN Form 112 lays it out (the printable page, the CSV and the batch XML read it).

A CTR is history (append-only), so its filing is a row of its own (`CtrFiling`), appended once
and bound to the audit record in the same transaction. Only the compliance role files, only a
CTR whose patron is identified (every Form 112 field), never twice, and never a CTR one of
whose transactions the officer recorded (separation of duties, whatever roles they hold)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import SeparationOfDuties, ServiceError
from core.roles import Role, require
from core.strict import text
from tables.gaming_day import gaming_day_of

from .models import (
    IDENTIFICATION_FIELDS,
    CashTransaction,
    Ctr,
    CtrFiling,
    Direction,
    Kind,
    Patron,
)
from .selectors import CTR_DUE_DAYS, ctr_rows

CTR_FILERS: tuple[Role, ...] = (Role.COMPLIANCE,)
BSA_ID_MOST = CtrFiling._meta.get_field("bsa_id").max_length or 40
NOTE_MOST = CtrFiling._meta.get_field("note").max_length or 500
# What FinCEN's acknowledgment gives: the BSA ID (14 digits) or a tracking number; letters,
# digits and hyphens, as typed from the acknowledgment.
BSA_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*$")

# How the form words each field a patron's identification holds (a refusal names them so).
FIELD_WORDS = {
    "name": "name",
    "date_of_birth": "date of birth",
    "address": "address",
    "id_type": "ID type",
    "id_number": "ID number",
    "id_issuer": "ID issuer",
    "id_expiry": "ID expiry",
    "occupation": "occupation",
}


# --- Form 112's items ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One check-box of Form 112 Part II: its letter, its words, its code in the batch XML."""

    letter: str
    label: str
    code: str


CASH_IN_ITEMS = (
    Item("a", "Deposit(s)", "55"),
    Item("b", "Payment(s)", "46"),
    Item("c", "Currency received for funds transfer(s) out", "23"),
    Item("d", "Purchase of negotiable instrument(s)", "12"),
    Item("e", "Currency exchange(s)", "14"),
    Item("f", "Currency to prepaid access", "49"),
    Item("g", "Purchase(s) of casino chips, tokens, and other gaming instruments", "18"),
    Item("h", "Currency wager(s) including money plays", "21"),
    Item("i", "Bills inserted into gaming devices", "25"),
    Item("z", "Other", "997"),
)
CASH_OUT_ITEMS = (
    Item("a", "Withdrawal(s)", "56"),
    Item("b", "Advance(s) on credit (including markers)", "30"),
    Item("c", "Currency paid from funds transfer(s) in", "32"),
    Item("d", "Negotiable instrument(s) cashed", "13"),
    Item("e", "Currency exchange(s)", "15"),
    Item("f", "Currency from prepaid access", "48"),
    Item(
        "g",
        "Redemption(s) of casino chips, tokens, TITO tickets, and other gaming instruments",
        "28",
    ),
    Item("h", "Payment(s) on wager(s) (including race and OTB or sports pool)", "31"),
    Item("i", "Travel and complimentary expenses and book gaming incentives", "33"),
    Item("j", "Payment for tournament, contest or other promotions", "34"),
    Item("z", "Other", "998"),
)
# Each of our kinds is one of the form's items: a cash buy-in at a table and chips bought at
# the cage are purchases of chips; front money is a deposit or a withdrawal; chips redeemed
# for cash are a redemption.
KIND_ITEM: dict[str, tuple[str, str]] = {
    Kind.BUY_IN: (Direction.CASH_IN, "g"),
    Kind.CHIPS_BOUGHT: (Direction.CASH_IN, "g"),
    Kind.FRONT_MONEY_IN: (Direction.CASH_IN, "a"),
    Kind.CHIPS_REDEEMED: (Direction.CASH_OUT, "g"),
    Kind.FRONT_MONEY_OUT: (Direction.CASH_OUT, "a"),
}
ITEMS = {Direction.CASH_IN: CASH_IN_ITEMS, Direction.CASH_OUT: CASH_OUT_ITEMS}
# Form 112's forms of identification, and the batch XML's code of each.
ID_TYPE_WORDS = {
    Patron.IdType.DRIVERS_LICENSE: ("Driver's license/State ID", "5"),
    Patron.IdType.STATE_ID: ("Driver's license/State ID", "5"),
    Patron.IdType.PASSPORT: ("Passport", "6"),
    Patron.IdType.ALIEN_REGISTRATION: ("Alien registration", "7"),
    Patron.IdType.OTHER: ("Other", "999"),
}
GAMING_TYPES = {
    "state_licensed": ("State licensed casino", "101"),
    "tribal": ("Tribal authorized casino", "102"),
    "card_club": ("Card club", "103"),
}
US_STATES = frozenset(
    ("AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN")
    + ("IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH")
    + ("NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT")
    + ("VT", "VA", "WA", "WV", "WI", "WY", "AS", "GU", "MP", "PR", "VI")
)
_ADDRESS = re.compile(
    r"^\s*(?P<street>[^,]+?)\s*,\s*(?P<city>[^,]+?)\s*,\s*(?P<state>[A-Za-z]{2})\s+"
    r"(?P<zip>\d{5}(?:-?\d{4})?)\s*(?:,\s*(?P<country>[^,]+?)\s*)?$"
)


def due_of(ctr: Ctr) -> date:
    """FinCEN: a CTR is filed within 15 days of the transactions' gaming day."""
    return ctr.gaming_day + timedelta(days=CTR_DUE_DAYS)


def today() -> date:
    """The gaming day now: a CTR due today is not overdue until the day's end."""
    return gaming_day_of(timezone.now())


def missing_fields(patron: Patron) -> list[str]:
    """The Form 112 fields the patron's identification lacks, in the form's words (all of
    them while the patron is described only)."""
    if patron.identified_at is None:
        return [FIELD_WORDS[f] for f in IDENTIFICATION_FIELDS]
    return [FIELD_WORDS[f] for f in IDENTIFICATION_FIELDS if getattr(patron, f) in ("", None)]


# --- the write -----------------------------------------------------------------------------------


def find_ctr(value: Any) -> Ctr:
    """The CTR a form names by its number (the CTR's id), or a refusal naming `ctr`."""
    given = text(value if value is not None else "", "ctr").strip()
    if not given:
        raise ServiceError("ctr: choose the CTR to file", field="ctr")
    if not given.isascii() or not given.isdigit() or len(given) > 18:
        raise ServiceError(f"ctr: {given[:40]!r} is not a CTR's number", field="ctr")
    found = Ctr.objects.select_related("patron").filter(pk=int(given)).first()
    if found is None:
        raise ServiceError(f"ctr: there is no CTR number {given}", field="ctr")
    return found


def _bsa_id(value: Any) -> str:
    given = text(value if value is not None else "", "bsa_id").strip()
    if not given:
        raise ServiceError(
            "bsa_id: type the BSA ID (or the acknowledgment number) FinCEN gave the filing",
            field="bsa_id",
        )
    if len(given) > BSA_ID_MOST:
        raise ServiceError(
            f"bsa_id: at most {BSA_ID_MOST} characters, not {len(given)}", field="bsa_id"
        )
    if not given.isascii() or not BSA_ID.match(given):
        raise ServiceError(
            "bsa_id: letters, digits and hyphens only, as the acknowledgment writes it",
            field="bsa_id",
        )
    return given


def _note(value: Any) -> str:
    given = text(value if value is not None else "", "note").strip()
    if len(given) > NOTE_MOST:
        raise ServiceError(f"note: at most {NOTE_MOST} characters, not {len(given)}", field="note")
    return given


def _describe(ctr: Ctr) -> str:
    return (
        f"{ctr.patron.number}'s CTR of {ctr.get_direction_display().lower()} on "
        f"{ctr.gaming_day:%a %-d %b %Y}"
    )


@transaction.atomic
def ctr_file(
    *, ctr: Ctr, by: AbstractBaseUser, bsa_id: Any, note: Any = "", at: datetime | None = None
) -> CtrFiling:
    """Record that `by` (a compliance officer) filed the CTR with FinCEN, with the BSA ID
    the filing was acknowledged with. Refused (nothing written) when the patron is not
    identified, when the CTR is already filed, or when `by` recorded one of its transactions."""
    require(by, CTR_FILERS, "file a CTR")
    bsa = _bsa_id(bsa_id)
    note_text = _note(note)
    ctr = Ctr.objects.select_for_update().select_related("patron").get(pk=ctr.pk)
    patron = Patron.objects.get(pk=ctr.patron_id)
    done = CtrFiling.objects.filter(ctr=ctr).select_related("filed_by").first()
    if done is not None:
        raise _filed_already(ctr, done)
    missing = missing_fields(patron)
    if missing:
        raise ServiceError(
            f"ctr: {patron.number} is not identified: the {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing, and Form 112 needs every one; "
            "identify the patron at the cage first",
            field="ctr",
            code="identification_required",
            status=409,
        )
    txs = CashTransaction.objects.filter(
        patron=patron, gaming_day=ctr.gaming_day, direction=ctr.direction
    )
    if txs.filter(by=by).exists():
        raise SeparationOfDuties(
            f"ctr: you recorded a cash transaction of {_describe(ctr)}; another compliance "
            "officer files it",
            field="ctr",
            action="file a CTR",
            about={"ctr": ctr.pk, "patron": patron.number},
        )
    at = at or timezone.now()
    try:
        with transaction.atomic():
            filing = CtrFiling.objects.create(
                ctr=ctr, filed_at=at, filed_by=by, bsa_id=bsa, note=note_text
            )
    except IntegrityError:  # filed at the same moment by another officer
        done = CtrFiling.objects.select_related("filed_by").get(ctr=ctr)
        raise _filed_already(ctr, done) from None
    due = due_of(ctr)
    total = sum(t.amount_cents for t in txs)
    # The patron by number only; the note is bound as its digest (compliance.apps), never
    # in the event's words: it may name the person.
    audit_record(
        actor=by,
        kind=EventKind.CTR_FILED,
        obj=filing,
        data={
            "patron": patron.number,
            "gaming_day": ctr.gaming_day.isoformat(),
            "direction": "cash_in" if ctr.direction == Direction.CASH_IN else "cash_out",
            "total_cents": total,
            "bsa_id": bsa,
            "due": due.isoformat(),
            "late": gaming_day_of(at) > due,
        },
    )
    return filing


def _filed_already(ctr: Ctr, done: CtrFiling) -> ServiceError:
    return ServiceError(
        f"ctr: {_describe(ctr)} was filed on {timezone.localtime(done.filed_at):%a %-d %b %Y} "
        f"by {done.filed_by.get_username()} (BSA ID {done.bsa_id}); a CTR is filed once",
        field="ctr",
        code="already_filed",
        status=409,
    )


# --- the reads -----------------------------------------------------------------------------------


def with_status(rows: list[dict[str, Any]], *, on: date | None = None) -> list[dict[str, Any]]:
    """Each CTR row (`selectors.ctr_rows`) with its filing, its status ("filed", "overdue" or
    "to file") and whether it was filed late."""
    on = on or today()
    filings = {
        f.ctr_id: f
        for f in CtrFiling.objects.filter(ctr__in=[r["ctr"].pk for r in rows]).select_related(
            "filed_by"
        )
    }
    out = []
    for row in rows:
        filing = filings.get(row["ctr"].pk)
        overdue = filing is None and on > row["due"]
        late = filing is not None and gaming_day_of(filing.filed_at) > row["due"]
        status = "filed" if filing else ("overdue" if overdue else "to file")
        out.append(
            {
                **row,
                "filing": filing,
                "status": status,
                "overdue": overdue,
                "late": late,
                "missing": missing_fields(row["patron"]),
            }
        )
    return out


def day_filing(day: date) -> dict[str, list[dict[str, Any]]]:
    """The gaming day's CTRs: those still to file (due date, overdue marked) and those filed."""
    rows = with_status(
        ctr_rows(Ctr.objects.filter(gaming_day=day).order_by("patron__number", "direction"))
    )
    return {
        "to_file": [r for r in rows if r["filing"] is None],
        "filed": [r for r in rows if r["filing"] is not None],
    }


def to_file() -> list[dict[str, Any]]:
    """Every CTR not filed yet, over all days, the soonest due first."""
    open_ctrs: QuerySet[Ctr] = Ctr.objects.filter(filing__isnull=True).order_by(
        "gaming_day", "patron__number", "direction"
    )
    return with_status(ctr_rows(open_ctrs))


def ctr_row(ctr: Ctr) -> dict[str, Any]:
    return with_status(ctr_rows(Ctr.objects.filter(pk=ctr.pk)))[0]


def filing_status(ctr: Ctr) -> dict[str, Any]:
    """A CTR's filing as the command prints it (dates ISO, the officer's user name)."""
    row = ctr_row(ctr)
    filing = row["filing"]
    return {
        "status": row["status"],
        "filed_at": filing.filed_at.isoformat() if filing else None,
        "filed_by": filing.filed_by.get_username() if filing else None,
        "bsa_id": filing.bsa_id if filing else None,
        "late": row["late"],
    }


def whole_dollars(cents: int) -> int:
    """FinCEN's amounts are whole dollars: cents are rounded up to the next dollar."""
    return math.ceil(cents / 100) if cents % 100 else cents // 100


def split_name(name: str) -> tuple[str, str]:
    """ "Walter Reyes" -> ("Reyes", "Walter"): the last word is the last name, the rest the
    first (and middle) names; a single word is the last name."""
    words = name.split()
    if not words:
        return "", ""
    return words[-1], " ".join(words[:-1])


def split_address(address: str) -> dict[str, str]:
    """ "12 Harbor Road, Atlantic City, NJ 08401" -> street, city, state, ZIP and country (US
    for a US state). An address written otherwise stays whole as the street."""
    found = _ADDRESS.match(address or "")
    if found is None:
        blank = {"city": "", "state": "", "zip": "", "country": ""}
        return {"street": (address or "").strip(), **blank}
    state = found["state"].upper()
    country = (found["country"] or "").strip()
    if not country and state in US_STATES:
        country = "US"
    return {
        "street": found["street"],
        "city": found["city"],
        "state": state,
        "zip": found["zip"].replace("-", ""),
        "country": country[:2].upper() if len(country) == 2 else country,
    }


def issuer_of(patron: Patron) -> dict[str, str]:
    """The ID's issuing state (a US state's code) or country."""
    issuer = (patron.id_issuer or "").strip()
    if issuer.upper() in US_STATES and patron.id_type != Patron.IdType.PASSPORT:
        return {"state": issuer.upper(), "country": "US"}
    return {"state": "", "country": issuer}


def casino() -> dict[str, str]:
    """The casino as Part III names it (settings.CASINO_FILER), with its gaming type's words."""
    filer = dict(settings.CASINO_FILER)
    words, code = GAMING_TYPES.get(filer.get("gaming_type", ""), GAMING_TYPES["state_licensed"])
    return {**filer, "gaming_type_label": words, "gaming_type_code": code}


def form112(row: dict[str, Any]) -> dict[str, Any]:
    """A CTR row (`with_status`) laid out as Form 112: Part I the person, Part II the amounts
    by the form's check-boxes (each of our kinds on its item), Part III the casino."""
    ctr: Ctr = row["ctr"]
    patron: Patron = row["patron"]
    last, first = split_name(patron.name)
    sums: dict[tuple[str, str], int] = {}
    for tx in row["transactions"]:
        key = KIND_ITEM[Kind(tx.kind)]
        sums[key] = sums.get(key, 0) + tx.amount_cents
    parts = {}
    for direction, items in ITEMS.items():
        parts[direction] = [
            {
                "letter": item.letter,
                "label": item.label,
                "code": item.code,
                "cents": sums.get((direction, item.letter), 0),
                "checked": (direction, item.letter) in sums,
            }
            for item in items
        ]
    cash_in = row["total_cents"] if ctr.direction == Direction.CASH_IN else 0
    cash_out = row["total_cents"] if ctr.direction == Direction.CASH_OUT else 0
    id_words, id_code = ID_TYPE_WORDS.get(patron.id_type, ("", ""))  # type: ignore[call-overload]
    return {
        "last_name": last,
        "first_name": first,
        "address": split_address(patron.address),
        "date_of_birth": patron.date_of_birth,
        "occupation": patron.occupation,
        "id_type": id_words,
        "id_type_code": id_code,
        "id_type_detail": Patron.IdType(patron.id_type).label if patron.id_type else "",
        "id_number": patron.id_number,
        "id_issuer": issuer_of(patron),
        "id_expiry": patron.id_expiry,
        "gender": (patron.sex or "").strip().lower(),
        "cash_in_cents": cash_in,
        "cash_out_cents": cash_out,
        "cash_in_items": parts[Direction.CASH_IN],
        "cash_out_items": parts[Direction.CASH_OUT],
        "transaction_date": ctr.gaming_day,
        "aggregated": len(row["transactions"]) > 1,
        "casino": casino(),
    }
