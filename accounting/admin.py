"""Table accounting in the admin: chip denominations (admins add, relabel and deactivate them
through `denomination_save`, audited; never deleted, their value never changed), and the slips,
signatures, voids and variance alerts as read-only records (slips are entered and signed on the
slip desk, the tablet or the API, never here)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from core.money import dollars
from tables.admin.common import (
    DollarsField,
    FloorAdmin,
    ReadOnlyAdmin,
    ReadOnlyInline,
    service_call,
)

from .models import ChipDenomination, Slip, SlipSignature, SlipVoid, VarianceAlert
from .services import denomination_save


class ChipDenominationForm(forms.ModelForm):  # type: ignore[type-arg]
    value_cents = DollarsField(what="the chip's value", allow_zero=False, label="Value")

    class Meta:
        model = ChipDenomination
        fields = ["value_cents", "label", "is_active"]
        help_texts = {"is_active": "Untick to stop using the chip (it is never deleted)."}


@admin.register(ChipDenomination)
class ChipDenominationAdmin(FloorAdmin):
    form = ChipDenominationForm
    list_display = ["value", "label", "is_active"]
    list_filter = ["is_active"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return ["value_cents"] if obj is not None else []

    @admin.display(description="value", ordering="value_cents")
    def value(self, obj: ChipDenomination) -> str:
        return dollars(obj.value_cents)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        with service_call():
            saved = denomination_save(
                by=request.user,
                value_cents=obj.value_cents,
                label=obj.label,
                is_active=obj.is_active,
            )
        obj.pk = saved.pk


class SignatureInline(ReadOnlyInline):
    model = SlipSignature
    fields = ["step", "role", "by", "at"]
    readonly_fields = fields


class VoidInline(ReadOnlyInline):
    model = SlipVoid
    fields = ["step", "by", "reason", "at"]
    readonly_fields = fields


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = [
        "number",
        "table",
        "kind",
        "gaming_day",
        "shift",
        "amount",
        "status",
        "created_by",
    ]
    list_filter = ["kind", "status", "shift", "table"]
    search_fields = ["=number", "table__name", "created_by__username"]
    date_hierarchy = "gaming_day"
    inlines = [SignatureInline, VoidInline]
    fields = [
        "number",
        "table",
        "kind",
        "gaming_day",
        "shift",
        "chips",
        "cash_cents",
        "markers_cents",
        "amount_cents",
        "status",
        "created_by",
        "created_at",
        "signatures_required",
        "signed_at",
        "voided_at",
        "replaces",
        "note",
    ]
    readonly_fields = fields

    @admin.display(description="amount", ordering="amount_cents")
    def amount(self, obj: Slip) -> str:
        return dollars(obj.amount_cents)


@admin.register(VarianceAlert)
class VarianceAlertAdmin(ReadOnlyAdmin):
    list_display = ["table", "gaming_day", "shift", "variance", "raised_at", "acknowledged_by"]
    list_filter = ["shift", "table"]
    fields = [
        "table",
        "gaming_day",
        "shift",
        "count_win_cents",
        "hands_win_cents",
        "variance_cents",
        "tolerance_cents",
        "raised_at",
        "acknowledged_by",
        "acknowledged_at",
        "note",
    ]
    readonly_fields = fields

    @admin.display(description="variance", ordering="variance_cents")
    def variance(self, obj: VarianceAlert) -> str:
        return dollars(obj.variance_cents)
