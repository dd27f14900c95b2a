"""Rated play (docs/ratings.md): the players, their rated stretches at tables (seated by card
number, ended when they leave), the figures each stretch holds (summed from the settled rounds
and finished hands it covers), notes and adjustments, the comp rates per tier (drafted by one
admin, approved by a second), redemptions, and the alerts a refused card raises.

A rating's seat and times are bound to the record (`AUDIT_BOUND`); its figures are derived from
bound rows (the rounds' lines, the hands) and checked by `verify_audit` summing them again
(`players.apps`), as the hold summaries are."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tables.models import Table

USER = settings.AUTH_USER_MODEL


class Tier(models.TextChoices):
    BRONZE = "bronze", "Bronze"
    SILVER = "silver", "Silver"
    GOLD = "gold", "Gold"
    PLATINUM = "platinum", "Platinum"


class Player(models.Model):
    """A rated player, known by the card number on their players' card."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        BARRED = "barred", "Barred"
        SELF_EXCLUDED = "self_excluded", "Self-excluded"

    AUDIT_BOUND = (
        "card",
        "name",
        "tier",
        "status",
        "created_at",
        "created_by",
        "changed_at",
        "changed_by",
    )

    card = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=100)
    tier = models.CharField(max_length=12, choices=Tier.choices, default=Tier.BRONZE)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField()
    changed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["name", "card"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["active", "barred", "self_excluded"]),
                name="player_status_valid",
            ),
            models.CheckConstraint(condition=~Q(card=""), name="player_card_given"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (card {self.card})"

    @property
    def first_name(self) -> str:
        """What a dealer sees of the player, with the card number."""
        return self.name.split()[0] if self.name.split() else ""


class CompRateVersion(models.Model):
    """The comp points each tier earns per dollar of theoretical win: drafted by one admin,
    approved by a second, never changed once approved. The latest approved version is in force;
    a rating earns at the version in force when the player sat down."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        APPROVED = "approved", "Approved"

    AUDIT_BOUND = (
        "version",
        "rates",
        "status",
        "drafted_by",
        "drafted_at",
        "approved_by",
        "approved_at",
    )

    version = models.PositiveIntegerField(unique=True)
    rates = models.JSONField(help_text='tier -> points per dollar of theoretical win, "0.25"')
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    drafted_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    drafted_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="draft", approved_by__isnull=True, approved_at__isnull=True)
                | Q(status="approved", approved_by__isnull=False, approved_at__isnull=False),
                name="comp_rates_approval_complete",
            ),
            models.CheckConstraint(
                condition=~Q(approved_by=models.F("drafted_by")),
                name="comp_rates_approver_is_not_author",
            ),
        ]

    def __str__(self) -> str:
        return f"Comp rates v{self.version} ({self.status})"


class Rating(models.Model):
    """One rated stretch: a player at a seat of a table from `started_at` until `ended_at`
    (open while seated); it earns points at the comp rates and the tier of its start. Its
    figures cover the settled rounds opened (a correction: where the round it corrects was
    opened) and the finished hands opened at that seat in that time."""

    AUDIT_BOUND = (
        "player",
        "table",
        "seat",
        "gaming_day",
        "started_at",
        "ended_at",
        "seated_by",
        "ended_by",
        "adjusted_seconds",
        "comp_rates",
        "tier",
    )

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ratings")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    gaming_day = models.DateField(db_index=True)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    seated_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    ended_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    adjusted_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="the time played as a pit boss set it (with a reason)"
    )
    comp_rates = models.ForeignKey(
        CompRateVersion, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    tier = models.CharField(max_length=12, choices=Tier.choices, help_text="the player's, seated")
    # The figures, derived (players.figures): kept current as rounds settle, void and correct.
    hands = models.PositiveIntegerField(default=0)
    wagered_cents = models.BigIntegerField(default=0)
    actual_win_cents = models.BigIntegerField(default=0)
    theoretical_win = models.DecimalField(max_digits=24, decimal_places=10, default=0)
    decision_cost = models.DecimalField(max_digits=24, decimal_places=10, default=0)
    no_decision_cost = models.BooleanField(default=False)
    theory_pending = models.BooleanField(default=False)
    points = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["table", "seat", "started_at"], name="rating_seat_time")]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(ended_at__isnull=True), name="rating_one_open"
            ),
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=Q(ended_at__isnull=True),
                name="rating_one_per_seat",
            ),
            models.CheckConstraint(condition=Q(seat__gte=1), name="rating_seat_positive"),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="rating_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player.name} at {self.table} seat {self.seat}"


class RatingNote(models.Model):
    """A pit boss's note on a rating, or the reason for an adjustment of its time."""

    AUDIT_BOUND = ("rating", "by", "at", "note", "seconds_before", "seconds_after")

    rating = models.ForeignKey(Rating, on_delete=models.PROTECT, related_name="notes")
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    note = models.TextField()
    seconds_before = models.PositiveIntegerField(null=True, blank=True)
    seconds_after = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["at", "id"]
        constraints = [models.CheckConstraint(condition=~Q(note=""), name="rating_note_given")]

    def __str__(self) -> str:
        return f"note on rating {self.rating_id}"


class Redemption(models.Model):
    """Comp points spent, entered by a host; above the approval limit it counts once a second
    person (host or pit boss, never the one who entered it) approves it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting approval"
        APPROVED = "approved", "Counts"

    AUDIT_BOUND = (
        "player",
        "points",
        "reason",
        "status",
        "entered_by",
        "entered_at",
        "approved_by",
        "approved_at",
    )

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="redemptions")
    points = models.PositiveBigIntegerField()
    reason = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices)
    entered_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-entered_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(points__gt=0), name="redemption_points_positive"),
            models.CheckConstraint(
                condition=~Q(approved_by=models.F("entered_by")),
                name="redemption_approver_is_not_enterer",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "approved"]), name="redemption_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.points} points ({self.get_status_display()})"


class RefusedCardAlert(models.Model):
    """A barred or self-excluded card presented at a table: the pit boss's dashboard lists it
    until a pit boss acknowledges it."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16)  # the player's status when refused
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    acknowledged_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    acknowledged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"card refused at {self.table} seat {self.seat}"
