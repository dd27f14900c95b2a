"""Rated play's API: enrol and find players (hosts and pit bosses; auditors read), a player's
ratings and comps (every read on the record), and seat or unseat a rated player at a table (the
dealer signed in there, or a pit boss). Views parse, call one service or selector, render;
refusals have the API's one shape (`tables.api.views.api_exception_handler`)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.roles import PLAYER_MANAGERS, PLAYER_READERS, SEATERS
from tables.api.strict import StrictSerializer, TextField, WholeField
from tables.api.views import PLAY_ERRORS, RoleCheckedMixin, errors
from tables.models import Table

from .. import selectors, services
from ..models import Player, Rating


class PlayerCreateSerializer(StrictSerializer):
    card = TextField(max_length=32)
    name = TextField(max_length=100)
    tier = TextField(required=False, default="bronze")


class SeatSerializer(StrictSerializer):
    seat = WholeField()
    card = TextField(max_length=64)


class UnseatSerializer(StrictSerializer):
    seat = WholeField()


PLAYER = inline_serializer(
    "Player",
    {
        "id": serializers.IntegerField(),
        "card": serializers.CharField(),
        "name": serializers.CharField(),
        "tier": serializers.CharField(),
        "status": serializers.CharField(),
    },
)
PLAYERS_FOUND = inline_serializer("PlayersFound", {"results": PLAYER.__class__(many=True)})
RATING = inline_serializer(
    "Rating",
    {
        "id": serializers.IntegerField(),
        "table": serializers.IntegerField(),
        "table_name": serializers.CharField(),
        "seat": serializers.IntegerField(),
        "card": serializers.CharField(),
        "first_name": serializers.CharField(),
        "started_at": serializers.DateTimeField(),
        "ended_at": serializers.DateTimeField(allow_null=True),
    },
)


def player_data(player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "card": player.card,
        "name": player.name,
        "tier": player.tier,
        "status": player.status,
        "created_at": player.created_at,
        "changed_at": player.changed_at,
    }


def rating_data(rating: Rating) -> dict[str, Any]:
    """What the seating answers: the card number and first name only (a dealer reads it)."""
    return {
        "id": rating.pk,
        "table": rating.table_id,
        "table_name": rating.table.name,
        "seat": rating.seat,
        "card": rating.player.card,
        "first_name": rating.player.first_name,
        "started_at": rating.started_at,
        "ended_at": rating.ended_at,
    }


class PlayersView(RoleCheckedMixin, APIView):
    """Find players by card or name; enrol one."""

    roles = {"get": PLAYER_READERS, "post": PLAYER_MANAGERS}
    action_names = {"get": "finding players", "post": "enrolling players"}

    @extend_schema(
        operation_id="players_find",
        summary="Find players by card or name (`?q=`)",
        parameters=[OpenApiParameter("q", str, description="A card number or part of a name")],
        responses={200: PLAYERS_FOUND, **errors(401, 403)},
    )
    def get(self, request: Request) -> Response:
        query = str(request.query_params.get("q", ""))
        return Response({"results": [player_data(p) for p in selectors.search(query)[:50]]})

    @extend_schema(
        summary="Enrol a player",
        request=PlayerCreateSerializer,
        responses={201: PLAYER, **errors(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        given = PlayerCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        player = services.player_create(by=request.user, **given.validated_data)
        return Response(player_data(player), status=status.HTTP_201_CREATED)


class PlayerView(RoleCheckedMixin, APIView):
    """A player with their ratings by day and game, totals and comps (the read is recorded)."""

    roles = {"get": PLAYER_READERS}
    action_names = {"get": "reading a player"}

    @extend_schema(
        operation_id="players_read",
        summary="A player's ratings and comps",
        responses={200: PLAYER, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        services.player_viewed(player=player, by=request.user)
        page = selectors.player_summary(player)
        return Response(
            {
                **player_data(player),
                "totals": page["totals"],
                "by_day_and_game": page["by_day_and_game"],
                "points": page["points"],
            }
        )


class SeatPlayerView(RoleCheckedMixin, APIView):
    """Seat a rated player at a seat by card number."""

    roles = {"post": SEATERS}
    action_names = {"post": "seating rated players"}

    @extend_schema(
        summary="Seat a rated player (by card)",
        request=SeatSerializer,
        responses={201: RATING, **errors(*PLAY_ERRORS)},
    )
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        given = SeatSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        rating = services.seat_player(
            table=table,
            seat=given.validated_data["seat"],
            card=given.validated_data["card"],
            by=request.user,
        )
        return Response(rating_data(rating), status=status.HTTP_201_CREATED)


class UnseatPlayerView(RoleCheckedMixin, APIView):
    """End the rating at a seat (the player left)."""

    roles = {"post": SEATERS}
    action_names = {"post": "ending ratings"}

    @extend_schema(
        summary="End a seat's rating",
        request=UnseatSerializer,
        responses={200: RATING, **errors(*PLAY_ERRORS)},
    )
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        given = UnseatSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        rating = services.unseat_player(
            table=table, seat=given.validated_data["seat"], by=request.user
        )
        return Response(rating_data(rating))
