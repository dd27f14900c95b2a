"""The floor: pits, tables, paytable versions, progressive meters, dealer sign-ins, rounds and
their settlement lines.

Money is integer cents (`*_cents`). A round pins the paytable version it started with; a
settled round and its lines are never edited (a correction is a new round). The
database enforces what it can: checks on amounts and statuses, one open sign-in per table and
per dealer, one round number per table, an idempotency key used once.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from tables import games


def _games_valid() -> Q:
    """The database's list of games: the registry's when the migration was written (a new game
    changes it, and so needs a migration)."""
    return Q(game__in=games.names())


def _banked_games_valid() -> Q:
    """The house-banked games (paytables are theirs), when the migration was written."""
    return Q(game__in=[g.name for g in games.all_games() if isinstance(g, games.BankedGame)])


def _pvp_games_valid() -> Q:
    """The player-vs-player games (table settings and hands are theirs)."""
    return Q(
        game__in=[g.name for g in games.all_games() if isinstance(g, games.PlayerVsPlayerGame)]
    )


def _progressive_games() -> list[str]:
    return [g.name for g in games.all_games() if g.takes_progressive]


def _meter_only_where_taken() -> Q:
    """A meter only at a table whose game takes a progressive (`takes_progressive`), the games
    registered when the migration was written (`Table.clean` asks the registry as it is)."""
    taking = _progressive_games()
    return Q(meter__isnull=True) | Q(game__in=taking) if taking else Q(meter__isnull=True)


class Pit(models.Model):
    name = models.CharField(max_length=50, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LimitKind(models.TextChoices):
    """What an amount limit applies to: each kind of slip, and a poker player's buy-in."""

    OPENER = "opener", "Opener (the tray counted)"
    CLOSER = "closer", "Closer (the tray counted)"
    FILL = "fill", "Fill"
    CREDIT = "credit", "Credit"
    DROP = "drop", "Drop (the box's count)"
    BUY_IN = "buy_in", "Buy-in (cash at a table)"
    POKER_BUY_IN = "poker_buy_in", "Poker buy-in (a player's stack)"


class AmountLimit(models.Model):
    """The most one entry of a kind may carry (a slip's total, a poker player's buy-in), set by
    an admin in the admin site. A kind with no row has its default (`DEFAULT_MAX_CENTS`); rows
    are written only by `tables.services.limits.limit_set`, on the audit chain."""

    Kind = LimitKind

    # The limits in force where an admin set none: above what a busy table moves in a shift,
    # far below what a mistyped figure makes of it.
    DEFAULT_MAX_CENTS: dict[str, int] = {
        LimitKind.OPENER: 1_000_000_00,
        LimitKind.CLOSER: 1_000_000_00,
        LimitKind.FILL: 250_000_00,
        LimitKind.CREDIT: 250_000_00,
        LimitKind.DROP: 1_000_000_00,
        LimitKind.BUY_IN: 50_000_00,
        LimitKind.POKER_BUY_IN: 50_000_00,
    }

    # A limit decides which entries are taken: bound to the record (audit.binding).
    AUDIT_BOUND = ("kind", "max_cents", "changed_by", "changed_at")

    kind = models.CharField(max_length=20, unique=True, choices=Kind.choices)
    max_cents = models.BigIntegerField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    changed_at = models.DateTimeField()

    class Meta:
        ordering = ["kind"]
        constraints = [
            models.CheckConstraint(condition=Q(max_cents__gt=0), name="amount_limit_positive"),
            models.CheckConstraint(
                condition=Q(kind__in=LimitKind.values), name="amount_limit_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return str(LimitKind(self.kind).label)


class ApprovalStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    APPROVED = "approved", "Approved"


def approval_user(related_name: str, *, approver: bool = False) -> models.ForeignKey[object]:
    """The drafting or approving admin of an approved version (`related_name` per model)."""
    if approver:
        return models.ForeignKey(
            settings.AUTH_USER_MODEL,
            on_delete=models.PROTECT,
            null=True,
            blank=True,
            related_name=related_name,
        )
    return models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name=related_name
    )


class ApprovedVersion(models.Model):
    """A game's versioned configuration, drafted by one admin and approved by a second, then put
    in force at tables (`tables.services.versions`): paytable versions and table settings
    versions. Each version of a name is numbered; an approved version is never changed
    (database triggers). A concrete model adds its content, its two admins
    (`approval_user`, for their reverse names) and `approval_constraints`."""

    Status = ApprovalStatus

    game = models.CharField(max_length=20, choices=games.choices)
    name = models.CharField(max_length=60)
    version = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10, choices=ApprovalStatus.choices, default=ApprovalStatus.DRAFT
    )
    drafted_at = models.DateTimeField(auto_now_add=True)
    approved_at = models.DateTimeField(null=True, blank=True)
    based_on = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["game", "name", "-version"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.name} v{self.version} ({self.status})"

    @property
    def is_approved(self) -> bool:
        return self.status == ApprovalStatus.APPROVED

    @staticmethod
    def bound(*content: str) -> tuple[str, ...]:
        """What the audit record binds of such a version (audit.binding), its `content` fields
        after its name and number: every event that creates or changes a row carries these
        fields' canonical content, and verify_audit compares the row with it."""
        return (
            "game",
            "name",
            "version",
            *content,
            "status",
            "drafted_by",
            "drafted_at",
            "approved_by",
            "approved_at",
            "based_on",
        )


def approval_constraints(prefix: str, games_valid: Q) -> list[models.BaseConstraint]:
    """The database's rules of an approved version, named `<prefix>_...`: one number per
    version of a name, approved with an approver and a time or neither, never by its author,
    and only for the games it belongs to (`games_valid`)."""
    return [
        models.UniqueConstraint(
            fields=["game", "name", "version"], name=f"{prefix}_version_unique"
        ),
        models.CheckConstraint(
            condition=Q(status="draft", approved_by__isnull=True, approved_at__isnull=True)
            | Q(status="approved", approved_by__isnull=False, approved_at__isnull=False),
            name=f"{prefix}_approval_complete",
        ),
        models.CheckConstraint(
            condition=~Q(approved_by=models.F("drafted_by")),
            name=f"{prefix}_approver_is_not_author",
        ),
        models.CheckConstraint(condition=games_valid, name=f"{prefix}_game_valid"),
    ]


class PaytableVersion(ApprovedVersion):
    """One game's paytable lines and table limits, drafted, then approved by a second admin.

    `lines`: {wager: {line: odds}} as the engine's `make_paytable` takes it (odds "3/2").
    `limits`: {wager: {"min_cents": int, "max_cents": int}}. Approved versions are immutable.
    """

    AUDIT_BOUND = ApprovedVersion.bound("lines", "limits")

    lines = models.JSONField()
    limits = models.JSONField()
    drafted_by = approval_user("paytables_drafted")
    approved_by = approval_user("paytables_approved", approver=True)

    class Meta(ApprovedVersion.Meta):
        constraints = approval_constraints("paytable", _banked_games_valid())


class PaytableEdge(models.Model):
    """A paytable version's theoretical figures under one player strategy, computed
    by the engine's house-edge analysis once the version is approved (a Celery job).

    `figures` is the analysis's JSON (`tables.engine.house_edge.edge_for_lines`): per wager its
    edge, standard deviation, method and, if sampled, the seed and sample count. Append-only:
    a version's figures never change once computed (database triggers refuse UPDATE and
    DELETE); one row per (version, strategy)."""

    class Method(models.TextChoices):
        EXACT = "exact", "Exact"
        MONTE_CARLO = "monte_carlo", "Monte Carlo"
        MIXED = "mixed", "Exact and Monte Carlo"

    version = models.ForeignKey(PaytableVersion, on_delete=models.PROTECT, related_name="edges")
    strategy = models.CharField(max_length=20)
    method = models.CharField(max_length=12, choices=Method.choices)
    figures = models.JSONField()
    computed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version", "strategy"]
        constraints = [
            models.UniqueConstraint(fields=["version", "strategy"], name="paytable_edge_once"),
        ]

    def __str__(self) -> str:
        return f"{self.version} {self.strategy} figures"


class ProgressiveMeter(models.Model):
    """A progressive jackpot meter shared by the tables linked to it.

    Its value changes only through `MeterEntry` rows written by services (contributions,
    jackpots, authorised corrections); the admin shows it read-only.
    """

    class Split(models.TextChoices):
        EQUAL = "equal", "Shared equally"
        SEAT_ORDER = "seat_order", "Seat order (first the meter, next the reset)"

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "name",
        "value_cents",
        "reset_cents",
        "rate",
        "wager_cents",
        "game",
        "awards",
        "split",
        "cap_cents",
        "overflow_cents",
        "approval_award_cents",
    )

    name = models.CharField(max_length=60, unique=True)
    value_cents = models.BigIntegerField()
    reset_cents = models.BigIntegerField()
    rate = models.DecimalField(max_digits=6, decimal_places=4, help_text="0.2000 is 20 %")
    wager_cents = models.BigIntegerField(default=100)
    # The game of the tables it serves, whose progressive's awards it pays (`awards`: each fixed
    # award's amount in cents by the game's key for it, as the game declares them).
    game = models.CharField(max_length=20, choices=games.progressive_choices)
    awards = models.JSONField()
    split = models.CharField(max_length=12, choices=Split.choices, default=Split.EQUAL)
    cap_cents = models.BigIntegerField(null=True, blank=True)
    overflow_cents = models.BigIntegerField(default=0)
    approval_award_cents = models.BigIntegerField(
        null=True,
        blank=True,
        help_text="a progressive award of this much or more waits for a pit boss's sign-off "
        "(empty: only the jackpot, paid from the meter)",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(value_cents__gte=0), name="meter_value_nonnegative"),
            models.CheckConstraint(condition=Q(reset_cents__gte=0), name="meter_reset_nonnegative"),
            models.CheckConstraint(condition=Q(rate__gte=0, rate__lt=1), name="meter_rate_range"),
            models.CheckConstraint(condition=Q(wager_cents__gt=0), name="meter_wager_positive"),
            models.CheckConstraint(
                condition=Q(overflow_cents__gte=0), name="meter_overflow_nonneg"
            ),
            models.CheckConstraint(
                condition=Q(cap_cents__isnull=True) | Q(cap_cents__gte=models.F("reset_cents")),
                name="meter_cap_not_below_reset",
            ),
            models.CheckConstraint(
                condition=Q(game__in=_progressive_games()), name="meter_game_takes_progressive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Its awards are exactly its game's fixed awards, each in whole cents."""
        super().clean()
        game = games.GAMES.get(self.game)
        if game is None or not game.takes_progressive:
            return  # the field's own choices refuse it
        try:
            self.awards = games.check_meter_awards(game, self.awards)
        except ValueError as err:
            raise ValidationError({"awards": str(err)}) from None


class MeterEntry(models.Model):
    """Every change to a meter, appended: its opening value, contribution, jackpot, overflow,
    correction, or a voided round's effect taken back. Each entry's `value_after_cents` is the
    one before plus its amount, and the meter's value is its last entry's (database triggers),
    so the entries add up to the value."""

    class Kind(models.TextChoices):
        OPENING = "opening", "Opening value"
        CONTRIBUTION = "contribution", "Contribution"
        JACKPOT = "jackpot", "Jackpot paid"
        OVERFLOW = "overflow", "Overflow (past the cap)"
        CORRECTION = "correction", "Authorised correction"
        VOID = "void", "Round voided: its effect taken back"

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "meter",
        "kind",
        "amount_cents",
        "value_after_cents",
        "round",
        "by",
        "reason",
        "at",
    )

    meter = models.ForeignKey(ProgressiveMeter, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    amount_cents = models.BigIntegerField(help_text="signed change to the meter value")
    value_after_cents = models.BigIntegerField()
    round = models.ForeignKey("Round", on_delete=models.PROTECT, null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True
    )
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "meter entries"
        indexes = [models.Index(fields=["meter", "id"], name="meter_entry_ledger")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="correction") | (Q(by__isnull=False) & ~Q(reason="")),
                name="meter_correction_has_author_and_reason",
            ),
            models.CheckConstraint(
                condition=Q(value_after_cents__gte=0), name="meter_entry_nonneg"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.meter} {self.kind} {self.amount_cents:+d}"


class Table(models.Model):
    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "name",
        "pit",
        "game",
        "seats",
        "paytable_version",
        "meter",
        "is_open",
        "approval_threshold_cents",
    )

    name = models.CharField(max_length=30, unique=True)
    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables")
    game = models.CharField(max_length=20, choices=games.choices)
    seats = models.PositiveSmallIntegerField(default=7)
    paytable_version = models.ForeignKey(
        PaytableVersion, on_delete=models.PROTECT, related_name="tables", null=True, blank=True
    )
    meter = models.ForeignKey(
        ProgressiveMeter, on_delete=models.PROTECT, related_name="tables", null=True, blank=True
    )
    is_open = models.BooleanField(default=True)
    approval_threshold_cents = models.BigIntegerField(
        default=100_000,
        help_text="a seat paid this much or more in one round waits for a pit boss's sign-off",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=1, seats__lte=7), name="table_seats_1_to_7"
            ),
            models.CheckConstraint(
                condition=Q(approval_threshold_cents__gt=0),
                name="table_approval_threshold_positive",
            ),
            models.CheckConstraint(condition=_games_valid(), name="table_game_valid"),
            models.CheckConstraint(
                condition=_meter_only_where_taken(),
                name="table_meter_only_where_taken",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A progressive meter only at a table whose game takes one (`takes_progressive`), and
        only a meter of the table's game."""
        super().clean()
        game = games.GAMES.get(self.game)
        if self.meter_id is not None and game is not None and not game.takes_progressive:
            taking = [g.label for g in games.all_games() if g.takes_progressive]
            raise ValidationError(
                {
                    "meter": f"only a {' or '.join(taking) or 'progressive'} table has a "
                    f"progressive meter; leave it empty for a {game.label} table"
                }
            )
        if self.meter_id is not None and game is not None and self.meter.game != self.game:
            served = games.GAMES.get(self.meter.game)
            raise ValidationError(
                {
                    "meter": f"the meter {self.meter} serves {served or self.meter.game} "
                    f"tables, not a {game.label} table"
                }
            )


class DealerSession(models.Model):
    """A dealer signed in at a table; at most one open session per table and per dealer."""

    # Who deals where decides who may play a table's rounds: bound to the record.
    AUDIT_BOUND = ("table", "dealer", "started_at", "ended_at")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="dealer_sessions")
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="dealer_sessions"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(ended_at__isnull=True), name="one_dealer_per_table"
            ),
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(ended_at__isnull=True), name="one_table_per_dealer"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealer} at {self.table}"


def display_key_digest(key: str) -> str:
    """What is stored of a display key: its SHA-256 (a key is 160 random bits, so the digest
    needs no salt to keep the key secret)."""
    return hashlib.sha256(key.encode()).hexdigest()


class DisplayKey(models.Model):
    """The credential of a table's players' display: a key that opens that table's display
    pages (`PlayerVsPlayerGame.player_pages`) on the screen facing the players, and nothing
    else (no account signs in with it; tables.views.displays). A pit boss or an admin issues
    and revokes it (both on the record); only its key's digest is kept, the key is shown once."""

    AUDIT_BOUND = ("table", "digest", "issued_by", "created", "revoked_by", "revoked_at")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="display_keys")
    digest = models.CharField(max_length=64, unique=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="display_keys_issued"
    )
    created = models.DateTimeField(auto_now_add=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="display_keys_revoked",
        null=True,
        blank=True,
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table__name", "-created"]
        constraints = [
            models.CheckConstraint(
                condition=Q(revoked_at__isnull=True, revoked_by__isnull=True)
                | Q(revoked_at__isnull=False, revoked_by__isnull=False),
                name="displaykey_revoked_by_someone",
            ),
        ]

    def __str__(self) -> str:
        return f"display key of {self.table} issued {self.created:%Y-%m-%d %H:%M}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class Round(models.Model):
    """One round at a table: what the dealer entered, and once settled, its lines.

    `entry` holds the round in the settle contract's input form (cards, wagers, decisions) as
    the dealer builds it step by step; `settlement` the engine's output, frozen at settling.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        SETTLED = "settled", "Settled"
        VOIDED = "voided", "Voided"
        CANCELLED = "cancelled", "Cancelled (misdeal)"

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "table",
        "number",
        "dealer",
        "paytable_version",
        "game",
        "status",
        "entry",
        "house_way",
        "settlement",
        "idempotency_key",
        "handle_cents",
        "players_net_cents",
        "opened_at",
        "settled_at",
        "corrects",
        "gaming_day",
        "shift",
        "voided_at",
        "voided_by",
        "void_reason",
        "approval_requested_at",
        "approval_reasons",
        "approved_at",
        "approved_by",
        "cancelled_at",
        "cancelled_by",
        "cancel_reason",
        "void_requested_at",
        "void_requested_by",
    )

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rounds"
    )
    paytable_version = models.ForeignKey(
        PaytableVersion, on_delete=models.PROTECT, related_name="rounds"
    )
    game = models.CharField(max_length=20, choices=games.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    entry = models.JSONField(default=dict)
    house_way = models.JSONField(default=dict, blank=True)
    settlement = models.JSONField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=100, null=True, blank=True, unique=True)
    handle_cents = models.BigIntegerField(default=0)
    players_net_cents = models.BigIntegerField(default=0)
    opened_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    corrects = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="corrections"
    )
    gaming_day = models.DateField(null=True, blank=True, db_index=True)
    shift = models.CharField(max_length=5, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="voids",
    )
    void_reason = models.TextField(blank=True)
    # Sign-off: a settle that pays a large award waits (still open) until a pit boss approves.
    approval_requested_at = models.DateTimeField(null=True, blank=True)
    approval_reasons = models.JSONField(default=list, blank=True)
    approved_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="round_approvals",
    )
    # Misdeal: an open round cancelled with a reason (nothing paid, the table free).
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="round_cancels",
    )
    cancel_reason = models.TextField(blank=True)
    # A void whose round's payout needed a sign-off waits for a second pit boss: the round stays
    # settled (in the hold reports) with who asked, when, and why (`void_reason`) until then.
    void_requested_at = models.DateTimeField(null=True, blank=True)
    void_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="round_void_requests",
    )

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["gaming_day", "table"], name="round_day_table"),
            # A table's last number and its open round, read when a round opens (the unique
            # constraints below are partial: a query without their condition cannot use them,
            # and read every round the table ever played).
            models.Index(fields=["table", "number"], name="round_table_number"),
            models.Index(fields=["table", "status"], name="round_table_status"),
        ]
        constraints = [
            # A correction keeps the number of the round it corrects (shown "correction of #N").
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(corrects__isnull=True),
                name="round_number_per_table",
            ),
            # A correction is entered open and settled in one transaction, beside live play.
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="open", corrects__isnull=True),
                name="one_open_round_per_table",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "settled", "voided", "cancelled"]),
                name="round_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status="open", settlement__isnull=True, settled_at__isnull=True)
                | Q(status="settled", settlement__isnull=False, settled_at__isnull=False)
                | Q(status="voided", voided_at__isnull=False, voided_by__isnull=False)
                & ~Q(void_reason="")
                | Q(
                    status="cancelled",
                    settlement__isnull=True,
                    cancelled_at__isnull=False,
                    cancelled_by__isnull=False,
                )
                & ~Q(cancel_reason=""),
                name="round_settlement_matches_status",
            ),
            models.CheckConstraint(
                condition=Q(approved_by__isnull=True, approved_at__isnull=True)
                | Q(approved_by__isnull=False, approved_at__isnull=False),
                name="round_approval_complete",
            ),
            models.CheckConstraint(
                condition=Q(handle_cents__gte=0), name="round_handle_nonnegative"
            ),
        ]

    def __str__(self) -> str:
        if self.corrects_id is not None:
            return f"{self.table} correction of #{self.number}"
        return f"{self.table} #{self.number}"

    @property
    def awaiting_approval(self) -> bool:
        return self.status == self.Status.OPEN and self.approval_requested_at is not None

    @property
    def void_waiting(self) -> bool:
        """A void was asked for and waits for a second pit boss (the round still counts)."""
        return self.status == self.Status.SETTLED and self.void_requested_at is not None

    @property
    def house_win_cents(self) -> int:
        return -self.players_net_cents


class SettlementLine(models.Model):
    """One wager's settlement, in cents; written once when the round is settled."""

    class Result(models.TextChoices):
        WIN = "win", "Win"
        LOSE = "lose", "Lose"
        PUSH = "push", "Push"

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "round",
        "seat",
        "wager",
        "stake_cents",
        "result",
        "net_cents",
        "breakage",
        "award",
        "odds",
    )

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="lines")
    seat = models.PositiveSmallIntegerField()
    wager = models.CharField(max_length=20)
    stake_cents = models.BigIntegerField()
    result = models.CharField(max_length=4, choices=Result.choices)
    net_cents = models.BigIntegerField()
    breakage = models.DecimalField(max_digits=12, decimal_places=8, default=0)
    award = models.CharField(max_length=12, blank=True)
    odds = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["round", "seat", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat", "wager"], name="one_line_per_wager"),
            models.CheckConstraint(condition=Q(stake_cents__gt=0), name="line_stake_positive"),
            models.CheckConstraint(condition=Q(seat__gte=1, seat__lte=7), name="line_seat_1_to_7"),
            models.CheckConstraint(
                condition=Q(result="lose", net_cents=-models.F("stake_cents"))
                | Q(result="push", net_cents=0)
                | Q(result="win", net_cents__gt=0)
                | Q(result="win", wager="progressive"),
                name="line_net_matches_result",
            ),
            models.CheckConstraint(
                condition=Q(breakage__gte=0, breakage__lt=1), name="line_breakage_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} seat {self.seat} {self.wager} {self.result}"


# --- player-vs-player games: table settings and hands ------------------------------------------


class TableSettingsVersion(ApprovedVersion):
    """A player-vs-player game's table settings (players, ante, bet sizes, raise cap, rake, as
    the game's `check_settings` defines them), drafted by one admin and approved by a second,
    like a paytable version. Approved versions are immutable (database triggers)."""

    AUDIT_BOUND = ApprovedVersion.bound("values")

    values = models.JSONField(help_text="the settings, as the game's check_settings keeps them")
    drafted_by = approval_user("table_settings_drafted")
    approved_by = approval_user("table_settings_approved", approver=True)

    class Meta(ApprovedVersion.Meta):
        verbose_name = "table settings version"
        constraints = approval_constraints("table_settings", _pvp_games_valid())


class TableSettingsAssignment(models.Model):
    """Which approved settings version is in force at a player-vs-player table, from when
    (appended: the latest is in force; history is never edited)."""

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "table",
        "settings_version",
        "by",
        "at",
    )

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="settings_assignments")
    settings_version = models.ForeignKey(
        TableSettingsVersion, on_delete=models.PROTECT, related_name="assignments"
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.settings_version} at {self.table}"


class Hand(models.Model):
    """One hand of a player-vs-player game at a table.

    `record` is the hand in the game's `replay` contract form, built action by action as the
    dealer enters it (the same record `manage.py replay` takes). Once finished, the pot, the
    house's rake and each player's payoff (`HandPlayer.payoff_cents`, summing to minus the
    rake) are frozen; a finished hand changes only by its void, a voided hand never. A misdeal
    (the dealer's, early in the hand) ends an open hand with nothing paid, each buy-in returned;
    its time, dealer and reason are kept in the void fields."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        FINISHED = "finished", "Finished"
        VOIDED = "voided", "Voided"
        MISDEAL = "misdeal", "Misdeal"

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "table",
        "number",
        "dealer",
        "game",
        "settings_version",
        "status",
        "record",
        "pot_cents",
        "rake_cents",
        "result",
        "opened_at",
        "finished_at",
        "gaming_day",
        "shift",
        "voided_at",
        "voided_by",
        "void_reason",
    )

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hands"
    )
    game = models.CharField(max_length=20, choices=games.choices)
    settings_version = models.ForeignKey(
        TableSettingsVersion, on_delete=models.PROTECT, related_name="hands"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    record = models.JSONField(default=dict)
    pot_cents = models.BigIntegerField(default=0)
    rake_cents = models.BigIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    gaming_day = models.DateField(null=True, blank=True, db_index=True)
    shift = models.CharField(max_length=5, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="hand_voids",
    )
    void_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["gaming_day", "table"], name="hand_day_table")]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_per_table"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="open"), name="one_open_hand_per_table"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "finished", "voided", "misdeal"]),
                name="hand_status_valid",
            ),
            models.CheckConstraint(condition=_pvp_games_valid(), name="hand_game_valid"),
            models.CheckConstraint(
                condition=Q(status="open", result__isnull=True, finished_at__isnull=True)
                | Q(
                    status="finished",
                    result__isnull=False,
                    finished_at__isnull=False,
                    gaming_day__isnull=False,
                )
                | Q(
                    status__in=["voided", "misdeal"],
                    voided_at__isnull=False,
                    voided_by__isnull=False,
                )
                & ~Q(void_reason=""),
                name="hand_result_matches_status",
            ),
            models.CheckConstraint(
                condition=Q(rake_cents__gte=0, pot_cents__gte=models.F("rake_cents")),
                name="hand_rake_within_pot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}"

    @property
    def house_win_cents(self) -> int:
        """The house's win on a hand is its rake."""
        return self.rake_cents


class HandPlayer(models.Model):
    """A player in a hand: the seat, the buy-in (the stack the hand starts with) and, once the
    hand is finished, the payoff (net, cents) and the stack after. A finished hand's payoffs
    sum to minus its rake (database trigger)."""

    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "hand",
        "position",
        "seat",
        "buy_in_cents",
        "payoff_cents",
        "stack_after_cents",
    )

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="players")
    position = models.PositiveSmallIntegerField(help_text="the player's index in the record")
    seat = models.PositiveSmallIntegerField()
    buy_in_cents = models.BigIntegerField()
    payoff_cents = models.BigIntegerField(null=True, blank=True)
    stack_after_cents = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["hand", "position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "position"], name="hand_player_position"),
            models.UniqueConstraint(fields=["hand", "seat"], name="hand_player_seat"),
            models.CheckConstraint(condition=Q(buy_in_cents__gt=0), name="hand_buy_in_positive"),
            models.CheckConstraint(
                condition=Q(payoff_cents__isnull=True, stack_after_cents__isnull=True)
                | Q(
                    payoff_cents__isnull=False,
                    stack_after_cents=models.F("buy_in_cents") + models.F("payoff_cents"),
                    stack_after_cents__gte=0,
                ),
                name="hand_player_stack_after",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}"
