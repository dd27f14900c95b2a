"""A Mulligan table on the demo floor for the tests: approved settings (drafted by admin,
approved by admin2), assigned, and the dealer signed in."""

from __future__ import annotations

from typing import Any

from tables.games.mulligan.game import Variant
from tables.models import Pit, Table
from tables.services.sessions import dealer_sign_in
from tables.services.table_settings import (
    table_settings_approve,
    table_settings_assign,
    table_settings_draft,
)


def mulligan_table(
    floor: dict[str, Any],
    variants: frozenset[Variant] | set[Variant] = frozenset(),
    *,
    name: str = "MG-T",
    sign_in: bool = True,
    **terms: Any,
) -> Table:
    values: dict[str, Any] = {"variants": [v.value for v in variants], **terms}
    if Variant.CHIPS in variants:
        values.setdefault("table_minimum_cents", 100)
        values.setdefault("rake_percent", "10")
        values.setdefault("rake_cap_cents", 500)
    table = Table.objects.create(
        name=name, pit=Pit.objects.first(), game="mulligan", seats=7, paytable_version=None
    )
    version = table_settings_draft(
        author=floor["admin"], game="mulligan", name=f"{name} terms", values=values
    )
    table_settings_approve(version=version, approver=floor["admin2"])
    table_settings_assign(table=table, version=version, by=floor["admin"])
    if sign_in:
        dealer_sign_in(dealer=floor["dealer"], table=table)
    return table
