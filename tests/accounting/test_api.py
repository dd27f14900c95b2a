"""The accounting API end to end: a fill requested, issued and confirmed; a drop and a buy-in by
amount; reads filtered and limited by role; voids; refusals in the API's error shape; the
reconciliation and a variance alert acknowledged."""

from __future__ import annotations

from typing import Any

import pytest

from accounting.models import Slip, VarianceAlert
from accounting.rules import MORNING_COUNT_REASON
from audit.models import AuditEvent
from tests.helpers import client_for, person

from .conftest import Clock, play

pytestmark = pytest.mark.django_db


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content)
    return response.json()


def test_a_fill_through_the_api(pit: dict[str, Any]) -> None:
    sc = pit["SC-1"].pk
    boss, cage, dealer = (client_for(pit[u]) for u in ("pitboss", "cage", "dealer"))
    slip = ok(
        boss.post(
            "/api/slips/",
            {"table": sc, "kind": "fill", "chips": {"5.00": 40, "25": 4}},
            format="json",
        ),
        201,
    )
    assert slip["amount_cents"] == 30000 and slip["amount"] == "300.00"
    assert slip["chips"] == {"5.00": 40, "25.00": 4}
    assert slip["status"] == "pending" and slip["created_by"] == "pitboss"
    assert slip["next_signature"] == {"step": 1, "roles": ["cage"], "meaning": "issued by the cage"}
    refused = boss.post(f"/api/slips/{slip['id']}/sign/")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "creator_cannot_sign"
    ok(cage.post(f"/api/slips/{slip['id']}/sign/"))
    signed = ok(dealer.post(f"/api/slips/{slip['id']}/sign/"))
    assert signed["status"] == "signed"
    assert [(s["role"], s["by"]) for s in signed["signatures"]] == [
        ("cage", "cage"),
        ("dealer", "dealer"),
    ]
    conflict = cage.post(f"/api/slips/{slip['id']}/sign/")
    assert conflict.status_code == 409


def test_amounts_reads_and_voids(pit: dict[str, Any], clock: Clock) -> None:
    clock.set(9, 0, next_day=True)  # the soft count, the morning after: the 20th's boxes
    sc = pit["SC-1"].pk
    count, count2, dealer = (client_for(pit[u]) for u in ("count", "count2", "dealer"))
    drop = ok(
        count.post(
            "/api/slips/",
            {
                "table": sc,
                "kind": "drop",
                "amount": "1234.00",
                "markers": "100.00",
                "gaming_day": "2026-11-20",
                "shift": "22:00",
                "reason": MORNING_COUNT_REASON,
            },
            format="json",
        ),
        201,
    )
    assert (drop["cash_cents"], drop["markers_cents"], drop["amount_cents"]) == (
        123400,
        10000,
        133400,
    )
    assert (drop["gaming_day"], drop["shift"]) == ("2026-11-20", "22:00")
    ok(count2.post(f"/api/slips/{drop['id']}/sign/"))
    buy_in = ok(
        dealer.post("/api/slips/", {"table": sc, "kind": "buy_in", "amount": "500"}, format="json"),
        201,
    )
    assert buy_in["status"] == "signed" and buy_in["number"] == drop["number"] + 1
    # Reads follow the role: the count team sees drops, the cage none of these, the dealer all.
    assert [s["kind"] for s in ok(count.get("/api/slips/"))["results"]] == ["drop"]
    assert ok(client_for(pit["cage"]).get("/api/slips/"))["results"] == []
    assert ok(dealer.get("/api/slips/", {"kind": "buy_in"}))["count"] == 1
    assert (
        ok(client_for(pit["auditor"]).get("/api/slips/", {"gaming_day": "2026-11-20"}))["count"]
        == 1
    )
    # A void by two people, then the replacement.
    ok(count.post(f"/api/slips/{drop['id']}/void/", {"reason": "box of LB-1"}, format="json"))
    again = count.post(f"/api/slips/{drop['id']}/void/", {"reason": "sure"}, format="json")
    assert again.status_code == 403 and again.json()["error"]["code"] == "void_needs_second_person"
    signer = count2.post(f"/api/slips/{drop['id']}/void/", {"reason": "agreed"}, format="json")
    assert signer.status_code == 403 and signer.json()["error"]["code"] == "separation_of_duties"
    count3 = client_for(person("count3", "count"))  # neither entered nor signed it
    voided = ok(count3.post(f"/api/slips/{drop['id']}/void/", {"reason": "agreed"}, format="json"))
    assert voided["status"] == "voided" and len(voided["voids"]) == 2
    new = ok(
        count.post(
            "/api/slips/",
            {
                "table": sc,
                "kind": "drop",
                "amount": "1134.00",
                "gaming_day": "2026-11-20",
                "shift": "22:00",
                "replaces": drop["id"],
                "reason": "the box of SC-1 recounted",
            },
            format="json",
        ),
        201,
    )
    assert new["replaces"] == drop["number"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "fill", "chips": {"3.00": 1}}, "chips.3.00"),
        ({"kind": "fill", "chips": {"5.00": "many"}}, "chips.5.00"),
        ({"kind": "fill", "amount": "100"}, "amount"),
        ({"kind": "shortage"}, "kind"),
        ({"kind": "fill", "chips": {"5.00": 1}, "shift": "07:00"}, "shift"),
        ({"kind": "fill", "chips": {"5.00": 1}, "gaming_day": "2026-02-30"}, "gaming_day"),
        ({"kind": "fill", "chips": {"5.00": 1}, "table": 9999}, "table"),
    ],
)
def test_refusals_name_the_field(pit: dict[str, Any], body: dict[str, Any], field: str) -> None:
    payload = {"table": pit["SC-1"].pk, **body}
    response = client_for(pit["pitboss"]).post("/api/slips/", payload, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["field"] == field
    assert not Slip.objects.exists()


def test_the_reconciliation_and_an_alert_through_the_api(pit: dict[str, Any], clock: Clock) -> None:
    sc = pit["SC-1"]
    clock.set(7)
    boss, dealer = client_for(pit["pitboss"]), client_for(pit["dealer"])
    opener = ok(
        dealer.post(
            "/api/slips/", {"table": sc.pk, "kind": "opener", "chips": {"25.00": 80}}, format="json"
        ),
        201,
    )
    ok(boss.post(f"/api/slips/{opener['id']}/sign/"))
    ok(
        dealer.post(
            "/api/slips/", {"table": sc.pk, "kind": "buy_in", "amount": "200"}, format="json"
        ),
        201,
    )
    win = play(pit, 0).house_win_cents + play(pit, 1).house_win_cents
    tray = 80 * 2500 - 20000 + win - 2500  # a green chip goes missing
    assert tray % 2500 == 0
    closer = ok(
        boss.post(
            "/api/slips/",
            {"table": sc.pk, "kind": "closer", "chips": {"25.00": tray // 2500}},
            format="json",
        ),
        201,
    )
    ok(dealer.post(f"/api/slips/{closer['id']}/sign/"))
    drop = ok(
        client_for(pit["count"]).post(
            "/api/slips/",
            {
                "table": sc.pk,
                "kind": "drop",
                "amount": "200",
                "gaming_day": "2026-11-20",
                "shift": "06:00",
            },
            format="json",
        ),
        201,
    )
    ok(client_for(pit["count2"]).post(f"/api/slips/{drop['id']}/sign/"))
    report = ok(boss.get("/api/reconciliation/", {"gaming_day": "2026-11-20"}))
    (table,) = report["tables"]
    assert table["table_name"] == "SC-1" and table["variance_cents"] == -2500
    (shift,) = table["shifts"]
    assert shift["shift"] == "06:00" and shift["win_cents"] == win
    assert shift["count_win_cents"] == win - 2500 and shift["expected_drop_cents"] == 20000
    (alert,) = ok(boss.get("/api/variance-alerts/"))["results"]
    assert (alert["table_name"], alert["shift"], alert["variance_cents"]) == (
        "SC-1",
        "06:00",
        -2500,
    )
    empty = boss.post(
        f"/api/variance-alerts/{alert['id']}/acknowledge/", {"note": ""}, format="json"
    )
    assert empty.status_code == 400 and empty.json()["error"]["field"] == "note"
    done = ok(
        boss.post(
            f"/api/variance-alerts/{alert['id']}/acknowledge/", {"note": "found"}, format="json"
        )
    )
    assert done["acknowledged_by"] == "pitboss"
    assert VarianceAlert.objects.get().note == "found"
    assert AuditEvent.objects.filter(kind="variance.acknowledged").count() == 1
