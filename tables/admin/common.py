"""What the floor's admin pages share: money typed in dollars, the service-call wrapper that
turns a refusal into a message, and the base admins (configuration; read-only records)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime

from audit.kinds import EventKind
from audit.services import audit_record, audit_refused
from core.errors import ServiceError
from core.money import dollars
from core.roles import ADMINS, has_any_role
from tables.engine.errors import EngineError
from tables.engine.money import format_cents, parse_cents
from tables.models import Table

admin.site.site_header = "Casino floor administration"
admin.site.site_title = "Casino floor admin"
admin.site.index_title = "Floor configuration and records"


# --- money and display helpers -------------------------------------------------------------


def pretty_json(data: Any) -> str:
    return format_html("<pre style='margin:0'>{}</pre>", json.dumps(data, indent=2, sort_keys=True))


def jsonable(value: Any) -> Any:
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, Decimal):
        return str(value)
    return value


def dollars_column(field: str, description: str, *, ordering: bool = False) -> Any:
    """A read-only column of an amount in cents, shown in dollars."""

    @admin.display(description=description, ordering=field if ordering else None)
    def column(self: Any, obj: Any) -> str:
        return dollars(getattr(obj, field))

    return column


def json_column(field: str, description: str) -> Any:
    """A read-only column of a JSON field, indented ("—" when empty)."""

    @admin.display(description=description)
    def column(self: Any, obj: Any) -> str:
        value = getattr(obj, field)
        return pretty_json(value) if value is not None else "—"

    return column


def admin_link(obj: models.Model, text: str | None = None) -> str:
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text or str(obj))


def table_links(tables: Any) -> str:
    links = [admin_link(t, t.name) for t in tables]
    return format_html_join(", ", "{}", ((link,) for link in links)) if links else "—"


def by_at(user: Any, at: Any) -> str:
    """Who and when, on two lines (a changelist cell)."""
    if user is None:
        return "—"
    return format_html(
        "{}<br><small>{}</small>",
        user.get_username(),
        date_format(localtime(at), "DATETIME_FORMAT"),
    )


class DollarsField(forms.CharField):
    """Money typed in dollars (`"12.50"`, `"$1,200"`) and held as integer cents.

    `signed` accepts a leading `+` or `-` (a correction); `what` names the amount in errors.
    """

    def __init__(
        self, *, what: str, signed: bool = False, allow_zero: bool = True, **kwargs: Any
    ) -> None:
        self.what, self.signed, self.allow_zero = what, signed, allow_zero
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "size": 12}))
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return format_cents(value)
        return value

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        sign = 1
        if self.signed and text[0] in "+-":
            sign = -1 if text[0] == "-" else 1
            text = text[1:].strip()
        text = text.replace(",", "").removeprefix("$").strip()
        try:
            cents = parse_cents(text, where=self.what, allow_zero=self.allow_zero)
        except EngineError as err:
            raise ValidationError(err.message, code="invalid") from None
        return sign * cents


class PercentField(forms.CharField):
    """A rate typed as a percentage (`"20"` is 20 %) and held as a fraction (`0.2000`)."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Decimal):
            return f"{(value * 100).quantize(Decimal('0.01')):f}"
        return value

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        try:
            percent = Decimal(text.removesuffix("%").strip())
        except InvalidOperation:
            raise ValidationError(f"the rate must be a percentage like 20, not {text!r}") from None
        if not percent.is_finite() or percent != percent.quantize(Decimal("0.01")):
            raise ValidationError("the rate may have at most two decimals (20.25 %)")
        if not Decimal(0) <= percent < 100:
            raise ValidationError("the rate must be from 0 % to under 100 %")
        return (percent / 100).quantize(Decimal("0.0001"))


# --- service calls and permissions ----------------------------------------------------------


def is_floor_admin(request: HttpRequest) -> bool:
    return has_any_role(request.user, ADMINS)


class ServiceRefused(Exception):
    """A service refused a write the form had accepted (a race, or a role the user lacks)."""

    def __init__(self, message: str, *, permission: bool) -> None:
        super().__init__(message)
        self.permission = permission


@contextmanager
def service_call() -> Iterator[None]:
    """Turn a service's refusal into `ServiceRefused`, which the change form reports."""
    try:
        yield
    except ServiceError as err:
        raise ServiceRefused(err.message, permission=False) from err
    except PermissionDenied as err:
        raise ServiceRefused(str(err) or "you may not do that", permission=True) from err


def audit_refused_permission(request: HttpRequest, reason: str) -> None:
    """The record `audit.middleware` writes for a 403, for a refusal shown as a message.

    Call it outside the refused write's transaction, so the record survives its rollback.
    """
    audit_refused(actor=request.user, method=request.method or "", path=request.path, reason=reason)


class ServiceFormMixin:
    """Reports a service's refusal at saving as an error message; nothing of the form is saved
    (the admin runs the form in a transaction, which the refusal rolls back)."""

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(  # type: ignore[misc, no-any-return]
                request, object_id, form_url, extra_context
            )
        except ServiceRefused as refusal:
            if refusal.permission:
                audit_refused_permission(request, str(refusal))
            self.message_user(  # type: ignore[attr-defined]
                request, f"Nothing was saved: {refusal}", messages.ERROR
            )
            return HttpResponseRedirect(request.get_full_path())


class FloorAdmin(ServiceFormMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """Writes need the model permission and the admin role; nothing on the floor is deleted."""

    audit_noun = ""  # the audit kinds of plain saves: "<noun>.created", "<noun>.changed"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) and is_floor_admin(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) and is_floor_admin(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_config(
        self, request: HttpRequest, obj: Any, form: Any, change: bool, skip: Sequence[str] = ()
    ) -> None:
        """Save plain configuration and audit it.

        A change writes only the columns the form changed, so a value a service keeps (a
        meter's value, a table's paytable version) is never overwritten with a stale copy.
        """
        model_fields = {f.name for f in obj._meta.concrete_fields}
        if change:
            changed = [f for f in form.changed_data if f in model_fields and f not in skip]
            if not changed:
                return
            obj.save(update_fields=changed)
            obj.refresh_from_db()  # what the event binds: the row as stored, other columns too
            data = {
                "before": {f: jsonable(form.initial.get(f)) for f in changed},
                "after": {f: jsonable(form.cleaned_data[f]) for f in changed},
            }
        else:
            obj.save()
            data = {
                f: jsonable(v)
                for f, v in form.cleaned_data.items()
                if f in model_fields and f not in skip
            }
        noun = self.audit_noun or obj._meta.model_name
        audit_record(
            actor=request.user,
            kind=EventKind(f"{noun}.{'changed' if change else 'created'}"),
            obj=obj,
            table_name=obj.name if isinstance(obj, Table) else "",
            data=data,
        )

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        self.save_config(request, obj, form, change)


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A record of what happened: viewed, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    max_num = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
