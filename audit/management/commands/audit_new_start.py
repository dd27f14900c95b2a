"""`manage.py audit_new_start --reason "..."`: start the anchor anew, deliberately.

When the anchor no longer matches the database for a known reason (its file lost with a disk,
the database restored from a backup), `verify_audit` fails until someone says why. This sets
the old anchor aside (renamed with the time, kept) and begins a new one whose first line is a
signed new start: the reason, who, when, and the chain's head it starts from. The verifier
accepts that line as the anchor's beginning (its signature needs the key, so it cannot be
forged); the chain records the new start as an event, and a checkpoint covers it.
"""

from __future__ import annotations

import getpass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from audit.chain import GENESIS
from audit.checkpoints import anchor_path, record_checkpoint, write_start
from audit.kinds import EventKind
from audit.models import AuditEvent, AuditHead
from audit.services import audit_record


class Command(BaseCommand):
    help = "Set the audit anchor aside and start a new one, with a signed reason."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reason", required=True, help="why the anchor starts anew")
        parser.add_argument(
            "--by", default="", help="who starts it (default: the operating-system user)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        reason = " ".join(str(options["reason"] or "").split())
        if not reason:
            raise CommandError("--reason: say why the anchor starts anew (it is signed and kept)")
        by = str(options["by"] or "").strip() or getpass.getuser()
        with transaction.atomic():
            head = AuditHead.objects.select_for_update().filter(pk=1).first()
            if head is not None:
                seq, chain_hash = head.seq, head.hash
            else:  # no head row: the chain's last event (the next write recovers the row)
                last = AuditEvent.objects.order_by("-seq").values_list("seq", "hash").first()
                seq, chain_hash = last if last is not None else (0, GENESIS)
            moved, _fields = write_start(by=by, reason=reason, seq=seq, chain_hash=chain_hash)
            audit_record(
                actor=None,
                actor_name=by,
                kind=EventKind.AUDIT_NEW_START,
                data={
                    "reason": reason,
                    "from_seq": seq,
                    "previous_anchor": str(moved) if moved is not None else "",
                },
            )
            cp = record_checkpoint()
        self.stdout.write(
            f"new anchor {anchor_path()} starts at event #{seq} (by {by}: {reason}); "
            + (f"the old one is kept as {moved}; " if moved is not None else "")
            + f"checkpoint at event #{cp.seq}"
        )
