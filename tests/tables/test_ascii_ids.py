"""Every id the site reads from a request is ASCII digits (`core.params.ascii_int`): "²" passes
`str.isdigit()` and `int()` refuses it (a server error where it was read so), "١٠" `int()`
reads as 10 (another object). Each is refused, naming the field, or names no object; nothing
changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounting.models import Slip
from accounting.services import slip_create
from audit.models import AuditEvent
from tables.models import DisplayKey, Round
from tables.services.sessions import dealer_sign_in
from tests.games.mulligan.floor import mulligan_table
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

BAD = ("²", "١", "１", "①", " ")


def signed_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("do, field", [("issue", "table"), ("revoke", "key")])
def test_the_displays_page_refuses_an_id_that_is_not_ascii_digits(
    floor: dict[str, Any], do: str, field: str, bad: str
) -> None:
    table = mulligan_table(floor)
    boss = signed_in("pitboss")
    issued = boss.post("/tablet/displays/", {"do": "issue", "table": table.pk})
    assert issued.status_code == 200
    keys, events = list(DisplayKey.objects.values()), AuditEvent.objects.count()
    response = boss.post("/tablet/displays/", {"do": do, field: bad})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"{field}: choose" in page and 'role="alert"' in page
    assert list(DisplayKey.objects.values()) == keys and AuditEvent.objects.count() == events


@pytest.mark.parametrize("bad", ["²", "١"])
def test_the_api_reads_ids_in_ascii_digits_only(floor: dict[str, Any], bad: str) -> None:
    """A URL's id, a list's `?table=` filter and the reconciliation's: "١" is not table or
    slip 1, "²" no server error."""
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    slip = slip_create(table=floor["SC-1"], kind="buy_in", by=floor["dealer"], amount="100")
    api = client_for(floor["pitboss"])

    def written(pk: int) -> str:
        """`pk` in the bad digits' script (Arabic-Indic digits read by `int()` as that id)."""
        if bad == "²":
            return bad
        return "".join(chr(0x0660 + int(d)) for d in str(pk))

    for path in (
        f"/api/slips/{written(slip.pk)}/",
        f"/api/tables/{written(floor['SC-1'].pk)}/",
        f"/api/rounds/{bad}/settle/",
    ):
        answer = api.post(path) if path.endswith("settle/") else api.get(path)
        assert answer.status_code == 404, (path, answer.status_code)
    for path, query in (
        ("/api/slips/", {"table": written(floor["SC-1"].pk)}),
        ("/api/rounds/", {"table": written(floor["SC-1"].pk)}),
        (
            "/api/reconciliation/",
            {"table": written(floor["SC-1"].pk), "gaming_day": str(slip.gaming_day)},
        ),
    ):
        answer = api.get(path, query)
        assert answer.status_code == 400, (path, answer.status_code, answer.content)
        assert answer.json()["error"]["field"] == "table"
    assert Slip.objects.count() == 1


@pytest.mark.parametrize("bad", ["²", "١"])
def test_the_tablet_reads_a_posted_table_round_and_seat_in_ascii_digits_only(
    floor: dict[str, Any], bad: str
) -> None:
    """The tablet's sign-in at a table, a step's round: "١" is not table or round 1, "²" no
    server error; nothing is written."""
    dealer = signed_in("dealer")
    events = AuditEvent.objects.count()
    response = dealer.post("/tablet/", {"table": bad})
    assert response.status_code in (400, 404), response.status_code
    assert AuditEvent.objects.count() == events
    assert not floor["dealer"].dealer_sessions.filter(ended_at__isnull=True).exists()
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    rounds = Round.objects.count()
    for step in ("settle", "cancel", "back"):
        page = dealer.post(f"/tablet/table/{floor['SC-1'].pk}/{step}/", {"round": bad, "seat": bad})
        assert page.status_code < 500, (step, page.status_code)
    assert Round.objects.count() == rounds
