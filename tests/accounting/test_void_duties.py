"""Nobody confirms the void of a slip they entered or signed, whatever roles they hold, on any
path: the service, the API, the slip desk. The refusal names the person and the slip, is on the
chain once as a refused permission, and leaves the slip as it was; another person confirms."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounting.models import Slip, SlipVoid
from accounting.services import slip_create, slip_sign, slip_void
from audit.models import AuditEvent
from audit.verify import verify_record
from core.errors import SeparationOfDuties
from tests.helpers import client_for, person

pytestmark = pytest.mark.django_db


def fill_signed(pit: dict[str, Any], cage: Any) -> Slip:
    """A fill at SC-1: the pit boss requests it, `cage` issues it, the dealer confirms it."""
    fill = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips={"25.00": 20})
    slip_sign(slip=fill, by=cage)
    slip = slip_sign(slip=fill, by=pit["dealer"])
    assert slip.status == Slip.Status.SIGNED
    return slip


def refused_once(before: int, who: str, words: str, slip: Slip) -> None:
    (event,) = AuditEvent.objects.filter(seq__gt=before, kind="permission.refused")
    assert event.kind == "permission.refused" and event.actor_name == who
    assert event.data["reason"] == words and event.data["action"] == "confirm_void"
    assert event.data["slip_id"] == slip.pk and event.table_name == "SC-1"


def test_the_cage_that_issued_a_fill_never_confirms_its_void_over_the_api(
    pit: dict[str, Any],
) -> None:
    fill = fill_signed(pit, pit["cage"])
    pitboss2 = person("pitboss2", "pit_boss")
    slip_void(slip=fill, by=pitboss2, reason="the wrong table's fill")
    before = AuditEvent.objects.order_by("-seq").values_list("seq", flat=True)[0]
    answer = client_for(pit["cage"]).post(
        f"/api/slips/{fill.pk}/void/", {"reason": "agreed"}, format="json"
    )
    words = f"cage signed slip {fill.number} (issued by the cage): another person confirms its void"
    assert answer.status_code == 403, answer.content
    assert answer.json()["error"]["code"] == "separation_of_duties"
    assert answer.json()["error"]["message"] == words
    refused_once(before, "cage", words, fill)
    fill.refresh_from_db()
    assert fill.status == Slip.Status.SIGNED and SlipVoid.objects.filter(slip=fill).count() == 1
    # the dealer who confirmed the fill is refused too (a pit boss as well, here)
    dealer = pit["dealer"]
    dealer.groups.add(Group.objects.get(name="pit_boss"))
    with pytest.raises(SeparationOfDuties, match="received at the table"):
        slip_void(slip=fill, by=dealer, reason="agreed")
    # another cage account confirms it
    answer = client_for(person("cage2", "cage")).post(
        f"/api/slips/{fill.pk}/void/", {"reason": "agreed"}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["status"] == "voided"
    assert verify_record().problems == ()


def test_the_cage_that_issued_a_fill_never_confirms_its_void_on_the_slip_desk(
    pit: dict[str, Any],
) -> None:
    fill = fill_signed(pit, pit["cage"])
    slip_void(slip=fill, by=pit["pitboss"], reason="the wrong table's fill")
    page = Client()
    page.force_login(pit["cage"])
    desk = page.get(reverse("accounting:desk")).content.decode()
    words = f"cage signed slip {fill.number} (issued by the cage): another person confirms its void"
    row = desk[desk.index(f'<tr data-slip="{fill.number}">') :]
    row = row[: row.index("</tr>")]
    assert "Confirm void" not in row and words in row
    before = AuditEvent.objects.order_by("-seq").values_list("seq", flat=True)[0]
    posted = page.post(reverse("accounting:void", args=[fill.pk]), {"reason": "agreed"})
    assert posted.status_code == 303
    assert words in page.get(posted["Location"]).content.decode()
    refused_once(before, "cage", words, fill)
    fill.refresh_from_db()
    assert fill.status == Slip.Status.SIGNED


def test_one_person_with_two_roles_never_confirms_the_void_of_a_slip_they_signed(
    pit: dict[str, Any],
) -> None:
    """`sly` is the cage and a pit boss: having issued the fill as the cage, sly may ask for its
    void as a pit boss, and may not confirm the void another pit boss asked for."""
    sly = person("sly", "cage", "pit_boss")
    fill = fill_signed(pit, sly)
    asked = slip_void(slip=fill, by=sly, reason="issued twice")
    assert asked.status == Slip.Status.SIGNED
    # a second fill: another pit boss asks, sly (who issued it) may not confirm
    other = fill_signed(pit, sly)
    slip_void(slip=other, by=pit["pitboss"], reason="the wrong table's fill")
    words = f"sly signed slip {other.number} (issued by the cage): another person confirms its void"
    with pytest.raises(SeparationOfDuties) as err:
        slip_void(slip=other, by=sly, reason="agreed")
    assert err.value.message == words
    page = Client()
    page.force_login(sly)
    desk = page.get(reverse("accounting:desk")).content.decode()
    row = desk[desk.index(f'<tr data-slip="{other.number}">') :]
    assert "Confirm void" not in row[: row.index("</tr>")]
    answer = client_for(sly).post(f"/api/slips/{other.pk}/void/", {"reason": "ok"}, format="json")
    assert answer.status_code == 403 and answer.json()["error"]["message"] == words
    other.refresh_from_db()
    assert other.status == Slip.Status.SIGNED
    # a pit boss who took no part confirms both
    pb3 = person("pb3", "pit_boss")
    for slip in (fill, other):
        assert slip_void(slip=slip, by=pb3, reason="agreed").status == Slip.Status.VOIDED
