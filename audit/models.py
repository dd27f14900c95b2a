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

    class Meta:
        ordering = ["seq"]
        indexes = [models.Index(fields=["object_type", "object_id"]), models.Index(fields=["at"])]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} by {self.actor_name or 'system'}"


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


class HoldSummary(models.Model):
    """Derived figures (rebuilt from the rounds by `audit.reporting`, never edited by hand) for
    one gaming day, table, paytable version, dealer and shift."""

    gaming_day = models.DateField()
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="hold_summaries"
    )
    game = models.CharField(max_length=20)
    paytable_version = models.ForeignKey("tables.PaytableVersion", on_delete=models.PROTECT)
    dealer = models.ForeignKey("auth.User", on_delete=models.PROTECT)
    shift = models.CharField(max_length=5)
    rounds = models.IntegerField(default=0)
    hands = models.IntegerField(default=0)
    handle_cents = models.BigIntegerField(default=0)
    handle_by_wager = models.JSONField(default=dict)
    win_cents = models.BigIntegerField(default=0)
    progressive_contributions_cents = models.BigIntegerField(default=0)
    jackpots_paid_cents = models.BigIntegerField(default=0)
    voids = models.IntegerField(default=0)
    voided_handle_cents = models.BigIntegerField(default=0)
    corrections = models.IntegerField(default=0)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day", "table"]
        indexes = [models.Index(fields=["gaming_day", "table"], name="hold_day_table")]
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day", "table", "paytable_version", "dealer", "shift"],
                name="hold_summary_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.gaming_day} {self.table} {self.shift}"


class StaleReport(models.Model):
    """A (gaming day, table) whose summaries must be rebuilt: written in the same transaction as
    the round that changed it, cleared only by a rebuild that saw every change before it. If the
    broker is down the mark waits for the periodic catch-up job."""

    gaming_day = models.DateField()
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE)
    version = models.BigIntegerField(default=1)
    marked_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["gaming_day", "table"], name="stale_report_key")
        ]

    def __str__(self) -> str:
        return f"stale {self.gaming_day} {self.table}"


class HoldAlertRule(models.Model):
    """Alert when a table's (or a game's) hold for the gaming day leaves the band."""

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, null=True, blank=True)
    game = models.CharField(max_length=20, blank=True)
    min_hold_percent = models.DecimalField(max_digits=6, decimal_places=2)
    max_hold_percent = models.DecimalField(max_digits=6, decimal_places=2)
    min_handle_cents = models.BigIntegerField(default=0, help_text="ignore days with less handle")
    is_active = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_hold_percent__lt=models.F("max_hold_percent")),
                name="alert_band_ordered",
            ),
        ]

    def __str__(self) -> str:
        scope = self.table or self.game or "every table"
        return f"{scope}: {self.min_hold_percent}% to {self.max_hold_percent}%"
