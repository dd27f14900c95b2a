"""The roles, as Django groups: dealer, pit boss, admin (paytables), auditor, security
(identity management: accounts, roles, passwords, tokens, sign-in locks), cage (issues fills,
receives credits) and count (the soft count team: counts and signs the drop boxes). Security
is a role of its own: an account holding it holds no other (accounts.admin enforces it), so it never
plays, approves paytables or reads the floor; where a property's signature rule names it
(accounting.signature_rules), it signs the fills and credits it carries, and reads only those."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import models

from core.prepared import PreparedQuery


class Role(models.TextChoices):
    DEALER = "dealer", "Dealer"
    PIT_BOSS = "pit_boss", "Pit boss"
    ADMIN = "admin", "Admin"
    AUDITOR = "auditor", "Auditor"
    SECURITY = "security", "Security"
    CAGE = "cage", "Cage"
    COUNT = "count", "Count team"
    HOST = "host", "Host"
    COMPLIANCE = "compliance", "Compliance"
    CREDIT = "credit", "Credit manager"
    REVENUE_AUDIT = "revenue_audit", "Revenue auditor"


def _role_names_query(user: int) -> Any:
    from django.contrib.auth.models import Group

    return Group.objects.filter(user__id=user).values_list("name", flat=True)


_ROLE_NAMES = PreparedQuery(_role_names_query, user=int)  # read on every request


def remember_roles(user: AbstractBaseUser, names: Iterable[str]) -> None:
    """The user's group names, read with the user (the API token's statement): `has_role`
    reads them instead of asking the database again for this request."""
    user._role_names = set(names)  # type: ignore[attr-defined]


def has_role(user: AbstractBaseUser | AnonymousUser | None, role: Role) -> bool:
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    cache = getattr(user, "_role_names", None)
    if cache is None:
        cache = set(_ROLE_NAMES.column(user=user.pk))
        user._role_names = cache  # type: ignore[union-attr]
    return role.value in cache


def has_any_role(user: AbstractBaseUser | AnonymousUser | None, roles: Iterable[Role]) -> bool:
    return any(has_role(user, role) for role in roles)


# The role sets, declared once: pages, admin, API and services all check these.
FLOOR_ROLES: tuple[Role, ...] = (Role.DEALER, Role.PIT_BOSS, Role.ADMIN, Role.AUDITOR)
OVERSIGHT: tuple[Role, ...] = (Role.PIT_BOSS, Role.ADMIN, Role.AUDITOR)  # read every table
RECORD_READERS: tuple[Role, ...] = (Role.PIT_BOSS, Role.AUDITOR)  # the audit trail, reports
DEALERS: tuple[Role, ...] = (Role.DEALER,)
PIT_BOSSES: tuple[Role, ...] = (Role.PIT_BOSS,)
ADMINS: tuple[Role, ...] = (Role.ADMIN,)
SECURITY: tuple[Role, ...] = (Role.SECURITY,)
# Table accounting (docs/accounting.md): the cage and the count team work on slips and read
# the tables, nothing else of the floor; the slip desk is theirs and the pit boss's (auditors
# read it); the reconciliation is read like the reports.
ACCOUNTING_ROLES: tuple[Role, ...] = (Role.CAGE, Role.COUNT)
TABLE_READERS: tuple[Role, ...] = FLOOR_ROLES + ACCOUNTING_ROLES
SLIP_DESK: tuple[Role, ...] = (Role.PIT_BOSS, Role.CAGE, Role.COUNT, Role.AUDITOR)
# The slip API's roles per action (accounting.rules refines them by the slip's kind).
SLIP_READERS: tuple[Role, ...] = (Role.DEALER, *SLIP_DESK)
SLIP_CREATORS: tuple[Role, ...] = (Role.DEALER, Role.PIT_BOSS, Role.COUNT)
SLIP_SIGNERS: tuple[Role, ...] = (Role.DEALER, Role.PIT_BOSS, Role.CAGE, Role.COUNT)
# Security carries fills and credits where the property's signature rule names it
# (accounting.signature_rules): it signs those slips through the API, nothing else of the floor.
SLIP_SIGNERS += (Role.SECURITY,)
# Rated play (docs/ratings.md): hosts and pit bosses keep the players and their comps; auditors
# read them; a dealer seats a rated player at the table they are signed in at and sees only the
# card number and first name.
PLAYER_MANAGERS: tuple[Role, ...] = (Role.HOST, Role.PIT_BOSS)
PLAYER_READERS: tuple[Role, ...] = (Role.HOST, Role.PIT_BOSS, Role.AUDITOR)
SEATERS: tuple[Role, ...] = (Role.DEALER, Role.PIT_BOSS)
RATING_ADJUSTERS: tuple[Role, ...] = PIT_BOSSES
# Cash compliance (docs/compliance.md): the compliance role reads the patrons, the MTL and the
# CTRs; the cage and the compliance role see and enter a patron's identification; everyone
# else sees only the patron's number (and a dealer records a patron's description).
COMPLIANCE_READERS: tuple[Role, ...] = (Role.COMPLIANCE,)
IDENTIFICATION_READERS: tuple[Role, ...] = (Role.COMPLIANCE, Role.CAGE)
PATRON_IDENTIFIERS: tuple[Role, ...] = (Role.CAGE, Role.COMPLIANCE)
CASH_OUT_ROLES: tuple[Role, ...] = (Role.CAGE,)
# Markers (casino credit, docs/compliance.md): a credit manager sets a patron's line and another
# approves it; a pit boss issues a marker at the table; the cage takes repayments; the credit
# page is read by those and, without acting, by the compliance role and auditors.
CREDIT_MANAGERS: tuple[Role, ...] = (Role.CREDIT,)
MARKER_ISSUERS: tuple[Role, ...] = (Role.PIT_BOSS,)
MARKER_REPAYERS: tuple[Role, ...] = (Role.CAGE,)
CREDIT_READERS: tuple[Role, ...] = (Role.CREDIT, Role.CAGE, Role.COMPLIANCE, Role.AUDITOR)
# Who merges a described patron into an identified one; who proposes and (a second person)
# approves the MTL and CTR thresholds.
PATRON_MERGERS: tuple[Role, ...] = (Role.COMPLIANCE, Role.CAGE)
THRESHOLD_SETTERS: tuple[Role, ...] = (Role.COMPLIANCE,)
# Who issues and revokes a table's display key (the players' display, tables.services.displays).
DISPLAY_KEEPERS: tuple[Role, ...] = (Role.PIT_BOSS, Role.ADMIN)
# The Master Game Report (docs/regulator.md): read by pit bosses and auditors; reviewed by an
# auditor or a revenue auditor; signed final by a revenue auditor who did not work that day's
# floor; its adjustments entered by one of them and approved by another.
MGR_READERS: tuple[Role, ...] = (Role.PIT_BOSS, Role.AUDITOR, Role.REVENUE_AUDIT)
MGR_REVIEWERS: tuple[Role, ...] = (Role.AUDITOR, Role.REVENUE_AUDIT)
MGR_FINALIZERS: tuple[Role, ...] = (Role.REVENUE_AUDIT,)
MGR_ADJUSTERS: tuple[Role, ...] = (Role.AUDITOR, Role.REVENUE_AUDIT)
# Who may sign in to the Django admin at all (each then sees what their permissions allow).
ADMIN_SITE: tuple[Role, ...] = (Role.PIT_BOSS, Role.ADMIN, Role.AUDITOR, Role.SECURITY)


def role_names(roles: Iterable[Role]) -> str:
    """`(PIT_BOSS, AUDITOR)` -> `"pit boss or auditor"` (for refusal messages)."""
    names = [str(r.label).lower() for r in roles]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def require(
    user: AbstractBaseUser | AnonymousUser | None,
    roles: Iterable[Role],
    action: str,
    *,
    message: str | None = None,
) -> None:
    """The one role check: PermissionDenied ("only a pit boss may void a round") unless `user`
    holds one of `roles`. Pages, admin, API and services call it; the refusal is recorded in
    the audit trail by whoever answers the request (`audit.services.audit_refused`)."""
    roles = tuple(roles)
    if not has_any_role(user, roles):
        raise PermissionDenied(message or f"only a {role_names(roles)} may {action}")


def roles_of(user: AbstractBaseUser | AnonymousUser | None) -> list[str]:
    return [r.value for r in Role if has_role(user, r)]


_VIEW = ("view",)
_EDIT = ("view", "change", "add")
_FLOOR_VIEW = {
    m: _VIEW
    for m in (
        "pit",
        "table",
        "round",
        "settlementline",
        "progressivemeter",
        "meterentry",
        "paytableversion",
        "dealersession",
        "hand",
        "handplayer",
        "tablesettingsversion",
        "tablesettingsassignment",
        "amountlimit",
    )
}
_ACCOUNTING_VIEW = {
    m: _VIEW for m in ("chipdenomination", "slip", "slipsignature", "slipvoid", "variancealert")
}
# Model permissions each role's group holds (the Django admin uses them).
ROLE_PERMISSIONS: dict[Role, dict[str, dict[str, tuple[str, ...]]]] = {
    Role.DEALER: {},
    Role.PIT_BOSS: {"tables": _FLOOR_VIEW, "accounting": _ACCOUNTING_VIEW},
    Role.ADMIN: {
        "tables": {
            **_FLOOR_VIEW,
            "pit": _EDIT,
            "table": _EDIT,
            "paytableversion": _EDIT,
            "tablesettingsversion": _EDIT,
            "tablesettingsassignment": ("view", "add"),
            "progressivemeter": _EDIT,
            "meterentry": ("view", "add"),
            "amountlimit": _EDIT,
        },
        "accounting": {**_ACCOUNTING_VIEW, "chipdenomination": _EDIT},
    },
    Role.AUDITOR: {
        "tables": _FLOOR_VIEW,
        "audit": {"auditevent": _VIEW},
        "accounting": _ACCOUNTING_VIEW,
    },
    Role.SECURITY: {
        "auth": {"user": _EDIT, "group": _VIEW},
        "accounts": {"accountlock": ("view", "change"), "apitoken": ("view", "delete")},
    },
    # The cage and the count team work on their own pages (/accounting/), not in the admin.
    Role.CAGE: {},
    Role.COUNT: {},
    # Hosts work on the players' pages (/players/), not in the admin.
    Role.HOST: {},
    # Compliance works on its own pages (/compliance/).
    Role.COMPLIANCE: {},
    # Credit managers work on the credit page (/compliance/credit/).
    Role.CREDIT: {},
    # Revenue auditors work on the Master Game Report's pages (/reports/mgr/).
    Role.REVENUE_AUDIT: {},
}


def ensure_role_groups(group_model: Any = None, permission_model: Any = None) -> None:
    """Create the role groups with exactly their permissions (idempotent; the migrations and
    seed_demo call it, so a flushed test database gets them back). A permission whose app is
    not migrated yet is skipped; the later migration that calls this again adds it."""
    if group_model is None or permission_model is None:
        from django.contrib.auth.models import Group, Permission

        group_model, permission_model = Group, Permission
    for role, apps_perms in ROLE_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=role.value)
        wanted = []
        for app_label, perms in apps_perms.items():
            for model, actions in perms.items():
                for action in actions:
                    permission = permission_model.objects.filter(
                        content_type__app_label=app_label, codename=f"{action}_{model}"
                    ).first()
                    if permission is not None:
                        wanted.append(permission)
        group.permissions.set(wanted)
