"""Rated play's fixtures: the demo floor with its players, the figures of the demo tables'
paytable versions (the approval's job, which a rolled-back test never commits), and helpers to
seat players and play rounds through the API."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from players.models import Player
from tables.models import PaytableEdge
from tables.services.figures import paytable_figures_compute
from tables.services.sessions import dealer_sign_in
from tests.helpers import client_for, ok


@pytest.fixture
def figures(floor: dict[str, Any]) -> dict[str, Any]:
    """The optimal figures of every demo table's paytable version."""
    for name in ("PY-1", "SC-1"):
        paytable_figures_compute(version_id=floor[name].paytable_version_id, seed=7)
    return floor


@pytest.fixture
def dealer_at(floor: dict[str, Any]) -> Any:
    def sign_in(table_name: str, who: str = "dealer") -> APIClient:
        dealer_sign_in(dealer=floor[who], table=floor[table_name])
        return client_for(floor[who])

    return sign_in


def edges(table: Any) -> dict[str, Decimal]:
    """wager -> its house edge per initial wager, as the version's optimal figures say."""
    edge = PaytableEdge.objects.get(version_id=table.paytable_version_id, strategy="optimal")
    return {
        w["wager"]: Decimal(w["house_edge"]["per_initial_wager"]) for w in edge.figures["wagers"]
    }


def player(card: str) -> Player:
    return Player.objects.get(card=card)


def seat(client: APIClient, table: Any, seat: int, card: str) -> dict[str, Any]:
    body = {"seat": seat, "card": card}
    return ok(client.post(f"/api/tables/{table.pk}/seat-player/", body, format="json"), 201)


def unseat(client: APIClient, table: Any, seat: int) -> dict[str, Any]:
    body = {"seat": seat}
    return ok(client.post(f"/api/tables/{table.pk}/unseat-player/", body, format="json"))


def play(
    client: APIClient,
    table: Any,
    seats: dict[int, tuple[dict[str, str], str, dict[str, Any]]],
    dealer_cards: str,
    key: str,
    draw: list[str] | None = None,
) -> dict[str, Any]:
    """One round through the API: seat -> (wagers, cards, decision); settled (`draw`: the
    dealer's new cards where the house way draws). The answer's lines are the round's
    settlement lines."""
    from tests.tables.test_api import play_to_confirm, settle

    r = play_to_confirm(
        client,
        table,
        {s: w for s, (w, _c, _d) in seats.items()},
        {s: c for s, (_w, c, _d) in seats.items()},
        dealer_cards,
        {s: d for s, (_w, _c, d) in seats.items()},
        **({"draw": draw} if draw is not None else {}),
    )
    return ok(settle(client, r["id"], key))
