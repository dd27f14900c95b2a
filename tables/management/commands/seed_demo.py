"""`manage.py seed_demo`: demo floor and logins (only with DEBUG on). Safe to run again."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounting.services import ensure_usual_chips
from tables.engine.paytables import NAMED
from tables.engine.paytables import Game as EngineGame
from tables.models import Game, PaytableVersion, Pit, ProgressiveMeter, Table
from tables.roles import Role, ensure_role_groups
from tables.services.meters import meter_open
from tables.services.paytables import paytable_approve, paytable_draft

PASSWORD = "demo"
USERS = [
    ("dealer", Role.DEALER, False),
    ("dealer2", Role.DEALER, False),
    ("pitboss", Role.PIT_BOSS, True),
    ("admin", Role.ADMIN, True),
    ("admin2", Role.ADMIN, True),
    ("auditor", Role.AUDITOR, True),
    ("security", Role.SECURITY, True),
    ("cage", Role.CAGE, False),
    ("count", Role.COUNT, False),
    ("count2", Role.COUNT, False),
]
DEFAULT_LIMITS = {
    Game.SECOND_CHANCE: {
        "ante": {"min_cents": 500, "max_cents": 50000},
        "pair_plus": {"min_cents": 100, "max_cents": 10000},
    },
    Game.LOWBALL: {"ante": {"min_cents": 500, "max_cents": 50000}},
    Game.PYRAMID: {"ante": {"min_cents": 500, "max_cents": 50000}},
}
PAYTABLE_NAME = {Game.SECOND_CHANCE: "default", Game.LOWBALL: "1", Game.PYRAMID: "default"}
TABLES = [("SC-1", Game.SECOND_CHANCE), ("LB-1", Game.LOWBALL), ("PY-1", Game.PYRAMID)]


def approved_version(game: str, author: Any, approver: Any) -> PaytableVersion:
    """The demo's approved paytable for a game: the rules' defaults and limits."""
    name = PAYTABLE_NAME[Game(game)]
    existing = PaytableVersion.objects.filter(game=game, name=name, status="approved").first()
    if existing:
        return existing
    lines = NAMED[EngineGame(game)][name].as_data()
    draft = paytable_draft(
        author=author, game=game, name=name, lines=lines, limits=DEFAULT_LIMITS[Game(game)]
    )
    return paytable_approve(version=draft, approver=approver)


class Command(BaseCommand):
    help = "Create the demo floor: a pit, a table of each banked game, a meter, and demo logins."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "seed_demo only runs with DEBUG on (it creates users with known passwords)"
            )
        with transaction.atomic():
            ensure_role_groups()
            ensure_usual_chips()
            users = {}
            User = get_user_model()
            for username, role, staff in USERS:
                user, created = User.objects.get_or_create(
                    username=username, defaults={"is_staff": staff}
                )
                if created:
                    user.set_password(PASSWORD)
                    user.save()
                user.groups.add(Group.objects.get(name=role.value))
                users[username] = user
            pit, _ = Pit.objects.get_or_create(name="Main pit")
            meter, created = ProgressiveMeter.objects.get_or_create(
                name="Lowball progressive",
                defaults={
                    "value_cents": 0,
                    "reset_cents": 1_000_000,
                    "rate": "0.2000",
                    "wager_cents": 100,
                },
            )
            if created:
                meter_open(meter=meter, by=users["admin"], value_cents=2_500_000)
            for name, game in TABLES:
                version = approved_version(game, users["admin"], users["admin2"])
                Table.objects.get_or_create(
                    name=name,
                    defaults={
                        "pit": pit,
                        "game": game,
                        "paytable_version": version,
                        "meter": meter if game == Game.LOWBALL else None,
                    },
                )
        self.stdout.write(
            "Demo floor ready: pit 'Main pit', tables SC-1, LB-1, PY-1, "
            "meter 'Lowball progressive'."
        )
        self.stdout.write(f"Demo logins (password '{PASSWORD}' for each):")
        for username, role, _staff in USERS:
            self.stdout.write(f"  {username:<8} {role.label}")
