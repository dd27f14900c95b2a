"""The security role's pages in the admin: accounts and their roles, passwords, API tokens
and sign-in locks. Paytable admins and the floor roles see none of them.

No superuser is made here (the form has no such field; superusers come only from
`manage.py createsuperuser` on the server), and a superuser's account is changed only by a
superuser. An account's roles are role groups only; security is held alone; nobody changes
their own roles or deactivates themselves. Accounts are deactivated, never deleted (their
history stays). Every change is on the audit chain (accounts.signals).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Now
from django.http import HttpRequest
from django.utils.formats import date_format
from django.utils.timezone import localtime

from core.errors import ServiceError
from core.roles import ADMIN_SITE, SECURITY, Role, has_any_role

from .authentication import revoke_token, token_expired
from .lockout import lockout_lift
from .models import AccountLock, ApiToken

User = get_user_model()
ADMIN_SITE_ROLES = {r.value for r in ADMIN_SITE}


def is_security(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and (user.is_superuser or has_any_role(user, SECURITY)))


def check_roles(groups: Any, *, account: Any, acting: Any) -> None:
    """Security is held alone; an account's own roles are changed by someone else."""
    names = {g.name for g in groups}
    unknown = names - set(Role.values)
    if unknown:
        raise forms.ValidationError(f"{sorted(unknown)[0]} is not a role")
    if Role.SECURITY.value in names and len(names) > 1:
        raise forms.ValidationError(
            "security is a role of its own: an account with it holds no other role"
        )
    if account is not None and account.pk is not None and account.pk == acting.pk:
        before = set(account.groups.values_list("name", flat=True))
        if before != names:
            raise forms.ValidationError("your own roles are changed by another security officer")


class _RolesFormMixin(forms.ModelForm):  # type: ignore[type-arg]
    acting_user: Any = None

    def clean_groups(self) -> Any:
        groups = self.cleaned_data.get("groups")
        check_roles(groups or [], account=self.instance, acting=self.acting_user)
        return groups

    def clean_is_active(self) -> Any:
        active = self.cleaned_data.get("is_active")
        if self.instance.pk is not None and self.instance.pk == self.acting_user.pk and not active:
            raise forms.ValidationError("you cannot deactivate your own account")
        return active


@admin.register(AccountLock)
class AccountLockAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "locked_at", "failures", "ip", "locked_until", "lifted_at", "lifted_by")
    list_filter = ("lifted_at",)
    search_fields = ("user__username",)
    readonly_fields = list_display
    actions = ["lift_locks"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_security(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_security(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # lifted with the action, which goes through the audited service

    def has_lift_permission(self, request: HttpRequest) -> bool:
        return is_security(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Lift the selected locks", permissions=["lift"])
    def lift_locks(self, request: HttpRequest, queryset: QuerySet[AccountLock]) -> None:
        for lock in queryset.filter(lifted_at__isnull=True):
            try:
                lockout_lift(lock=lock, by=request.user)  # type: ignore[arg-type]
            except (ServiceError, PermissionDenied) as err:
                self.message_user(request, f"{lock}: {err}", messages.ERROR)
            else:
                self.message_user(request, f"{lock.user} may sign in again.", messages.SUCCESS)


admin.site.unregister(User)


def open_locks() -> QuerySet[AccountLock]:
    """The sign-in locks in force now: not lifted, and not past their end (when they have one;
    accounts.lockout.open_lock reads one account's the same way)."""
    return AccountLock.objects.filter(lifted_at__isnull=True).filter(
        Q(locked_until__isnull=True) | Q(locked_until__gt=Now())
    )


class LockedFilter(admin.SimpleListFilter):
    """The accounts locked after failed sign-ins now, or those not locked."""

    title = "sign-in lock"
    parameter_name = "locked"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Locked now"), ("no", "Not locked")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(lock_open=True)
        if self.value() == "no":
            return queryset.filter(lock_open=False)
        return queryset


@admin.register(User)
class AccountAdmin(DjangoUserAdmin):
    list_display = (
        "username",
        "first_name",
        "last_name",
        "roles",
        "is_active",
        "sign_in_lock",
        "last_login",
    )
    list_filter = ("is_active", LockedFilter, "groups")
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        ("Person", {"fields": ("first_name", "last_name", "email")}),
        ("Access", {"fields": ("is_active", "groups")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": (
                    "username",
                    "first_name",
                    "last_name",
                    "groups",
                    "password1",
                    "password2",
                ),
            },
        ),
    )
    readonly_fields = ("last_login", "date_joined")
    filter_horizontal = ()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_security(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_security(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_security(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not is_security(request):
            return False
        return not (obj is not None and obj.is_superuser and not request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # deactivate instead: the account's history stays

    @admin.display(description="roles")
    def roles(self, obj: Any) -> str:
        return ", ".join(sorted(g.name for g in obj.groups.all())) or "—"

    @admin.display(description="sign-in lock", ordering="-lock_open")
    def sign_in_lock(self, obj: Any) -> str:
        """Whether the account is locked after failed sign-ins, and until when."""
        if not obj.lock_open:
            return "—"
        if obj.lock_ends is None:
            return "Locked until security lifts it"
        return f"Locked until {date_format(localtime(obj.lock_ends), 'Y-m-d H:i')}"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        locks = open_locks().filter(user=OuterRef("pk")).order_by("-locked_at")
        return (
            super()
            .get_queryset(request)
            .prefetch_related("groups")
            .annotate(
                lock_open=Exists(locks),
                lock_ends=Subquery(locks.values("locked_until")[:1]),
            )
        )

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "groups":
            kwargs["queryset"] = Group.objects.filter(name__in=Role.values).order_by("name")
            kwargs["widget"] = forms.CheckboxSelectMultiple
            kwargs["help_text"] = "Security is held alone."
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        base = super().get_form(request, obj, change=change, **kwargs)
        form = type(base.__name__, (_RolesFormMixin, base), {"acting_user": request.user})
        return form

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        user = form.instance
        names = set(user.groups.values_list("name", flat=True))
        staff = bool(names & ADMIN_SITE_ROLES)
        if user.is_staff != staff:
            user.is_staff = staff
            user.save(update_fields=["is_staff"])


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """API tokens: who holds one, since when, until when. The site keeps no key (only its
    digest; the key is shown once, to whoever asked for it at `/api/auth-token/`): no detail
    page. Security revokes tokens with the action, each revocation on the record."""

    list_display = ("user", "created", "expires", "expired")
    list_display_links = None
    ordering = ("-created",)
    search_fields = ("user__username",)
    actions = ["revoke"]

    @admin.display(description="expires")
    def expires(self, obj: ApiToken) -> Any:
        return obj.created + timedelta(hours=settings.CASINO_TOKEN_HOURS)

    @admin.display(boolean=True)
    def expired(self, obj: ApiToken) -> bool:
        return token_expired(obj)

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).select_related("user")

    @admin.action(description="Revoke the selected tokens", permissions=["revoke"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        revoked = sum(revoke_token(token, "revoked by security") for token in queryset)
        self.message_user(request, f"Revoked {revoked} token(s).")

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return is_security(request)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_security(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and is_security(request)  # the list only

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # revoked with the action

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # issued to the account itself, by its password (/api/auth-token/)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
