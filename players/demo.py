"""The demo's rated players (`seed_demo`), enrolled by the demo host; comp rates drafted by one
demo admin and approved by the other. Safe to run again."""

from __future__ import annotations

from typing import Any

from .models import CompRateVersion, Player
from .services import comp_rates_approve, comp_rates_draft, player_change, player_create

PLAYERS = [
    ("100001", "Alice Martin", "gold", "active"),
    ("100002", "Bruno Keller", "silver", "active"),
    ("100003", "Chen Wei", "platinum", "active"),
    ("100004", "Dana Novak", "bronze", "barred"),
    ("100005", "Emil Strand", "bronze", "self_excluded"),
]
RATES = {"bronze": "0.10", "silver": "0.15", "gold": "0.20", "platinum": "0.30"}


def seed_players(users: dict[str, Any]) -> None:
    host = users["host"]
    for card, name, tier, status in PLAYERS:
        if Player.objects.filter(card=card).exists():
            continue
        player = player_create(by=host, card=card, name=name, tier=tier)
        if status != "active":
            player_change(player=player, by=users["pitboss"], status=status, reason="demo")
    if not CompRateVersion.objects.exists():
        draft = comp_rates_draft(rates=RATES, by=users["admin"])
        comp_rates_approve(version=draft, by=users["admin2"])
