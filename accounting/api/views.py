"""The accounting API: slips (enter, sign, void, read), chip denominations, variance alerts
(read, acknowledge) and the reconciliation per table, shift and gaming day. Views parse, check
the caller's role up front (the services check the kind's own rule: who may enter, sign or void
which slip), call one service or selector, and render; errors have the API's one shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from core.roles import (
    PIT_BOSSES,
    RECORD_READERS,
    SLIP_CREATORS,
    SLIP_READERS,
    SLIP_SIGNERS,
    TABLE_READERS,
)
from tables.api.pagination import FloorPagination
from tables.api.views import OBJECT_READ_ERRORS, READ_ERRORS, RoleCheckedMixin, errors
from tables.models import Table

from .. import selectors, services
from ..models import ChipDenomination, VarianceAlert
from .serializers import (
    AcknowledgeSerializer,
    ChipDenominationSerializer,
    ReconciliationQuerySerializer,
    SlipCreateSerializer,
    SlipFilterSerializer,
    SlipSerializer,
    SlipVoidRequestSerializer,
    VarianceAlertSerializer,
)

CHIP_READERS = TABLE_READERS  # every floor role, the cage and the count team


@extend_schema_view(
    list=extend_schema(
        summary="List slips",
        description="Pit bosses and auditors see every slip; the cage fills and credits; the "
        "count team drops; a dealer the slips of the table they are signed in at. Newest first.",
        parameters=[SlipFilterSerializer],
        responses={200: SlipSerializer(many=True), **errors(400, 401, 403)},
    ),
    retrieve=extend_schema(
        summary="A slip", responses={200: SlipSerializer, **errors(*OBJECT_READ_ERRORS)}
    ),
)
class SlipViewSet(
    RoleCheckedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Slips: openers and closers (the tray by denomination), fills, credits, drops and buy-ins.
    Two people on every slip but a buy-in; only signed slips count; a wrong slip is voided by
    two people and replaced, never edited (docs/accounting.md)."""

    serializer_class = SlipSerializer
    pagination_class = FloorPagination
    roles = {
        "list": SLIP_READERS,
        "retrieve": SLIP_READERS,
        "create": SLIP_CREATORS,
        "sign": SLIP_SIGNERS,
        "void": SLIP_SIGNERS,
    }
    action_names = {
        "list": "reading slips",
        "retrieve": "reading a slip",
        "create": "entering a slip",
        "sign": "signing a slip",
        "void": "voiding a slip",
    }
    bodyless = frozenset({"sign"})

    def get_queryset(self) -> Any:
        return selectors.slips_visible_to(self.request.user)

    def _render(self, slip: Any, code: int = status.HTTP_200_OK) -> Response:
        return Response(SlipSerializer(selectors.slips().get(pk=slip.pk)).data, status=code)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        filters = SlipFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        qs = self.get_queryset()
        given = filters.validated_data
        for name, lookup in (
            ("table", "table_id"),
            ("kind", "kind"),
            ("status", "status"),
            ("gaming_day", "gaming_day"),
            ("shift", "shift"),
        ):
            if name in given:
                qs = qs.filter(**{lookup: given[name]})
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(
        summary="Enter a slip",
        description='`{"table": ID, "kind": "fill", "chips": {"5.00": 40}}`, or `"amount": '
        '"1234.00"` for a drop or a buy-in. Who may enter each kind: docs/accounting.md.',
        request=SlipCreateSerializer,
        responses={201: SlipSerializer, **errors(400, 401, 403, 409)},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        given = SlipCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        slip = services.slip_create(
            table=data["table"],
            kind=data["kind"],
            by=request.user,
            chips=data.get("chips"),
            amount=data.get("amount"),
            markers=data.get("markers"),
            gaming_day=data.get("gaming_day"),
            shift=data.get("shift"),
            replaces=data.get("replaces"),
            note=data.get("note", ""),
            reason=data.get("reason", ""),
            seat=data.get("seat"),
            patron=data.get("patron"),
            bills=data.get("bills"),
            coupons=data.get("coupons"),
            box=data.get("box"),
        )
        response = self._render(slip, status.HTTP_201_CREATED)
        response["Location"] = reverse("api-slip-detail", args=[slip.pk], request=request)
        return response

    @extend_schema(
        summary="Sign a slip (its next signature)",
        description="A fill: the cage issues, then the dealer at the table confirms receipt. "
        "The slip's creator never signs it.",
        request=None,
        responses={200: SlipSerializer, **errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def sign(self, request: Request, pk: str | None = None) -> Response:
        return self._render(services.slip_sign(slip=self.get_object(), by=request.user))

    @extend_schema(
        summary="Ask for, or confirm, a slip's void (two people)",
        request=SlipVoidRequestSerializer,
        responses={200: SlipSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        given = SlipVoidRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        slip = services.slip_void(
            slip=self.get_object(), by=request.user, reason=given.validated_data["reason"]
        )
        return self._render(slip)


@extend_schema_view(
    list=extend_schema(
        summary="List chip denominations",
        responses={200: ChipDenominationSerializer(many=True), **errors(*READ_ERRORS)},
    ),
)
class ChipDenominationViewSet(RoleCheckedMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The chips in use (configured by admins in the admin site)."""

    serializer_class = ChipDenominationSerializer
    pagination_class = None
    roles = {"list": CHIP_READERS}
    action_names = {"list": "reading chip denominations"}

    def get_queryset(self) -> Any:
        return ChipDenomination.objects.order_by("value_cents")


@extend_schema_view(
    list=extend_schema(
        summary="List variance alerts",
        responses={200: VarianceAlertSerializer(many=True), **errors(*READ_ERRORS)},
    ),
)
class VarianceAlertViewSet(RoleCheckedMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Shifts whose count win differs from the hands' win beyond the tolerance. Pit bosses
    acknowledge them with a note."""

    serializer_class = VarianceAlertSerializer
    pagination_class = FloorPagination
    roles = {"list": RECORD_READERS, "acknowledge": PIT_BOSSES}
    action_names = {
        "list": "reading variance alerts",
        "acknowledge": "acknowledging a variance alert",
    }

    def get_queryset(self) -> Any:
        return VarianceAlert.objects.select_related("table", "acknowledged_by")

    @extend_schema(
        summary="Acknowledge a variance alert with a note (pit bosses)",
        request=AcknowledgeSerializer,
        responses={200: VarianceAlertSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def acknowledge(self, request: Request, pk: str | None = None) -> Response:
        given = AcknowledgeSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        alert = services.variance_acknowledge(
            alert=self.get_object(), by=request.user, note=given.validated_data["note"]
        )
        return Response(VarianceAlertSerializer(alert).data)


class ReconciliationView(RoleCheckedMixin, APIView):
    """The count against the hands for one gaming day: each table's day and shifts."""

    roles = {"get": RECORD_READERS}
    action_names = {"get": "reading the reconciliation"}

    @extend_schema(
        summary="The reconciliation of a gaming day (pit bosses, auditors)",
        parameters=[ReconciliationQuerySerializer],
        responses={
            200: inline_serializer(
                "Reconciliation",
                {
                    "gaming_day": serializers.DateField(),
                    "tables": serializers.ListField(child=serializers.DictField()),
                },
            ),
            **errors(400, 401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        given = ReconciliationQuerySerializer(data=request.query_params)
        given.is_valid(raise_exception=True)
        day = given.validated_data["gaming_day"]
        wanted = given.validated_data.get("table")
        return Response(
            {"gaming_day": day, "tables": reconciliation(day, [wanted] if wanted else None)}
        )


def reconciliation(day: Any, tables: list[int] | None) -> list[dict[str, Any]]:
    shifts = selectors.shift_rows(gaming_day=day, tables=tables)
    days = selectors.day_rows(gaming_day=day, tables=tables)
    names = dict(Table.objects.values_list("pk", "name"))
    out = []
    for table_id, day_row in sorted(days.items(), key=lambda kv: names.get(kv[0], "")):
        out.append(
            {
                "table": table_id,
                "table_name": names.get(table_id),
                **_plain(day_row),
                "shifts": [
                    {"shift": shift, **_plain(row)}
                    for (tid, shift), row in sorted(shifts.items())
                    if tid == table_id
                ],
            }
        )
    return out


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (str(v) if k == "hold_percent_drop" and v is not None else v)
        for k, v in row.items()
        if k != "has_activity"
    }
