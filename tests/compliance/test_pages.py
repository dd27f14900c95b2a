"""Cash compliance's pages and command: the day's MTL and CTRs for the compliance role, the
CSV, the printable CTR, a patron's page where only the compliance role and the cage see the
identification, the identification's bad input (400 naming the field, nothing saved)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from compliance.models import Ctr, Patron
from compliance.services import cash_out_record
from core.errors import ServiceError
from tests.compliance.conftest import IDENTIFICATION, buy_in, described, identify, today


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def officer(cash: dict[str, Any]) -> Any:
    user = get_user_model().objects.get(username="compliance")
    assert user.groups.filter(name="compliance").exists()
    return user


@pytest.fixture
def ctr_day(cash: dict[str, Any]) -> dict[str, Any]:
    patron = described(cash)
    buy_in(cash, "SC-1", "6000.00", seat=3, patron=patron.number)
    buy_in(cash, "LB-1", "5000.00", seat=1, patron=patron.number)
    return {**cash, "patron": patron, "ctr": Ctr.objects.get()}


def test_the_compliance_day_lists_the_mtl_and_the_ctrs(
    ctr_day: dict[str, Any], officer: Any
) -> None:
    page = _client(officer).get("/compliance/")
    assert page.status_code == 200
    html = page.content.decode()
    number = ctr_day["patron"].number
    # the CTR to file, the same in the list over all days, and both MTL lines
    assert html.count(f">{number}</a>") == 4
    assert "$11,000.00" in html and "SC-1 seat 3" in html and "LB-1 seat 1" in html
    csv = _client(officer).get("/compliance/ctrs.csv").content.decode()
    lines = csv.strip().splitlines()
    assert lines[0].startswith("gaming_day,patron,direction,total")
    due = (today() + timedelta(days=15)).isoformat()
    assert f'{number},Cash in,"$11,000.00"' in lines[1] and f",{due},to file," in lines[1]
    printable = _client(officer).get(f"/compliance/ctr/{ctr_day['ctr'].pk}/").content.decode()
    assert "Not ready to file" in printable and "date of birth" in printable


@pytest.mark.parametrize("who", ["pitboss", "auditor", "cage", "dealer", "host", "security"])
def test_only_the_compliance_role_reads_the_day(ctr_day: dict[str, Any], who: str) -> None:
    c = _client(ctr_day[who])
    for url in ("/compliance/", "/compliance/ctrs.csv", f"/compliance/ctr/{ctr_day['ctr'].pk}/"):
        assert c.get(url).status_code == 403, (who, url)


@pytest.mark.parametrize(
    ("who", "status", "sees_id"),
    [
        ("compliance", 200, True),
        ("cage", 200, True),
        ("pitboss", 200, False),
        ("auditor", 200, False),
        ("host", 200, False),
        ("dealer", 403, False),
        ("security", 403, False),
    ],
)
def test_who_sees_a_patrons_identification(
    cash: dict[str, Any], who: str, status: int, sees_id: bool
) -> None:
    patron = identify(cash, described(cash))
    user = get_user_model().objects.get(username=who)
    page = _client(user).get(f"/compliance/patrons/{patron.number}/")
    assert page.status_code == status
    if status != 200:
        return
    html = page.content.decode()
    assert patron.number in html and "Walter Reyes" in html  # the name, to everyone here
    for secret in ("D1234-56789-01234", "Harbor Road", "1970"):
        assert (secret in html) is sees_id, (who, secret)
    assert ('id="identify"' in html) is sees_id


def test_the_cage_identifies_a_patron_on_the_page(cash: dict[str, Any]) -> None:
    patron = described(cash)
    c = _client(cash["cage"])
    response = c.post(f"/compliance/patrons/{patron.number}/", IDENTIFICATION)
    assert response.status_code == 303
    assert Patron.objects.get(pk=patron.pk).is_identified
    refused = _client(cash["pitboss"]).post(f"/compliance/patrons/{patron.number}/", {})
    assert refused.status_code == 403


def _years_ago(years: int, days: int = 0) -> str:
    d = timezone.localdate()
    try:
        then = d.replace(year=d.year - years)
    except ValueError:  # 29 February: that year has none, the birthday is the 1st of March
        then = d.replace(year=d.year - years, month=3, day=1)
    return (then + timedelta(days=days)).isoformat()


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"id_expiry": (date.today() - timedelta(days=1)).isoformat()}, "id_expiry", "expired"),
        (
            {"date_of_birth": (date.today() + timedelta(days=3)).isoformat()},
            "date_of_birth",
            "future",
        ),
        ({"date_of_birth": _years_ago(21, days=1)}, "date_of_birth", "under 21"),
        ({"date_of_birth": "1970-13-01"}, "date_of_birth", "not a date"),
        ({"id_number": ""}, "id_number", "needs it"),
        ({"occupation": "   "}, "occupation", "needs it"),
        ({"id_type": "library_card"}, "id_type", "must be one of"),
        ({"address": "x" * 201}, "identification.address", "at most 200"),
    ],
)
def test_bad_identification_is_refused_naming_the_field(
    cash: dict[str, Any], changes: dict[str, str], field: str, words: str
) -> None:
    patron = described(cash)
    with pytest.raises(ServiceError) as err:
        identify(cash, patron, **changes)
    assert err.value.field == field and words in err.value.message
    assert err.value.status == 400
    page = _client(cash["cage"]).post(
        f"/compliance/patrons/{patron.number}/", {**IDENTIFICATION, **changes}
    )
    assert page.status_code == 400 and words in page.content.decode()
    fresh = Patron.objects.get(pk=patron.pk)
    assert fresh.identified_at is None and fresh.id_number == "" and fresh.name == ""


def test_a_patron_turning_21_today_is_identified(cash: dict[str, Any]) -> None:
    patron = identify(cash, described(cash), date_of_birth=_years_ago(21))
    assert patron.is_identified


def test_the_command_prints_the_days_mtl_and_ctrs(ctr_day: dict[str, Any]) -> None:
    identify(ctr_day, ctr_day["patron"])
    cash_out_record(patron=ctr_day["patron"].number, amount="3500.00", by=ctr_day["cage"])
    out = StringIO()
    call_command("cash_compliance", "--day", today().isoformat(), "--json", stdout=out)
    report = json.loads(out.getvalue())
    number = ctr_day["patron"].number
    assert [(e["patron"], e["direction"], e["amount"]) for e in report["mtl"]] == [
        (number, "in", "6000.00"),
        (number, "in", "5000.00"),
        (number, "out", "3500.00"),
    ]
    (ctr,) = report["ctrs"]
    assert (ctr["patron"], ctr["direction"], ctr["cash_in"], ctr["cash_out"]) == (
        number,
        "in",
        "11000.00",
        "3500.00",
    )
    assert [t["where"] for t in ctr["transactions"]] == ["SC-1 seat 3", "LB-1 seat 1"]
    assert "Walter" not in out.getvalue()
    text = StringIO()
    call_command("cash_compliance", "--day", today().isoformat(), stdout=text)
    assert "$11,000.00" in text.getvalue() and "the cage" in text.getvalue()


def test_the_compliance_role_lands_on_its_day_with_its_place_in_the_bar(
    cash: dict[str, Any], officer: Any
) -> None:
    c = _client(officer)
    landing = c.get("/")
    assert landing.status_code == 302 and landing["Location"] == "/compliance/"
    html = c.get("/compliance/").content.decode()
    assert 'href="/compliance/" aria-current="page">Compliance</a>' in html
    assert ">Compliance</a>" not in _client(cash["pitboss"]).get("/reports/").content.decode()


@pytest.mark.parametrize("url", ["/compliance/?day=abc", "/compliance/ctrs.csv?day=2026-13-01"])
def test_a_day_the_page_cannot_read_is_the_sites_400(officer: Any, url: str) -> None:
    response = _client(officer).get(url)
    assert response.status_code == 400
    assert "day" in response.content.decode() and "2026-11-21" in response.content.decode()


def test_an_unknown_patron_or_ctr_is_not_found(officer: Any) -> None:
    c = _client(officer)
    assert c.get("/compliance/patrons/P9999/").status_code == 404
    assert c.get("/compliance/ctr/999/").status_code == 404
