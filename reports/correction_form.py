"""The correction of a voided round as a form like the tablet's: every seat's wagers, cards and
decision and the dealer's hand (the fields the game declares: `decision_fields`,
`dealer_fields`), prefilled from the voided round, checked exactly as a new round
(`tables.services.corrections.round_correct`), every field's refusal shown at once beside it.

A refused form is kept in the session and the browser sent back (303) to the form's page
(POST-redirect-GET: a reload never re-posts)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from audit.services import audit_refused_duties
from core.errors import SeparationOfDuties, ServiceError
from core.money import typed_dollars
from core.roles import PIT_BOSSES, require
from tables import games
from tables.display import field_key, wager_label
from tables.engine.cards import parse_cards
from tables.engine.errors import EngineError
from tables.engine.money import parse_cents
from tables.models import Round
from tables.services.corrections import round_correct
from tables.services.duties import CORRECT, rounds_allowed

FLASH = "correction-refused"


def _cards_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(c) for c in value)
    return str(value or "")


def _input(prefix: str, f: games.DecisionField) -> str:
    """A field's input name: "seat-2-discard", "dealer-draw"; a nested field's "seat-2-a-b"."""
    return f"{prefix}-{'-'.join(f.path)}"


def _words(where: str, f: games.DecisionField) -> str:
    """How a refusal names the field: "seat 2's discard", "the dealer's draw"."""
    return f"{where} {' '.join(f.path).replace('_', ' ')}"


def _shown(f: games.DecisionField, value: Any) -> str:
    """A field's value as its input shows it."""
    if f.kind == games.FLAG:
        return "1" if value else ""
    if f.kind == games.MONEY:
        return "" if value is None else str(value)
    return _cards_text(value)


def _prefill(round_: Round) -> dict[str, str]:
    """The form's values from the voided round's entry."""
    game = games.banked(round_.game)
    values: dict[str, str] = {}
    entry = round_.entry
    dealer = entry.get("dealer") or {}
    values["dealer-cards"] = _cards_text(dealer.get("cards"))
    for f in game.dealer_fields:
        values[_input("dealer", f)] = _shown(f, games.entry_value(dealer, f))
    for seat in entry.get("seats", []):
        n = seat["seat"]
        for wager, amount in (seat.get("wagers") or {}).items():
            values[f"seat-{n}-{wager}"] = str(amount)
        values[f"seat-{n}-cards"] = _cards_text(seat.get("cards"))
        for f in game.decision_fields:
            values[_input(f"seat-{n}", f)] = _shown(f, games.entry_value(seat, f))
    return values


def _layout(round_: Round, values: dict[str, str], errors: dict[str, str]) -> dict[str, Any]:
    """The form's seats and dealer, each field with its value and refusal."""
    game = games.banked(round_.game)

    def field(name: str, label: str, kind: str = "text", key: str | None = None) -> dict[str, Any]:
        return {
            "name": name,
            "label": label,
            "kind": kind,
            "value": values.get(name, ""),
            "error": errors.get(field_key(key or name.replace("-", " "))),
        }

    def declared(prefix: str, f: games.DecisionField) -> dict[str, Any]:
        kind = {games.FLAG: "flag", games.MONEY: "money"}.get(f.kind, "cards")
        return field(_input(prefix, f), f.label, kind)

    seats = []
    for n in range(1, round_.table.seats + 1):
        wagers = [
            field(f"seat-{n}-{w}", wager_label(w, game.wager_labels), "money", f"seat {n} {w}")
            for w in game.seat_wagers
        ]
        seats.append(
            {
                "n": n,
                "wagers": wagers,
                "cards": field(f"seat-{n}-cards", "Cards", "cards"),
                "decisions": [declared(f"seat-{n}", f) for f in game.decision_fields],
                "error": errors.get(f"seat {n}"),
                "played": any(values.get(f"seat-{n}-{w}") for w in game.seat_wagers),
            }
        )
    dealer = [field("dealer-cards", "Dealer's cards", "cards")]
    dealer += [declared("dealer", f) for f in game.dealer_fields]
    return {"seats": seats, "dealer": dealer}


def _entry(round_: Round, post: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """The posted form as a round entry, and every field it refuses on its own at once
    (unknown cards, amounts that are not amounts); the service checks the whole round."""
    game = games.banked(round_.game)
    errors: dict[str, str] = {}

    def cards(name: str, words: str) -> list[str]:
        typed = str(post.get(name, "")).strip()
        try:
            return [str(c) for c in parse_cards(typed, where=words)]
        except EngineError as err:
            errors[field_key(name.replace("-", " "))] = err.message
            return []

    def money(name: str, words: str) -> str | None:
        typed = typed_dollars(post.get(name, ""))
        if not typed:
            return None
        try:
            parse_cents(typed, where=words)
        except EngineError as err:
            errors[field_key(name.replace("-", " "))] = err.message
        return typed

    def read(prefix: str, where: str, f: games.DecisionField) -> Any:
        """The posted value of `f`, or None when it is not given (nor kept empty)."""
        name, words = _input(prefix, f), _words(where, f)
        if f.kind == games.FLAG:
            return True if post.get(name) else None
        if f.kind == games.MONEY:
            return money(name, words)
        given = cards(name, words)
        if f.kind == games.CHOICE:
            return given[0] if given else None
        return given if given or f.kept_empty else None

    def fill(holder: dict[str, Any], prefix: str, where: str, fields: Any) -> None:
        """Set each field given; a nested object is given when its first field is."""
        nested: dict[str, dict[str, Any] | None] = {}
        for f in fields:
            value = read(prefix, where, f)
            if len(f.path) == 1:
                if value is not None:
                    holder[f.key] = value
                continue
            name, part = f.path[0], f.path[1]
            if name not in nested:
                nested[name] = {part: value} if value is not None else None
            elif value is not None and (group := nested[name]) is not None:
                group[part] = value
        holder.update({name: group for name, group in nested.items() if group is not None})

    seats = []
    for n in range(1, round_.table.seats + 1):
        wagers = {}
        for w in game.seat_wagers:
            words = f"seat {n}'s {wager_label(w, game.wager_labels).lower()}"
            amount = money(f"seat-{n}-{w}", words)
            if amount is not None:
                wagers[w] = amount
        typed_cards = str(post.get(f"seat-{n}-cards", "")).strip()
        if not wagers and not typed_cards:
            continue  # nobody played this seat
        seat: dict[str, Any] = {"seat": n, "wagers": wagers}
        seat["cards"] = cards(f"seat-{n}-cards", f"seat {n}'s cards")
        fill(seat, f"seat-{n}", f"seat {n}'s", game.decision_fields)
        seats.append(seat)
    dealer: dict[str, Any] = {"cards": cards("dealer-cards", "the dealer's cards")}
    fill(dealer, "dealer", "the dealer's", game.dealer_fields)
    return {"game": round_.game, "dealer": dealer, "seats": seats}, errors


def _page_url(round_: Round) -> str:
    return reverse("audit:round_correct", args=[round_.pk])


@login_required
def correct(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the form, prefilled from the voided round (or as last posted, with its refusals);
    POST: settle the correction, or send the browser back to the form with every refusal."""
    require(request.user, PIT_BOSSES, "correct a round")
    round_ = get_object_or_404(Round.objects.select_related("table"), pk=pk)
    url = _page_url(round_)
    if request.method == "POST":
        entry, errors = _entry(round_, request.POST)
        if not errors:
            try:
                corrected = round_correct(voided=round_, by=request.user, entry=entry)
            except ServiceError as err:
                if isinstance(err, SeparationOfDuties):
                    audit_refused_duties(request, err)
                errors = {field_key(err.field) or "": err.message}
            else:
                if corrected.awaiting_approval:
                    messages.warning(
                        request,
                        f"Correction of round #{round_.number} entered at {round_.table}: it waits "
                        "for another pit boss's sign-off before it is paid ("
                        + "; ".join(corrected.approval_reasons)
                        + ").",
                    )
                else:
                    messages.success(
                        request, f"Correction of round #{round_.number} settled at {round_.table}."
                    )
                return HttpResponseRedirect(reverse("audit:round", args=[corrected.pk]), status=303)
        request.session[FLASH] = {
            "round": round_.pk,
            "values": {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"},
            "errors": errors,
        }
        return HttpResponseRedirect(url, status=303)
    kept = request.session.pop(FLASH, None)
    if kept and kept.get("round") == round_.pk:
        values, errors = kept["values"], kept["errors"]
    else:
        values, errors = _prefill(round_), {}
    layout = _layout(round_, values, errors)
    shown = {
        f["error"] for s in layout["seats"] for f in [*s["wagers"], s["cards"], *s["decisions"]]
    }
    shown |= {f["error"] for f in layout["dealer"]} | {s["error"] for s in layout["seats"]}
    top = [message for message in errors.values() if message not in shown]
    can = (
        round_.status == Round.Status.VOIDED
        and not round_.corrections.exclude(status=Round.Status.CANCELLED).exists()
    )
    # a pit boss who took part in the round sees why, not the form
    why = rounds_allowed(request.user, [round_])[round_.pk].why.get(CORRECT, "") if can else ""
    return render(
        request,
        "audit/correct.html",
        {"round": round_, "layout": layout, "top_errors": top, "can_correct": can, "why": why},
    )
