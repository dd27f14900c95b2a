"""Table accounting: chip denominations, slips (openers, closers, fills, credits, drops and
buy-ins), their signatures and voids, and the variance alerts of the reconciliation.

A slip counts only once signed by a second person of an allowed role (`accounting.rules`); a
buy-in, entered by the dealer alone, counts at once. A slip is never edited: the slip row is
frozen but for its status (pending -> signed, or -> voided), its signatures and voids are
appended rows, and a wrong slip is voided by two people and replaced by a new slip that points
at it. Slip numbers run in one sequence without gaps. The database enforces all of it
(triggers in migration 0001, named `casino_*`); the services give the friendly message.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .rules import KINDS


class ChipDenomination(models.Model):
    """A chip the casino uses (configured in the admin); deactivated, never deleted."""

    value_cents = models.BigIntegerField(unique=True)
    label = models.CharField(max_length=30, blank=True, help_text="e.g. the chip's colour")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["value_cents"]
        constraints = [
            models.CheckConstraint(condition=Q(value_cents__gt=0), name="chip_value_positive"),
        ]

    def __str__(self) -> str:
        whole, part = divmod(self.value_cents, 100)
        return f"${whole:,}.{part:02d}" + (f" ({self.label})" if self.label else "")


class Slip(models.Model):
    """One slip: what moved (or was counted) at a table, for a gaming day and shift.

    `chips`: {denomination in cents (text): count}; `cash_cents`, `markers_cents` for a drop
    (and the cash of a buy-in); `amount_cents` the slip's total.
    """

    class Kind(models.TextChoices):
        OPENER = "opener", "Opener"
        CLOSER = "closer", "Closer"
        FILL = "fill", "Fill"
        CREDIT = "credit", "Credit"
        DROP = "drop", "Drop"
        BUY_IN = "buy_in", "Buy-in"

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting signature"
        SIGNED = "signed", "Signed"
        VOIDED = "voided", "Voided"

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "number",
        "table",
        "kind",
        "gaming_day",
        "shift",
        "chips",
        "cash_cents",
        "markers_cents",
        "amount_cents",
        "created_by",
        "created_at",
        "signatures_required",
        "status",
        "signed_at",
        "voided_at",
        "replaces",
        "note",
    )

    number = models.PositiveBigIntegerField(unique=True)
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="slips")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    gaming_day = models.DateField()
    shift = models.CharField(max_length=5)
    chips = models.JSONField(default=dict, blank=True)
    cash_cents = models.BigIntegerField(default=0)
    markers_cents = models.BigIntegerField(default=0)
    amount_cents = models.BigIntegerField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="slips_created"
    )
    created_at = models.DateTimeField()
    signatures_required = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    signed_at = models.DateTimeField(null=True, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    replaces = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="replaced_by"
    )
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-number"]
        indexes = [models.Index(fields=["gaming_day", "table", "shift"], name="slip_day_table")]
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1), name="slip_number_positive"),
            models.CheckConstraint(condition=Q(kind__in=KINDS), name="slip_kind_valid"),
            models.CheckConstraint(
                condition=Q(amount_cents__gte=0, cash_cents__gte=0, markers_cents__gte=0),
                name="slip_amounts_nonnegative",
            ),
            models.CheckConstraint(
                condition=Q(status="pending", signed_at__isnull=True, voided_at__isnull=True)
                | Q(status="signed", signed_at__isnull=False, voided_at__isnull=True)
                | Q(status="voided", voided_at__isnull=False),
                name="slip_status_matches_times",
            ),
            models.CheckConstraint(
                condition=~Q(kind="buy_in") | Q(signatures_required=0),
                name="slip_buy_in_by_the_dealer_alone",
            ),
            models.CheckConstraint(
                condition=Q(kind="buy_in") | Q(signatures_required__gte=1),
                name="slip_two_people",
            ),
            # One live count of the tray (at each end) and of the drop box per table and shift.
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift", "kind"],
                condition=Q(
                    kind__in=["opener", "closer", "drop"], status__in=["pending", "signed"]
                ),
                name="slip_one_count_per_shift",
            ),
        ]

    def __str__(self) -> str:
        return f"slip {self.number} {self.kind} {self.table}"

    @property
    def counts(self) -> bool:
        return self.status == self.Status.SIGNED


class SlipSignature(models.Model):
    """A second person's signature on a slip (a fill: the cage's issue, then the dealer's
    receipt). Appended, never changed; never by the slip's creator (a trigger)."""

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "slip",
        "step",
        "role",
        "by",
        "at",
    )

    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="signatures")
    step = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=20)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    at = models.DateTimeField()

    class Meta:
        ordering = ["slip", "step"]
        constraints = [
            models.UniqueConstraint(fields=["slip", "step"], name="slip_signature_step"),
            models.UniqueConstraint(fields=["slip", "by"], name="slip_signature_person"),
            models.CheckConstraint(condition=Q(step__gte=1), name="slip_signature_step_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.slip} signed by {self.by} ({self.role})"


class SlipVoid(models.Model):
    """Voiding a slip takes two people: step 1 asks (with the reason), step 2 confirms."""

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "slip",
        "step",
        "by",
        "reason",
        "at",
    )

    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="voids")
    step = models.PositiveSmallIntegerField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    reason = models.TextField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["slip", "step"]
        constraints = [
            models.UniqueConstraint(fields=["slip", "step"], name="slip_void_step"),
            models.UniqueConstraint(fields=["slip", "by"], name="slip_void_person"),
            models.CheckConstraint(condition=Q(step__in=[1, 2]), name="slip_void_two_steps"),
            models.CheckConstraint(condition=~Q(reason=""), name="slip_void_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.slip} void step {self.step} by {self.by}"


class VarianceAlert(models.Model):
    """The count's win differs from the hands' win by more than the tolerance for one table,
    gaming day and shift. A pit boss acknowledges it with a note (once; a trigger)."""

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="variance_alerts"
    )
    gaming_day = models.DateField()
    shift = models.CharField(max_length=5)
    count_win_cents = models.BigIntegerField()
    hands_win_cents = models.BigIntegerField()
    variance_cents = models.BigIntegerField()
    tolerance_cents = models.BigIntegerField()
    raised_at = models.DateTimeField()
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True
    )
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-raised_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(acknowledged_by__isnull=True, acknowledged_at__isnull=True, note="")
                | (Q(acknowledged_by__isnull=False, acknowledged_at__isnull=False) & ~Q(note="")),
                name="variance_ack_complete",
            ),
            models.CheckConstraint(
                condition=Q(
                    variance_cents=models.F("count_win_cents") - models.F("hands_win_cents")
                ),
                name="variance_is_count_minus_hands",
            ),
        ]

    def __str__(self) -> str:
        return f"variance {self.table} {self.gaming_day} {self.shift}: {self.variance_cents:+d}"

    @property
    def is_open(self) -> bool:
        return self.acknowledged_at is None


class DropBoxMove(models.Model):
    """A table's numbered drop box for a gaming day and shift, on its way: removed from the
    table (by someone not dealing there, with a witness or alone), then arrived in the count
    room. Appended, one row per step; the drop slip names the same box number."""

    class Step(models.TextChoices):
        REMOVED = "removed", "Removed from the table"
        ARRIVED = "arrived", "Arrived in the count room"

    AUDIT_BOUND = ("table", "gaming_day", "shift", "box_number", "step", "by", "witness", "at")

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="box_moves")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=5)
    box_number = models.PositiveIntegerField()
    step = models.CharField(max_length=10, choices=Step.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    witness = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day", "shift", "table", "at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift", "step"], name="dropbox_one_move_per_step"
            ),
            models.CheckConstraint(condition=Q(box_number__gte=1), name="dropbox_number_positive"),
            models.CheckConstraint(
                condition=Q(witness__isnull=True) | ~Q(witness=models.F("by")),
                name="dropbox_witness_is_another",
            ),
        ]

    def __str__(self) -> str:
        return f"box {self.box_number} {self.table} {self.step}"


class DropCount(models.Model):
    """A drop slip counted by its parts: bills by denomination (counts), markers, match-play
    and promotional coupons (by value), and the box it came from. The slip's `cash_cents` is the
    bills' total, its `chips` the chips found, its `amount_cents` the sum of every part."""

    AUDIT_BOUND = ("slip", "box_number", "bills", "match_play_cents", "promotional_cents")

    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="drop_count")
    box_number = models.PositiveIntegerField(null=True, blank=True)
    bills = models.JSONField(default=dict, blank=True)  # {bill in cents (text): count}
    match_play_cents = models.BigIntegerField(default=0)
    promotional_cents = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(match_play_cents__gte=0, promotional_cents__gte=0),
                name="dropcount_coupons_nonnegative",
            ),
        ]

    def __str__(self) -> str:
        return f"count of {self.slip}"

    @property
    def coupons_cents(self) -> int:
        return self.match_play_cents + self.promotional_cents


class CountSheetSignature(models.Model):
    """A count-team member's signature on a gaming day's count sheet: the drop slips it lists
    (their numbers, in order) and its total as signed. The sheet is signed once two different
    members have signed the same drops, one of them independent of the pit."""

    AUDIT_BOUND = ("gaming_day", "slips", "total_cents", "by", "independent", "at")

    gaming_day = models.DateField()
    slips = models.CharField(max_length=2000)  # the drop slips' numbers, "12,15,18"
    total_cents = models.BigIntegerField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    independent = models.BooleanField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day", "at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day", "slips", "by"], name="countsheet_signed_once"
            ),
        ]

    def __str__(self) -> str:
        return f"count sheet {self.gaming_day} signed by {self.by}"


class SignatureRuleProposal(models.Model):
    """An admin's proposal of the roles that sign a fill or a credit, in order; in force once a
    second admin approves it (`SignatureRuleApproval`)."""

    AUDIT_BOUND = ("kind", "steps", "reason", "proposed_by", "proposed_at")

    kind = models.CharField(max_length=10)
    steps = models.JSONField()  # the roles' values, in signing order
    reason = models.TextField()
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField()

    class Meta:
        ordering = ["-proposed_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["fill", "credit"]), name="signaturerule_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} signed by {', '.join(self.steps)}"


class SignatureRuleApproval(models.Model):
    AUDIT_BOUND = ("proposal", "approved_by", "approved_at")

    proposal = models.OneToOneField(
        SignatureRuleProposal, on_delete=models.PROTECT, related_name="approval"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField()

    class Meta:
        ordering = ["-approved_at", "-id"]

    def __str__(self) -> str:
        return f"{self.proposal} approved by {self.approved_by}"


class SlipSteps(models.Model):
    """The signature rule a fill or credit was made under (the approval in force when it was
    entered): its roles, in order. A slip without one signs by `rules.SIGN_STEPS`."""

    AUDIT_BOUND = ("slip", "approval", "steps")

    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="rule_steps")
    approval = models.ForeignKey(SignatureRuleApproval, on_delete=models.PROTECT, related_name="+")
    steps = models.JSONField()

    def __str__(self) -> str:
        return f"{self.slip} signs by {', '.join(self.steps)}"


class HandoverAlert(models.Model):
    """At a shift change the next shift's opener counts the tray the last closer counted: a
    chip that differs between the two (by denomination) raises this alert at once, in the
    opener's signing transaction. Appended, never changed; the pit boss sees it on the
    dashboard with the variance alerts."""

    # What the audit record binds (audit.binding): the event that raises it carries these
    # fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "table",
        "closer",
        "opener",
        "difference",
        "difference_cents",
        "raised_at",
    )

    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="handover_alerts"
    )
    closer = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="handovers_closed")
    opener = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="handover_alert")
    # {denomination in cents (text): opener's count − closer's count}, the chips that differ.
    difference = models.JSONField()
    difference_cents = models.BigIntegerField()
    raised_at = models.DateTimeField()

    class Meta:
        ordering = ["-raised_at", "-id"]

    def __str__(self) -> str:
        return f"handover {self.table}: {self.difference_cents:+d}"
