"""System checks of the audit record: the guard triggers are all there and enabled, and (with
`--deploy`) the anchor has a second witness off the machine.

Guards: `manage.py check --database default`, `migrate` (so the site's start, bin/run) and
plain `manage.py check` (against the default database) fail when a guard was dropped or
disabled. A database with migrations still to apply is not checked: `migrate` installs the
guards (and runs this check before it starts), and a database that cannot be reached is for
other checks.

The witness: the anchor file lives on this machine. An insider who can delete both the
database's history and the anchor file's last lines (root on the host, or a backup of both
restored) leaves a record that `verify_audit` finds whole; only a copy of the checkpoints kept
elsewhere shows the cut. A local socket (`/dev/log`) or a loopback address is on the same
machine, so it is no such copy. The embedded default (DEBUG on, `bin/run`) needs none: that is
a `--deploy` check."""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor

from .guards import guard_problems

LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}

WHY = (
    "The anchor file is on this machine: an insider who can delete both the database's history "
    "and the anchor file is caught only by a copy of the checkpoints off the machine. Set "
    "AUDIT_ANCHOR_SYSLOG to a remote syslog collector, host:port or host (UDP, port 514 by "
    "default); see docs/security.md."
)


def malformed(target: str) -> str | None:
    """What keeps a set AUDIT_ANCHOR_SYSLOG from being read as audit.checkpoints reads it (None:
    nothing): a path starting with "/" is a local socket; otherwise host, or host:port."""
    if not target or target.startswith("/"):
        return None
    host, _, port = target.partition(":")
    if not host:
        return f"names no host ({target!r}); expected a socket path, host or host:port"
    if port and not (port.isdigit() and 1 <= int(port) <= 65535):
        return f"has no valid port ({target!r}); expected host or host:port, port 1-65535"
    return None


def witness_problem(target: str) -> str | None:
    """What keeps a well-formed AUDIT_ANCHOR_SYSLOG from being a witness off the machine (None:
    nothing): unset, a local socket, or a name or address of this machine."""
    if not target:
        return "is not set"
    if target.startswith("/"):
        return f"is a local socket ({target}), on the same machine as the anchor file"
    host = target.partition(":")[0].lower()
    if host in LOCAL_NAMES or host.endswith(".localhost"):
        return f"names this machine ({host})"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if address.is_loopback or address.is_unspecified:
        return f"names this machine ({host})"
    return None


def _target() -> str:
    return str(getattr(settings, "AUDIT_ANCHOR_SYSLOG", ""))


@register(Tags.security)
def anchor_syslog_is_well_formed(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Always: a value the checkpoints could not send to fails at start-up, not at the first
    checkpoint."""
    problem = malformed(_target())
    if problem is None:
        return []
    return [Error(f"AUDIT_ANCHOR_SYSLOG {problem}", id="audit.E002")]


@register(Tags.security, deploy=True)
def anchor_has_a_witness_off_the_machine(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    target = _target()
    problem = None if malformed(target) else witness_problem(target)
    if problem is None:
        return []
    return [Error(f"AUDIT_ANCHOR_SYSLOG {problem}", hint=WHY, id="audit.E001")]


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
        except Exception as err:  # noqa: BLE001 - a database that cannot be asked
            if databases is None or not isinstance(err, DatabaseError):
                continue  # plain `check` without a reachable (or permitted) database
            results.append(
                Warning(f"database {alias!r}: guard triggers not checked ({err})", id="audit.W001")
            )
            continue
        results += [
            Error(
                f"database {alias!r}: {problem}",
                hint="Someone with DDL rights changed the guards: investigate (verify_audit), "
                "then re-create the trigger from its migration or ENABLE it again.",
                id="audit.E003",
            )
            for problem in problems
        ]
    return results
