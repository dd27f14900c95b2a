"""The audit trail: one append-only, hash-chained event per state change.

Each event stores who (user id and name as text), when, what (a kind), on what object, and
the data; `prev_hash` is the hash of the event before it and `hash` its own hash over a
canonical serialisation (see `audit.chain`). `AuditHead` is a one-row table holding the chain's
head: writers lock it, so concurrent writers append one after another and never fork the chain.
"""

from __future__ import annotations

from django.db import models


class AuditEvent(models.Model):
    seq = models.BigIntegerField(unique=True)
    at = models.DateTimeField()
    actor_id = models.BigIntegerField(null=True, blank=True)
    actor_name = models.CharField(max_length=150, blank=True)
    kind = models.CharField(max_length=60, db_index=True)
    object_type = models.CharField(max_length=60, blank=True)
    object_id = models.CharField(max_length=60, blank=True)
    table_name = models.CharField(max_length=30, blank=True, db_index=True)
    data = models.JSONField(default=dict)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)
    # The event's content signed with the key (audit.chain.seal): outside the hash, checked by
    # the verifier, so that nobody without the key can append an event.
    seal = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        ordering = ["seq"]
        indexes = [
            models.Index(fields=["object_type", "object_id"]),
            # An object's latest event (a meter's record, read before every settle that moves it).
            models.Index(fields=["object_type", "object_id", "seq"], name="audit_event_object_seq"),
            models.Index(fields=["at"]),
            # A table's events of a kind (e.g. whether its win's leaving the band is already
            # recorded today, asked after every rebuild while it is outside).
            models.Index(fields=["table_name", "kind"], name="audit_event_table_kind"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} by {self.actor_name or 'system'}"


class AuditEventText(models.Model):
    """An event's words for the trail's search (`audit.search`): derived from the event and
    written with it, outside its hash (the event's row is never changed), so it can be written
    again from the events."""

    # No foreign key in the database: the words never stand in the way of the events' own
    # guards, and an event removed behind them is the verifier's to name, not a constraint's.
    event = models.OneToOneField(
        AuditEvent,
        on_delete=models.DO_NOTHING,
        primary_key=True,
        related_name="search_text",
        db_constraint=False,
    )
    text = models.TextField()

    def __str__(self) -> str:
        return f"words of event {self.event_id}"


class AuditHead(models.Model):
    """The chain's head (a single row, id 1): the last event's seq and hash."""

    seq = models.BigIntegerField(default=0)
    hash = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"head at #{self.seq}"


class AuditCheckpoint(models.Model):
    """A signed record of the chain's head at a moment (HMAC-SHA256 with a key from the
    environment), chained to the checkpoint before it by `prev_signature` and appended to the
    anchor file outside the database (see `audit.checkpoints`). Empty `prev_signature`: made
    before checkpoints were chained."""

    seq = models.BigIntegerField()
    hash = models.CharField(max_length=64)
    at = models.DateTimeField()
    key_id = models.CharField(max_length=40)
    prev_signature = models.CharField(max_length=64, blank=True, default="")
    signature = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["-seq", "-id"]
        indexes = [models.Index(fields=["seq", "id"], name="checkpoint_seq")]

    def __str__(self) -> str:
        return f"checkpoint at #{self.seq}"
