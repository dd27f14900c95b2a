"""Cash compliance (docs/compliance.md): the patrons behind cash transactions, each cash
transaction (a buy-in at a table: cash in), the per patron per gaming day sums of cash in and
cash out (kept apart, never netted), the Multiple Transaction Log's entries and the Currency
Transaction Reports (FinCEN Form 112) a day opens.

Every row is bound to the audit record (`AUDIT_BOUND`). A patron's identification (name, date
of birth, address, ID) is personal data: the record binds it only as one salted digest
(`compliance.apps`: the patron's `identification` is computed), so no event's data, search
words or CSV export holds it, and `verify_audit` still sees any change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower, Trim

from tables.models import Table

USER = settings.AUTH_USER_MODEL

# The Form 112 fields a patron's identification holds: a CTR is filed only with all of them.
IDENTIFICATION_FIELDS = (
    "name",
    "date_of_birth",
    "address",
    "id_type",
    "id_number",
    "id_issuer",
    "id_expiry",
    "occupation",
)
# What a description (of a patron not yet identified) holds.
DESCRIPTION_FIELDS = ("sex", "apparent_age", "height_build", "hair", "clothing", "where_seen")


class Direction(models.TextChoices):
    CASH_IN = "in", "Cash in"
    CASH_OUT = "out", "Cash out"


class Kind(models.TextChoices):
    """Which cash transaction it is: a buy-in at a table, or one of the cage's window."""

    BUY_IN = "buy_in", "Buy-in at a table"
    CHIPS_BOUGHT = "chips_bought", "Chips bought with cash"
    CHIPS_REDEEMED = "chips_redeemed", "Chips redeemed for cash"
    FRONT_MONEY_IN = "front_money_in", "Front money deposited"
    FRONT_MONEY_OUT = "front_money_out", "Front money withdrawn"
    MARKER_REPAID = "marker_repaid", "Marker repaid in cash"


# The direction of each kind: cash in and cash out are summed apart.
KIND_DIRECTION = {
    Kind.BUY_IN: Direction.CASH_IN,
    Kind.CHIPS_BOUGHT: Direction.CASH_IN,
    Kind.FRONT_MONEY_IN: Direction.CASH_IN,
    Kind.CHIPS_REDEEMED: Direction.CASH_OUT,
    Kind.FRONT_MONEY_OUT: Direction.CASH_OUT,
    Kind.MARKER_REPAID: Direction.CASH_IN,
}
# The kinds the cage's window form records (a marker's cash repayment has its own form).
CAGE_FORM_KINDS = tuple(k for k in Kind if k not in (Kind.BUY_IN, Kind.MARKER_REPAID))
CAGE_KINDS = (*CAGE_FORM_KINDS, Kind.MARKER_REPAID)


class Patron(models.Model):
    """A person behind cash transactions: known by a patron number (`P1001`) from the first
    transaction, described until identified; optionally the rated player they are."""

    class IdType(models.TextChoices):
        DRIVERS_LICENSE = "drivers_license", "Driver's license"
        PASSPORT = "passport", "Passport"
        STATE_ID = "state_id", "State ID card"
        ALIEN_REGISTRATION = "alien_registration", "Alien registration"
        OTHER = "other", "Other government ID"

    # The identification is bound as one digest (`identification`, computed in compliance.apps).
    AUDIT_BOUND = (
        "number",
        "player",
        *DESCRIPTION_FIELDS,
        "created_at",
        "created_by",
        "identified_at",
        "identified_by",
    )

    number = models.CharField(max_length=12, unique=True)
    player = models.OneToOneField(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="patron"
    )
    # identification (the CTR's fields)
    name = models.CharField(max_length=100, blank=True)
    date_of_birth = models.DateField(null=True, blank=True)
    address = models.CharField(max_length=200, blank=True)
    id_type = models.CharField(max_length=20, choices=IdType.choices, blank=True)
    id_number = models.CharField(max_length=40, blank=True)
    id_issuer = models.CharField(max_length=60, blank=True, help_text="issuing state or country")
    id_expiry = models.DateField(null=True, blank=True)
    occupation = models.CharField(max_length=100, blank=True)
    # a random salt of the identification's digest (never shown, never in the record)
    salt = models.CharField(max_length=32)
    # description
    sex = models.CharField(max_length=20, blank=True)
    apparent_age = models.CharField(max_length=20, blank=True)
    height_build = models.CharField(max_length=60, blank=True)
    hair = models.CharField(max_length=60, blank=True)
    clothing = models.CharField(max_length=150, blank=True)
    where_seen = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    identified_at = models.DateTimeField(null=True, blank=True)
    identified_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.CheckConstraint(condition=~Q(number=""), name="patron_number_given"),
            models.CheckConstraint(
                condition=Q(identified_at__isnull=True, identified_by__isnull=True)
                | Q(identified_at__isnull=False, identified_by__isnull=False),
                name="patron_identified_complete",
            ),
        ]
        # The look-alike read on a described patron's every cash transaction (compliance.alerts):
        # described patrons by their description as compared there, trimmed and without case.
        indexes = [
            models.Index(
                *(Lower(Trim(f)) for f in DESCRIPTION_FIELDS),
                name="patron_described_alike",
                condition=Q(player__isnull=True, identified_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"patron {self.number}"

    @property
    def is_identified(self) -> bool:
        return self.identified_at is not None and all(
            getattr(self, f) not in ("", None) for f in IDENTIFICATION_FIELDS
        )


class CashTransaction(models.Model):
    """One cash transaction and whose it was: a buy-in's cash at a table seat (its slip), or
    one at the cage's window (no table, no slip): chips bought or redeemed, front money
    deposited or withdrawn (`kind`).

    `kind` is not among the bound fields: rows recorded before it existed hold the buy-in's
    kind from the column's default, which their events never named; it is in each new event's
    data, and the table's guards refuse any change to it."""

    AUDIT_BOUND = (
        "slip",
        "table",
        "seat",
        "patron",
        "direction",
        "amount_cents",
        "gaming_day",
        "at",
        "by",
    )

    slip = models.OneToOneField(
        "accounting.Slip",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="cash_transaction",
    )
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    patron = models.ForeignKey(
        Patron, on_delete=models.PROTECT, null=True, blank=True, related_name="transactions"
    )
    direction = models.CharField(max_length=3, choices=Direction.choices)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount_cents = models.BigIntegerField()
    gaming_day = models.DateField(db_index=True)
    at = models.DateTimeField()
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="cash_amount_positive"),
            models.CheckConstraint(
                condition=Q(direction__in=["in", "out"]), name="cash_direction_valid"
            ),
            models.CheckConstraint(
                condition=Q(seat__isnull=True) | Q(seat__gte=1), name="cash_seat_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_direction_display()} {self.amount_cents} at {self.table}"


class PatronDay(models.Model):
    """A patron's cash in and cash out over one gaming day, summed apart as each transaction
    is written (under a row lock: the threshold decisions read it)."""

    AUDIT_BOUND = ("patron", "gaming_day", "cash_in_cents", "cash_out_cents")

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="days")
    gaming_day = models.DateField()
    cash_in_cents = models.BigIntegerField(default=0)
    cash_out_cents = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["gaming_day", "patron"]
        constraints = [
            models.UniqueConstraint(fields=["patron", "gaming_day"], name="patron_day_once"),
            models.CheckConstraint(
                condition=Q(cash_in_cents__gte=0, cash_out_cents__gte=0),
                name="patron_day_nonnegative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.patron} on {self.gaming_day}"


class MtlEntry(models.Model):
    """A line of the Multiple Transaction Log: a cash transaction at or above the MTL threshold,
    or one that took its patron's day (in its direction) to it."""

    AUDIT_BOUND = ("transaction", "patron", "gaming_day", "direction", "day_total_cents", "at")

    transaction = models.OneToOneField(
        CashTransaction, on_delete=models.PROTECT, related_name="mtl_entry"
    )
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="mtl_entries")
    gaming_day = models.DateField(db_index=True)
    direction = models.CharField(max_length=3, choices=Direction.choices)
    day_total_cents = models.BigIntegerField(help_text="the patron's day in this direction, after")
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        verbose_name = "MTL entry"
        verbose_name_plural = "MTL entries"

    def __str__(self) -> str:
        return f"MTL {self.patron} {self.gaming_day}"


class Ctr(models.Model):
    """A Currency Transaction Report to file: one patron's cash in (or cash out) over a gaming
    day passed the CTR threshold. One per patron, day and direction (a unique constraint: two
    racing transactions make one CTR holding both); due 15 days after the day."""

    AUDIT_BOUND = ("patron", "gaming_day", "direction", "opened_at", "opened_by_transaction")

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="ctrs")
    gaming_day = models.DateField(db_index=True)
    direction = models.CharField(max_length=3, choices=Direction.choices)
    opened_at = models.DateTimeField()
    opened_by_transaction = models.OneToOneField(
        CashTransaction, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["gaming_day", "patron", "direction"]
        verbose_name = "CTR"
        constraints = [
            models.UniqueConstraint(
                fields=["patron", "gaming_day", "direction"], name="ctr_once_per_patron_day"
            ),
        ]

    def __str__(self) -> str:
        return f"CTR {self.patron} {self.gaming_day} {self.direction}"


# --- filing CTRs ---------------------------------------------------------------------------------


class CtrFiling(models.Model):
    """A CTR filed with FinCEN: when, by which compliance officer, the BSA ID (or the
    acknowledgment number) the BSA E-Filing System gave it, and a note. A CTR is history, so
    its filing is a row of its own, appended once (one per CTR), never changed."""

    AUDIT_BOUND = ("ctr", "filed_at", "filed_by", "bsa_id", "note")

    ctr = models.OneToOneField(Ctr, on_delete=models.PROTECT, related_name="filing")
    filed_at = models.DateTimeField()
    filed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    bsa_id = models.CharField(max_length=40, help_text="the BSA ID or acknowledgment number")
    note = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["filed_at", "id"]
        verbose_name = "CTR filing"
        constraints = [models.CheckConstraint(condition=~Q(bsa_id=""), name="ctr_filing_bsa_id")]

    def __str__(self) -> str:
        return f"{self.ctr} filed {self.bsa_id}"


# --- credit: lines and markers -------------------------------------------------------------------


class CreditLine(models.Model):
    """A patron's credit line as a credit manager set it (dollars, in cents). History: a change
    is a new row naming the line it replaces; each row is usable only once another person has
    approved it (`CreditLineApproval`). The line in force is the patron's newest approved one."""

    AUDIT_BOUND = ("patron", "amount_cents", "replaces", "set_by", "set_at")

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="credit_lines")
    amount_cents = models.BigIntegerField()
    replaces = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="replaced_by"
    )
    set_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    set_at = models.DateTimeField()

    class Meta:
        ordering = ["set_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="credit_line_positive"),
        ]

    def __str__(self) -> str:
        return f"credit line of {self.patron}"


class CreditLineApproval(models.Model):
    """The second person's approval of a credit line (never the one who set it)."""

    AUDIT_BOUND = ("line", "by", "at")

    line = models.OneToOneField(CreditLine, on_delete=models.PROTECT, related_name="approval")
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"approval of {self.line}"


class Marker(models.Model):
    """A marker (a counter check) issued at a table seat against the patron's approved line:
    the chips went to the table, the marker into its drop box (counted with the shift's drop).
    Signed by the pit boss, acknowledged by the patron's signature. Not a cash transaction."""

    AUDIT_BOUND = (
        "number",
        "patron",
        "line",
        "table",
        "seat",
        "gaming_day",
        "shift",
        "amount_cents",
        "patron_signed",
        "issued_by",
        "at",
    )

    number = models.CharField(max_length=12, unique=True)
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="markers")
    line = models.ForeignKey(CreditLine, on_delete=models.PROTECT, related_name="markers")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    gaming_day = models.DateField(db_index=True)
    shift = models.CharField(max_length=5)
    amount_cents = models.BigIntegerField()
    patron_signed = models.BooleanField()
    issued_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="marker_positive"),
            models.CheckConstraint(condition=Q(patron_signed=True), name="marker_patron_signed"),
            models.CheckConstraint(
                condition=Q(seat__isnull=True) | Q(seat__gte=1), name="marker_seat_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"marker {self.number}"


class MarkerRepayment(models.Model):
    """A payment against a marker at the cage: cash (then also a cash transaction of the
    cage, summed into the patron's day), chips or a cheque. Never more than outstanding."""

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CHIPS = "chips", "Chips"
        CHEQUE = "cheque", "Cheque"

    AUDIT_BOUND = ("marker", "method", "amount_cents", "cash_transaction", "by", "at")

    marker = models.ForeignKey(Marker, on_delete=models.PROTECT, related_name="repayments")
    method = models.CharField(max_length=6, choices=Method.choices)
    amount_cents = models.BigIntegerField()
    cash_transaction = models.OneToOneField(
        CashTransaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="marker_repayment",
    )
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="repayment_positive"),
            models.CheckConstraint(
                condition=Q(method="cash", cash_transaction__isnull=False)
                | Q(~Q(method="cash"), cash_transaction__isnull=True),
                name="repayment_cash_is_a_transaction",
            ),
        ]

    def __str__(self) -> str:
        return f"repayment of {self.marker}"


# --- patrons: merges, voided cash, thresholds -----------------------------------------------------


class PatronMerge(models.Model):
    """A described patron found to be an identified one: from then on the described patron's
    cash transactions and days count as the identified patron's (read through this row; the
    transactions themselves are never rewritten). Once per patron merged away."""

    AUDIT_BOUND = ("merged", "into", "by", "at", "reason")

    merged = models.OneToOneField(Patron, on_delete=models.PROTECT, related_name="merged_into")
    into = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="merged_from")
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    reason = models.CharField(max_length=500)

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(merged=models.F("into")), name="patron_merge_not_itself"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="patron_merge_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.merged} merged into {self.into}"


class CashVoid(models.Model):
    """A cash transaction whose cash did not change hands after all (its buy-in's slip was
    voided by two people): it stops counting in its patron's day from `at`. An MTL entry or a
    CTR it made stays, shown as voided."""

    AUDIT_BOUND = ("transaction", "by", "at", "reason")

    transaction = models.OneToOneField(
        CashTransaction, on_delete=models.PROTECT, related_name="void"
    )
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    reason = models.TextField()

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"void of {self.transaction}"


class ThresholdProposal(models.Model):
    """New MTL and CTR thresholds proposed by a compliance officer; in force once a second
    compliance officer approves them (`ThresholdApproval`), never edited."""

    AUDIT_BOUND = ("mtl_cents", "ctr_cents", "proposed_by", "proposed_at", "reason")

    mtl_cents = models.BigIntegerField()
    ctr_cents = models.BigIntegerField()
    proposed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    proposed_at = models.DateTimeField()
    reason = models.CharField(max_length=500)

    class Meta:
        ordering = ["-proposed_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(mtl_cents__gt=0, mtl_cents__lte=models.F("ctr_cents")),
                name="threshold_mtl_within_ctr",
            ),
        ]

    def __str__(self) -> str:
        return f"thresholds proposed {self.proposed_at:%Y-%m-%d %H:%M}"


class ThresholdApproval(models.Model):
    """A proposal approved by a second person: its thresholds decide every cash transaction
    written from `approved_at` on (the latest approval is in force)."""

    AUDIT_BOUND = ("proposal", "approved_by", "approved_at")

    proposal = models.OneToOneField(
        ThresholdProposal, on_delete=models.PROTECT, related_name="approval"
    )
    approved_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    approved_at = models.DateTimeField()

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"thresholds approved {self.approved_at:%Y-%m-%d %H:%M}"


# --- suspicious activity: alerts and cases -------------------------------------------------------


class AlertKind(models.TextChoices):
    """What an alert found (docs/compliance.md, "Suspicious activity")."""

    STRUCTURING = "structuring", "Structuring: cash just under a threshold"
    SPLIT = "split", "A CTR avoided by splitting between tables and the cage"
    LOOKALIKE = "lookalike", "Described patrons alike, together past the CTR threshold"
    CHIP_WALKING = "chip_walking", "Chip walking: cash in, little play, chips redeemed"
    BEYOND_PLAY = "beyond_play", "Cash in far beyond the patron's play"


class Alert(models.Model):
    """A pattern of suspicious activity found in a patron's cash (and play), raised once: `key`
    is unique (one alert per patron, kind and day, or per pattern). Appended, never changed:
    an alert is open until a case takes it (`CaseAlert`)."""

    AUDIT_BOUND = (
        "key",
        "kind",
        "patron",
        "direction",
        "first_day",
        "gaming_day",
        "amount_cents",
        "wagered_cents",
        "detail",
        "transaction",
        "raised_at",
        "raised_by_night",
    )

    key = models.CharField(max_length=120, unique=True)
    kind = models.CharField(max_length=20, choices=AlertKind.choices)
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="alerts")
    direction = models.CharField(max_length=3, choices=Direction.choices)
    first_day = models.DateField(help_text="the first gaming day of the pattern")
    gaming_day = models.DateField(db_index=True)
    amount_cents = models.BigIntegerField(help_text="the cash the pattern holds")
    wagered_cents = models.BigIntegerField(null=True, blank=True)
    detail = models.CharField(max_length=200, help_text="what was found, in the floor's words")
    transaction = models.ForeignKey(
        CashTransaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    raised_at = models.DateTimeField()
    raised_by_night = models.BooleanField(default=False)

    class Meta:
        ordering = ["-raised_at", "-id"]
        indexes = [models.Index(fields=["patron", "gaming_day"], name="alert_patron_day")]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="alert_amount_positive"),
            models.CheckConstraint(
                condition=Q(first_day__lte=models.F("gaming_day")), name="alert_days_in_order"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.patron} {self.gaming_day}"


class Case(models.Model):
    """A compliance officer's case about one patron: opened from alerts or by hand, over the
    gaming days of its evidence; a SAR is due 30 days after the first detection. Appended,
    never changed: notes and the decision are rows of their own."""

    AUDIT_BOUND = ("patron", "first_day", "last_day", "detected_on", "opened_at", "opened_by")

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="cases")
    first_day = models.DateField()
    last_day = models.DateField()
    detected_on = models.DateField(help_text="the first alert's detection (or the opening)")
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-opened_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(first_day__lte=models.F("last_day")), name="case_days_in_order"
            ),
        ]

    def __str__(self) -> str:
        return f"case {self.pk} {self.patron}"


class CaseAlert(models.Model):
    """An alert taken into a case (an alert is in one case at most)."""

    AUDIT_BOUND = ("case", "alert")

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="case_alerts")
    alert = models.OneToOneField(Alert, on_delete=models.PROTECT, related_name="case_alert")

    def __str__(self) -> str:
        return f"{self.alert} in {self.case}"


class CaseNote(models.Model):
    """A note on a case, appended."""

    AUDIT_BOUND = ("case", "text", "at", "by")

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="notes")
    text = models.TextField()
    at = models.DateTimeField()
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["at", "id"]
        constraints = [models.CheckConstraint(condition=~Q(text=""), name="case_note_text")]

    def __str__(self) -> str:
        return f"note on {self.case}"


class CaseDecision(models.Model):
    """A case's decision: file a SAR or not, with its reason, by a compliance officer (once)."""

    AUDIT_BOUND = ("case", "file_sar", "reason", "at", "by")

    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="decision")
    file_sar = models.BooleanField()
    reason = models.TextField()
    at = models.DateTimeField()
    by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="case_reason_given")]

    def __str__(self) -> str:
        return f"decision on {self.case}"
