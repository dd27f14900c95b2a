"""Amount limits: the most one entry of a kind may carry (each kind of slip, a poker player's
buy-in), typed in dollars. Set through `limit_set` (on the audit chain); the list shows every
kind's limit in force, the default where no admin set one. Never deleted."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse

from core.money import dollars
from tables.models import AmountLimit, LimitKind
from tables.services.limits import limit_set, limits_in_force

from .common import DollarsField, FloorAdmin, by_at, service_call


class AmountLimitForm(forms.ModelForm):  # type: ignore[type-arg]
    max_cents = DollarsField(
        what="the limit",
        label="The most one entry may carry ($)",
        allow_zero=False,
        help_text="an entry above it is refused, naming the field and this limit",
    )

    class Meta:
        model = AmountLimit
        fields = ["kind", "max_cents"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kind = self.fields.get("kind")
        if kind is not None:  # a new row: the kinds no admin has set yet
            taken = set(AmountLimit.objects.values_list("kind", flat=True))
            kind.choices = [
                (k, f"{label} (default {dollars(AmountLimit.DEFAULT_MAX_CENTS[k])})")
                for k, label in LimitKind.choices
                if k not in taken
            ]


@admin.register(AmountLimit)
class AmountLimitAdmin(FloorAdmin):
    form = AmountLimitForm
    list_display = ["kind_label", "limit", "changed"]
    change_list_template = "admin/tables/amountlimit/change_list.html"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ["kind"] if obj is not None else []

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        # The service writes and audits the row (the admin's own save is never used).
        kind = form.instance.kind if change else form.cleaned_data["kind"]
        with service_call():
            return limit_set(kind=kind, max_cents=form.cleaned_data["max_cents"], by=request.user)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Saved by `limit_set` in `save_form`."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """A limit has no related rows."""

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        in_force = [
            {"label": LimitKind(kind).label, "limit": dollars(cents), "set": set_}
            for kind, (cents, set_) in limits_in_force().items()
        ]
        return super().changelist_view(request, {"in_force": in_force, **(extra_context or {})})

    @admin.display(description="kind", ordering="kind")
    def kind_label(self, obj: AmountLimit) -> str:
        return str(LimitKind(obj.kind).label)

    @admin.display(description="the most one entry may carry", ordering="max_cents")
    def limit(self, obj: AmountLimit) -> str:
        return dollars(obj.max_cents)

    @admin.display(description="set by", ordering="changed_at")
    def changed(self, obj: AmountLimit) -> str:
        return by_at(obj.changed_by, obj.changed_at)
