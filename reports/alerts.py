"""Hold alerts: which rule watches a table, whether today's hold breaks its band, and the
writes that configure rules (pit bosses only, each change in the audit trail).

A table is watched by the most specific active rule: one for the table, else one for its
game, else a global one (no table, no game). Two active rules for the same scope are refused
when saved, so the choice is never ambiguous; should the database hold two anyway, the newest
wins. A rule is deactivated, never deleted, so the trail's references stay meaningful.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.roles import (
    PIT_BOSSES,
    require,
)
from tables.models import Table

from .models import HoldAlertRule

CENT = Decimal("0.01")


def applicable_rule(table: Table, rules: Iterable[HoldAlertRule]) -> HoldAlertRule | None:
    """The active rule that watches `table`: its own, else its game's, else the global one."""
    rules = [r for r in rules if r.is_active]
    for matches in (
        lambda r: r.table_id == table.pk,
        lambda r: r.table_id is None and r.game == table.game,
        lambda r: r.table_id is None and not r.game,
    ):
        scoped = [r for r in rules if matches(r)]
        if scoped:
            return max(scoped, key=lambda r: r.pk)
    return None


def breach(
    rule: HoldAlertRule | None, *, hold_percent: Decimal | None, handle_cents: int
) -> str | None:
    """Whether the hold left the rule's band ("low", "high") once the handle is enough."""
    if rule is None or hold_percent is None or handle_cents < rule.min_handle_cents:
        return None
    if hold_percent < rule.min_hold_percent:
        return "low"
    if hold_percent > rule.max_hold_percent:
        return "high"
    return None


def _require_pit_boss(user: AbstractBaseUser) -> None:
    require(
        user, PIT_BOSSES, "configure hold alerts", message="only a pit boss configures hold alerts"
    )


def _describe(rule: HoldAlertRule) -> dict[str, Any]:
    return {
        "table": rule.table.name if rule.table else "",
        "game": rule.game,
        "min_hold_percent": str(rule.min_hold_percent),
        "max_hold_percent": str(rule.max_hold_percent),
        "min_handle_cents": rule.min_handle_cents,
        "is_active": rule.is_active,
    }


def _check(rule: HoldAlertRule) -> None:
    if rule.table is not None and rule.game:
        raise ServiceError("a rule watches a table or a game, not both", field="game")
    if rule.min_hold_percent >= rule.max_hold_percent:
        raise ServiceError("the lowest hold must be below the highest", field="max_hold_percent")
    if rule.min_handle_cents < 0:
        raise ServiceError("the minimum handle cannot be negative", field="min_handle_cents")
    if rule.is_active:
        same_scope = HoldAlertRule.objects.filter(
            is_active=True, table=rule.table, game="" if rule.table else rule.game
        ).exclude(pk=rule.pk)
        if same_scope.exists():
            raise ServiceError(
                f"an active rule already watches {rule.table or rule.game or 'every table'}: "
                "change that one, or deactivate it first",
                field="table",
                code="rule_exists",
                status=409,
            )


@transaction.atomic
def alert_rule_save(
    *,
    by: AbstractBaseUser,
    rule: HoldAlertRule | None = None,
    table: Table | None,
    game: str,
    min_hold_percent: Decimal,
    max_hold_percent: Decimal,
    min_handle_cents: int,
) -> HoldAlertRule:
    """Create a rule (`rule=None`) or change one; the trail records the band before and after."""
    _require_pit_boss(by)
    before = None
    if rule is None:
        rule = HoldAlertRule()
    else:
        rule = (
            HoldAlertRule.objects.select_for_update(of=("self",))
            .select_related("table")
            .get(pk=rule.pk)
        )
        before = _describe(rule)
    rule.table = table
    rule.game = "" if table is not None else game
    rule.min_hold_percent = Decimal(min_hold_percent).quantize(CENT)
    rule.max_hold_percent = Decimal(max_hold_percent).quantize(CENT)
    rule.min_handle_cents = min_handle_cents
    _check(rule)
    rule.save()
    audit_record(
        actor=by,
        kind=EventKind.HOLD_ALERT_CREATED if before is None else EventKind.HOLD_ALERT_CHANGED,
        obj=rule,
        table_name=rule.table.name if rule.table else "",
        data={"rule": _describe(rule), **({"before": before} if before else {})},
    )
    return rule


@transaction.atomic
def alert_rule_set_active(
    *, by: AbstractBaseUser, rule: HoldAlertRule, active: bool
) -> HoldAlertRule:
    """Deactivate a rule (it stays on record) or bring it back."""
    _require_pit_boss(by)
    rule = (
        HoldAlertRule.objects.select_for_update(of=("self",))
        .select_related("table")
        .get(pk=rule.pk)
    )
    if rule.is_active == active:
        return rule
    rule.is_active = active
    _check(rule)
    rule.save(update_fields=["is_active"])
    audit_record(
        actor=by,
        kind=EventKind.HOLD_ALERT_ACTIVATED if active else EventKind.HOLD_ALERT_DEACTIVATED,
        obj=rule,
        table_name=rule.table.name if rule.table else "",
        data={"rule": _describe(rule)},
    )
    return rule
