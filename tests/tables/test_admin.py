"""The Django admin: paytable versions drafted, approved by a second admin and assigned through
the services; meters corrected only by recorded corrections; records read-only; roles."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from audit.binding import check_rows
from audit.models import AuditEvent
from core.money import dollars
from tables.engine.paytables import named
from tables.models import (
    Hand,
    MeterEntry,
    PaytableVersion,
    Pit,
    ProgressiveMeter,
    Round,
    Table,
)
from tests.helpers import form_errors, messages_of, signed_in

ADD_URL = reverse("admin:tables_paytableversion_add")
CHANGELIST_URL = reverse("admin:tables_paytableversion_changelist")


def without_bound(data: dict[str, Any]) -> dict[str, Any]:
    """An event's data without the rows it binds (tests/audit/test_binding.py checks those)."""
    return {k: v for k, v in data.items() if k != "bound"}


def second_chance_draft(name: str = "house", **overrides: str) -> dict[str, str]:
    """The add form's POST for a 2nd Chance draft: the rules' lines and $5-$500 / $1-$100."""
    data = {"name": name}
    for wager, lines in named("second_chance", "default").as_data().items():
        for line, odds in lines.items():
            data[f"line__{wager}__{line}"] = odds
    data.update(
        {
            "limit__ante__min": "5.00",
            "limit__ante__max": "500.00",
            "limit__pair_plus__min": "1.00",
            "limit__pair_plus__max": "100.00",
        }
    )
    data.update(overrides)
    return data


def draft_via_admin(client: Client, name: str = "house", **overrides: str) -> Any:
    return client.post(f"{ADD_URL}?game=second_chance", second_chance_draft(name, **overrides))


def approve_action(client: Client, *versions: PaytableVersion) -> Any:
    return client.post(
        CHANGELIST_URL,
        {"action": "approve_drafts", "_selected_action": [v.pk for v in versions], "index": 0},
        follow=True,
    )


# --- drafting -------------------------------------------------------------------------------


def test_add_page_first_asks_where_to_start(floor: Any) -> None:
    page = signed_in("admin").get(ADD_URL)
    assert page.status_code == 200
    html = page.content.decode()
    for game, names in [("second_chance", ["default"]), ("lowball", ["1", "2", "3"])]:
        for name in names:
            assert f"?game={game}&amp;named={name}" in html


def test_add_form_has_one_input_per_line_prefilled_with_the_rules_paytable(floor: Any) -> None:
    page = signed_in("admin").get(f"{ADD_URL}?game=lowball&named=2")
    form = page.context["adminform"].form
    bonus = {
        n.removeprefix("line__bonus__"): form[n].value()
        for n in form.fields
        if n.startswith("line__")
    }
    assert bonus == {
        "a24_one_colour": "12",
        "a24_two_colour": "8",
        "a34": "4",
        "five_high": "3",
        "six_high": "2",
        "seven_high": "1",
    }
    assert form["name"].value() == "2"
    assert form["limit__ante__min"].value() == "5.00"  # the latest approved lowball version's
    assert 'name="line__bonus__a24_one_colour"' in page.content.decode()


def test_admin_drafts_a_version_through_the_add_form(floor: Any) -> None:
    response = draft_via_admin(
        signed_in("admin"), line__ante__straight="3 to 2", line__pair_plus__straight="5"
    )
    assert response.status_code == 302, form_errors(response)
    version = PaytableVersion.objects.get(game="second_chance", name="house")
    assert version.version == 1
    assert version.status == PaytableVersion.Status.DRAFT
    assert version.drafted_by == floor["admin"]
    assert version.lines["ante"]["straight"] == "3/2"
    assert version.lines["pair_plus"] == {
        "straight_flush": "40",
        "three_of_a_kind": "30",
        "straight": "5",
        "flush": "3",
        "pair": "1",
    }
    assert version.limits == {
        "ante": {"min_cents": 500, "max_cents": 50000},
        "pair_plus": {"min_cents": 100, "max_cents": 10000},
    }
    event = AuditEvent.objects.get(kind="paytable.drafted", data__name="house")
    assert (event.actor_name, event.object_id) == ("admin", str(version.pk))


def test_drafting_under_an_existing_name_makes_the_next_version(floor: Any) -> None:
    client = signed_in("admin")
    assert draft_via_admin(client, name="default").status_code == 302
    v2 = PaytableVersion.objects.get(name="default", game="second_chance", version=2)
    assert v2.status == PaytableVersion.Status.DRAFT
    assert PaytableVersion.objects.get(pk=v2.pk - 1).name == "default"  # v1 untouched


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("line__pair_plus__flush", "", "pair_plus line flush is missing"),
        ("line__ante__straight", "0", "ante line straight: odds must be a positive number"),
        ("line__pair_plus__pair", "-2", "pair_plus line pair: odds must be a positive number"),
        ("line__pair_plus__straight", "six", "pair_plus line straight: odds must be a positive"),
        ("line__ante__flush", "1/2", "ante line flush must pay at least 1 to 1"),
    ],
)
def test_a_missing_or_bad_line_is_refused_naming_the_line(
    floor: Any, field: str, value: str, named: str
) -> None:
    before = PaytableVersion.objects.count()
    response = draft_via_admin(signed_in("admin"), **{field: value})
    assert response.status_code == 200
    errors = form_errors(response)
    assert list(errors) == [field]
    assert named in errors[field][0]
    assert named in response.content.decode().replace("&#x27;", "'")
    assert PaytableVersion.objects.count() == before
    assert not AuditEvent.objects.filter(kind="paytable.drafted", data__name="house").exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("limit__ante__min", "5.001", "the ante minimum must be an amount written as a decimal"),
        ("limit__ante__max", "", "the ante maximum is missing"),
        ("limit__pair_plus__min", "0", "the pair_plus minimum must be more than zero"),
    ],
)
def test_a_bad_limit_is_refused_naming_the_wager(
    floor: Any, field: str, value: str, message: str
) -> None:
    response = draft_via_admin(signed_in("admin"), **{field: value})
    errors = form_errors(response)
    assert list(errors) == [field]
    assert errors[field][0].startswith(message)
    assert not PaytableVersion.objects.filter(name="house").exists()


def test_limits_min_above_max_is_refused(floor: Any) -> None:
    response = draft_via_admin(signed_in("admin"), limit__pair_plus__min="200.00")
    assert form_errors(response) == {
        "limit__pair_plus__max": [
            "the pair_plus limits must have 0 < minimum <= maximum (got 20000 and 10000 cents)"
        ]
    }
    assert not PaytableVersion.objects.filter(name="house").exists()


def test_draft_from_an_existing_version_copies_it_into_the_add_form(floor: Any) -> None:
    client = signed_in("admin2")
    source = PaytableVersion.objects.get(game="lowball", name="1")
    response = client.post(
        CHANGELIST_URL,
        {"action": "draft_from_selected", "_selected_action": [source.pk], "index": 0},
    )
    assert response.status_code == 302
    assert response["Location"] == f"{ADD_URL}?based_on={source.pk}"
    page = client.get(response["Location"])
    form = page.context["adminform"].form
    assert form["line__bonus__a34"].value() == "5"
    assert page.context["subtitle"] == f"Copied from {source}."
    data = {name: form[name].value() for name in form.fields if name != "game"}
    data["line__bonus__a34"] = "6"
    created = client.post(response["Location"], data)
    assert created.status_code == 302, form_errors(created)
    new = PaytableVersion.objects.get(game="lowball", name="1", version=2)
    assert new.based_on == source
    assert new.lines["bonus"]["a34"] == "6"
    assert new.limits == source.limits


def test_lines_read_in_words_and_a_draft_is_compared_line_by_line_with_the_version_in_use(
    floor: Any,
) -> None:
    import html

    client = signed_in("admin2")
    source = PaytableVersion.objects.get(game="lowball", name="1")
    add = client.get(f"{ADD_URL}?based_on={source.pk}").content.decode()
    assert "4-2-A one colour" in html.unescape(add)  # not a24_one_colour
    form = client.get(f"{ADD_URL}?based_on={source.pk}").context["adminform"].form
    data = {name: form[name].value() for name in form.fields if name != "game"}
    data["line__bonus__a34"] = "6"
    assert client.post(f"{ADD_URL}?based_on={source.pk}", data).status_code == 302
    draft = PaytableVersion.objects.get(game="lowball", name="1", version=2)
    page = html.unescape(
        client.get(reverse("admin:tables_paytableversion_change", args=[draft.pk])).content.decode()
    )
    assert "Compared with the version in use" in page
    assert "In use: 1 v1 (LB-1): 1 of" in page
    row = re.search(r'<tr class="changed"><td>Bonus: 4-3-A</td><td>(.*?)</td><td>(.*?)</td>', page)
    assert row is not None and row.group(2) == "6 to 1" and row.group(1) != row.group(2)
    assert "pays more" in page


# --- approving ------------------------------------------------------------------------------


def test_the_author_cannot_approve_a_draft_but_a_second_admin_can(floor: Any) -> None:
    draft_via_admin(signed_in("admin"))
    version = PaytableVersion.objects.get(name="house")

    refused = approve_action(signed_in("admin"), version)
    assert refused.status_code == 200
    [message] = messages_of(refused)
    assert "was not approved: you drafted it" in message
    assert "approved by a second admin, not its author" in message
    version.refresh_from_db()
    assert version.status == PaytableVersion.Status.DRAFT
    refusal = AuditEvent.objects.get(kind="permission.refused")
    assert refusal.actor_name == "admin"
    assert refusal.data["reason"].endswith("approved by a second admin, not its author")

    approved = approve_action(signed_in("admin2"), version)
    assert messages_of(approved) == [
        "Three Card 2nd Chance house v1 is approved: it can now be assigned to tables."
    ]
    version.refresh_from_db()
    assert version.status == PaytableVersion.Status.APPROVED
    assert version.approved_by == floor["admin2"]
    assert AuditEvent.objects.filter(kind="paytable.approved", object_id=str(version.pk)).exists()


def test_approving_reports_each_version(floor: Any) -> None:
    draft_via_admin(signed_in("admin"), name="mine")
    draft_via_admin(signed_in("admin2"), name="theirs")
    mine, theirs = (PaytableVersion.objects.get(name=n) for n in ("mine", "theirs"))
    already = PaytableVersion.objects.get(game="pyramid")
    response = approve_action(signed_in("admin"), mine, theirs, already)
    text = " | ".join(messages_of(response))
    assert "mine v1 was not approved: you drafted it" in text
    assert "theirs v1 is approved" in text
    assert "default v1 was not approved: " in text and "already approved" in text


def test_an_approved_version_is_read_only(floor: Any) -> None:
    version = PaytableVersion.objects.get(game="second_chance", name="default")
    url = reverse("admin:tables_paytableversion_change", args=[version.pk])
    client = signed_in("admin")
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "View paytable version" in html
    assert 'name="_save"' not in html
    assert "3 to 2" in html  # the lines, shown as odds
    assert "Draft a new version from this one" in html

    posted = client.post(url, {**second_chance_draft("hacked"), "line__ante__straight": "9"})
    assert posted.status_code == 403
    version.refresh_from_db()
    assert (version.name, version.lines["ante"]["straight"]) == ("default", "3/2")
    deleted = client.post(
        reverse("admin:tables_paytableversion_delete", args=[version.pk]), {"post": "yes"}
    )
    assert deleted.status_code == 403
    assert PaytableVersion.objects.filter(pk=version.pk).exists()


def test_a_draft_is_read_only_too_and_offers_approval_to_a_second_admin(floor: Any) -> None:
    draft_via_admin(signed_in("admin"))
    version = PaytableVersion.objects.get(name="house")
    url = reverse("admin:tables_paytableversion_change", args=[version.pk])
    page = signed_in("admin2").get(url)
    assert "Approve this draft" in page.content.decode()
    assert 'name="_save"' not in page.content.decode()
    assert signed_in("admin").post(url, second_chance_draft("house")).status_code == 403


def test_the_approve_button_on_a_drafts_page_approves_it_and_comes_back(floor: Any) -> None:
    draft_via_admin(signed_in("admin"))
    version = PaytableVersion.objects.get(name="house")
    url = reverse("admin:tables_paytableversion_change", args=[version.pk])
    client = signed_in("admin2")
    response = client.post(
        CHANGELIST_URL,
        {"action": "approve_drafts", "_back_to_version": "1", "_selected_action": version.pk},
    )
    assert response.status_code == 302 and response["Location"] == url
    page = client.get(url)
    assert messages_of(page) == [
        "Three Card 2nd Chance house v1 is approved: it can now be assigned to tables."
    ]
    assert "Approve this draft" not in page.content.decode()
    version.refresh_from_db()
    assert version.status == PaytableVersion.Status.APPROVED


def test_a_service_refusal_at_saving_is_reported_and_nothing_is_saved(
    floor: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.exceptions import PermissionDenied

    from tables.services import ServiceError

    def refuse_draft(**kwargs: Any) -> None:
        raise PermissionDenied("only an admin may draft a paytable")

    def refuse_assign(**kwargs: Any) -> None:
        raise ServiceError("default v1 is not approved yet", field="paytable_version")

    monkeypatch.setattr("tables.admin.paytables.paytable_draft", refuse_draft)
    monkeypatch.setattr("tables.admin.floor.paytable_assign", refuse_assign)
    client = signed_in("admin")
    response = draft_via_admin(client)
    assert response.status_code == 302
    assert response["Location"] == f"{ADD_URL}?game=second_chance"
    assert messages_of(client.get(CHANGELIST_URL)) == [
        "Nothing was saved: only an admin may draft a paytable"
    ]
    assert not PaytableVersion.objects.filter(name="house").exists()
    refused = AuditEvent.objects.get(kind="permission.refused")
    assert (refused.actor_name, refused.data["reason"]) == (
        "admin",
        "only an admin may draft a paytable",
    )

    table = Table.objects.get(name="LB-1")
    new = approved_lowball_v2(floor)
    response = client.post(
        reverse("admin:tables_table_change", args=[table.pk]),
        table_post(table, paytable_version=new.pk, seats=5),
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.seats, table.paytable_version.version) == (7, 1)  # all of it rolled back
    assert not AuditEvent.objects.filter(kind="table.changed").exists()


def test_changelist_shows_versions_and_the_tables_using_them(floor: Any) -> None:
    page = signed_in("auditor").get(CHANGELIST_URL)
    assert page.status_code == 200
    html = page.content.decode()
    for heading in (
        "Game",
        "Name",
        "Version",
        "Status",
        "Drafted by, at",
        "Approved by, at",
        "Tables using it",
    ):
        assert heading in html
    assert "admin<br><small>" in html and "admin2<br><small>" in html
    assert ">SC-1</a>" in html and ">LB-1</a>" in html and ">PY-1</a>" in html


# --- tables ---------------------------------------------------------------------------------


def table_post(table: Table, **changes: Any) -> dict[str, Any]:
    data = {
        "name": table.name,
        "pit": table.pit_id,
        "seats": table.seats,
        "paytable_version": table.paytable_version_id or "",
        "meter": table.meter_id or "",
        "is_open": "on" if table.is_open else "",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v != ""}


def approved_lowball_v2(floor: Any) -> PaytableVersion:
    from tables.services.paytables import paytable_approve, paytable_draft

    base = PaytableVersion.objects.get(game="lowball", name="1")
    draft = paytable_draft(
        author=floor["admin2"],
        game="lowball",
        name="1",
        lines=named("lowball", "2").as_data(),
        limits=base.limits,
    )
    return paytable_approve(version=draft, approver=floor["admin"])


def test_assigning_a_version_through_the_table_admin_is_audited(floor: Any) -> None:
    table = Table.objects.get(name="LB-1")
    old = table.paytable_version
    new = approved_lowball_v2(floor)
    client = signed_in("admin")
    url = reverse("admin:tables_table_change", args=[table.pk])
    page = client.get(url)
    offered = {v.pk for v in page.context["adminform"].form.fields["paytable_version"].queryset}
    assert offered == {old.pk, new.pk}  # approved lowball versions only

    response = client.post(url, table_post(table, paytable_version=new.pk, seats=6))
    assert response.status_code == 302, form_errors(response)
    table.refresh_from_db()
    assert (table.paytable_version, table.seats) == (new, 6)
    event = AuditEvent.objects.get(kind="paytable.assigned")
    assert (event.actor_name, event.table_name) == ("admin", "LB-1")
    assert event.data["version_id"] == new.pk and event.data["previous_id"] == old.pk
    changed = AuditEvent.objects.get(kind="table.changed")
    assert without_bound(changed.data) == {"before": {"seats": 7}, "after": {"seats": 6}}
    assert changed.data["bound"]["tables.table"][str(changed.object_id)]["seats"] == 6


def test_the_table_admin_refuses_an_inconsistent_version_or_meter(floor: Any) -> None:
    client = signed_in("admin")
    table = Table.objects.get(name="SC-1")
    lowball = PaytableVersion.objects.get(game="lowball")
    meter = ProgressiveMeter.objects.get()
    url = reverse("admin:tables_table_change", args=[table.pk])
    response = client.post(url, table_post(table, paytable_version=lowball.pk, meter=meter.pk))
    errors = form_errors(response)
    assert "paytable_version" in errors  # not offered: only this game's approved versions
    assert errors["meter"] == [
        "only a Three Card Lowball table has a progressive meter; leave it "
        "empty for a Three Card 2nd Chance table"
    ]

    add = reverse("admin:tables_table_add")
    pit = Pit.objects.get()
    response = client.post(
        add,
        {
            "name": "PY-2",
            "pit": pit.pk,
            "game": "pyramid",
            "seats": 7,
            "paytable_version": lowball.pk,
            "is_open": "on",
        },
    )
    assert form_errors(response)["paytable_version"] == [
        "1 v1 is a Three Card Lowball paytable; this is a Pyramid Poker table"
    ]
    draft_via_admin(client)
    draft = PaytableVersion.objects.get(name="house")
    response = client.post(
        add,
        {
            "name": "SC-2",
            "pit": pit.pk,
            "game": "second_chance",
            "seats": 7,
            "paytable_version": draft.pk,
            "is_open": "on",
        },
    )
    assert "paytable_version" in form_errors(response)  # a draft is never offered
    assert not Table.objects.filter(name__in=["PY-2", "SC-2"]).exists()


def test_a_new_table_gets_its_version_through_the_service(floor: Any) -> None:
    pyramid = PaytableVersion.objects.get(game="pyramid")
    response = signed_in("admin").post(
        reverse("admin:tables_table_add"),
        {
            "name": "PY-2",
            "pit": Pit.objects.get().pk,
            "game": "pyramid",
            "seats": 5,
            "paytable_version": pyramid.pk,
            "is_open": "on",
        },
    )
    assert response.status_code == 302, form_errors(response)
    table = Table.objects.get(name="PY-2")
    assert table.paytable_version == pyramid
    kinds = list(AuditEvent.objects.filter(table_name="PY-2").values_list("kind", flat=True))
    assert kinds == ["table.created", "paytable.assigned"]


# --- progressive meters ---------------------------------------------------------------------


def test_a_meter_correction_through_the_admin_is_recorded_and_moves_the_value(floor: Any) -> None:
    meter = ProgressiveMeter.objects.get()
    client = signed_in("admin")
    add = reverse("admin:tables_meterentry_add")
    page = client.get(f"{add}?meter={meter.pk}")
    assert page.status_code == 200
    assert "Record a meter correction" in page.content.decode()

    response = client.post(
        add,
        {
            "meter": meter.pk,
            "amount": "-1,250.50",
            "reason": "count error on 12 May, per shift manager",
        },
    )
    assert response.status_code == 302, form_errors(response)
    meter_url = reverse("admin:tables_progressivemeter_change", args=[meter.pk])
    assert response["Location"] == meter_url
    assert messages_of(client.get(meter_url)) == [
        "Correction recorded: Lowball progressive moved by -$1,250.50 to $23,749.50."
    ]
    entry = MeterEntry.objects.get(meter=meter, kind="correction")
    assert (entry.kind, entry.amount_cents, entry.by) == ("correction", -125050, floor["admin"])
    assert entry.reason == "count error on 12 May, per shift manager"
    assert entry.value_after_cents == 2_500_000 - 125050
    meter.refresh_from_db()
    assert meter.value_cents == 2_500_000 - 125050
    assert AuditEvent.objects.get(kind="meter.corrected").data["amount_cents"] == -125050


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"amount": "10.00", "reason": "  "}, "reason", "This field is required."),
        ({"amount": "0", "reason": "x"}, "amount", "the correction must be more than zero"),
        ({"amount": "-30000.00", "reason": "x"}, "amount", "would make it negative"),
        ({"amount": "ten", "reason": "x"}, "amount", "the correction must be an amount"),
    ],
)
def test_a_meter_correction_needs_a_reason_and_a_sensible_amount(
    floor: Any, data: dict[str, str], field: str, message: str
) -> None:
    meter = ProgressiveMeter.objects.get()
    response = signed_in("admin").post(
        reverse("admin:tables_meterentry_add"), {"meter": meter.pk, **data}
    )
    assert response.status_code == 200
    assert message in form_errors(response)[field][0]
    assert not MeterEntry.objects.filter(kind="correction").exists()
    meter.refresh_from_db()
    assert meter.value_cents == 2_500_000


def test_a_meters_value_cannot_be_edited_directly(floor: Any) -> None:
    meter = ProgressiveMeter.objects.get()
    url = reverse("admin:tables_progressivemeter_change", args=[meter.pk])
    client = signed_in("admin")
    page = client.get(url)
    html = page.content.decode()
    assert 'name="value_cents"' not in html and 'name="overflow_cents"' not in html
    assert "$25,000.00" in html and "Record a correction" in html and ">LB-1</a>" in html
    form = page.context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields}
    for inline in page.context["inline_admin_formsets"]:  # the read-only entries' management form
        management = inline.formset.management_form
        data.update({management.add_prefix(k): v for k, v in management.initial.items()})
    data.update({"value_cents": "1.00", "overflow_cents": "99.00", "reset_cents": "12,000.00"})
    response = client.post(url, data)
    assert response.status_code == 302, form_errors(response)
    meter.refresh_from_db()
    assert (meter.value_cents, meter.overflow_cents, meter.reset_cents) == (2_500_000, 0, 1_200_000)
    event = AuditEvent.objects.get(kind="meter.changed")
    assert without_bound(event.data) == {
        "before": {"reset_cents": 1_000_000},
        "after": {"reset_cents": 1_200_000},
    }


def test_a_new_meter_is_configured_in_dollars(floor: Any) -> None:
    response = signed_in("admin").post(
        reverse("admin:tables_progressivemeter_add"),
        {
            "name": "High limit",
            "value_cents": "5,000.00",
            "reset_cents": "5000",
            "rate": "15",
            "wager_cents": "5.00",
            "game": "lowball",
            "award__lowball__one_colour": "1000",
            "award__lowball__two_colour": "250",
            "award__lowball__four_high": "50",
            "award__lowball__five_high": "15",
            "split": "seat_order",
            "cap_cents": "4000.00",
        },
    )
    assert form_errors(response) == {
        "cap_cents": ["the cap ($4,000.00) may not be below the reset amount ($5,000.00)"]
    }
    data = {**response.context["adminform"].form.data.dict(), "cap_cents": ""}
    response = signed_in("admin").post(reverse("admin:tables_progressivemeter_add"), data)
    assert response.status_code == 302, form_errors(response)
    meter = ProgressiveMeter.objects.get(name="High limit")
    assert (meter.value_cents, meter.reset_cents, meter.wager_cents, meter.cap_cents) == (
        500_000,
        500_000,
        500,
        None,
    )
    assert str(meter.rate) == "0.1500"
    assert meter.game == "lowball"
    assert meter.awards == {
        "one_colour": 100_000,
        "two_colour": 25_000,
        "four_high": 5_000,
        "five_high": 1_500,
    }
    created = AuditEvent.objects.get(kind="meter.created").data
    assert created["value_cents"] == 500_000 and created["awards"] == meter.awards
    assert check_rows()[1] == []


def test_a_meters_awards_are_set_in_its_games_words_and_recorded(floor: Any) -> None:
    meter = ProgressiveMeter.objects.get()
    url = reverse("admin:tables_progressivemeter_change", args=[meter.pk])
    client = signed_in("admin")
    page = client.get(url)
    html = page.content.decode()
    assert "Award: 4-2-A one colour ($)" in html and 'value="200.00"' in html
    assert 'name="game"' not in html  # the game of a meter is set once
    form = page.context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields}
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update({management.add_prefix(k): v for k, v in management.initial.items()})
    data["award__lowball__five_high"] = "-1"
    response = client.post(url, data)
    assert "award__lowball__five_high" in form_errors(response)
    meter.refresh_from_db()
    assert meter.awards["five_high"] == 300
    data["award__lowball__five_high"] = "4.00"
    response = client.post(url, data)
    assert response.status_code == 302, form_errors(response)
    meter.refresh_from_db()
    assert meter.awards == {
        "one_colour": 20_000,
        "two_colour": 5_000,
        "four_high": 1_000,
        "five_high": 400,
    }
    event = AuditEvent.objects.get(kind="meter.changed")
    assert without_bound(event.data) == {
        "before": {"awards": {**meter.awards, "five_high": 300}},
        "after": {"awards": meter.awards},
    }
    assert check_rows()[1] == []


def test_meter_entries_are_never_changed_or_deleted(floor: Any) -> None:
    from tables.services.meters import meter_correct

    meter = ProgressiveMeter.objects.get()
    entry = meter_correct(meter=meter, by=floor["admin"], amount_cents=100, reason="test")
    client = signed_in("admin")
    url = reverse("admin:tables_meterentry_change", args=[entry.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.post(url, {"meter": meter.pk, "amount": "5", "reason": "x"}).status_code == 403
    delete = reverse("admin:tables_meterentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    entry.refresh_from_db()
    assert (entry.amount_cents, entry.reason) == (100, "test")
    meter_page = client.get(reverse("admin:tables_progressivemeter_change", args=[meter.pk]))
    assert "recent entries" in meter_page.content.decode().lower()
    assert "$1.00" in meter_page.content.decode()  # the correction, in the read-only inline


# --- roles and records ----------------------------------------------------------------------


@pytest.mark.parametrize("username", ["pitboss", "auditor"])
def test_pit_boss_and_auditor_only_view(floor: Any, username: str) -> None:
    client = signed_in(username)
    version = PaytableVersion.objects.get(game="second_chance")
    table = Table.objects.get(name="SC-1")
    meter = ProgressiveMeter.objects.get()
    for name in (
        "paytableversion",
        "table",
        "progressivemeter",
        "meterentry",
        "round",
        "pit",
        "settlementline",
        "dealersession",
    ):
        assert client.get(reverse(f"admin:tables_{name}_changelist")).status_code == 200, name
    changelist = client.get(CHANGELIST_URL).content.decode()
    assert "approve_drafts" not in changelist and "Add paytable version" not in changelist
    adds = ["table", "meterentry", "progressivemeter", "pit"]
    for url in [
        ADD_URL,
        f"{ADD_URL}?game=second_chance",
        *(reverse(f"admin:tables_{name}_add") for name in adds),
    ]:
        assert client.get(url).status_code == 403, url
    assert draft_via_admin(client).status_code == 403
    table_url = reverse("admin:tables_table_change", args=[table.pk])
    page = client.get(table_url)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.post(table_url, table_post(table, seats=3)).status_code == 403
    meter_url = reverse("admin:tables_progressivemeter_change", args=[meter.pk])
    meter_page = client.get(meter_url).content.decode()
    assert "Record a correction" not in meter_page and "$25,000.00" in meter_page

    draft_via_admin(signed_in("admin"))
    draft = PaytableVersion.objects.get(name="house")
    response = approve_action(client, draft)
    draft.refresh_from_db()
    assert draft.status == PaytableVersion.Status.DRAFT
    assert messages_of(response) == []  # no action is offered to run
    table.refresh_from_db()
    assert (table.seats, table.paytable_version) == (7, version)


def test_the_audit_trail_is_for_auditors_and_read_only_for_everyone(floor: Any) -> None:
    changelist = reverse("admin:audit_auditevent_changelist")
    assert signed_in("pitboss").get(changelist).status_code == 403
    page = signed_in("auditor").get(changelist)
    assert page.status_code == 200
    assert "paytable.approved" in page.content.decode()
    event = AuditEvent.objects.get(
        kind="paytable.approved", data__name="default", data__game="pyramid"
    )
    get_user_model().objects.create_superuser("root", password="demo")
    root = signed_in("root")
    url = reverse("admin:audit_auditevent_change", args=[event.pk])
    assert root.get(url).status_code == 200
    assert root.post(url, {"kind": "forged"}).status_code == 403
    assert root.get(reverse("admin:audit_auditevent_add")).status_code == 403
    assert (
        root.post(
            reverse("admin:audit_auditevent_delete", args=[event.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    event.refresh_from_db()
    assert event.kind == "paytable.approved"
    found = root.get(changelist, {"q": "paytable.approved"}).context["cl"].result_list
    assert {e.kind for e in found} == {"paytable.approved"} and len(found) == 3
    by_seq = root.get(changelist, {"q": str(event.seq)}).context["cl"].result_list
    assert event in list(by_seq)


def test_a_superuser_without_the_admin_role_cannot_draft_or_approve(floor: Any) -> None:
    get_user_model().objects.create_superuser("root", password="demo")
    root = signed_in("root")
    assert root.get(ADD_URL).status_code == 403
    draft_via_admin(signed_in("admin"))
    draft = PaytableVersion.objects.get(name="house")
    assert messages_of(approve_action(root, draft)) == []  # no action is offered to run
    draft.refresh_from_db()
    assert draft.status == PaytableVersion.Status.DRAFT


def test_rounds_lines_and_sign_ins_are_read_only_and_searchable(floor: Any) -> None:
    call_command("simulate_rounds", "--all", "--rounds", "12", "--seed", "7", stdout=io.StringIO())
    client = signed_in("admin")
    for name in ("round", "settlementline", "dealersession"):
        assert client.get(reverse(f"admin:tables_{name}_add")).status_code == 403
    rounds = reverse("admin:tables_round_changelist")
    found = client.get(rounds, {"q": "12"}).context["cl"].result_list
    assert sorted(str(r) for r in found) == ["LB-1 #12", "PY-1 #12", "SC-1 #12"]
    lowball = client.get(rounds, {"status__exact": "settled", "game__exact": "lowball"})
    assert {r.table.name for r in lowball.context["cl"].result_list} == {"LB-1"}
    settled = Round.objects.filter(table__name="SC-1", status="settled").first()
    assert settled is not None
    url = reverse("admin:tables_round_change", args=[settled.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.post(url, {"number": 99}).status_code == 403
    delete = reverse("admin:tables_round_delete", args=[settled.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    lines = client.get(reverse("admin:tables_settlementline_changelist"), {"q": "SC-1"})
    assert lines.status_code == 200 and lines.context["cl"].result_count > 0
    # hands are listed, found and shown as rounds are
    hand = Hand.objects.filter(status="finished").first()
    assert hand is not None
    assert client.get(reverse("admin:tables_hand_add")).status_code == 403
    found = client.get(reverse("admin:tables_hand_changelist"), {"q": hand.table.name})
    assert hand in found.context["cl"].result_list
    url = reverse("admin:tables_hand_change", args=[hand.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert dollars(hand.pot_cents) in page.content.decode()
    assert client.post(url, {"number": 99}).status_code == 403


def test_a_dealer_is_sent_to_the_admin_login(floor: Any) -> None:
    response = signed_in("dealer").get(CHANGELIST_URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
