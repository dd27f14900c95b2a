"""Rated play's pages.

- The tablet's players page (`/players/tablet/<table>/`, the dealer signed in there, reached
  from the tablet's "Players" link): each seat with its rated player's card number and first
  name, a card field per seat (typed, or a barcode scanner acting as a keyboard: it submits on
  Enter), and "Player left" to end the rating.
- The floor now (`/players/floor/`), a player's page (`/players/<id>/`: every view on the
  record), a gaming day's ratings and their CSV (`/players/day/`), the search by card or name
  with enrolment (`/players/`), and the comp rates (`/players/comp-rates/`, admins).
Views parse, call one service or selector and render; refusals are shown, never applied.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from defusedcsv import csv
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.bad_request import bad_query
from core.errors import ServiceError
from core.money import dollars
from core.params import ascii_int
from core.roles import (
    ADMINS,
    DEALERS,
    PIT_BOSSES,
    PLAYER_MANAGERS,
    PLAYER_READERS,
    RATING_ADJUSTERS,
    Role,
    has_any_role,
    require,
    role_names,
)
from core.strict import form_whole
from tables import games
from tables.gaming_day import asked_day
from tables.models import DealerSession, Table

from . import selectors, services
from .models import CompRateVersion, Player, Rating, Redemption, RefusedCardAlert, Tier


def _require(request: HttpRequest, roles: tuple[Role, ...], what: str) -> None:
    require(request.user, roles, what, message=f"{what} is for the {role_names(roles)}.")


def _see_other(url: str) -> HttpResponse:
    return HttpResponseRedirect(url, status=303)


# --- the tablet ------------------------------------------------------------------------------


def _dealer_table(request: HttpRequest, table_id: int) -> Table:
    _require(request, DEALERS, "The tablet's players page")
    table = get_object_or_404(Table, pk=table_id)
    if not DealerSession.objects.filter(
        table=table, dealer_id=request.user.pk, ended_at__isnull=True
    ).exists():
        raise PermissionDenied(
            f"You are not signed in at {table}. Sign in at a table from the tablet's first page."
        )
    return table


def _render_tablet(
    request: HttpRequest, table: Table, *, error: str = "", notice: str = "", status: int = 200
) -> HttpResponse:
    seated = selectors.seated_at(table.pk)
    seats = [
        {
            "number": n,
            "card": seated[n].player.card if n in seated else "",
            "first_name": seated[n].player.first_name if n in seated else "",
        }
        for n in range(1, table.seats + 1)
    ]
    return render(
        request,
        "players/tablet.html",
        {
            "table": table,
            "game_label": games.get(table.game).label,
            "seats": seats,
            "error": error,
            "notice": notice or request.GET.get("notice", "")[:120],
        },
        status=status,
    )


def _tablet_url(table: Table, notice: str) -> str:
    """The tablet's page with a notice (encoded: a name may hold "&" or "#")."""
    return reverse("players:tablet", args=[table.pk]) + "?" + urlencode({"notice": notice})


@never_cache
@login_required
@require_GET
def tablet(request: HttpRequest, table_id: int) -> HttpResponse:
    return _render_tablet(request, _dealer_table(request, table_id))


@login_required
@require_POST
def tablet_seat(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _dealer_table(request, table_id)
    try:
        rating = services.seat_player(
            table=table,
            seat=request.POST.get("seat", ""),
            card=request.POST.get("card", ""),
            by=request.user,
        )
    except ServiceError as err:
        return _render_tablet(request, table, error=err.message, status=err.status)
    notice = f"Seat {rating.seat}: card {rating.player.card}, {rating.player.first_name}, rated"
    return _see_other(
        reverse("players:tablet", args=[table.pk]) + "?" + urlencode({"notice": notice})
    )


@login_required
@require_POST
def tablet_unseat(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _dealer_table(request, table_id)
    try:
        rating = services.unseat_player(
            table=table, seat=request.POST.get("seat", ""), by=request.user
        )
    except ServiceError as err:
        return _render_tablet(request, table, error=err.message, status=err.status)
    notice = f"Seat {rating.seat}: rating ended"
    return _see_other(
        reverse("players:tablet", args=[table.pk]) + "?" + urlencode({"notice": notice})
    )


# --- the players' pages ----------------------------------------------------------------------


@never_cache
@login_required
def search(request: HttpRequest) -> HttpResponse:
    """Find a player by card or name; hosts and pit bosses enrol one."""
    _require(request, PLAYER_READERS, "The players' pages")
    error = ""
    query = request.GET.get("q", "")[:100]
    if request.method == "POST":
        _require(request, PLAYER_MANAGERS, "Enrolling players")
        try:
            player = services.player_create(
                by=request.user,
                card=request.POST.get("card", ""),
                name=request.POST.get("name", ""),
                tier=request.POST.get("tier", Tier.BRONZE),
            )
        except ServiceError as err:
            error = err.message
        else:
            return _see_other(reverse("players:player", args=[player.pk]))
    found = list(selectors.search(query)[:100]) if query else []
    return render(
        request,
        "players/search.html",
        {
            "query": query,
            "found": found,
            "error": error,
            "tiers": Tier.choices,
            "can_manage": has_any_role(request.user, PLAYER_MANAGERS),
            "posted": request.POST if request.method == "POST" else {},
        },
        status=400 if error else 200,
    )


@never_cache
@login_required
@require_GET
def floor(request: HttpRequest) -> HttpResponse:
    _require(request, PLAYER_READERS, "The rated players on the floor")
    return render(request, "players/floor.html", {"rows": selectors.on_floor()})


@never_cache
@login_required
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    _require(request, PLAYER_READERS, "A player's page")
    player = get_object_or_404(Player, pk=player_id)
    error = ""
    if request.method == "POST":
        try:
            _player_action(request, player)
        except ServiceError as err:
            error = err.message
        else:
            return _see_other(reverse("players:player", args=[player.pk]))
    services.player_viewed(player=player, by=request.user)
    player.refresh_from_db()
    summary = selectors.player_summary(player)
    return render(
        request,
        "players/player.html",
        {
            "player": player,
            **summary,
            "no_decision_cost_words": selectors.NO_DECISION_COST,
            "redemptions": list(player.redemptions.select_related("entered_by", "approved_by")),
            "error": error,
            "can_manage": has_any_role(request.user, PLAYER_MANAGERS),
            "can_adjust": has_any_role(request.user, RATING_ADJUSTERS),
            "tiers": Tier.choices,
            "statuses": Player.Status.choices,
            "limit": services.approval_limit(),
            "user_id": request.user.pk,
        },
        status=400 if error else 200,
    )


def _player_action(request: HttpRequest, player: Player) -> None:
    """One of the player page's forms: change, redeem, approve a redemption, adjust or note a
    rating."""
    post = request.POST
    action = post.get("action", "")
    if action == "change":
        _require(request, PLAYER_MANAGERS, "Changing players")
        services.player_change(
            player=player,
            by=request.user,
            reason=post.get("reason", ""),
            **{k: post[k] for k in ("name", "tier", "status") if post.get(k)},
        )
    elif action == "redeem":
        _require(request, PLAYER_MANAGERS, "Redeeming comp points")
        services.redemption_enter(
            player=player,
            points=post.get("points", ""),
            reason=post.get("reason", ""),
            by=request.user,
        )
    elif action == "approve":
        _require(request, PLAYER_MANAGERS, "Approving a redemption")
        row = get_object_or_404(Redemption, pk=_int(post.get("redemption")), player=player)
        services.redemption_approve(redemption=row, by=request.user)
    elif action in ("adjust", "note"):
        _require(request, RATING_ADJUSTERS, "Adjusting a rating")
        rating = get_object_or_404(Rating, pk=_int(post.get("rating")), player=player)
        if action == "adjust":
            minutes = form_whole(post.get("minutes", ""), "minutes", what="a whole number")
            services.rating_adjust(
                rating=rating,
                seconds=minutes * 60,
                reason=post.get("reason", ""),
                by=request.user,
            )
        else:
            services.rating_note(rating=rating, note=post.get("note", ""), by=request.user)
    else:
        raise ServiceError(f"action {action[:40]!r}: not a form of this page", field="action")


def _int(value: Any) -> int:
    """An id from a form: ASCII digits that fit a column, else 0 (no row has it)."""
    return ascii_int(value) or 0


DAY_MESSAGE = "must be a gaming day written like 2026-11-21"


@never_cache
@login_required
@require_GET
def day_report(request: HttpRequest) -> HttpResponse:
    _require(request, PLAYER_READERS, "The day's ratings")
    day = asked_day(request.GET.get("day", ""))
    if day is None:
        return bad_query(request, field="day", message=DAY_MESSAGE)
    rows = selectors.day_rows(day)
    return render(
        request,
        "players/day.html",
        {"day": day, "rows": rows, "totals": selectors.totals([]) if not rows else None},
    )


CSV_COLUMNS = (
    "card",
    "name",
    "hands",
    "seconds_played",
    "wagered",
    "average_bet",
    "actual_win",
    "theoretical_win",
    "decision_cost",
    "points",
)


@never_cache
@login_required
@require_GET
def day_csv(request: HttpRequest) -> HttpResponse:
    _require(request, PLAYER_READERS, "The day's ratings")
    day = asked_day(request.GET.get("day", ""))
    if day is None:
        return bad_query(request, field="day", message=DAY_MESSAGE)
    response = HttpResponse(content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="ratings-{day.isoformat()}.csv"'
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for row in selectors.day_rows(day):
        writer.writerow(
            [
                row["card"],
                row["name"],
                row["hands"],
                row["seconds_played"],
                dollars(row["wagered_cents"]),
                dollars(row["average_bet_cents"]),
                dollars(row["actual_win_cents"]),
                dollars(row["theoretical_win_cents"]),
                dollars(row["decision_cost_cents"]),
                row["points"],
            ]
        )
    return response


@login_required
@require_POST
def acknowledge(request: HttpRequest, alert_id: int) -> HttpResponse:
    _require(request, PIT_BOSSES, "Acknowledging a refused card")
    alert = get_object_or_404(RefusedCardAlert, pk=alert_id)
    services.alert_acknowledge(alert=alert, by=request.user)
    return _see_other(reverse("reports:dashboard"))


@never_cache
@login_required
def comp_rates(request: HttpRequest) -> HttpResponse:
    """Admins draft the points per dollar of theoretical win per tier; a second admin approves."""
    _require(request, ADMINS, "The comp rates")
    error = ""
    if request.method == "POST":
        try:
            if request.POST.get("action") == "approve":
                version = get_object_or_404(CompRateVersion, pk=_int(request.POST.get("version")))
                services.comp_rates_approve(version=version, by=request.user)
            else:
                services.comp_rates_draft(
                    rates={t: request.POST.get(t, "") for t in Tier.values}, by=request.user
                )
        except ServiceError as err:
            error = err.message
        except PermissionDenied as err:
            error = str(err)
        else:
            return _see_other(reverse("players:comp_rates"))
    versions = list(CompRateVersion.objects.select_related("drafted_by", "approved_by")[:20])
    return render(
        request,
        "players/comp_rates.html",
        {
            "versions": versions,
            "in_force": services.in_force_rates(),
            "tiers": Tier.choices,
            "error": error,
            "user_id": request.user.pk,
        },
        status=400 if error else 200,
    )
