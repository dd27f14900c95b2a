"""What the tamper tests share: SQL as an insider runs it (guards dropped), and verify_audit."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command
from django.db import connection

from audit import triggers


def raw(sql: str, params: list[Any] | None = None) -> None:
    """Run SQL with every guard trigger dropped, as someone with a SQL prompt would."""
    with triggers.lifted(connection), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


def run_verify() -> tuple[int, str]:
    """`manage.py verify_audit`: (exit status, what it printed)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_audit", stdout=out, stderr=err)
        return 0, out.getvalue()
    except SystemExit as exit_:
        return int(exit_.code or 0), err.getvalue()


def reseal(seq: int) -> None:
    """Seal event `seq`'s content again with the key, as only a holder of the key could: the
    layers behind the seal (checkpoints, the anchor) must still catch what was rewritten."""
    from django.conf import settings

    from audit.chain import canonical_parts, json_text, seal
    from audit.models import AuditEvent

    ev = AuditEvent.objects.get(seq=seq)
    fields = {
        name: getattr(ev, name)
        for name in ("actor_id", "actor_name", "kind", "object_type", "object_id", "table_name")
    }
    sealed = seal(
        canonical_parts(fields, json_text(ev.data)), settings.AUDIT_CHECKPOINT_KEY.encode()
    )
    raw("UPDATE audit_auditevent SET seal = %s WHERE seq = %s", [sealed, seq])
