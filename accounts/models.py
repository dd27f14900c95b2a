"""Sign-in failures, account locks, who changed which account, and API tokens.

`SignInFailure` rows are the shared failure counter when the lockout store is the database
(rows older than the window are pruned as new ones arrive). `AccountLock` is the lock itself,
lifted by someone with the security role (or expiring, when configured). `AccountChange`
remembers who created or changed an account, for the two-person rule on paytables and table
settings: neither the draft's author nor its approver may have created or changed the other's
account. `ApiToken` is an API token, kept by its key's SHA-256: the key itself is shown once, when
issued, and never stored.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class SignInFailure(models.Model):
    username = models.CharField(max_length=150)
    ip = models.CharField(max_length=45, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["username", "at"], name="signin_failure_user_at")]

    def __str__(self) -> str:
        return f"{self.username} at {self.at:%Y-%m-%d %H:%M:%S}"


class AccountLock(models.Model):
    # What the audit record binds (audit.binding): every event that creates or changes a row
    # carries these fields' canonical content, and verify_audit compares the row with it.
    AUDIT_BOUND = (
        "user",
        "locked_at",
        "locked_until",
        "failures",
        "ip",
        "lifted_at",
        "lifted_by",
    )

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="locks"
    )
    locked_at = models.DateTimeField(auto_now_add=True)
    locked_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Empty: locked until someone with the security role lifts it.",
    )
    failures = models.PositiveIntegerField(help_text="Failed sign-ins in the window.")
    ip = models.CharField(max_length=45, blank=True, help_text="The last failure's address.")
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-locked_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(lifted_at__isnull=True), name="one_open_lock_per_user"
            ),
            models.CheckConstraint(
                condition=Q(lifted_at__isnull=True, lifted_by__isnull=True)
                | Q(lifted_at__isnull=False),
                name="lock_lifted_by_needs_lifted_at",
            ),
        ]

    def __str__(self) -> str:
        return f"lock on {self.user} since {self.locked_at:%Y-%m-%d %H:%M}"


class AccountChange(models.Model):
    class Kind(models.TextChoices):
        CREATED = "created", "Created"
        CHANGED = "changed", "Changed"
        ROLES = "roles", "Roles changed"
        PASSWORD = "password", "Password set"

    # The two-person rule on paytables and settings reads these rows: bound to the record.
    AUDIT_BOUND = ("account", "by", "kind", "at")

    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="changes"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="account_changes_made",
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["account", "by"], name="account_change_account_by")]

    def __str__(self) -> str:
        return f"{self.account} {self.kind} by {self.by or 'the system'}"


def token_digest(key: str) -> str:
    """What is stored of an API token's key: its SHA-256 (a key is 160 random bits, so the
    digest needs no salt or key of its own to keep the key secret)."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiTokenManager(models.Manager["ApiToken"]):
    def issue(self, user: Any) -> tuple[ApiToken, str]:
        """A new token for `user` and its key, which is never stored (only its digest): the
        caller shows it once. Issuing is audited (accounts.signals), the row bound to it."""
        key = secrets.token_hex(20)
        return self.create(user=user, digest=token_digest(key)), key


class ApiToken(models.Model):
    """An API token (`Authorization: Token <key>`): its key's digest, whose it is and when it
    was issued (it expires CASINO_TOKEN_HOURS later). Tokens are issued and revoked, never
    changed. The record binds every row (the event that issues it, and the one that revokes
    it records the deletion), and the authentication refuses a row that no sealed event of its
    own binds as it stands: a token written with SQL does not sign anybody in."""

    AUDIT_BOUND = ("digest", "user", "created")

    digest = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = ApiTokenManager()

    class Meta:
        verbose_name = "API token"  # no default ordering: every API request reads one by digest

    def __str__(self) -> str:
        return f"token of {self.user} issued {self.created:%Y-%m-%d %H:%M}"
