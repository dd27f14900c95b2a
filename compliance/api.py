"""The cage's window on the API (docs/compliance.md), mounted under /api/ beside the floor's:
`POST /api/cage/transactions/` records a cash transaction at the window (the cage), `GET` lists
a gaming day's (the cage and the compliance role; everyone else 403). The same service as the
page (`compliance.services.cage_record`): the same amounts, patrons, MTL and CTR rules, the
same refusal until a patron with a CTR is identified, each refusal naming its field and saving
nothing. A patron is named by number only: no identification leaves in an answer."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from core.roles import CASH_OUT_ROLES, Role
from tables.api.pagination import FloorPagination
from tables.api.strict import AmountField, IdRouter, StrictSerializer
from tables.api.views import RoleCheckedMixin, errors
from tables.engine.money import format_cents
from tables.gaming_day import gaming_day_of

from . import selectors, services
from .models import CAGE_KINDS, CashTransaction

CAGE_READERS: tuple[Role, ...] = (Role.CAGE, Role.COMPLIANCE)
CAGE_KIND_CHOICES = [(k.value, k.label) for k in CAGE_KINDS]


class CageTransactionSerializer(serializers.ModelSerializer):
    amount = serializers.SerializerMethodField(help_text='a decimal string: "3500.00"')
    patron = serializers.SerializerMethodField(help_text="the patron's number, or null")
    by = serializers.CharField(source="by.username", read_only=True)
    mtl_entry = serializers.SerializerMethodField(help_text="whether it is on the MTL")

    class Meta:
        model = CashTransaction
        fields = [
            "id",
            "kind",
            "direction",
            "amount_cents",
            "amount",
            "patron",
            "gaming_day",
            "at",
            "by",
            "mtl_entry",
        ]

    def get_amount(self, obj: CashTransaction) -> str:
        return format_cents(obj.amount_cents)

    def get_patron(self, obj: CashTransaction) -> str | None:
        return obj.patron.number if obj.patron_id and obj.patron else None

    def get_mtl_entry(self, obj: CashTransaction) -> bool:
        return hasattr(obj, "mtl_entry")


class CageRecordSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=CAGE_KIND_CHOICES)
    amount = AmountField(max_length=20, help_text='a decimal string: "3500.00"')
    patron = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text="required from the MTL threshold (docs/compliance.md): a patron number "
        '"P1001", a player card number, or {"description": {...}} for a new patron',
    )


class CageFilterSerializer(serializers.Serializer):
    gaming_day = serializers.DateField(
        required=False, help_text="the gaming day (YYYY-MM-DD); today's by default"
    )


@extend_schema_view(
    list=extend_schema(
        summary="The cage's cash transactions of a gaming day",
        description="The cage and the compliance role read them, newest first.",
        parameters=[CageFilterSerializer],
        responses={200: CageTransactionSerializer(many=True), **errors(400, 401, 403)},
    ),
)
class CageTransactionViewSet(RoleCheckedMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Cash at the cage's window: chips bought with cash and front money deposited (cash in),
    chips redeemed for cash and front money withdrawn (cash out), each with its patron."""

    serializer_class = CageTransactionSerializer
    pagination_class = FloorPagination
    roles = {"list": CAGE_READERS, "create": CASH_OUT_ROLES}
    action_names = {
        "list": "reading the cage's cash transactions",
        "create": "recording cash at the cage",
    }

    def get_queryset(self) -> Any:
        return (
            selectors.transactions()
            .filter(kind__in=CAGE_KINDS)
            .select_related("mtl_entry")
            .order_by("-at", "-id")
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        filters = CageFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        day = filters.validated_data.get("gaming_day") or gaming_day_of(timezone.now())
        page = self.paginate_queryset(self.get_queryset().filter(gaming_day=day))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(
        summary="Record a cash transaction at the cage's window",
        description='`{"kind": "chips_bought", "amount": "3500.00", "patron": "P1001"}`. '
        "Refused (400, naming the field, nothing saved): an amount over $1,000,000.00, a "
        "transaction from the MTL threshold without its patron, a patron whose CTR waits for "
        "their identification.",
        request=CageRecordSerializer,
        responses={201: CageTransactionSerializer, **errors(400, 401, 403, 409)},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        given = CageRecordSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        tx = services.cage_record(
            kind=data["kind"], patron=data.get("patron"), amount=data["amount"], by=request.user
        )
        answer = CageTransactionSerializer(self.get_queryset().get(pk=tx.pk)).data
        return Response(answer, status=status.HTTP_201_CREATED)


router = IdRouter()
router.register("cage/transactions", CageTransactionViewSet, basename="api-cage-transaction")
urlpatterns = router.urls
