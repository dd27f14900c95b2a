"""Hold reports and alerts: derived figures rebuilt from the rounds, the (day, table) pairs
waiting for a rebuild, and the pit boss's hold alert rules.

These tables were made by the audit app (their names keep its prefix); they moved here, above
the round services, without their data being copied (migration 0001 only takes over Django's
record of them).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class HoldSummary(models.Model):
    """Derived figures (rebuilt from the rounds by `reports.reporting`, never edited by hand) for
    one gaming day, table, paytable version, dealer and shift."""

    gaming_day = models.DateField()
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="hold_summaries"
    )
    game = models.CharField(max_length=20)
    # A banked game's rounds are summed under their paytable version, a player-vs-player
    # game's hands under their table settings version: exactly one of the two.
    paytable_version = models.ForeignKey(
        "tables.PaytableVersion", on_delete=models.PROTECT, null=True, blank=True
    )
    settings_version = models.ForeignKey(
        "tables.TableSettingsVersion", on_delete=models.PROTECT, null=True, blank=True
    )
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
    # Player-vs-player hands: how many were finished, the chips in their pots, and the rake
    # (the house's win on them, also counted in win_cents; they have no handle).
    pvp_hands = models.IntegerField(default=0)
    pots_cents = models.BigIntegerField(default=0)
    rake_cents = models.BigIntegerField(default=0)
    # For the theoretical band (reports.theory), per settlement line wager of the row's settled
    # rounds: [sum of the seats' stakes s, sum of s^2, sum over rounds of S^2 (S: a round's
    # stake on the wager, all seats)]; sums, so that a fold adds a round's to them.
    theory_sums = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day", "table"]
        indexes = [models.Index(fields=["gaming_day", "table"], name="hold_day_table")]
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day", "table", "paytable_version", "dealer", "shift"],
                condition=models.Q(paytable_version__isnull=False),
                name="hold_summary_key",
            ),
            models.UniqueConstraint(
                fields=["gaming_day", "table", "settings_version", "dealer", "shift"],
                condition=models.Q(settings_version__isnull=False),
                name="hold_summary_hands_key",
            ),
            models.CheckConstraint(
                condition=models.Q(paytable_version__isnull=True)
                ^ models.Q(settings_version__isnull=True),
                name="hold_summary_rounds_or_hands",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.gaming_day} {self.table} {self.shift}"


class StaleReport(models.Model):
    """A (gaming day, table) whose summaries must be rebuilt: written in the same transaction as
    the round that changed it, cleared only by a rebuild that saw every change before it. If the
    broker is down the mark waits for the periodic catch-up job.

    `full`: some change since the last rebuild can only be counted by summing the day again (a
    void, a correction, a hand, rounds seeded in bulk). Without it every change is a newly
    settled round waiting in `PendingRound`, and the rebuild adds just those to the summaries
    (a fold), whatever the length of the day."""

    gaming_day = models.DateField()
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE)
    version = models.BigIntegerField(default=1)
    marked_at = models.DateTimeField(auto_now=True)
    full = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["gaming_day", "table"], name="stale_report_key")
        ]

    def __str__(self) -> str:
        return f"stale {self.gaming_day} {self.table}"


class PendingRound(models.Model):
    """A newly settled round not yet added to its (gaming day, table) summaries: written in the
    round's own transaction (with the stale mark), deleted by the rebuild that counted it, in
    the rebuild's transaction. `batch` is set by a fold to the rows it claims (under the table's
    rebuild lock), so a round settled while the fold runs waits for the next one."""

    round = models.OneToOneField(
        "tables.Round",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="report_pending",
    )
    gaming_day = models.DateField()
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, db_index=False)
    batch = models.BigIntegerField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["gaming_day", "table"], name="pending_round_day_table"),
            # A fold's reads start from its batch's few rows, not from the rounds.
            models.Index(fields=["batch"], name="pending_round_batch"),
        ]

    def __str__(self) -> str:
        return f"pending {self.round_id}"


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


class VerificationRun(models.Model):
    """One verification of the whole record (`audit.verify.verify_record`): the chain with its
    checkpoints and anchor, and every row bound to it. History: a run is written when it
    starts and once when it finishes, and a failed run is acknowledged once, with a note, by a
    pit boss or an auditor (`reports.verification`); nothing else changes it."""

    class Trigger(models.TextChoices):
        NIGHTLY = "nightly", "Nightly"
        ON_DEMAND = "on_demand", "On demand"
        COMMAND = "command", "Command"

    # Whether the record was whole is what the dashboard shows: bound to the run's events.
    AUDIT_BOUND = (
        "trigger",
        "requested_by",
        "started_at",
        "finished_at",
        "events",
        "rows",
        "ok",
        "problems",
        "acknowledged_by",
        "acknowledged_at",
        "acknowledgement_note",
    )

    trigger = models.CharField(max_length=10, choices=Trigger.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    events = models.BigIntegerField(default=0)
    rows = models.BigIntegerField(default=0)
    ok = models.BooleanField(null=True, blank=True)  # None until it finishes
    problems = models.JSONField(default=list, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledgement_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["finished_at"], name="verification_run_finished")]
        constraints = [
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True, ok__isnull=True)
                | Q(finished_at__isnull=False, ok__isnull=False),
                name="verification_run_finished_has_result",
            ),
            models.CheckConstraint(
                condition=Q(
                    acknowledged_by__isnull=True,
                    acknowledged_at__isnull=True,
                    acknowledgement_note="",
                )
                | (
                    Q(acknowledged_by__isnull=False, acknowledged_at__isnull=False, ok=False)
                    & ~Q(acknowledgement_note="")
                ),
                name="verification_run_ack_complete",
            ),
            models.CheckConstraint(
                condition=~Q(trigger="on_demand") | Q(requested_by__isnull=False),
                name="verification_run_on_demand_by_someone",
            ),
        ]

    def __str__(self) -> str:
        return f"verification {self.pk} ({self.trigger}) started {self.started_at:%Y-%m-%d %H:%M}"

    @property
    def is_open_failure(self) -> bool:
        """A failed run nobody has acknowledged yet: the dashboard's alert."""
        return self.ok is False and self.acknowledged_at is None


class StatisticalInvestigation(models.Model):
    """A fluctuation of the statistical report (reports.statistical): a table's (or a type of
    game's, `table` empty) hold % of drop over a period ending on `gaming_day` outside its 95%
    band or further than the threshold from the theoretical hold. Written once, never edited;
    it stays open until its explanation (StatisticalExplanation) is signed."""

    class Period(models.TextChoices):
        DAY = "day", "Day"
        MTD = "mtd", "Month to date"
        YTD = "ytd", "Year to date"

    AUDIT_BOUND = (
        "gaming_day",
        "period",
        "table",
        "game",
        "drop_cents",
        "win_cents",
        "theoretical_win_cents",
        "band_low_cents",
        "band_high_cents",
        "hold_percent",
        "theoretical_percent",
        "threshold_points",
        "outside_band",
        "past_threshold",
        "opened_at",
    )

    gaming_day = models.DateField()
    period = models.CharField(max_length=3, choices=Period.choices)
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    game = models.CharField(max_length=20)
    drop_cents = models.BigIntegerField()
    win_cents = models.BigIntegerField()
    theoretical_win_cents = models.BigIntegerField()
    band_low_cents = models.BigIntegerField()
    band_high_cents = models.BigIntegerField()
    hold_percent = models.DecimalField(max_digits=9, decimal_places=2)
    theoretical_percent = models.DecimalField(max_digits=9, decimal_places=2)
    threshold_points = models.DecimalField(max_digits=5, decimal_places=2)
    outside_band = models.BooleanField()
    past_threshold = models.BooleanField()
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day", "game", "table__name", "period", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "period", "gaming_day"],
                condition=Q(table__isnull=False),
                name="statistical_one_per_table_period_day",
            ),
            models.UniqueConstraint(
                fields=["game", "period", "gaming_day"],
                condition=Q(table__isnull=True),
                name="statistical_one_per_game_period_day",
            ),
            models.CheckConstraint(
                condition=Q(outside_band=True) | Q(past_threshold=True),
                name="statistical_investigation_has_a_cause",
            ),
        ]

    def __str__(self) -> str:
        return f"statistical investigation {self.pk} ({self.period} to {self.gaming_day})"


class StatisticalExplanation(models.Model):
    """A manager's signed explanation of a statistical investigation: one per investigation,
    never edited; the investigation is closed once it has one."""

    AUDIT_BOUND = ("investigation", "by", "at", "text")

    investigation = models.OneToOneField(
        StatisticalInvestigation, on_delete=models.PROTECT, related_name="explanation"
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    text = models.TextField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="statistical_explanation_given")
        ]

    def __str__(self) -> str:
        return f"explanation of statistical investigation {self.investigation_id}"


# --- the Master Game Report (reports.mgr, docs/regulator.md) -------------------------------------


class MgrSignature(models.Model):
    """A gaming day's Master Game Report signed: `reviewed` by a person, then `final` by a
    revenue auditor who did not work that day's floor. Appended, never changed; one of each
    step per day."""

    class Step(models.TextChoices):
        REVIEWED = "reviewed", "Reviewed"
        FINAL = "final", "Final"

    AUDIT_BOUND = ("gaming_day", "step", "by", "at")

    gaming_day = models.DateField()
    step = models.CharField(max_length=10, choices=Step.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day", "id"]
        constraints = [
            models.UniqueConstraint(fields=["gaming_day", "step"], name="mgr_one_step_per_day"),
            models.CheckConstraint(
                condition=Q(step__in=["reviewed", "final"]), name="mgr_signature_step_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"MGR {self.gaming_day:%Y-%m-%d} {self.step} by {self.by}"


class MgrFigure(models.Model):
    """One table and shift's figures as they stood when the day's report was signed final:
    the report of a final day reads these, never the live record again."""

    AUDIT_BOUND = (
        "signature",
        "table",
        "shift",
        "opener_cents",
        "closer_cents",
        "fills_cents",
        "credits_cents",
        "drop_cash_cents",
        "drop_markers_cents",
        "drop_chips_cents",
        "drop_cents",
        "win_cents",
        "hands_win_cents",
    )

    signature = models.ForeignKey(MgrSignature, on_delete=models.PROTECT, related_name="figures")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    shift = models.CharField(max_length=5)
    opener_cents = models.BigIntegerField(null=True)
    closer_cents = models.BigIntegerField(null=True)
    fills_cents = models.BigIntegerField()
    credits_cents = models.BigIntegerField()
    drop_cash_cents = models.BigIntegerField(null=True)
    drop_markers_cents = models.BigIntegerField(null=True)
    drop_chips_cents = models.BigIntegerField(null=True)
    drop_cents = models.BigIntegerField(null=True)
    win_cents = models.BigIntegerField(null=True)  # the count's win or loss
    hands_win_cents = models.BigIntegerField()

    class Meta:
        ordering = ["signature", "table", "shift"]
        constraints = [
            models.UniqueConstraint(
                fields=["signature", "table", "shift"], name="mgr_figure_per_shift"
            ),
        ]

    def __str__(self) -> str:
        return f"MGR figures {self.table} {self.shift}"


class MgrAdjustment(models.Model):
    """A change to one figure of a final report: an amount (signed, cents) with its reason,
    entered by one person; it counts once another approves it (`MgrAdjustmentApproval`)."""

    AUDIT_BOUND = (
        "gaming_day",
        "table",
        "shift",
        "figure",
        "amount_cents",
        "reason",
        "entered_by",
        "entered_at",
    )

    gaming_day = models.DateField()
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    shift = models.CharField(max_length=5)
    figure = models.CharField(max_length=20)
    amount_cents = models.BigIntegerField()
    reason = models.CharField(max_length=500)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    entered_at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day", "id"]
        indexes = [models.Index(fields=["gaming_day"], name="mgr_adjustment_day")]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="mgr_adjustment_has_reason"),
            models.CheckConstraint(condition=~Q(amount_cents=0), name="mgr_adjustment_nonzero"),
        ]

    def __str__(self) -> str:
        return f"MGR adjustment {self.table} {self.shift} {self.figure}"


class MgrAdjustmentApproval(models.Model):
    """An adjustment approved by a second person (never its author)."""

    AUDIT_BOUND = ("adjustment", "approved_by", "approved_at")

    adjustment = models.OneToOneField(
        MgrAdjustment, on_delete=models.PROTECT, related_name="approval"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField()

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"MGR adjustment {self.adjustment_id} approved"
