"""The auditor's pages: search the trail, replay a round, export CSV. Pit bosses read them too
and void or correct a settled round from its record, and approve or withdraw a void waiting
for a second pit boss. A button is shown only to who may press it (`rounds_allowed`)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, time
from typing import Any

from defusedcsv import csv
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from audit.chain import HASHED_FIELDS
from audit.selectors import AMOUNT_KEYS, search_events
from audit.services import audit_refused_duties
from core.bad_request import bad_query
from core.errors import SeparationOfDuties, ServiceError
from core.money import dollars
from core.roles import (
    RECORD_READERS,
    Role,
    has_role,
    require,
)
from tables import display as show
from tables import games
from tables.engine.errors import EngineError
from tables.engine.money import format_cents, parse_cents
from tables.models import Hand, Round
from tables.services.controls import round_cancel
from tables.services.corrections import round_void, round_void_approve, round_void_withdraw
from tables.services.duties import (
    APPROVE,
    APPROVE_VOID,
    CORRECT,
    VOID,
    WITHDRAW_VOID,
    rounds_allowed,
)
from tables.services.hands import hand_void

from .replay import (
    event_rows,
    event_sentence,
    hand_seats,
    hand_steps,
    kind_label,
    lines_in_words,
    replay_steps,
)
from .selectors import hand_events, hand_for_record, latest_rounds, round_for_record, round_replay
from .verification import record_status

CSV_FIELDS = [*HASHED_FIELDS, "hash"]  # every field the chain covers, then the hash


def _require_reader(request: HttpRequest) -> None:
    require(
        request.user,
        RECORD_READERS,
        "read the audit trail",
        message="only auditors and pit bosses read the audit trail",
    )


class BadFilter(ValueError):
    """A search filter that is not a date or time (the message names it)."""


def _when(value: str, field: str, *, end: bool = False) -> datetime | None:
    value = (value or "").strip()
    if not value:
        return None
    try:
        parsed = parse_datetime(value)
        if parsed is None:
            day = parse_date(value)
            if day is None:
                raise ValueError("not a date")
            parsed = datetime.combine(day, time.max if end else time.min)
    except ValueError:
        raise BadFilter(
            f"{field}: {value!r} is not a date (YYYY-MM-DD) or time (YYYY-MM-DD HH:MM)"
        ) from None
    return timezone.make_aware(parsed) if timezone.is_naive(parsed) else parsed


def _dollars(value: str, field: str) -> int | None:
    value = (value or "").strip().lstrip("$").replace(",", "")
    if not value:
        return None
    try:
        return parse_cents(value, where=field, allow_zero=True)
    except EngineError:
        raise BadFilter(
            f"{field}: {value!r} is not an amount in dollars (like 1000 or 12.50)"
        ) from None


def _filters(request: HttpRequest) -> dict[str, Any]:
    q = request.GET
    return {
        "words": q.get("q", ""),
        "table": q.get("table", ""),
        "user": q.get("user", ""),
        "kind": q.get("kind", ""),
        "since": _when(q.get("since", ""), "since"),
        "until": _when(q.get("until", ""), "until", end=True),
        "min_cents": _dollars(q.get("min", ""), "smallest amount"),
        "max_cents": _dollars(q.get("max", ""), "largest amount"),
    }


def _bad_filter(request: HttpRequest, err: BadFilter) -> HttpResponse:
    """The site's 400 page, naming the filter ("since: 'abc' is not a date ...")."""
    field, _, message = str(err).partition(": ")
    return bad_query(request, field=field, message=message)


@login_required
def events(request: HttpRequest) -> HttpResponse:
    _require_reader(request)
    error = None
    try:
        filters = _filters(request)
        found = search_events(**filters).reverse()
    except BadFilter as err:
        error, found = str(err), search_events().none()
    page = Paginator(found, 50).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "audit/events.html",
        {
            "page": page,
            "rows": event_rows(page),
            "q": request.GET,
            "query": query.urlencode(),
            "rounds": latest_rounds(20),
            "error": error,
            "record": record_status(),
        },
        status=400 if error else 200,
    )


class _Echo:
    def write(self, value: str) -> str:
        return value


@login_required
def events_csv(request: HttpRequest) -> HttpResponse:
    """The events as CSV. A cell starting like a spreadsheet formula (= + - @) is written with
    a leading apostrophe (defusedcsv), so opening the export never runs it; remove it before
    re-hashing such a field."""
    _require_reader(request)
    try:
        filters = _filters(request)
    except BadFilter as err:
        return _bad_filter(request, err)
    writer = csv.writer(_Echo())

    def rows() -> Any:
        yield writer.writerow(CSV_FIELDS)
        for ev in search_events(**filters).iterator(chunk_size=2000):
            yield writer.writerow(
                [
                    ev.seq,
                    ev.at.isoformat(),
                    ev.actor_id or "",
                    ev.actor_name,
                    ev.kind,
                    ev.object_type,
                    ev.object_id,
                    ev.table_name,
                    json.dumps(ev.data, sort_keys=True),
                    ev.prev_hash,
                    ev.hash,
                ]
            )

    response = StreamingHttpResponse(rows(), content_type="text/csv")
    response["Content-Disposition"] = 'attachment; filename="audit-events.csv"'
    return response


READABLE_FIELDS = [
    "event",
    "time_utc",
    "who",
    "table",
    "round_or_hand",
    "what",
    "sentence",
    "amount_dollars",
    "seats",
]
_SEAT = re.compile(r"\bSeats? (\d+(?:(?:, | and )\d+)*)")


def _seats_named(sentence: str) -> str:
    """The seats a sentence names, each once in seat order ("Seat 2, Seat 5")."""
    found = {int(n) for m in _SEAT.finditer(sentence) for n in re.findall(r"\d+", m.group(1))}
    return ", ".join(f"Seat {n}" for n in sorted(found))


def _amount(ev: Any) -> str:
    """The event's main amount (its handle, players' net or amount) in dollars as a
    spreadsheet's number ("-190.00": it sorts and sums; the sentence says "$190.00"), or ""."""
    data = ev.data or {}
    for key in AMOUNT_KEYS:
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return format_cents(value)
    return ""


def _objects(events: list[Any]) -> dict[tuple[str, str], str]:
    """Each round's and hand's name ("Round LB-1 #4") for a batch of events: the object's, or
    the round a meter's event names."""
    round_ids = {int(e.object_id) for e in events if e.object_type == "tables.round"}
    round_ids |= {
        int(e.data["round_id"]) for e in events if isinstance((e.data or {}).get("round_id"), int)
    }
    hand_ids = {int(e.object_id) for e in events if e.object_type == "tables.hand"}
    names = {
        ("tables.round", str(pk)): f"Round {table} #{number}"
        for pk, table, number in Round.objects.filter(pk__in=round_ids).values_list(
            "pk", "table__name", "number"
        )
    }
    names.update(
        {
            ("tables.hand", str(pk)): f"Hand {table} #{number}"
            for pk, table, number in Hand.objects.filter(pk__in=hand_ids).values_list(
                "pk", "table__name", "number"
            )
        }
    )
    return names


def _object_name(ev: Any, names: dict[tuple[str, str], str]) -> str:
    name = names.get((ev.object_type, ev.object_id), "")
    round_id = (ev.data or {}).get("round_id")
    if not name and isinstance(round_id, int):
        name = names.get(("tables.round", str(round_id)), "")
    return name


@login_required
def events_readable_csv(request: HttpRequest) -> HttpResponse:
    """The events as a spreadsheet reads them: one row per event with when, who, the table,
    the round or hand, what happened in words and in one sentence (amounts in dollars, seats
    and cards as the floor says them), its main amount and the seats it names. The same
    search as the page; the raw export (`events_csv`) keeps the data as hashed, for tools."""
    _require_reader(request)
    try:
        filters = _filters(request)
    except BadFilter as err:
        return _bad_filter(request, err)
    writer = csv.writer(_Echo())

    def rows() -> Any:
        yield writer.writerow(READABLE_FIELDS)
        batch: list[Any] = []
        for ev in search_events(**filters).iterator(chunk_size=2000):
            batch.append(ev)
            if len(batch) == 2000:
                yield from _readable_rows(writer, batch)
                batch = []
        yield from _readable_rows(writer, batch)

    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="audit-events-readable.csv"'
    return response


def _readable_rows(writer: Any, events: list[Any]) -> Any:
    names = _objects(events)
    seats = hand_seats(events)
    for ev in events:
        sentence = event_sentence(ev, seats)
        yield writer.writerow(
            [
                ev.seq,
                ev.at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
                ev.actor_name or "system",
                ev.table_name,
                _object_name(ev, names),
                kind_label(ev.kind),
                sentence,
                _amount(ev),
                _seats_named(sentence),
            ]
        )


@login_required
def round_record(request: HttpRequest, pk: int) -> HttpResponse:
    _require_reader(request)
    round_ = round_for_record(pk)
    if round_ is None:
        raise Http404("no such round")
    context = round_replay(round_)
    context["steps"] = replay_steps(round_, context["events"])
    context["line_rows"] = lines_in_words(round_)
    context["event_rows"] = event_rows(context["events"])
    game = games.banked(round_.game)
    context["settlement"] = show.settlement(round_.settlement, game) if round_.settlement else None
    context["money"] = {
        "handle": dollars(round_.handle_cents),
        "players": dollars(round_.players_net_cents, signed=True),
        "house": dollars(round_.house_win_cents, signed=True),
    }
    allowed = rounds_allowed(request.user, [round_])[round_.pk]
    context["allowed"] = allowed
    context["is_pit_boss"] = has_role(request.user, Role.PIT_BOSS)
    context["can_void"] = allowed.may.get(VOID, False)
    corrected = [c for c in context["corrections"] if c.status != Round.Status.CANCELLED]
    context["can_correct"] = allowed.may.get(CORRECT, False) and not corrected
    context["why_not_correct"] = "" if corrected else allowed.why.get(CORRECT, "")
    context["can_approve"] = allowed.may.get(APPROVE, False)
    context["can_approve_void"] = allowed.may.get(APPROVE_VOID, False)
    context["can_withdraw_void"] = allowed.may.get(WITHDRAW_VOID, False)
    return render(request, "audit/round.html", context)


def refused(request: HttpRequest, err: ServiceError) -> None:
    """Show a service's refusal on the page; a separation-of-duties refusal is also recorded
    as a refused permission (its action and round named)."""
    if isinstance(err, SeparationOfDuties):
        audit_refused_duties(request, err)
    messages.error(request, err.message)


def _back(request: HttpRequest, pk: int) -> HttpResponse:
    """To the page the form was on: the dashboard's list, or the round's record."""
    if request.POST.get("back") == "dashboard":
        return HttpResponseRedirect(reverse("reports:dashboard"), status=303)
    return redirect("audit:round", pk=pk)


@login_required
def round_void_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Void a settled round, or ask for its void when its payout needed a sign-off."""
    if request.method != "POST":
        return redirect("audit:round", pk=pk)
    round_ = get_object_or_404(Round, pk=pk)
    try:
        done = round_void(round=round_, by=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as err:
        refused(request, err)
    else:
        if done.void_waiting:
            messages.warning(
                request,
                f"The void of round {done} waits for another pit boss's approval: the round "
                "counts as settled until then.",
            )
        else:
            messages.success(request, f"Round {done} voided.")
    return redirect("audit:round", pk=pk)


@login_required
def round_void_approve_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A second pit boss approves a void waiting on a settled round: it is voided now."""
    if request.method != "POST":
        return redirect("audit:round", pk=pk)
    round_ = get_object_or_404(Round, pk=pk)
    try:
        done = round_void_approve(round=round_, by=request.user)
    except ServiceError as err:
        refused(request, err)
    else:
        messages.success(request, f"Round {done} voided: its void approved.")
    return _back(request, pk)


@login_required
def round_void_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw a void waiting on a settled round (with a reason): the round stays settled."""
    if request.method != "POST":
        return redirect("audit:round", pk=pk)
    round_ = get_object_or_404(Round, pk=pk)
    try:
        done = round_void_withdraw(
            round=round_, by=request.user, reason=request.POST.get("reason", "")
        )
    except ServiceError as err:
        refused(request, err)
    else:
        messages.success(request, f"The void of round {done} withdrawn: it stays settled.")
    return _back(request, pk)


@login_required
def correction_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A pit boss withdraws a correction waiting for its sign-off (with a reason): it is
    cancelled, nothing paid, and the voided round can be corrected again."""
    if request.method != "POST":
        return redirect("audit:round", pk=pk)
    round_ = get_object_or_404(Round, pk=pk, corrects__isnull=False)
    try:
        round_cancel(round=round_, by=request.user, reason=request.POST.get("reason", ""))
        messages.success(request, f"{round_} withdrawn: nothing was paid.")
    except ServiceError as err:
        refused(request, err)
    return redirect("audit:round", pk=pk)


@login_required
def hand_record(request: HttpRequest, pk: int) -> HttpResponse:
    """A player-vs-player hand's record: players, buy-ins and payoffs, the pot and the rake,
    the hand replayed step by step in dollars, seats and cards (the game's `replay_steps`) and
    how it ended (`result_text`), every event, and the record as stored (the replay contract's
    form, for tools); a pit boss may void it."""
    _require_reader(request)
    hand = hand_for_record(pk)
    if hand is None:
        raise Http404("no such hand")
    game = games.player_vs_player(hand.game)
    players = list(hand.players.order_by("position"))
    context = {
        "hand": hand,
        "players": players,
        "event_rows": event_rows(hand_events(hand)),
        "steps": hand_steps(game, hand.record, [p.seat for p in players]),
        "result_lines": game.result_text(hand.record, seats=[p.seat for p in players]),
        "record_json": json.dumps(game.replay_record(hand.record), indent=2),
        "result_json": json.dumps(hand.result, indent=2) if hand.result else "",
        "can_void": has_role(request.user, Role.PIT_BOSS)
        and hand.status in (Hand.Status.OPEN, Hand.Status.FINISHED),
    }
    return render(request, "audit/hand.html", context)


@login_required
def hand_void_view(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method != "POST":
        return redirect("audit:hand", pk=pk)
    hand = get_object_or_404(Hand, pk=pk)
    try:
        hand_void(hand=hand, by=request.user, reason=request.POST.get("reason", ""))
        messages.success(request, f"{hand} voided.")
    except ServiceError as err:
        refused(request, err)
    return redirect("audit:hand", pk=pk)
