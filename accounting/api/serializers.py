"""The accounting API's representations: slips (money as cents and as decimal strings), chip
denominations, variance alerts and the reconciliation's figures."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tables.api.strict import AmountField, IdField, QueryIdField, StrictSerializer, TextField
from tables.engine.money import format_cents
from tables.models import Table

from ..models import ChipDenomination, Slip, SlipSignature, SlipVoid, VarianceAlert
from ..signature_rules import steps_of


class ChipDenominationSerializer(serializers.ModelSerializer):
    value = serializers.SerializerMethodField()

    class Meta:
        model = ChipDenomination
        fields = ["id", "value_cents", "value", "label", "is_active"]

    def get_value(self, obj: ChipDenomination) -> str:
        return format_cents(obj.value_cents)


class SlipSignatureSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="by.username")
    meaning = serializers.SerializerMethodField()

    class Meta:
        model = SlipSignature
        fields = ["step", "role", "by", "at", "meaning"]

    def get_meaning(self, obj: SlipSignature) -> str:
        return steps_of(obj.slip)[obj.step - 1].meaning


class SlipVoidSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="by.username")

    class Meta:
        model = SlipVoid
        fields = ["step", "by", "reason", "at"]


class SlipSerializer(serializers.ModelSerializer):
    table_name = serializers.CharField(source="table.name", read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True)
    amount = serializers.SerializerMethodField()
    chips = serializers.SerializerMethodField()
    signatures = SlipSignatureSerializer(many=True, read_only=True)
    voids = SlipVoidSerializer(many=True, read_only=True)
    replaces = serializers.SerializerMethodField()
    next_signature = serializers.SerializerMethodField(
        help_text="Who signs next (the roles), or null when the slip needs no more."
    )
    count = serializers.SerializerMethodField(
        help_text="A drop counted by its parts: its box, bills by denomination (counts, keyed "
        "by cents), coupons (cents); null otherwise."
    )

    class Meta:
        model = Slip
        fields = [
            "id",
            "number",
            "table",
            "table_name",
            "kind",
            "gaming_day",
            "shift",
            "chips",
            "cash_cents",
            "markers_cents",
            "amount_cents",
            "amount",
            "count",
            "status",
            "created_by",
            "created_at",
            "signatures_required",
            "signatures",
            "next_signature",
            "signed_at",
            "voids",
            "voided_at",
            "replaces",
            "note",
        ]

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"}})
    def get_chips(self, obj: Slip) -> dict[str, int]:
        return {format_cents(int(c)): n for c, n in obj.chips.items()}

    def get_amount(self, obj: Slip) -> str:
        return format_cents(obj.amount_cents)

    def get_replaces(self, obj: Slip) -> int | None:
        return obj.replaces.number if obj.replaces else None

    @extend_schema_field({"type": "object", "nullable": True})
    def get_count(self, obj: Slip) -> dict[str, Any] | None:
        try:
            count = obj.drop_count
        except Slip.drop_count.RelatedObjectDoesNotExist:
            return None
        return {
            "box": count.box_number,
            "bills": count.bills,
            "match_play_cents": count.match_play_cents,
            "promotional_cents": count.promotional_cents,
        }

    @extend_schema_field({"type": "object", "nullable": True})
    def get_next_signature(self, obj: Slip) -> dict[str, Any] | None:
        if obj.status != Slip.Status.PENDING:
            return None
        step = len(obj.signatures.all()) + 1
        this = steps_of(obj)[step - 1]
        return {"step": step, "roles": [r.value for r in this.roles], "meaning": this.meaning}


class SlipCreateSerializer(StrictSerializer):
    """`chips` ({"5.00": 40}: whole counts) for an opener, closer, fill or credit; `amount` (a
    decimal string) for a drop (its cash; `markers` and `chips` found in the box may be added)
    or a buy-in. The gaming day is today's, or the previous one with a `reason`, whatever the
    kind (the morning count of yesterday's drop boxes gives one too)."""

    table = IdField(queryset=Table.objects.all())
    kind = serializers.ChoiceField(choices=Slip.Kind.choices)
    chips = serializers.DictField(child=serializers.JSONField(), required=False)
    amount = AmountField(required=False, max_length=20, help_text='a decimal string: "1234.00"')
    markers = AmountField(required=False, max_length=20, help_text='a decimal string: "50.00"')
    gaming_day = serializers.DateField(required=False)
    shift = TextField(required=False, max_length=5)
    replaces = IdField(
        queryset=Slip.objects.all(), required=False, help_text="the voided slip this one replaces"
    )
    note = TextField(required=False, allow_blank=True, max_length=500)
    reason = TextField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="why a slip is entered for the previous gaming day (recorded on the chain)",
    )
    seat = serializers.IntegerField(
        required=False, min_value=1, max_value=7, help_text="a buy-in: the seat of the cash"
    )
    patron = serializers.JSONField(
        required=False,
        help_text="a buy-in: its patron (required from the MTL threshold, docs/compliance.md): "
        'a patron number "P1001", a player card number, or {"description": {...}}',
    )
    bills = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text='a drop counted by its parts: the bills by denomination, {"100": 12, "20": 40} '
        "(counts; the drop's cash is their total, so no amount)",
    )
    coupons = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text='a drop: the coupons by value, {"match_play": "50.00", "promotional": "25.00"}',
    )
    box = serializers.IntegerField(
        required=False, min_value=1, help_text="a drop: the number of the box counted"
    )


class SlipVoidRequestSerializer(StrictSerializer):
    reason = TextField(max_length=500)


class SlipFilterSerializer(serializers.Serializer):
    table = QueryIdField(required=False, min_value=1)
    kind = serializers.ChoiceField(choices=Slip.Kind.choices, required=False)
    status = serializers.ChoiceField(choices=Slip.Status.choices, required=False)
    gaming_day = serializers.DateField(required=False)
    shift = serializers.CharField(required=False, max_length=5)


class VarianceAlertSerializer(serializers.ModelSerializer):
    table_name = serializers.CharField(source="table.name", read_only=True)
    acknowledged_by = serializers.CharField(
        source="acknowledged_by.username", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = VarianceAlert
        fields = [
            "id",
            "table",
            "table_name",
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


class AcknowledgeSerializer(StrictSerializer):
    note = TextField(max_length=2000)


class ReconciliationQuerySerializer(serializers.Serializer):
    gaming_day = serializers.DateField()
    table = QueryIdField(required=False, min_value=1)
