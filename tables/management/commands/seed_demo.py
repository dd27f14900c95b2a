"""`manage.py seed_demo`: demo floor and logins (only with DEBUG on). Safe to run again."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import Role, ensure_role_groups
from tables import games
from tables.models import PaytableVersion, Pit, ProgressiveMeter, Table, TableSettingsVersion
from tables.services.meters import meter_open
from tables.services.paytables import paytable_approve, paytable_draft
from tables.services.table_settings import (
    table_settings_approve,
    table_settings_assign,
    table_settings_draft,
)
from tables.signals import demo_seeded

PASSWORD = "demo"
USERS = [
    ("dealer", Role.DEALER, False),
    ("dealer2", Role.DEALER, False),
    ("pitboss", Role.PIT_BOSS, True),
    ("pitboss_b", Role.PIT_BOSS, True),  # a void of a signed-off payout needs two more
    ("pitboss_c", Role.PIT_BOSS, True),
    ("admin", Role.ADMIN, True),
    ("admin2", Role.ADMIN, True),
    ("auditor", Role.AUDITOR, True),
    ("security", Role.SECURITY, True),
    ("cage", Role.CAGE, False),
    ("count", Role.COUNT, False),
    ("count2", Role.COUNT, False),
    ("host", Role.HOST, False),  # rated players and their comps (docs/ratings.md)
    ("compliance", Role.COMPLIANCE, False),  # patrons, the MTL, the CTRs (docs/compliance.md)
    ("credit", Role.CREDIT, False),  # credit lines and markers (docs/compliance.md)
    ("credit2", Role.CREDIT, False),  # a credit line's second person
    ("revenue", Role.REVENUE_AUDIT, False),  # signs the Master Game Report final
    ("revenue2", Role.REVENUE_AUDIT, False),  # approves another's adjustment
]


def demo_games() -> list[games.BankedGame]:
    """The banked games with a demo table, in the registry's order."""
    return [g for g in games.all_games() if isinstance(g, games.BankedGame) and g.demo]


def demo_tables() -> list[tuple[str, str]]:
    """(table name, game) of each demo table, in the registry's order."""
    return [(g.demo.name, g.name) for g in demo_games() if g.demo]


def paytable_name(game: str) -> str:
    """The named paytable of the rules a game's demo table plays."""
    demo = games.get(game).demo
    assert demo is not None, f"{game} has no demo table"
    return demo.paytable


def approved_version(game: str, author: Any, approver: Any) -> PaytableVersion:
    """The demo's approved paytable for a game: the rules' defaults and limits."""
    definition = games.banked(game)
    demo = definition.demo
    assert demo is not None
    name = demo.paytable
    existing = PaytableVersion.objects.filter(game=game, name=name, status="approved").first()
    if existing:
        return existing
    lines = definition.named_paytables()[name].as_data()
    limits = {w: dict(lim) for w, lim in demo.limits.items()}
    draft = paytable_draft(author=author, game=game, name=name, lines=lines, limits=limits)
    return paytable_approve(version=draft, approver=approver)


def pvp_demo_games() -> list[games.PlayerVsPlayerGame]:
    """The player-vs-player games with a demo table, in the registry's order."""
    return [g for g in games.all_games() if isinstance(g, games.PlayerVsPlayerGame) and g.demo]


def approved_settings(game: str, author: Any, approver: Any) -> TableSettingsVersion:
    """The demo's approved table settings for a player-vs-player game (its `demo_settings`)."""
    definition = games.player_vs_player(game)
    assert definition.demo is not None
    name = definition.demo.paytable
    existing = TableSettingsVersion.objects.filter(game=game, name=name, status="approved").first()
    if existing:
        return existing
    draft = table_settings_draft(
        author=author, game=game, name=name, values=dict(definition.demo_settings)
    )
    return table_settings_approve(version=draft, approver=approver)


def _table_created(table: Table, by: Any) -> None:
    """On the record as the admin's table page records a new table."""
    audit_record(
        actor=by,
        kind=EventKind.TABLE_CREATED,
        obj=table,
        table_name=table.name,
        data={"name": table.name, "game": table.game, "seats": table.seats, "via": "seed_demo"},
    )


class Command(BaseCommand):
    help = "Create the demo floor: a pit, a table of each banked game, a meter, and demo logins."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "seed_demo only runs with DEBUG on (it creates users with known passwords)"
            )
        with transaction.atomic():
            ensure_role_groups()
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
            meters = {}
            for game in demo_games():
                demo = game.demo
                if demo is None or demo.meter is None or not game.takes_progressive:
                    continue
                meter, created = ProgressiveMeter.objects.get_or_create(
                    name=demo.meter.name,
                    defaults={
                        "value_cents": 0,
                        "reset_cents": demo.meter.reset_cents,
                        "rate": demo.meter.rate,
                        "wager_cents": demo.meter.wager_cents,
                        "game": game.name,
                        "awards": {a.key: a.default_cents for a in game.fixed_awards()},
                    },
                )
                if created:
                    meter_open(meter=meter, by=users["admin"], value_cents=demo.meter.opening_cents)
                meters[game.name] = meter
            for name, game_name in demo_tables():
                version = approved_version(game_name, users["admin"], users["admin2"])
                table, created = Table.objects.get_or_create(
                    name=name,
                    defaults={
                        "pit": pit,
                        "game": game_name,
                        "paytable_version": version,
                        "meter": meters.get(game_name),
                    },
                )
                if created:
                    _table_created(table, users["admin"])
            for pvp in pvp_demo_games():
                assert pvp.demo is not None
                table, created = Table.objects.get_or_create(
                    name=pvp.demo.name, defaults={"pit": pit, "game": pvp.name, "seats": 6}
                )
                if created:
                    _table_created(table, users["admin"])
                    version = approved_settings(pvp.name, users["admin"], users["admin2"])
                    table_settings_assign(table=table, version=version, by=users["admin"])
            # The apps above the floor add their own demo data (the rated players).
            demo_seeded.send(sender=Command, users=users)
        names = [n for n, _ in demo_tables()] + [g.demo.name for g in pvp_demo_games() if g.demo]
        shown = ", ".join(f"'{m.name}'" for m in meters.values()) or "none"
        self.stdout.write(
            f"Demo floor ready: pit 'Main pit', tables {', '.join(names)}, meters {shown}."
        )
        self.stdout.write(f"Demo logins (password '{PASSWORD}' for each):")
        width = max(len(username) for username, _role, _staff in USERS)
        for username, role, _staff in USERS:
            self.stdout.write(f"  {username:<{width}}  {role.label}")
