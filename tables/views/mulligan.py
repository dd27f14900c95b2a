"""Mulligan's tablet flow and the players' table display (the game's own pages, reached from the
tablet's table page through `tablet_flow = "mulligan"`).

The dealer deals real cards and enters the deal (`deal`), then every action one at a time
(`act`): each form carries the step it was drawn for, and a form from an older step is refused
as stale (another tablet moved the game on). The services (`tables.services.hands` through
`hand_play`) check every step with the engine, audit it, and finish the hand as soon as the
game is over: the system decides the winner and shows every hand. A refused entry re-renders
the page with the message and nothing saved.

`display` is the page the dealer turns to the players: it is built from the table's view of the
game only (`mulligan_view.TABLE`), so it never shows a Secret Offer, and shows hands only under
Open Hands (and at the end, when every player reveals).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError
from core.money import dollars
from core.roles import OVERSIGHT, has_any_role
from tables import games, selectors
from tables.engine.mulligan_game import Variant
from tables.games.mulligan import Mulligan, pages
from tables.games.mulligan.play import Played, draw_order, from_record
from tables.games.mulligan.terms import MulliganTerms
from tables.models import Hand, Table
from tables.services.hand_play import hand_play
from tables.services.hands import hand_finish, hand_open
from tables.views.tablet import _my_table, dealer_only


def _game(table: Table) -> Mulligan:
    game = games.player_vs_player(table.game)
    if not isinstance(game, Mulligan):
        raise PermissionDenied(f"{table} does not play Mulligan")
    return game


def _see_other(url: str) -> HttpResponse:
    return HttpResponseRedirect(url, status=303)


def _urls(table: Table) -> dict[str, str]:
    return {
        "act": reverse("tablet:mulligan_act", args=[table.pk]),
        "deal": reverse("tablet:mulligan_deal", args=[table.pk]),
        "display": reverse("tablet:mulligan_display", args=[table.pk]),
        "finish": reverse("tablet:mulligan_finish", args=[table.pk]),
        "sign_out": reverse("tablet:sign_out"),
    }


def _seats(hand: Hand) -> list[int]:
    return [p.seat for p in hand.players.order_by("position")]


def _cents(raw: object, field: str, what: str) -> int:
    """A dollar amount typed on the tablet ("5", "5.25") as cents; refused naming the field."""
    text = str(raw if raw is not None else "").strip().lstrip("$").replace(",", "")
    if not text:
        return 0
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise ServiceError(
            f"{what} must be an amount like 5.00, not {raw!r}", field=field
        ) from None
    cents = amount * 100
    if not amount.is_finite() or cents != cents.to_integral_value() or amount < 0:
        raise ServiceError(f"{what} must be whole cents of 0 or more, not {raw!r}", field=field)
    return int(cents)


def _render(
    request: HttpRequest,
    table: Table,
    *,
    error: ServiceError | None = None,
    posted: Mapping[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    game = _game(table)
    version = selectors.settings_in_force(table)
    hand = selectors.open_hand(table)
    show_last = hand is None and request.GET.get("deal") is None
    if show_last:
        hand = selectors.last_hand(table)
        if hand is not None and hand.status != Hand.Status.FINISHED:
            hand = None
    values = hand.record["terms"] if hand is not None else (version.values if version else None)
    terms = game.terms(values) if values is not None else None
    ctx: dict[str, Any] = {
        "table": table,
        "hand": hand,
        "terms": terms,
        "terms_text": game.settings_text(terms.as_json()) if terms is not None else "",
        "urls": _urls(table),
        "posted": posted or {},
        "errors": {},
        "top_errors": [],
        "g": None,
    }
    if error is not None:
        ctx["top_errors"] = [error.message]
        if error.field:
            ctx["errors"][error.field] = error.message
    if version is None and hand is None:
        ctx["top_errors"].append(
            f"{table} has no approved Mulligan table settings in force: an admin drafts them, "
            "a second admin approves them, and they are assigned to the table."
        )
    rebuilt = from_record(hand.record) if hand is not None else None
    if hand is not None and rebuilt is not None:
        played, state = rebuilt
        ctx["g"] = pages.tablet(state, played, _seats(hand))
        ctx["stuck_open"] = hand.status == Hand.Status.OPEN and state.is_over
        if state.phase.value == "decision" and posted and posted.get("do") == "mulligan":
            for d in ctx["g"]["forms"]["decision"]["draws"]:
                d["value"] = posted.get(d["field"], "")
                d["error"] = ctx["errors"].get(d["field"])
    elif terms is not None:
        ctx["deal"] = _deal_form(table, terms, posted, error, hand)
    return render(request, "games/mulligan/tablet.html", ctx, status=status)


def _deal_form(
    table: Table,
    terms: MulliganTerms,
    posted: Mapping[str, Any] | None,
    error: ServiceError | None,
    hand: Hand | None,
) -> dict[str, Any]:
    posted = posted or {}
    field = (error.field or "") if error else ""
    seats = []
    for n in range(1, table.seats + 1):
        seats.append(
            {
                "seat": n,
                "hand": posted.get(f"hand_{n}", ""),
                "chips": posted.get(f"chips_{n}", ""),
                "error": error.message
                if error and field in (f"hand_{n}", f"chips_{n}", f"seat {n} buy_in", f"seat {n}")
                else None,
            }
        )
    return {
        "seats": seats,
        "chips": terms.plays_for_chips,
        "table_minimum": dollars(terms.table_minimum),
        "high_risk": Variant.HIGH_RISK in terms.variants,
        "burn": posted.get("burn", ""),
        "burn_error": error.message if error and field == "burn" else None,
        "first": int(posted["first"]) if str(posted.get("first", "")).isdigit() else 1,
    }


def tablet_page(request: HttpRequest, table: Table) -> HttpResponse:
    """The table page of a Mulligan table (the tablet's `table_page` checked the dealer)."""
    return _render(request, table)


@dealer_only
@require_POST
def deal(request: HttpRequest, table_id: int) -> HttpResponse:
    """Open a game: the players by seat with their chips, the first auctioneer, the deal."""
    table = _my_table(request, table_id)
    _game(table)
    post = request.POST
    try:
        hands: dict[int, str] = {}
        chips: dict[int, int] = {}
        for n in range(1, table.seats + 1):
            cards = str(post.get(f"hand_{n}", "")).strip()
            amount = _cents(post.get(f"chips_{n}"), f"chips_{n}", f"seat {n}'s chips")
            if not cards:
                if amount:
                    raise ServiceError(
                        f"seat {n} has chips but no cards: deal five cards or clear its chips",
                        field=f"hand_{n}",
                    )
                continue
            if not amount:
                raise ServiceError(f"enter seat {n}'s chips", field=f"chips_{n}")
            hands[n], chips[n] = cards, amount
        seats = sorted(hands)
        first_seat = post.get("first", "")
        if not str(first_seat).isdigit() or int(first_seat) not in hands:
            raise ServiceError(
                f"the first auctioneer must be a seat that plays (seat {first_seat} has no cards)",
                field="first",
            )
        step = {"do": "deal", "hands": [hands[n] for n in seats]}
        if post.get("burn", "").strip():
            step["burn"] = post["burn"]
        # The deal is checked before the hand opens, so a mistyped card opens nothing.
        version = selectors.settings_in_force(table)
        if version is not None:
            game = _game(table)
            probe = game.setup_record(version.values, [chips[n] for n in seats], 0)
            try:
                game.apply(probe, step)
            except ServiceError as err:
                raise _by_seat(err, seats) from None
        hand = hand_open(
            table=table,
            dealer=request.user,
            players={n: chips[n] for n in seats},
            first=seats.index(int(first_seat)),
        )
        hand_play(hand=hand, dealer=request.user, step=step)
    except ServiceError as err:
        return _render(request, table, error=err, posted=post, status=err.status)
    return _see_other(reverse("tablet:table", args=[table.pk]))


def _by_seat(err: ServiceError, seats: list[int]) -> ServiceError:
    """The engine names players (`hand_2`: the third player); the deal form names seats."""
    field = err.field or ""
    if field.startswith("hand_") and field[5:].isdigit() and int(field[5:]) < len(seats):
        seat = seats[int(field[5:])]
        return ServiceError(
            f"seat {seat}: {err.message}", field=f"hand_{seat}", code=err.code, status=err.status
        )
    return err


@dealer_only
@require_POST
def act(request: HttpRequest, table_id: int) -> HttpResponse:
    """One action of the game in progress, as the form drawn for step `step` posts it."""
    table = _my_table(request, table_id)
    _game(table)
    post = request.POST
    hand = selectors.open_hand(table)
    try:
        rebuilt = from_record(hand.record) if hand is not None else None
        if hand is None or rebuilt is None:
            raise ServiceError("No game is in progress at this table: reload the page.", status=409)
        played, state = rebuilt
        if str(post.get("step", "")) != str(len(played.actions)):
            raise ServiceError(
                "This form is out of date: the game has moved on since it was shown "
                "(another tablet?). Nothing was entered; check the table and enter it again.",
                code="stale",
                status=409,
            )
        step = _step_of(post, played, state)
        hand_play(hand=hand, dealer=request.user, step=step)
    except ServiceError as err:
        return _render(request, table, error=err, posted=post, status=err.status)
    return _see_other(reverse("tablet:table", args=[table.pk]))


def _step_of(post: Mapping[str, Any], played: Played, state: Any) -> dict[str, Any]:
    do = str(post.get("do", ""))
    step: dict[str, Any] = {"do": do, "player": post.get("player")}
    if do in ("auction", "offer"):
        step["card"] = post.get("card", "")
        if played.terms.plays_for_chips:
            step["chips"] = _cents(post.get("chips"), "chips", "the chips")
    elif do == "swap":
        step["offer_of"] = post.get("offer_of")
    elif do == "mulligan" and state.phase.value == "decision":
        step["draws"] = [str(post.get(f"draw_{p}", "")).strip() for p in draw_order(state)]
        missing = [p for p, c in zip(draw_order(state), step["draws"], strict=True) if not c]
        if missing:
            raise ServiceError(
                f"enter the card player {missing[0]} draws", field=f"draw_{missing[0]}"
            )
    return step


@dealer_only
@require_POST
def finish(request: HttpRequest, table_id: int) -> HttpResponse:
    """Close a game that is over but still open (its finish did not go through)."""
    table = _my_table(request, table_id)
    hand = selectors.open_hand(table)
    try:
        if hand is None:
            raise ServiceError("No game is open at this table.", status=409)
        hand_finish(hand=hand, dealer=request.user)
    except ServiceError as err:
        return _render(request, table, error=err, status=err.status)
    return _see_other(reverse("tablet:table", args=[table.pk]))


@require_GET
def display(request: HttpRequest, table_id: int) -> HttpResponse:
    """The players' table display: the game in progress (or the last one's result), as the
    table may see it. The dealer signed in at the table, and the floor's oversight, see it."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = get_object_or_404(Table, pk=table_id)
    if not has_any_role(request.user, OVERSIGHT):
        try:
            _my_table(request, table_id)
        except PermissionDenied as err:
            return render(request, "tablet/forbidden.html", {"message": str(err)}, status=403)
    _game(table)
    hand = selectors.open_hand(table) or selectors.last_hand(table)
    if hand is not None and hand.status == Hand.Status.VOIDED:
        hand = None
    rebuilt = from_record(hand.record) if hand is not None else None
    ctx: dict[str, Any] = {"table": table, "g": None}
    if hand is not None and rebuilt is not None:
        _, state = rebuilt
        ctx["g"] = pages.display(state, _seats(hand))
    return render(request, "games/mulligan/display.html", ctx)


__all__ = ["act", "deal", "display", "finish", "tablet_page"]
