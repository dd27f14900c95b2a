"""The dealer tablet: a dealer signs in at a table and plays its rounds, step by step.

The table page shows the step `round_state` says is next (wagers, cards, decisions, the
dealer's house way, confirm). Each form posts to a view that parses it, calls one service
and redirects (303) back to the table page; a form boosted by htmx gets that page in the
post's own answer (with its address for the browser's history, `HX-Push-Url`), not a 303 its
XHR would follow with a second request. A refused entry re-renders the same step with the
engine's message beside the field it names (`ServiceError.field`) and the input kept; the
services are atomic, so nothing of it was saved. htmx boosts the forms (no full reload) and
polls for a round changed on another tablet; every page works without JavaScript.

Only dealers use the tablet (others get 403), and a dealer only at the table they are
signed in to; the services check the same again.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import signoff
from core.errors import SeparationOfDuties, ServiceError
from core.money import typed_dollars
from core.params import DB_INT_MAX, ascii_int
from core.prepared import PreparedQuery
from tables import display as show
from tables import games, selectors
from tables.engine import cards as engine_cards
from tables.engine.errors import EngineError
from tables.engine.money import format_cents, parse_cents
from tables.models import Round, Table
from tables.services import controls
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in, dealer_sign_out

from .access import dealer_only, my_table, see_other, table_url, table_urls

STEPS = (
    ("wagers", "Wagers"),
    ("cards", "Cards"),
    ("decisions", "Players"),
    ("dealer", "House way"),
    ("confirm", "Pay and close"),
)


class Refused(Exception):
    """A refusal the view words itself (a stale form, a round settled elsewhere), shown like a
    ServiceError."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        status: int = 400,
        settled: Round | None = None,
    ):
        super().__init__(message)
        self.message, self.field, self.status = message, field, status
        self.settled = settled  # a round already settled elsewhere: the page links to its result


# --- POST-redirect-GET: a refusal is kept for the page the browser is sent back to ----------

FLASH = "tablet-refused"


def _refuse(
    request: HttpRequest,
    url: str,
    errors: list[ServiceError | Refused],
    *,
    table: int | None = None,
    posted_round: int | None = None,
    settled: Round | None = None,
) -> HttpResponse:
    """Keep the refusals and what was typed in the session, and send the browser (303) to the
    page that shows them: a reload never re-posts, and never meets a 405."""
    request.session[FLASH] = {
        "url": url,
        "table": table,
        "errors": [{"message": e.message, "field": e.field, "status": e.status} for e in errors],
        "posted": {k: request.POST.getlist(k) for k in request.POST if k != "csrfmiddlewaretoken"},
        "posted_round": posted_round,
        "settled": settled.pk if settled is not None else None,
    }
    return see_other(url)


def _flash(request: HttpRequest, url: str) -> dict[str, Any] | None:
    """The refusal kept for this page (once: a reload shows the page as it is)."""
    kept = request.session.get(FLASH)
    if not kept or kept.get("url") != url:
        return None
    del request.session[FLASH]
    posted = QueryDict(mutable=True)
    for key, values in kept["posted"].items():
        posted.setlist(key, values)
    kept["posted"] = posted
    kept["errors"] = [
        Refused(e["message"], field=e["field"], status=e["status"]) for e in kept["errors"]
    ]
    return kept  # type: ignore[no-any-return]


# --- the first page: choose a table ----------------------------------------------------------


@dealer_only
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    error: dict[str, Any] | None = None
    home_url = reverse("tablet:home")
    if request.method == "POST":
        table = get_object_or_404(Table, pk=_int(request.POST.get("table")) or 0)
        try:
            dealer_sign_in(dealer=request.user, table=table)
        except ServiceError as err:
            return _refuse(request, home_url, [err], table=table.pk)
        return see_other(table_url(table))
    kept = _flash(request, home_url)
    if kept is not None:
        error = {"table": kept["table"], "message": kept["errors"][0].message}
    sessions = selectors.open_sessions()
    rows = []
    mine = None
    for table in selectors.open_tables():
        session = sessions.get(table.pk)
        row = {
            "table": table,
            "game": table.get_game_display(),
            "mine": session is not None and session.dealer_id == request.user.pk,
            "taken_by": session.dealer.get_username() if session is not None else None,
            "error": error["message"] if error and error["table"] == table.pk else None,
        }
        mine = table if row["mine"] else mine
        rows.append(row)
    shown = error is not None and any(row["error"] for row in rows)
    top_errors = [error["message"]] if error is not None and not shown else []  # a closed table
    return render(
        request,
        "tablet/home.html",
        {"rows": rows, "mine": mine, "top_errors": top_errors},
    )


@dealer_only
@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    dealer_sign_out(dealer=request.user)
    return see_other(reverse("tablet:home"))


# --- the table page ------------------------------------------------------------------------


@dealer_only
@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_response(request, my_table(request, table_id))


def _table_response(request: HttpRequest, table: Table) -> HttpResponse:
    """The table page of the dealer signed in at `table` (checked by the caller)."""
    game = games.get(table.game)
    if isinstance(game, games.PlayerVsPlayerGame):  # hands of actions, not banked steps
        from .hands import table_page as hand_page

        return hand_page(request, table)
    if not isinstance(game, games.BankedGame):  # a game with a tablet flow of its own
        return game.tablet_page(request, table)  # type: ignore[no-any-return]
    followed = _signed_off_elsewhere(request, table)
    if followed is not None:  # a pit boss paid the round this tablet showed waiting
        return see_other(reverse("tablet:round", args=[followed.pk]))
    kept = _flash(request, table_url(table))
    if kept is None:
        return _render_table(request, table)
    settled = Round.objects.filter(pk=kept["settled"] or 0).first()
    return _render_table(
        request,
        table,
        errors=kept["errors"],
        posted=kept["posted"],
        posted_round=kept["posted_round"],
        extra={"settled_round": settled},
    )


_open_round = selectors.open_round

# The round this tablet last showed waiting for a pit boss's sign-off, per table: once it is
# settled (signed off on the dashboard or another tablet) the table page shows its payout
# before the next wagers, so the dealer is never moved on without seeing what to pay.
AWAITING = "tablet-awaiting"


def _awaiting_remember(request: HttpRequest, round_: Round) -> None:
    waiting = dict(request.session.get(AWAITING) or {})
    if waiting.get(str(round_.table_id)) != round_.pk:
        waiting[str(round_.table_id)] = round_.pk
        request.session[AWAITING] = waiting


def _awaiting_forget(request: HttpRequest, table_id: int) -> None:
    waiting = dict(request.session.get(AWAITING) or {})
    if waiting.pop(str(table_id), None) is not None:
        request.session[AWAITING] = waiting


def _signed_off_elsewhere(request: HttpRequest, table: Table) -> Round | None:
    """The round this tablet showed waiting, if it has since been settled (paid): once."""
    pk = (request.session.get(AWAITING) or {}).get(str(table.pk))
    if pk is None:
        return None
    round_ = Round.objects.filter(pk=pk, table=table).first()
    if round_ is not None and round_.awaiting_approval:
        return None  # still waiting
    _awaiting_forget(request, table.pk)
    if round_ is None or round_.status != Round.Status.SETTLED:
        return None  # cancelled (a misdeal): nothing to pay
    return round_


def _table_token(table: Table) -> str:
    """Changes whenever the table's latest round changes (another tablet moved it on)."""
    raw = json.dumps(selectors.latest_round_state(table), sort_keys=True, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


class Page:
    """What one render of the table page shows, and where a refusal's message goes."""

    def __init__(self) -> None:
        self.fields: dict[str, dict[str, Any]] = {}  # normalised field key -> input
        self.blocks: dict[str, dict[str, Any]] = {}  # "seat 3", "dealer" -> block
        self.top: list[str] = []
        self.editing: set[str] = set()  # cards in the round that a card input here may change

    def field(self, key: str, **attrs: Any) -> dict[str, Any]:
        f = {"key": key, "error": None, **attrs}
        self.fields[show.field_key(key)] = f
        self.editing.update(attrs.get("stored") or ())
        return f

    def block(self, key: str, **attrs: Any) -> dict[str, Any]:
        b = {"key": key, "error": None, **attrs}
        self.blocks[key] = b
        return b

    def place(self, field: str | None, message: str) -> None:
        """Show `message` at the input it names, else at that seat or the dealer, else on top."""
        key = show.field_key(field)
        if key in self.fields:
            self.fields[key]["error"] = message
            return
        seat = re.match(r"seat (\d+)", key)
        block = f"seat {seat.group(1)}" if seat else "dealer" if key.startswith("dealer") else ""
        if block in self.blocks:
            self.blocks[block]["error"] = message
        else:
            self.top.append(message)


# What a link or form boosted by htmx on the tablet's pages shows: only `#tablet` (the layout's
# `hx-select`) and the title; the rest of the page (the site's bar, styles and scripts) is
# already on the screen. A history restore (htmx swaps the whole body) gets the whole page.
FRAME = {"tablet_frame": "tablet/_frame.html"}


def _frame(request: HttpRequest) -> dict[str, str]:
    """The layout's frame for this request: `FRAME` for a boosted swap of `#tablet`."""
    headers = request.headers
    if (
        headers.get("HX-Boosted") == "true"
        and headers.get("HX-Target") == "tablet"
        and headers.get("HX-History-Restore-Request") != "true"
    ):
        return FRAME
    return {}


def _render_table(
    request: HttpRequest,
    table: Table,
    *,
    errors: list[ServiceError | Refused] | None = None,
    posted: Mapping[str, Any] | None = None,
    posted_round: int | None = None,
    status: int = 200,
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    round_ = _open_round(table)
    if round_ is not None:
        round_.table = table  # read with its meter by the caller: not read again
    # The input is kept only when the page shows the same round (and step) it was typed for.
    same = (round_.pk if round_ else None) == posted_round
    data = posted if posted is not None and same else None
    page = Page()
    version = table.paytable_version
    game = games.banked(table.game)
    ctx: dict[str, Any] = {
        "table": table,
        "urls": table_urls(table.pk),
        "game": game,
        "game_label": game.label,
        "version": version,
        "limits": show.limits_summary(version.limits, game.wager_labels) if version else [],
        "paytable": show.paytable_rows(version.lines, game) if version else [],
        "round": round_,
        "token": _table_token(table),
    }
    if table.meter is not None:
        ctx["meter"] = {
            "value": show.dollars(table.meter.value_cents),
            "wager": show.dollars(table.meter.wager_cents),
        }
    if round_ is None:
        step = "wagers"
        _wagers_step(ctx, page, table, data)
    else:
        state = selectors.round_state(round_)
        step = state["step"]
        builder = {
            "cards": _cards_step,
            "decisions": _decisions_step,
            "dealer": _dealer_step,
            "confirm": _confirm_step,
        }[step]
        builder(ctx, page, round_, state, data)
        ctx["cancel_reason"] = page.field("reason", name="reason", value=_value(data, "reason"))
        if round_.awaiting_approval:
            _awaiting_remember(request, round_)
            ctx["approver"] = page.field(
                "approver", name="approver", value=_value(data, "approver")
            )
            ctx["approver_password"] = page.field("approver password", name="approver-password")
    ctx["step"] = step
    ctx["steps"] = STEP_LISTS[step]
    for error in errors or []:
        page.place(error.field, error.message)
    if ctx.get("with_grid"):
        # greyed out: the round's cards, except those a box on this page holds and may change
        ctx["grid"] = show.grid((_round_cards(round_) if round_ else set()) - page.editing)
    ctx.update(extra or {})
    ctx.update(_frame(request))
    ctx["top_errors"] = page.top
    return render(request, "tablet/table.html", ctx, status=status)


def _step_state(key: str, current: str) -> str:
    order = [k for k, _ in STEPS]
    return (
        "done" if order.index(key) < order.index(current) else "now" if key == current else "next"
    )


# The steps' list at the top of the table page, for each step the page may show: drawn once.
CURRENT_STEP = ' aria-current="step"'
STEP_LISTS = {
    current: mark_safe(  # noqa: S308  (the steps' fixed words)
        "".join(
            f'<li class="{state}"{CURRENT_STEP if state == "now" else ""}>{label}</li>'
            for key, label in STEPS
            for state in [_step_state(key, current)]
        )
    )
    for current, _label in STEPS
}


def _round_cards(round_: Round) -> set[str]:
    """Every card already accounted for in the round (the game says which: hands, draws...)."""
    return games.banked(round_.game).used_cards(round_.entry)


_value = show.posted_value


# --- step: wagers --------------------------------------------------------------------------


def _wagers_step(
    ctx: dict[str, Any], page: Page, table: Table, data: Mapping[str, Any] | None
) -> None:
    rebet = selectors.last_wagers(table)
    game = games.banked(table.game)
    seats = []
    for n in range(1, table.seats + 1):
        before = rebet.get(n, {})
        block = page.block(f"seat {n}", n=n, fields=[])
        for wager in game.typed_wagers:
            name = f"seat-{n}-{wager}"
            block["fields"].append(
                page.field(
                    f"seat {n} {wager}",
                    name=name,
                    wager=wager,
                    label=show.wager_label(wager, game.wager_labels),
                    value=_value(data, name, before.get(wager, "")),
                )
            )
        block["mirrors"] = [
            {
                "label": show.wager_label(wager, game.wager_labels),
                "of": f"id-seat-{n}-{of}",
                "shown": (
                    f"= {show.wager_label(of, game.wager_labels).lower()}"
                    if _value(data, f"seat-{n}-{of}", before.get(of, ""))
                    else "—"
                ),
            }
            for wager, of in game.mirrored_wagers.items()
        ]
        if game.takes_progressive and table.meter is not None:
            name = f"seat-{n}-progressive"
            checked = bool(data.get(name)) if data is not None else "progressive" in before
            block["progressive"] = page.field(f"seat {n} progressive", name=name, checked=checked)
        seats.append(block)
    last = selectors.last_settled_round(table)
    ctx.update(seats=seats, rebet=bool(rebet) and data is None, last_round=last)
    if last is not None:
        ctx["last_round_house"] = show.dollars(last.house_win_cents, signed=True)
        ctx["last_round_class"] = show.result_class(last.house_win_cents)


def _posted_wagers(table: Table, post: Mapping[str, Any]) -> dict[int, dict[str, str]]:
    wagers: dict[int, dict[str, str]] = {}
    game = games.banked(table.game)
    for n in range(1, table.seats + 1):
        seat: dict[str, str] = {}
        for wager in game.typed_wagers:
            value = typed_dollars(post.get(f"seat-{n}-{wager}", ""))
            if value:
                seat[wager] = value
        if game.takes_progressive and table.meter is not None and post.get(f"seat-{n}-progressive"):
            seat["progressive"] = format_cents(table.meter.wager_cents)
        if seat:
            wagers[n] = seat
    return wagers


@dealer_only
@require_POST
def open_round(request: HttpRequest, table_id: int) -> HttpResponse:
    table = my_table(request, table_id)
    wagers = _posted_wagers(table, request.POST)
    errors = _wager_errors(table, wagers)
    if not errors:
        try:
            svc.round_open(table=table, dealer=request.user, wagers=wagers)
        except ServiceError as err:
            errors = [err]
    if errors:
        return _refuse(request, table_url(table), errors)
    return _next_page(request, table)


def _next_page(request: HttpRequest, table: Table, settled: Round | None = None) -> HttpResponse:
    """Where a step that went through sends the dealer: the table page, or a settled round's
    payout. A form boosted by htmx gets that page in this answer, with its address to put in
    the browser's history (`HX-Push-Url`), as the 303 and the GET the browser's XHR follows it
    with would give it, without the second request; without JavaScript the browser is sent
    there (303), so a reload never posts again."""
    url = reverse("tablet:round", args=[settled.pk]) if settled else table_url(table)
    if request.headers.get("HX-Boosted") != "true":
        return see_other(url)
    response = (
        _round_response(request, settled.pk, table)
        if settled is not None
        else _table_response(request, table)
    )
    if response.status_code == 303:  # the page itself sends the browser on
        return response
    response["HX-Push-Url"] = url
    return response


def _wager_errors(table: Table, wagers: dict[int, dict[str, str]]) -> list[ServiceError | Refused]:
    """Every seat's refusal at once (each seat checked on its own, as the service will)."""
    errors: list[ServiceError | Refused] = []
    game = games.banked(table.game)
    for n, seat in wagers.items():
        typed_wrong = False
        for wager, typed in seat.items():
            try:
                parse_cents(typed, where=wager)
            except EngineError:
                typed_wrong = True
                errors.append(
                    Refused(
                        f"seat {n}'s {game.wager_label(wager).lower()} must be an amount in "
                        f"dollars, like 10 or 12.50, not “{typed}”",
                        field=f"seat {n} {wager}",
                    )
                )
        if typed_wrong:
            continue
        try:
            svc.validate_wagers(table, {n: seat})
        except ServiceError as err:
            errors.append(err)
    return errors


# --- step: cards ---------------------------------------------------------------------------


def _cards_step(
    ctx: dict[str, Any],
    page: Page,
    round_: Round,
    state: dict[str, Any],
    data: Mapping[str, Any] | None,
) -> None:
    inputs = []
    labels = games.banked(round_.game).wager_labels
    for seat in round_.entry["seats"]:
        n = seat["seat"]
        name = f"seat-{n}-cards"
        block = page.block(f"seat {n}", n=n)
        block["input"] = page.field(
            f"seat {n} cards",
            name=name,
            label=f"Seat {n}",
            sub=show.wager_summary(seat["wagers"], labels),
            value=_value(data, name),
            max=3,
        )
        inputs.append(block)
    dealer = page.block("dealer")
    dealer["input"] = page.field(
        "dealer cards",
        name="dealer-cards",
        label="Dealer",
        sub="",
        value=_value(data, "dealer-cards"),
        max=3,
    )
    inputs.append(dealer)
    ctx.update(inputs=inputs, with_grid=True)


# --- step: the players' decisions ------------------------------------------------------------


def _decision_summary(game: str, seat: dict[str, Any]) -> str:
    return games.banked(game).decision_summary(seat)


def _decisions_step(
    ctx: dict[str, Any],
    page: Page,
    round_: Round,
    state: dict[str, Any],
    data: Mapping[str, Any] | None,
) -> None:
    game = round_.game
    game_def = games.banked(game)
    decided = set(round_.entry.get("decided", []))
    pending = state["pending"]
    posted_seat = _int(data.get("seat")) if data is not None else None
    seats = []
    for seat in round_.entry["seats"]:
        n = seat["seat"]
        mine = data if posted_seat == n else None  # only the posted seat keeps the posted input
        block = page.block(
            f"seat {n}",
            n=n,
            cards=show.cards(seat["cards"]),
            wagers=show.wager_summary(seat["wagers"], game_def.wager_labels),
            decided=n in decided,
            summary=_decision_summary(game, seat) if n in decided else "",
            current=n == pending[0],
            open=posted_seat == n,
        )
        game_def.decision_form(page, block, seat, mine)
        seats.append(block)
    # The grid shows once a card box can take cards (e.g. a decision that draws is chosen).
    shown = [b for b in seats if b.get("takes_cards") and (not b["decided"] or b["open"])]
    ctx.update(
        decision_seats=seats,
        pending=pending,
        with_grid=game_def.decision_grid,
        grid_hidden=not shown,
    )


def _posted_decision(game: str, n: int, post: Mapping[str, Any]) -> dict[str, Any]:
    return games.banked(game).posted_decision(n, post)


# --- step: the dealer's house way ----------------------------------------------------------


def _headline(game: str, advice: dict[str, Any]) -> list[dict[str, Any]]:
    """The house way as one instruction, in parts (words and cards), in the game's words."""
    return games.banked(game).headline(advice)


def _dealer_form(
    page: Page, round_: Round, advice: dict[str, Any], data: Mapping[str, Any] | None
) -> dict[str, Any]:
    dealer = round_.entry["dealer"]
    block = page.block("dealer", cards=show.cards(dealer["cards"]))
    choices = advice.get("choices") or []
    if len(choices) > 1:
        current = " ".join(sorted(dealer.get("discard") or advice["discard"]))
        picked = _value(data, "dealer-discard", current)
        block["choices"] = page.field(
            "dealer discard",
            name="dealer-discard",
            options=[
                {"value": " ".join(ch), "cards": show.cards(ch), "checked": " ".join(ch) == picked}
                for ch in choices
            ],
        )
    if advice["draw_count"]:
        block["draw"] = page.field(
            "dealer draw",
            name="dealer-draw",
            label="The dealer's new cards",
            value=_value(data, "dealer-draw", " ".join(dealer.get("draw") or [])),
            max=advice["draw_count"],
            stored=dealer.get("draw") or [],
        )
    return block


def _dealer_step(
    ctx: dict[str, Any],
    page: Page,
    round_: Round,
    state: dict[str, Any],
    data: Mapping[str, Any] | None,
) -> None:
    advice = state["advice"]
    ctx.update(
        advice=advice,
        headline=_headline(round_.game, advice),
        dealer=_dealer_form(page, round_, advice, data),
        with_grid=bool(advice["draw_count"]),
        decided_seats=_decided(round_),
    )


def _decided(round_: Round) -> list[dict[str, Any]]:
    return [
        {
            "n": s["seat"],
            "cards": show.cards(s["cards"]),
            "summary": _decision_summary(round_.game, s),
        }
        for s in round_.entry["seats"]
    ]


# --- step: confirm -------------------------------------------------------------------------


def _confirm_step(
    ctx: dict[str, Any],
    page: Page,
    round_: Round,
    state: dict[str, Any],
    data: Mapping[str, Any] | None,
) -> None:
    advice = state["advice"]
    try:
        preview = selectors.round_preview(round_)
    except ServiceError as err:
        page.top.append(err.message)
        preview = None
    ctx.update(
        advice=advice,
        settlement=show.settlement(preview, games.banked(round_.game)) if preview else None,
        idempotency_key=uuid.uuid4().hex,
    )
    if advice["draw_count"]:  # the dealer may still correct the cards drawn before paying
        ctx["dealer"] = _dealer_form(page, round_, advice, data)
        ctx["with_grid"] = True
        ctx["correcting"] = data is not None and "dealer-draw" in data


# --- the step actions ----------------------------------------------------------------------


def _int(value: Any) -> int | None:
    """A posted id or seat: ASCII digits only (`core.params.ascii_int`), else None."""
    return ascii_int(value)


def _act(
    request: HttpRequest, table_id: int, call: Callable[[Table, Round], Round | None]
) -> HttpResponse:
    """Run one step's service for the round the form was rendered for, then show what is next
    (the table page, or the round `call` settled)."""
    table = my_table(request, table_id)
    round_ = selectors.round_at(table, _int(request.POST.get("round")))
    try:
        if round_ is None:
            raise Refused("That round is not at this table: reload the page.", status=409)
        settled = call(table, round_)
    except (ServiceError, Refused, EngineError, Several) as err:
        if isinstance(err, EngineError):  # the services wrap the engine's refusals; just in case
            err = Refused(err.message, field=err.field)
        settled = err.settled if isinstance(err, Refused) else None
        return _refuse(
            request,
            table_url(table),
            err.errors if isinstance(err, Several) else [err],
            posted_round=round_.pk if round_ else None,
            settled=settled,
        )
    return _next_page(request, table, settled)


class Several(Exception):
    """Several fields refused at once (each shown at its field)."""

    def __init__(self, errors: list[ServiceError | Refused]):
        super().__init__(errors[0].message)
        self.errors = errors


def _card_errors(fields: list[tuple[str, str, str]]) -> list[ServiceError | Refused]:
    """Every card box's refusal at once: (field, its words, what was typed) -> an unknown card,
    a wrong count, or a card already in another box."""
    errors: list[ServiceError | Refused] = []
    seen: dict[str, str] = {}
    for field, words, typed in fields:
        if not typed.strip():
            errors.append(Refused(f"{words} are missing", field=field))
            continue
        try:
            parsed = engine_cards.parse_cards(typed, where=words)
        except EngineError as err:
            errors.append(Refused(err.message, field=field))
            continue
        for card in map(str, parsed):
            if card in seen:
                errors.append(
                    Refused(
                        f"{card} in {words} is already in the round ({seen[card]})", field=field
                    )
                )
                break
            seen[card] = words
    return errors


@dealer_only
@require_POST
def deal(request: HttpRequest, table_id: int) -> HttpResponse:
    def call(table: Table, round_: Round) -> None:
        seats = {
            s["seat"]: str(request.POST.get(f"seat-{s['seat']}-cards", ""))
            for s in round_.entry["seats"]
        }
        boxes = [(f"seat {n} cards", f"seat {n}'s cards", typed) for n, typed in seats.items()]
        boxes.append(
            ("dealer cards", "the dealer's cards", str(request.POST.get("dealer-cards", "")))
        )
        errors = _card_errors(boxes)
        if len(errors) > 1:
            raise Several(errors)
        svc.round_deal(
            round=round_,
            dealer=request.user,
            seat_cards=seats,
            dealer_cards=str(request.POST.get("dealer-cards", "")),
        )

    return _act(request, table_id, call)


@dealer_only
@require_POST
def decide(request: HttpRequest, table_id: int) -> HttpResponse:
    def call(table: Table, round_: Round) -> None:
        n = _int(request.POST.get("seat"))
        if n is None:
            raise Refused("Choose the seat whose decision this is.")
        svc.round_decide(
            round=round_,
            dealer=request.user,
            seat=n,
            decision=_posted_decision(round_.game, n, request.POST),
        )

    return _act(request, table_id, call)


@dealer_only
@require_POST
def dealer_hand(request: HttpRequest, table_id: int) -> HttpResponse:
    def call(table: Table, round_: Round) -> None:
        svc.round_dealer(
            round=round_,
            dealer=request.user,
            draw=str(request.POST.get("dealer-draw", "")),
            discard=request.POST.get("dealer-discard") or None,
        )

    return _act(request, table_id, call)


@dealer_only
@require_POST
def settle(request: HttpRequest, table_id: int) -> HttpResponse:
    def call(table: Table, round_: Round) -> Round | None:
        key = str(request.POST.get("idempotency_key", "")).strip() or None
        try:
            settled = svc.round_settle(round=round_, dealer=request.user, idempotency_key=key)
        except svc.ApprovalRequired:
            return None  # the table page shows the round waiting for a pit boss's sign-off
        except ServiceError as err:
            if err.code == "already_settled":
                round_.refresh_from_db(fields=["status"])
                raise Refused(
                    f"Round {round_.number} is already {round_.status} (on another tablet?): "
                    "it was not settled again, and nothing more is to be paid for it.",
                    status=409,
                    settled=round_,
                ) from None
            raise
        return settled

    return _act(request, table_id, call)


# --- the controls: a pit boss's sign-off, a misdeal, going back a step ----------------------


@dealer_only
@require_POST
def approve(request: HttpRequest, table_id: int) -> HttpResponse:
    """A pit boss at the tablet signs off the payout with their own name and password (the
    dealer stays signed in): the round is paid under the pit boss's name. Any failure gets the
    same answer, and counts on the sign-off's own limit (accounts.signoff)."""

    def call(table: Table, round_: Round) -> Round:
        name = str(request.POST.get("approver", "")).strip()
        secret = str(request.POST.get("approver-password", ""))
        errors: list[ServiceError | Refused] = []
        if not name:
            errors.append(Refused("the pit boss's name is missing", field="approver"))
        if not secret:
            errors.append(Refused("the pit boss's password is missing", field="approver password"))
        if errors:
            raise Several(errors)
        if round_.status != Round.Status.OPEN or round_.approval_requested_at is None:
            # before the credentials are looked at: a later refusal tells nothing about them
            raise Refused(f"Round {round_.number} is not waiting for a sign-off.", status=409)
        # One answer for every failure, counted on the sign-off's own limit, never toward the
        # named account's lockout (accounts.signoff).
        try:
            boss = signoff.approver(
                request, name=name, password=secret, not_by=(request.user.pk,), obj=round_
            )
        except signoff.SignOffRefused as err:
            raise Refused(err.message, field="approver password", status=err.status) from None
        try:
            settled = controls.round_approve(round=round_, by=boss)
        except SeparationOfDuties as err:  # a pit boss who dealt the round: the one answer
            answer = signoff.duties_refused(request, user=boss, refusal=err)
            raise Refused(answer.message, field="approver password") from None
        except PermissionDenied:
            raise Refused(signoff.REFUSED, field="approver password") from None
        return settled

    return _act(request, table_id, call)


@dealer_only
@require_POST
def cancel(request: HttpRequest, table_id: int) -> HttpResponse:
    def call(table: Table, round_: Round) -> None:
        reason = str(request.POST.get("reason", ""))
        if not reason.strip():  # named at its box; the cards posted with it come back as typed
            raise Refused(
                f'The reason ("Why") is missing: say why round {round_.number} is cancelled, '
                'e.g. "misdeal: seat 3 got four cards". Nothing was cancelled.',
                field="reason",
            )
        controls.round_cancel(round=round_, by=request.user, reason=reason)

    return _act(request, table_id, call)


@dealer_only
@require_POST
def back(request: HttpRequest, table_id: int) -> HttpResponse:
    def call(table: Table, round_: Round) -> None:
        controls.round_step_back(
            round=round_, dealer=request.user, to=str(request.POST.get("to", ""))
        )

    return _act(request, table_id, call)


# --- a settled round, and the watch for changes made elsewhere -------------------------------


@dealer_only
@require_GET
def round_page(request: HttpRequest, round_id: int) -> HttpResponse:
    return _round_response(request, round_id)


def _round_page_query(pk: int) -> Any:
    return Round.objects.filter(pk=pk).select_related(
        "table", "dealer", "approved_by", "paytable_version"
    )[:1]


_ROUND_PAGE = PreparedQuery(_round_page_query, pk=int)  # a round's page, compiled once


def _round_response(
    request: HttpRequest, round_id: int, table: Table | None = None
) -> HttpResponse:
    """A round's page at the table of the dealer signed in there (`table` when the caller has
    checked it)."""
    round_ = _ROUND_PAGE.first(pk=round_id) if 0 < round_id <= DB_INT_MAX else None
    if round_ is None:
        raise Http404("No Round matches the given query.")
    if table is None or table.pk != round_.table_id:
        table = my_table(request, round_.table_id)
    waiting = (request.session.get(AWAITING) or {}).get(str(table.pk))
    if waiting == round_.pk and not round_.awaiting_approval:
        _awaiting_forget(request, table.pk)  # its payout is shown: the next reload moves on
    game = games.banked(round_.game)
    summary = show.settlement(round_.settlement, game) if round_.settlement else None
    return render(
        request,
        "tablet/round.html",
        {
            "table": table,
            "urls": table_urls(table.pk),
            "round": round_,
            "settlement": summary,
            "game_label": game.label,
            "pay": _pay_list(summary) if round_.status == Round.Status.SETTLED else [],
            "seats": [
                {"n": s["seat"], "summary": _decision_summary(round_.game, s)}
                for s in round_.entry["seats"]
            ],
            **_frame(request),
        },
    )


def _pay_list(summary: dict[str, Any] | None) -> list[dict[str, str]]:
    """What the dealer pays and takes, seat by seat ("Pay seat 2 $25,000.40"), with any
    progressive award's words (what the meter pays and the net apart)."""
    rows = []
    for seat in (summary or {}).get("seats", []):
        net = seat["net"].lstrip("+-")
        words = (
            f"Pay seat {seat['n']} {net}"
            if seat["net_class"] == "win"
            else f"Take {net} from seat {seat['n']}"
            if seat["net_class"] == "lose"
            else f"Seat {seat['n']}: push, nothing to pay"
        )
        rows.append({"words": words, "class": seat["net_class"], "awards": seat["awards"]})
    return rows


@login_required
@require_GET
def watch(request: HttpRequest, table_id: int) -> HttpResponse:
    """Polled by the table page: 204 while the table is as the page shows it; otherwise a
    notice to reload (another tablet moved the round on, or the dealer was signed out)."""
    mine = selectors.session_of(table_id, request.user.pk)
    table = mine.table if mine is not None else get_object_or_404(Table, pk=table_id)
    session = mine or selectors.open_session_at(table)
    if session is None or session.dealer_id != request.user.pk:
        notice = f"You are no longer signed in at {table}."
    elif (paid := _paid_while_watched(table, request.GET.get("round"))) is not None:
        # the round the page shows waiting was signed off elsewhere: follow it to its payout
        url = reverse("tablet:round", args=[paid.pk])
        assert paid.approved_by is not None
        notice = (
            f"Pit boss {paid.approved_by.get_username()} signed off round {paid.number}: "
            "pay the players."
        )
        response = render(
            request,
            "tablet/_watch.html",
            {"table": table, "notice": notice, "url": url, "link": "Show what to pay"},
        )
        response["HX-Redirect"] = url
        return response
    elif request.GET.get("token") != _table_token(table):
        notice = "This round was changed on another tablet."
    else:
        return HttpResponse(status=204)
    return render(
        request,
        "tablet/_watch.html",
        {"table": table, "notice": notice, "url": table_url(table), "link": "Reload the table"},
    )


def _paid_while_watched(table: Table, posted: str | None) -> Round | None:
    """The round a waiting page watches (`?round=`), if it has since been settled."""
    pk = _int(posted)
    if pk is None:
        return None
    return (
        Round.objects.select_related("approved_by")
        .filter(pk=pk, table=table, status=Round.Status.SETTLED)
        .first()
    )
