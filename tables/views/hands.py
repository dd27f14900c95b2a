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

A dealer's mistake is fixed as at the house games' tables: "Undo last action" takes the last
action back (while no card or street has come after it) and "Misdeal" cancels the hand early,
with a reason. Each of those, and every action that ends a player's hand (a fold: the game's
`confirm_question`), first shows a confirmation page (a form posted again with `confirmed`);
"Back" returns to the hand with nothing changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from core.money import dollars, typed_dollars
from tables import display as show
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
        raw = typed_dollars(post.get(f"seat-{n}-buy_in"))
        if not raw:
            continue
        try:
            players[n] = parse_cents(raw, where=f"seat {n}'s buy-in")
        except EngineError as err:
            raise ServiceError(err.message, field=f"seat {n} buy_in") from None
    return players


def _last_buy_ins(last: Hand | None) -> dict[int, int]:
    """Each seat's stack after `last`, the table's last hand that stands (the next hand's
    buy-in); after a misdeal, the buy-ins it returned."""
    if last is not None and last.status == Hand.Status.MISDEAL:
        return {p.seat: p.buy_in_cents for p in last.players.all()}
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
        if field in (*game.tablet_fields, "players", "reason") or field.startswith("seat "):
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
        counted = selectors.last_counted_hand(table)
        context["carried_from"] = counted
        last = _last_buy_ins(counted)
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
        # The card grid the game's forms include: greyed out, the cards the hand already holds.
        context["grid"] = show.grid(game.used_cards(hand.record))
        context["mistakes"] = _mistakes(hand, game, [p.seat for p in players], errors, posted)
    status = error.status if error is not None else 200
    return render(request, "tablet/hand.html", context, status=status)


def _mistakes(
    hand: Hand,
    game: Any,
    seats: list[int],
    errors: Mapping[str, str],
    posted: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """What the hand's "Undo last action" and "Misdeal" controls offer now, and why not."""
    _opened, steps = svc.hand_steps(hand)
    undo_why = (
        game.undo_refusal(steps[-1], seats=seats) if steps else "no card or action entered yet"
    )
    return {
        "undo": not undo_why,
        "undo_text": game.step_text(hand.record, steps[-1], seats=seats) if steps else "",
        "misdeal_why": game.misdeal_refusal(hand.record, seats=seats),
        "reason": (posted or {}).get("reason", ""),
        "reason_error": errors.get("reason", ""),
    }


def _confirm(
    request: HttpRequest,
    table: Table,
    *,
    title: str,
    question: str,
    action: str,
    yes: str,
    danger: bool = True,
) -> HttpResponse:
    """The confirmation page: what is about to be done, the form as posted (sent again with
    `confirmed`) and a way back with nothing changed."""
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "confirmed")
        for value in values
    ]
    hand = selectors.open_hand(table)
    context = {
        "table": table,
        "hand": hand,
        "title": title,
        "question": question,
        "action": action,
        "fields": fields,
        "yes": yes,
        "danger": danger,
    }
    return render(request, "tablet/hand_confirm.html", context)


def _confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirmed") == "1"


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

    def step() -> HttpResponse | None:
        hand = _open_hand(request, table)
        _same_hand(request, hand)
        # hand_play: a game assertion that fails is refused, logged and audited (a bug).
        seats = list(hand.players.order_by("position").values_list("seat", flat=True))
        posted = game.posted_step(request.POST, seats=seats)
        question = (
            "" if _confirmed(request) else game.confirm_question(hand.record, posted, seats=seats)
        )
        if question:
            return _confirm(
                request,
                table,
                title="Confirm: this ends a player's hand",
                question=question,
                action="tablet:hand_step",
                yes="Yes, enter it",
            )
        hand_play(hand=hand, dealer=request.user, step=posted, finish=False)
        return None

    try:
        asked = step()
    except ServiceError as err:
        return render_table(request, table, error=err, posted=request.POST)
    return asked or see_other(table_url(table))


@dealer_only
@require_POST
def hand_undo(request: HttpRequest, table_id: int) -> HttpResponse:
    """Take the hand's last action back, once the dealer confirms it."""
    table = my_table(request, table_id)
    game = games.player_vs_player(table.game)
    try:
        hand = _open_hand(request, table)
        _same_hand(request, hand)
        if not _confirmed(request):
            seats = list(hand.players.order_by("position").values_list("seat", flat=True))
            _opened, steps = svc.hand_steps(hand)
            why = game.undo_refusal(steps[-1], seats=seats) if steps else ""
            if not steps or why:
                svc.hand_undo(hand=hand, dealer=request.user)  # refused: says what and why
            said = game.step_text(hand.record, steps[-1], seats=seats)
            return _confirm(
                request,
                table,
                title=f"Undo the last action of hand {hand.number}?",
                question=f"Take back: {said}. The hand goes back to before it; the undo is "
                "on the record.",
                action="tablet:hand_undo",
                yes="Yes, take it back",
            )
        svc.hand_undo(hand=hand, dealer=request.user)
    except ServiceError as err:
        return render_table(request, table, error=err, posted=request.POST)
    return see_other(table_url(table))


@dealer_only
@require_POST
def hand_misdeal(request: HttpRequest, table_id: int) -> HttpResponse:
    """Cancel the hand as a misdeal, with a reason, once the dealer confirms it."""
    table = my_table(request, table_id)
    game = games.player_vs_player(table.game)
    reason = (request.POST.get("reason") or "").strip()
    try:
        hand = _open_hand(request, table)
        _same_hand(request, hand)
        if not _confirmed(request):
            seats = list(hand.players.order_by("position").values_list("seat", flat=True))
            if not reason or game.misdeal_refusal(hand.record, seats=seats):
                svc.hand_misdeal(hand=hand, dealer=request.user, reason=reason)  # refused
            return _confirm(
                request,
                table,
                title=f"Cancel hand {hand.number} as a misdeal?",
                question=f"Misdeal: {reason}. Nothing is paid and each player gets the "
                "buy-in back; the hand stays on the record.",
                action="tablet:hand_misdeal",
                yes="Yes, cancel the hand",
            )
        svc.hand_misdeal(hand=hand, dealer=request.user, reason=reason)
    except ServiceError as err:
        return render_table(request, table, error=err, posted=request.POST)
    return see_other(table_url(table))


def _same_hand(request: HttpRequest, hand: Hand) -> None:
    expected = request.POST.get("hand")
    if expected and expected != str(hand.pk):
        raise ServiceError(
            "this form was for another hand: the table has moved on", field="hand", status=409
        )


@dealer_only
@require_POST
def hand_finish(request: HttpRequest, table_id: int) -> HttpResponse:
    table = my_table(request, table_id)
    return _attempt(
        request,
        table,
        lambda: svc.hand_finish(hand=_open_hand(request, table), dealer=request.user),
    )
