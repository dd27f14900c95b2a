"""The REST API: tables, dealer sign-in, rounds (open, enter, settle, read), paytable versions
and progressive meters. Views parse the request, check the caller's role, call one service or
selector, and render; the services hold every rule and write the audit trail.

Roles per action are listed on each view (`roles`). Errors have one shape,
`{"error": {"code", "message", "field"}}`: a `ServiceError` answers with its own status, an
`EngineError` 400, a refused permission 403 (recorded in the audit trail as
`permission.refused`, after the refused step's transaction rolled back), no credentials 401.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import IntegrityError, OperationalError, transaction
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from accounts.authentication import ExpiringTokenAuthentication, revoke_token, revoke_tokens
from accounts.forms import LOCKED_MESSAGE
from accounts.lockout import is_locked
from accounts.models import ApiToken
from accounts.parsers import StrictJSONParser
from accounts.throttles import CountAnonymousFirst, SignInThrottle
from audit.services import audit_refused, audit_refused_duties
from core.errors import SeparationOfDuties, ServiceError
from core.roles import (
    DEALERS,
    FLOOR_ROLES,
    PIT_BOSSES,
    TABLE_READERS,
    Role,
)
from tables import games
from tables import selectors as round_selectors
from tables.engine.errors import EngineError
from tables.models import DealerSession, Hand, Round
from tables.services import controls as control_services
from tables.services import corrections as correction_services
from tables.services import hands as hand_services
from tables.services import rounds as round_services
from tables.services.controls import CANCELLERS
from tables.services.hand_play import hand_play
from tables.services.sessions import dealer_sign_in, dealer_sign_out

from . import selectors
from .pagination import FloorPagination
from .permissions import PLAY_ACTIONS, ActionRoles, RoundAccess
from .representation import round_data
from .schema import DESCRIBED
from .serializers import (
    DealerSessionSerializer,
    ErrorSerializer,
    HandFilterSerializer,
    HandMisdealSerializer,
    HandOpenSerializer,
    HandSerializer,
    HandVoidSerializer,
    MeterSerializer,
    PaytableVersionSerializer,
    PreviewSerializer,
    RoundBackSerializer,
    RoundCancelSerializer,
    RoundDealerSerializer,
    RoundDealSerializer,
    RoundDecideSerializer,
    RoundFilterSerializer,
    RoundOpenSerializer,
    RoundSerializer,
    RoundSettleSerializer,
    RoundVoidSerializer,
    RoundVoidWithdrawSerializer,
    SignOutSerializer,
    TableSerializer,
    step_schema,
    step_serializer,
)
from .strict import EmptySerializer

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY_MAX = 100


# --- errors ------------------------------------------------------------------------------


def _error(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "field": field}}


def _flatten(detail: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """(field path, message, code) for each message of a DRF ValidationError's detail."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            yield from _flatten(value, f"{path}.{name}" if path and name else path or name)
    elif isinstance(detail, list):
        for item in detail:
            yield from _flatten(item, path)
    else:
        yield path, str(detail), str(getattr(detail, "code", None) or "invalid")


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every refusal in one shape; a refused permission is also written to the audit trail.

    This runs after the view raised, so a service's atomic block has already rolled back and
    the audit event is committed on its own (the API views are never ATOMIC_REQUESTS-wrapped).
    """
    # Every refusal in JSON, whatever the caller's Accept header or `?format=` chose for an
    # answer (the browsable API's HTML, the schema's YAML).
    request = context.get("request")
    if request is not None:
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
    if isinstance(exc, SeparationOfDuties):
        # a refused permission like any other 403, naming the action and what it concerned
        audit_refused_duties(context["request"], exc)
    if isinstance(exc, ServiceError):
        return Response(_error(exc.code, exc.message, exc.field), status=exc.status)
    if isinstance(exc, EngineError):
        return Response(
            _error(exc.code.value, exc.message, exc.field), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, RequestDataTooBig | TooManyFieldsSent):
        return Response(
            _error("too_large", str(exc) or "the request is too large"),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, IntegrityError):
        # A race the services' checks could not see (two requests at once): the database
        # refused the second; nothing of it was saved.
        return Response(
            _error("conflict", "another request changed this at the same moment: try again"),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, OperationalError) and "locked" in str(exc):
        response = Response(
            _error("busy", "the database is busy: try again in a moment"),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
        response["Retry-After"] = "1"
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    refused = isinstance(exc, exceptions.PermissionDenied)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # an unexpected error: a 500, as it should be
    if isinstance(exc, exceptions.ValidationError):
        found = list(_flatten(response.data)) or [("", "invalid input", "invalid")]
        message = "; ".join(f"{path}: {msg}" if path else msg for path, msg, _ in found)
        response.data = _error(found[0][2], message, found[0][0] or None)
        return response
    detail = (
        response.data.get("detail", "") if isinstance(response.data, Mapping) else response.data
    )
    message = str(detail)
    if refused:
        audit_refused(
            actor=request.user, method=request.method or "", path=request.path, reason=message
        )
        response.data = _error("forbidden", message)
        return response
    code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
    response.data = _error(code if isinstance(code, str) else "error", message)
    return response


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The documented error responses of an operation (the schema adds those the site gives
    around every view: `tables.api.schema`)."""
    return {s: OpenApiResponse(ErrorSerializer, description=DESCRIBED[s]) for s in statuses}


READ_ERRORS = (401, 403)
OBJECT_READ_ERRORS = (401, 403, 404)
PLAY_ERRORS = (400, 401, 403, 404, 409)


# --- base --------------------------------------------------------------------------------


class ApiViewMixin(CountAnonymousFirst):
    """The API's error shape, and no request-wide transaction: each service is its own atomic
    unit, and a refusal is audited after that unit rolled back. An anonymous request is
    throttled before it is refused (accounts.throttles.CountAnonymousFirst)."""

    def get_exception_handler(self) -> Any:
        return api_exception_handler

    @classmethod
    def as_view(cls, *args: Any, **kwargs: Any) -> Any:
        return transaction.non_atomic_requests(super().as_view(*args, **kwargs))


class RoleCheckedMixin(ApiViewMixin):
    """Role per action, checked up front (see `permissions.ActionRoles`). An action that takes
    no input (`bodyless`, by action or, on a plain view, by method) refuses any key sent."""

    permission_classes = [ActionRoles]
    parser_classes = [StrictJSONParser]
    roles: Mapping[str, tuple[Role, ...]] = {}
    action_names: Mapping[str, str] = {}
    bodyless: frozenset[str] = frozenset()

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        action = getattr(self, "action", None) or (request.method or "").lower()
        if action in self.bodyless:
            EmptySerializer(data=request.data or {}).is_valid(raise_exception=True)


# --- tables and sign-in ------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List the tables",
        responses={200: TableSerializer(many=True), **errors(*READ_ERRORS)},
    ),
    retrieve=extend_schema(
        summary="A table", responses={200: TableSerializer, **errors(*OBJECT_READ_ERRORS)}
    ),
)
class TableViewSet(RoleCheckedMixin, viewsets.ReadOnlyModelViewSet):
    """Tables: game, paytable version in force, meter, the dealer signed in, the round in play
    and the rebet (each seat's last wagers). Every floor role, the cage and the count team
    read; dealers sign in."""

    serializer_class = TableSerializer
    roles = {"list": TABLE_READERS, "retrieve": TABLE_READERS, "sign_in": DEALERS}
    action_names = {"sign_in": "signing in at a table"}
    bodyless = frozenset({"sign_in"})

    def get_queryset(self) -> Any:
        return selectors.tables()

    @extend_schema(
        summary="Sign in at the table (dealers)",
        description="Signs the dealer in at this table, and out of any other. Signing in again "
        "at the same table returns the open session.",
        request=None,
        responses={200: DealerSessionSerializer, **errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="sign-in")
    def sign_in(self, request: Request, pk: str | None = None) -> Response:
        session = dealer_sign_in(dealer=request.user, table=self.get_object())
        session = DealerSession.objects.select_related("table", "dealer").get(pk=session.pk)
        return Response(DealerSessionSerializer(session).data)


class SignOutView(RoleCheckedMixin, APIView):
    """Sign the calling dealer out of their table."""

    roles = {"post": DEALERS}
    action_names = {"post": "signing out"}
    bodyless = frozenset({"post"})

    @extend_schema(
        summary="Sign out (dealers)",
        request=None,
        responses={200: SignOutSerializer, **errors(401, 403)},
    )
    def post(self, request: Request) -> Response:
        names = list(
            DealerSession.objects.filter(
                dealer_id=request.user.pk, ended_at__isnull=True
            ).values_list("table__name", flat=True)
        )
        dealer_sign_out(dealer=request.user)
        return Response({"signed_out": names})


# --- rounds ------------------------------------------------------------------------------


class PlayedListMixin:
    """The list of rounds or hands: filtered by table and status (`filter_serializer`), the
    caller's own (`selectors.visible_to`), newest first, a page at a time."""

    filter_serializer: type[serializers.Serializer]
    pagination_class = FloorPagination

    def listed(self, request: Request) -> Any:
        filters = self.filter_serializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        played = selectors.visible_to(
            self.get_queryset(),  # type: ignore[attr-defined]
            request.user,
            table_id=filters.validated_data.get("table"),
            status=filters.validated_data.get("status"),
        )
        return self.paginate_queryset(played)  # type: ignore[attr-defined]


IDEMPOTENCY_PARAMETER = OpenApiParameter(
    IDEMPOTENCY_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Required (here or as the body's `idempotency_key`), at most 100 characters. "
    "The same key again returns the settled round unchanged (200, same body); "
    "another key on a settled round is refused with 409.",
)


@extend_schema_view(
    list=extend_schema(
        summary="List rounds",
        description="Pit boss, admin and auditor see every round; a dealer the rounds of the "
        "table they are signed in to. Newest first, paginated.",
        parameters=[RoundFilterSerializer],
        responses={200: RoundSerializer(many=True), **errors(400, 401, 403)},
    ),
    retrieve=extend_schema(
        summary="A round", responses={200: RoundSerializer, **errors(*OBJECT_READ_ERRORS)}
    ),
)
class RoundViewSet(
    PlayedListMixin,
    RoleCheckedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Rounds. Only the dealer signed in at a round's table plays it: open, deal, decide,
    dealer's draw, settle. Pit boss, admin and auditor read every round."""

    serializer_class = RoundSerializer
    filter_serializer = RoundFilterSerializer
    permission_classes = [ActionRoles, RoundAccess]
    roles = {
        "list": FLOOR_ROLES,
        "retrieve": FLOOR_ROLES,
        "preview": FLOOR_ROLES,
        "create": DEALERS,
        "deal": DEALERS,
        "decide": DEALERS,
        "dealer": DEALERS,
        "settle": DEALERS,
        "approve": PIT_BOSSES,
        "cancel": CANCELLERS,
        "back": DEALERS,
        "void": PIT_BOSSES,
        "void_approve": PIT_BOSSES,
        "void_withdraw": PIT_BOSSES,
    }
    action_names = {
        "list": "reading rounds",
        "retrieve": "reading a round",
        "preview": "previewing a round",
        "create": "opening a round",
        "deal": "entering the deal",
        "decide": "entering a decision",
        "dealer": "entering the dealer's draw",
        "settle": "settling a round",
        "approve": "approving a payout",
        "cancel": "cancelling a round",
        "back": "going back a step",
        "void": "voiding a round",
        "void_approve": "approving a void",
        "void_withdraw": "withdrawing a void",
    }
    bodyless = frozenset({"approve", "void_approve"})

    def get_queryset(self) -> Any:
        return selectors.rounds()

    def get_object(self) -> Any:
        if self.action not in PLAY_ACTIONS:
            return super().get_object()
        # A play step: the service reads and locks the round itself; here only what the
        # permission check needs.
        round_ = selectors.round_to_play(self.kwargs[self.lookup_field], self.request.user)
        self.check_object_permissions(self.request, round_)
        return round_

    def _render(self, round_: Round, code: int = status.HTTP_200_OK) -> Response:
        """The round as the service left it (read under its lock, or written by it)."""
        return Response(round_data(round_), status=code)

    def _render_fresh(self, round_: Round) -> Response:
        """The round read again (after a pit boss's or a fix-up step, which are rare)."""
        return self._render(selectors.rounds().get(pk=round_.pk))

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.get_paginated_response([round_data(r) for r in self.listed(request)])

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._render(self.get_object())

    @extend_schema(
        summary="Open a round (the dealer signed in at the table)",
        description="Opens the table's next round with the seats' wagers, checked against the "
        "limits of the paytable version in force (which the round keeps).",
        request=RoundOpenSerializer,
        responses={201: RoundSerializer, **errors(400, 401, 403, 409)},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        given = RoundOpenSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = round_services.round_open(
            table=given.validated_data["table"],
            dealer=request.user,
            wagers=given.validated_data["wagers"],
        )
        response = self._render(round_, status.HTTP_201_CREATED)
        response["Location"] = reverse("api-round-detail", args=[round_.pk], request=request)
        return response

    @extend_schema(
        summary="Enter the deal",
        request=RoundDealSerializer,
        responses={200: RoundSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def deal(self, request: Request, pk: str | None = None) -> Response:
        round_ = self.get_object()
        given = RoundDealSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = round_services.round_deal(
            round=round_,
            dealer=request.user,
            seat_cards=given.validated_data["cards"],
            dealer_cards=given.validated_data["dealer"],
        )
        return self._render(round_)

    @extend_schema(
        summary="Enter one seat's decision",
        request=RoundDecideSerializer,
        responses={200: RoundSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def decide(self, request: Request, pk: str | None = None) -> Response:
        round_ = self.get_object()
        given = RoundDecideSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = round_services.round_decide(
            round=round_,
            dealer=request.user,
            seat=given.validated_data["seat"],
            decision=given.validated_data["decision"],
        )
        return self._render(round_)

    @extend_schema(
        summary="Enter the dealer's draw by the house way",
        request=RoundDealerSerializer,
        responses={200: RoundSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def dealer(self, request: Request, pk: str | None = None) -> Response:
        round_ = self.get_object()
        given = RoundDealerSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = round_services.round_dealer(
            round=round_,
            dealer=request.user,
            draw=given.validated_data.get("draw"),
            discard=given.validated_data.get("discard"),
        )
        return self._render(round_)

    @extend_schema(
        summary="Preview every seat's payout before settling",
        description="The settlement the engine computes now (nothing is saved). 409 until the "
        "round is complete.",
        responses={200: PreviewSerializer, **errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["get"])
    def preview(self, request: Request, pk: str | None = None) -> Response:
        return Response(round_selectors.round_preview(self.get_object()))

    @extend_schema(
        summary="Settle the round (idempotent)",
        description="Settles and closes the round and returns it with its settlement and lines. "
        "Needs an idempotency key (the `Idempotency-Key` header or the body's "
        "`idempotency_key`). Sending the same request again settles nothing more "
        "and returns the same body, with 200 both times. Another key on a settled "
        "round, or a key already used for another round, is refused with 409.",
        parameters=[IDEMPOTENCY_PARAMETER],
        request=RoundSettleSerializer,
        responses={200: RoundSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def settle(self, request: Request, pk: str | None = None) -> Response:
        round_ = self.get_object()
        given = RoundSettleSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        key = _idempotency_key(
            request.headers.get(IDEMPOTENCY_HEADER), given.validated_data.get("idempotency_key")
        )
        round_ = round_services.round_settle(round=round_, dealer=request.user, idempotency_key=key)
        return self._render(round_)

    @extend_schema(
        summary="Approve a payout waiting for sign-off (pit boss)",
        description="A settle that pays a progressive award at or above the meter's sign-off "
        "amount (by default the jackpot), or a seat the table's threshold or more, answers 409 "
        "`approval_required` and waits: nothing is paid and the meter does not move. A pit "
        "boss's approval settles it now, under their name; a correction waiting for its "
        "sign-off is approved the same way. A dealer gets 403, and so does a pit boss who "
        "dealt the round or entered the correction (`separation_of_duties`).",
        request=None,
        responses={200: RoundSerializer, **errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, pk: str | None = None) -> Response:
        round_ = control_services.round_approve(round=self.get_object(), by=request.user)
        return self._render_fresh(round_)

    @extend_schema(
        summary="Cancel an open round (a misdeal)",
        description="The dealer signed in at the table, or a pit boss, with a reason. The round "
        "is `cancelled`, nothing is paid, and the table is free for its next round.",
        request=RoundCancelSerializer,
        responses={200: RoundSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        given = RoundCancelSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = control_services.round_cancel(
            round=self.get_object(), by=request.user, reason=given.validated_data.get("reason", "")
        )
        return self._render_fresh(round_)

    @extend_schema(
        summary="Go back a step to fix the round before it is paid",
        description="`cards`: the deal is entered again (and every decision and the dealer's "
        "draw after it); `decisions`: every seat decides again; `dealer`: the dealer's draw "
        "again. What is removed stays on the audit record.",
        request=RoundBackSerializer,
        responses={200: RoundSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def back(self, request: Request, pk: str | None = None) -> Response:
        given = RoundBackSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = control_services.round_step_back(
            round=self.get_object(), dealer=request.user, to=given.validated_data["to"]
        )
        return self._render_fresh(round_)

    @extend_schema(
        summary="Void a settled round (pit boss), with a reason",
        description="A round whose payout needed no sign-off is voided at once (200): it leaves "
        "the hold reports and its effect on the progressive meter is taken back, on the record. "
        "A round whose payout was signed off, or would need a sign-off under the table's "
        "thresholds (every jackpot), waits for a second pit boss (202, the round still "
        "`settled`, `void_waiting` true, `void_requested_by` the caller): nothing changes until "
        "`void-approve`. A pit boss who dealt the round, entered it or signed off its payout "
        "gets 403 `separation_of_duties`; a round whose void already waits 409 `void_waiting`; "
        "a void that would leave the meter below zero 409 `meter_below_zero`.",
        request=RoundVoidSerializer,
        responses={
            200: OpenApiResponse(RoundSerializer, description="Voided now."),
            202: OpenApiResponse(
                RoundSerializer, description="The void waits for a second pit boss's approval."
            ),
            **errors(400, 401, 403, 404, 409),
        },
    )
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        given = RoundVoidSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = correction_services.round_void(
            round=self.get_object(), by=request.user, reason=given.validated_data["reason"]
        )
        fresh = selectors.rounds().get(pk=round_.pk)
        waits = fresh.status == Round.Status.SETTLED
        return self._render(fresh, status.HTTP_202_ACCEPTED if waits else status.HTTP_200_OK)

    @extend_schema(
        summary="Approve a void waiting for a second pit boss",
        description="Voids the round now, under the approver's name and the requester's reason: "
        "it leaves the hold reports and the meter is put back as the round's settlement moved "
        "it. Never the pit boss who asked for the void, nor one who dealt the round, entered it "
        "or signed off its payout (403 `separation_of_duties`); 409 `no_void_waiting` when no "
        "void waits, `meter_below_zero` when the meter no longer holds what it would take back.",
        request=None,
        responses={200: RoundSerializer, **errors(401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="void-approve")
    def void_approve(self, request: Request, pk: str | None = None) -> Response:
        round_ = correction_services.round_void_approve(round=self.get_object(), by=request.user)
        return self._render_fresh(round_)

    @extend_schema(
        summary="Withdraw a void waiting for a second pit boss, with a reason",
        description="The round stays settled, as it was, and may be voided again. The pit boss "
        "who asked for the void, or another who took no part in the round (403 "
        "`separation_of_duties` for one who dealt it, entered it or signed off its payout).",
        request=RoundVoidWithdrawSerializer,
        responses={200: RoundSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="void-withdraw")
    def void_withdraw(self, request: Request, pk: str | None = None) -> Response:
        given = RoundVoidWithdrawSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        round_ = correction_services.round_void_withdraw(
            round=self.get_object(), by=request.user, reason=given.validated_data["reason"]
        )
        return self._render_fresh(round_)


# --- player-vs-player hands ----------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List player-vs-player hands",
        description="Pit boss, admin and auditor see every hand; a dealer the hands of the "
        "table they are signed in to. Newest first, paginated.",
        parameters=[HandFilterSerializer],
        responses={200: HandSerializer(many=True), **errors(400, 401, 403)},
    ),
    retrieve=extend_schema(
        summary="A hand", responses={200: HandSerializer, **errors(*OBJECT_READ_ERRORS)}
    ),
)
class HandViewSet(
    PlayedListMixin,
    RoleCheckedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Hands of player-vs-player games. Only the dealer signed in at
    the table plays them: open with the buy-ins, then one step at a time (the hole cards, each
    action, the flop, the turn), then finish. A pit boss voids a hand; pit boss, admin and
    auditor read every hand."""

    serializer_class = HandSerializer
    filter_serializer = HandFilterSerializer
    permission_classes = [ActionRoles, RoundAccess]
    roles = {
        "list": FLOOR_ROLES,
        "retrieve": FLOOR_ROLES,
        "create": DEALERS,
        "step": DEALERS,
        "finish": DEALERS,
        "undo": DEALERS,
        "misdeal": DEALERS,
        "void": PIT_BOSSES,
    }
    action_names = {
        "list": "reading hands",
        "retrieve": "reading a hand",
        "create": "opening a hand",
        "step": "entering a card or an action",
        "finish": "finishing a hand",
        "undo": "taking back a hand's last action",
        "misdeal": "cancelling a hand as a misdeal",
        "void": "voiding a hand",
    }
    bodyless = frozenset({"finish", "undo"})

    def get_queryset(self) -> Any:
        return selectors.hands()

    def _render(self, hand: Hand, code: int = status.HTTP_200_OK) -> Response:
        fresh = selectors.hands().get(pk=hand.pk)
        return Response(
            HandSerializer(fresh, context=self.get_serializer_context()).data, status=code
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self.get_paginated_response(
            self.get_serializer(self.listed(request), many=True).data
        )

    @extend_schema(
        summary="Open a hand (the dealer signed in at the table)",
        description="Opens the table's next hand under its table settings in force, with each "
        "player's buy-in in cents by seat.",
        request=HandOpenSerializer,
        responses={201: HandSerializer, **errors(400, 401, 403, 409)},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        given = HandOpenSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        hand = hand_services.hand_open(
            table=given.validated_data["table"],
            dealer=request.user,
            players=given.validated_data["players"],
            first=given.validated_data.get("first"),
        )
        response = self._render(hand, status.HTTP_201_CREATED)
        response["Location"] = reverse("api-hand-detail", args=[hand.pk], request=request)
        return response

    @extend_schema(
        summary="Enter one step: a card dealt or a player's action, in the game's form",
        request=step_schema(),
        responses={200: HandSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def step(self, request: Request, pk: str | None = None) -> Response:
        hand = self.get_object()
        given = step_serializer(games.player_vs_player(hand.game))(data=request.data)
        given.is_valid(raise_exception=True)
        # hand_play: a game assertion that fails is refused, logged and audited (a bug); the
        # finish stays the dealer's own request.
        hand = hand_play(hand=hand, dealer=request.user, step=given.validated_data, finish=False)
        return self._render(hand)

    @extend_schema(
        summary="Finish the hand: the pot, the rake and each player's payoff",
        request=None,
        responses={200: HandSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        hand = hand_services.hand_finish(hand=self.get_object(), dealer=request.user)
        return self._render(hand)

    @extend_schema(
        summary="Take back the hand's last action (the dealer signed in at the table)",
        description="While no card or street has come after it: the record is rebuilt from "
        "the hand's steps without it. The step stays on the audit record; the undo is an "
        "event of its own. Refused (409, nothing changed) when the last step is a card.",
        request=None,
        responses={200: HandSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str | None = None) -> Response:
        hand = hand_services.hand_undo(hand=self.get_object(), dealer=request.user)
        return self._render(hand)

    @extend_schema(
        summary="Cancel the hand as a misdeal (the dealer signed in at the table), with a reason",
        description="Early in the hand, as its game says (before the flop, before the first "
        "auction): the hand is `misdeal`, nothing is paid, each buy-in is returned, and the "
        "table is free for its next hand. Refused (409, nothing changed) after it.",
        request=HandMisdealSerializer,
        responses={200: HandSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def misdeal(self, request: Request, pk: str | None = None) -> Response:
        hand = self.get_object()
        given = HandMisdealSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        hand = hand_services.hand_misdeal(
            hand=hand, dealer=request.user, reason=given.validated_data["reason"]
        )
        return self._render(hand)

    @extend_schema(
        summary="Void a hand (pit bosses), with a reason",
        request=HandVoidSerializer,
        responses={200: HandSerializer, **errors(*PLAY_ERRORS)},
    )
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        hand = self.get_object()
        given = HandVoidSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        hand = hand_services.hand_void(
            hand=hand, by=request.user, reason=given.validated_data["reason"]
        )
        return self._render(hand)


def _idempotency_key(header: str | None, body: str | None) -> str:
    header = (header or "").strip()
    body = (body or "").strip()
    if header and body and header != body:
        raise ServiceError(
            f"the {IDEMPOTENCY_HEADER} header and the body's idempotency_key differ",
            field="idempotency_key",
            code="idempotency_key_mismatch",
        )
    key = header or body
    if not key:
        raise ServiceError(
            f"settling needs an idempotency key: send the {IDEMPOTENCY_HEADER} header",
            field=IDEMPOTENCY_HEADER,
            code="idempotency_key_required",
        )
    if len(key) > IDEMPOTENCY_KEY_MAX:
        raise ServiceError(
            f"the idempotency key may have at most {IDEMPOTENCY_KEY_MAX} characters, "
            f"not {len(key)}",
            field=IDEMPOTENCY_HEADER,
            code="idempotency_key_too_long",
        )
    return key


# --- paytables and meters ----------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List paytable versions",
        description="Dealers see approved versions only.",
        responses={200: PaytableVersionSerializer(many=True), **errors(*READ_ERRORS)},
    ),
    retrieve=extend_schema(
        summary="A paytable version",
        responses={200: PaytableVersionSerializer, **errors(*OBJECT_READ_ERRORS)},
    ),
)
class PaytableVersionViewSet(RoleCheckedMixin, viewsets.ReadOnlyModelViewSet):
    """Paytable versions (read-only here: drafting and approving happen in the admin)."""

    serializer_class = PaytableVersionSerializer
    roles = {"list": FLOOR_ROLES, "retrieve": FLOOR_ROLES}
    action_names = {"list": "reading paytables", "retrieve": "reading a paytable"}

    def get_queryset(self) -> Any:
        return selectors.paytable_versions_visible_to(self.request.user)


@extend_schema_view(
    list=extend_schema(
        summary="List progressive meters",
        responses={200: MeterSerializer(many=True), **errors(*READ_ERRORS)},
    ),
    retrieve=extend_schema(
        summary="A progressive meter",
        responses={200: MeterSerializer, **errors(*OBJECT_READ_ERRORS)},
    ),
)
class MeterViewSet(RoleCheckedMixin, viewsets.ReadOnlyModelViewSet):
    """Progressive meters and the tables linked to them (read-only)."""

    serializer_class = MeterSerializer
    roles = {"list": FLOOR_ROLES, "retrieve": FLOOR_ROLES}
    action_names = {"list": "reading meters", "retrieve": "reading a meter"}

    def get_queryset(self) -> Any:
        return selectors.meters()


# --- tokens ------------------------------------------------------------------------------


class TokenView(ApiViewMixin, APIView):
    """A new API token for `Authorization: Token <key>`, given a username and password (POST):
    the key is in this answer only (the site keeps its digest), and every POST issues another;
    the user's expired tokens are revoked then. DELETE revokes the token it is sent with
    (signing out of the API; with a session, every token of the user). A token expires
    CASINO_TOKEN_HOURS after it was issued, and signing out of the site revokes the user's
    tokens."""

    parser_classes = [StrictJSONParser]
    renderer_classes = [JSONRenderer]
    throttle_classes = [SignInThrottle]
    serializer_class = AuthTokenSerializer

    def get_serializer(self, *args: Any, **kwargs: Any) -> AuthTokenSerializer:
        kwargs["context"] = {"request": self.request, "format": self.format_kwarg, "view": self}
        return AuthTokenSerializer(*args, **kwargs)

    def _method(self) -> str:
        request = getattr(self, "request", None)  # none while the schema is generated
        return str(getattr(request, "method", "") or "")

    def get_authenticators(self) -> list[Any]:
        if self._method() == "POST":
            return []  # username and password only
        return [ExpiringTokenAuthentication(), SessionAuthentication()]

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self._method() == "POST" else [IsAuthenticated()]

    def get_throttles(self) -> list[Any]:
        return [SignInThrottle()] if self._method() == "POST" else []

    @extend_schema(
        summary="Get an API token",
        auth=[],
        request=AuthTokenSerializer,
        responses={
            200: inline_serializer(
                "Token", {"token": serializers.CharField(), "expires": serializers.DateTimeField()}
            ),
            400: OpenApiResponse(
                ErrorSerializer, description="Wrong username or password, or a locked account."
            ),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = request.data.get("username") if isinstance(request.data, Mapping) else None
        if isinstance(username, str) and is_locked(username):
            raise ServiceError(LOCKED_MESSAGE, field="username", code="account_locked", status=403)
        given = self.get_serializer(data=request.data)
        given.is_valid(raise_exception=True)
        user = given.validated_data["user"]
        with transaction.atomic():
            revoke_tokens(user, "expired", expired_only=True)
            token, key = ApiToken.objects.issue(user)
        expires = token.created + timedelta(hours=settings.CASINO_TOKEN_HOURS)
        return Response({"token": key, "expires": expires})

    @extend_schema(
        summary="Sign out of the API: revoke the caller's token",
        request=None,
        responses={
            200: inline_serializer("Revoked", {"revoked": serializers.IntegerField()}),
            **errors(401),
        },
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if isinstance(request.auth, ApiToken):
            return Response({"revoked": int(revoke_token(request.auth, "signed out"))})
        return Response({"revoked": revoke_tokens(request.user, "signed out")})
