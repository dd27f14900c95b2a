"""The dealer tablet for a player-vs-player game: one page per table that shows the hand as it
stands and the one thing the dealer enters next.

With no hand open the page asks each player's buy-in by seat. Then the game's own form
(`PlayerVsPlayerGame.hand_template`) asks what the hand waits for (the hole cards, an action of
the player to act among the legal ones with the chips each puts in, the flop, the turn); pot,
bets and stacks are always shown; once the hand is over it shows who wins what (pots, side
pots, splits, the rake) before the dealer confirms. Each form posts to one view that parses it,
calls one service (`tables.services.hands`) and redirects (303) back; a refusal re-renders the
page with the message at the field it names and nothing saved. Game-neutral: the game parses
its posted step (`posted_step`) and describes its hand (`view`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from core.money import dollars
from tables import games, selectors
from tables.engine.errors import EngineError
from tables.engine.money import parse_cents
from tables.models import Hand, LimitKind, Table
from tables.services import hands as svc
from tables.services.hand_play import hand_play
from tables.services.limits import limit_cents

from .access import dealer_only, my_table, see_other, table_url


def _buy_ins(table: Table, post: Mapping[str, Any]) -> dict[int, int]:
    """Seat -> buy-in cents from the form's dollar fields (empty seats left out)."""
    players: dict[int, int] = {}
    for n in range(1, table.seats + 1):
        raw = (post.get(f"seat-{n}-buy_in") or "").strip()
        if not raw:
            continue
        try:
            players[n] = parse_cents(raw, where=f"seat {n}'s buy-in")
        except EngineError as err:
            raise ServiceError(err.message, field=f"seat {n} buy_in") from None
    return players


def _last_buy_ins(table: Table) -> dict[int, int]:
    """Each seat's stack after the table's last finished hand (the next hand's buy-in)."""
    last = selectors.last_hand(table)
    if last is None or last.status != Hand.Status.FINISHED:
        return {}
    return {
        p.seat: p.stack_after_cents
        for p in last.players.all()
        if p.stack_after_cents  # a player who lost everything is not dealt in again
    }


def _cents_text(cents: int | None) -> str:
    return "" if cents is None else dollars(cents).lstrip("$").replace(",", "")


def render_table(
    request: HttpRequest,
    table: Table,
    *,
    error: ServiceError | None = None,
    posted: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """The table's page: the buy-ins, or the open hand and its next step."""
    game = games.player_vs_player(table.game)
    version = selectors.settings_in_force(table)
    hand = selectors.open_hand(table)
    errors: dict[str, str] = {}
    top_errors: list[str] = []
    if error is not None:
        field = error.field or ""
        if field in game.tablet_fields or field == "players" or field.startswith("seat "):
            errors[field] = error.message
        else:
            top_errors.append(error.message)
    context: dict[str, Any] = {
        "table": table,
        "game": game,
        "game_label": game.label,
        "version": version,
        "settings_text": game.settings_text(version.values) if version else "",
        "hand": hand,
        "errors": errors,
        "top_errors": top_errors,
        "posted": posted or {},
        "last_hand": selectors.last_hand(table),
        "last_hand_text": "",
    }
    last_hand = context["last_hand"]
    if last_hand is not None:
        context["last_hand_text"] = f"Last hand: {last_hand.number}, " + (
            f"pot {dollars(last_hand.pot_cents)}, rake {dollars(last_hand.rake_cents)}"
            if last_hand.status == Hand.Status.FINISHED
            else last_hand.get_status_display().lower()
        )
    if hand is None:
        last = _last_buy_ins(table)
        seats = []
        for n in range(1, table.seats + 1):
            name = f"seat-{n}-buy_in"
            value = (posted or {}).get(name, _cents_text(last.get(n)))
            seats.append(
                {
                    "n": n,
                    "name": name,
                    "value": value,
                    "error": errors.get(f"seat {n} buy_in") or errors.get(f"seat {n}"),
                }
            )
        context["seats"] = seats
        context["players_error"] = errors.get("players")
        if version is not None:
            context["buy_in_range"] = (
                dollars(game.min_buy_in(version.values)),
                dollars(limit_cents(LimitKind.POKER_BUY_IN)),
            )
    else:
        players = list(hand.players.order_by("position"))
        context["view"] = game.tablet_view(hand.record, players, posted=posted or {}, errors=errors)
    status = error.status if error is not None else 200
    return render(request, "tablet/hand.html", context, status=status)


def table_page(request: HttpRequest, table: Table) -> HttpResponse:
    return render_table(request, table)


def _attempt(request: HttpRequest, table: Table, call: Any) -> HttpResponse:
    try:
        call()
    except ServiceError as err:
        return render_table(request, table, error=err, posted=request.POST)
    return see_other(table_url(table))


def _open_hand(request: HttpRequest, table: Table) -> Hand:
    hand = selectors.open_hand(table)
    if hand is None:
        raise ServiceError("no hand is open at this table", field="hand", status=409)
    return hand


@dealer_only
@require_POST
def hand_open(request: HttpRequest, table_id: int) -> HttpResponse:
    table = my_table(request, table_id)
    return _attempt(
        request,
        table,
        lambda: svc.hand_open(
            table=table, dealer=request.user, players=_buy_ins(table, request.POST)
        ),
    )


@dealer_only
@require_POST
def hand_step(request: HttpRequest, table_id: int) -> HttpResponse:
    table = my_table(request, table_id)
    game = games.player_vs_player(table.game)

    def step() -> None:
        hand = _open_hand(request, table)
        expected = request.POST.get("hand")
        if expected and expected != str(hand.pk):
            raise ServiceError(
                "this form was for another hand: the table has moved on", field="hand", status=409
            )
        # hand_play: a game assertion that fails is refused, logged and audited (a bug).
        seats = list(hand.players.order_by("position").values_list("seat", flat=True))
        posted = game.posted_step(request.POST, seats=seats)
        hand_play(hand=hand, dealer=request.user, step=posted, finish=False)

    return _attempt(request, table, step)


@dealer_only
@require_POST
def hand_finish(request: HttpRequest, table_id: int) -> HttpResponse:
    table = my_table(request, table_id)
    return _attempt(
        request,
        table,
        lambda: svc.hand_finish(hand=_open_hand(request, table), dealer=request.user),
    )
