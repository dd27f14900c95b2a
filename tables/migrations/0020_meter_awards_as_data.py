"""A progressive meter serves the tables of one game (`game`) and holds that game's awards as
data (`awards`: each fixed award's amount in cents, by the game's key for it, as the game
declares them), in place of four columns named for one game's awards.

Each meter's four amounts move into `awards`, and its game is its tables' (a meter no table
uses is Three Card Lowball's: the four columns were that game's awards, the only game that took
a progressive). A meter is bound to the audit record, and its bound fields change name here: a
meter whose row still says what its latest event recorded is bound again by an event of its own
(`meter.changed`, by the system, saying why), written with the application's own `audit_record`
(the record binds a row as the live code reads it, and only the key can seal an event). A meter
that no longer says what its record says is left unbound again, so `verify_audit` goes on
naming it rather than the migration vouching for it; a meter no event records stays so.

On SQLite the new columns and check rebuild tables_progressivemeter, and a trigger naming a
table being rebuilt stops the rebuild: every trigger that names it is lifted first and put back
after exactly as it was (its SQL read from the database). PostgreSQL keeps its triggers.
"""

import json
from decimal import Decimal

from django.db import migrations, models

import tables.games

GAME = "lowball"
COLUMNS = {
    "award_one_colour_cents": "one_colour",
    "award_two_colour_cents": "two_colour",
    "award_four_high_cents": "four_high",
    "award_five_high_cents": "five_high",
}
LABEL = "tables.progressivemeter"
# The meter's bound fields as the record held them before this migration.
OLD_BOUND = (
    "name",
    "value_cents",
    "reset_cents",
    "rate",
    "wager_cents",
    *COLUMNS,
    "split",
    "cap_cents",
    "overflow_cents",
    "approval_award_cents",
)
_LIFTED: list[tuple[str, str]] = []


def lift_sqlite_guards(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
            "AND (tbl_name = 'tables_progressivemeter' OR sql LIKE '%tables_progressivemeter%') "
            "ORDER BY name"
        )
        _LIFTED[:] = list(cursor.fetchall())
        for name, _sql in _LIFTED:
            cursor.execute(f'DROP TRIGGER IF EXISTS "{name}"')


def reinstall_sqlite_guards(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        for name, sql in _LIFTED:
            cursor.execute(f'DROP TRIGGER IF EXISTS "{name}"')
            cursor.execute(sql)
    _LIFTED.clear()


def _old_content(meter):
    """The meter's bound content in the record's old form (as audit.binding made it)."""
    out = {}
    for name in OLD_BOUND:
        value = getattr(meter, name)
        if name == "rate":
            value = format(Decimal(str(value)).quantize(Decimal("0.0001")), "f")
        elif name not in ("name", "split") and value is not None:
            value = int(value)
        out[name] = value
    return out


def _recorded(pks):
    """Each meter's content as its latest binding event holds it (pk -> content)."""
    from audit.models import AuditEvent

    found = {}
    wanted = {str(pk) for pk in pks}
    events = (
        AuditEvent.objects.filter(data__bound__has_key=LABEL)
        .order_by("-seq")
        .values_list("data", flat=True)
        .iterator(chunk_size=500)
    )
    for data in events:
        if isinstance(data, str):
            data = json.loads(data)
        for pk, content in (data.get("bound") or {}).get(LABEL, {}).items():
            if pk in wanted and pk not in found:
                found[pk] = content
        if len(found) == len(wanted):
            break
    return found


def move_awards(apps, schema_editor):
    from audit.chain import json_text

    Meter = apps.get_model("tables", "ProgressiveMeter")
    Table = apps.get_model("tables", "Table")
    meters = list(Meter.objects.order_by("pk"))
    if not meters:
        return
    recorded = _recorded([m.pk for m in meters])
    rebind = []
    for meter in meters:
        games_served = set(Table.objects.filter(meter_id=meter.pk).values_list("game", flat=True))
        meter.game = games_served.pop() if len(games_served) == 1 else GAME
        meter.awards = {key: int(getattr(meter, column)) for column, key in COLUMNS.items()}
        meter.save(update_fields=["game", "awards"])
        stored = recorded.get(str(meter.pk))
        if not isinstance(stored, dict):
            continue  # no event records it (or records its deletion): nothing to vouch for
        live = _old_content(meter)
        names = set(live) | set(stored)
        if all(json_text(stored.get(n)) == json_text(live.get(n)) for n in names):
            rebind.append((meter.pk, {column: live[column] for column in COLUMNS}))
    if not rebind:
        return
    from audit.kinds import EventKind
    from audit.services import audit_record
    from tables.models import ProgressiveMeter as LiveMeter

    bound = LiveMeter.AUDIT_BOUND
    for pk, before in rebind:
        meter = LiveMeter.objects.only(*bound).get(pk=pk)
        audit_record(
            actor=None,
            actor_name="system",
            kind=EventKind.METER_CHANGED,
            obj=meter,
            data={
                "before": before,
                "after": {"game": meter.game, "awards": meter.awards},
                "why": "the meter's awards are kept as its game's data (tables 0020)",
                "via": "system",
            },
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0019_display_key"),
        ("audit", "0015_event_search_text_trigram"),
    ]

    operations = [
        migrations.RunPython(lift_sqlite_guards, reinstall_sqlite_guards),
        migrations.AddField(
            model_name="progressivemeter",
            name="game",
            field=models.CharField(
                choices=tables.games.progressive_choices, default=GAME, max_length=20
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="progressivemeter",
            name="awards",
            field=models.JSONField(default=dict),
            preserve_default=False,
        ),
        migrations.RunPython(move_awards, migrations.RunPython.noop),
        migrations.RemoveField(model_name="progressivemeter", name="award_one_colour_cents"),
        migrations.RemoveField(model_name="progressivemeter", name="award_two_colour_cents"),
        migrations.RemoveField(model_name="progressivemeter", name="award_four_high_cents"),
        migrations.RemoveField(model_name="progressivemeter", name="award_five_high_cents"),
        migrations.AlterField(
            model_name="progressivemeter",
            name="approval_award_cents",
            field=models.BigIntegerField(
                blank=True,
                help_text="a progressive award of this much or more waits for a pit boss's "
                "sign-off (empty: only the jackpot, paid from the meter)",
                null=True,
            ),
        ),
        migrations.AddConstraint(
            model_name="progressivemeter",
            constraint=models.CheckConstraint(
                condition=models.Q(("game__in", ["lowball"])),
                name="meter_game_takes_progressive",
            ),
        ),
        migrations.RunPython(reinstall_sqlite_guards, lift_sqlite_guards),
    ]
