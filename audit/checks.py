"""System check: every guard trigger the migrations install is there and enabled.

`manage.py check --database default`, `migrate` (so the site's start, bin/run) and plain
`manage.py check` (against the default database) fail when a guard was dropped or disabled. A
database with migrations still to apply is not checked: `migrate` installs the guards (and
runs this check before it starts), and a database that cannot be reached is for other checks.
"""

from __future__ import annotations

from typing import Any

from django.core.checks import Error, Tags, Warning, register
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor

from .guards import guard_problems


def _pending(connection: Any) -> bool:
    executor = MigrationExecutor(connection)
    return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))


@register(Tags.database)
def guard_triggers(
    app_configs: Any = None, databases: Any = None, **kwargs: Any
) -> list[Error | Warning]:
    results: list[Error | Warning] = []
    for alias in databases if databases is not None else ["default"]:
        connection = connections[alias]
        try:
            if _pending(connection):
                continue
            problems = guard_problems(connection)
        except DatabaseError as err:
            if databases is None:
                continue  # plain `check` without a reachable database
            results.append(
                Warning(f"database {alias!r}: guard triggers not checked ({err})", id="audit.W001")
            )
            continue
        results += [
            Error(
                f"database {alias!r}: {problem}",
                hint="Someone with DDL rights changed the guards: investigate (verify_audit), "
                "then re-create the trigger from its migration or ENABLE it again.",
                id="audit.E001",
            )
            for problem in problems
        ]
    return results
