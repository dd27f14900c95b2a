"""The correction of a voided round as a form like the tablet's: every seat's wagers, cards and
decision and the dealer's hand, prefilled from the voided round, checked exactly as a new round
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

# How each decision field of a seat is typed, by its name in the round's entry.
CARD_LIST = "cards"
ONE_CARD = "card"
FLAG = "flag"
MULLIGAN = "mulligan"
DECISION_KINDS = {
    "discard": (CARD_LIST, "Discarded"),
    "draw": (CARD_LIST, "Drew"),
    "one_card": (ONE_CARD, "Card set alone (one-card hand)"),
    "house_way": (FLAG, "Set by the house way"),
    "mulligan": (MULLIGAN, "Mulligan: the new three cards"),
}


def _cards_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(c) for c in value)
    return str(value or "")


def _prefill(round_: Round) -> dict[str, str]:
    """The form's values from the voided round's entry."""
    values: dict[str, str] = {}
    entry = round_.entry
    dealer = entry.get("dealer") or {}
    for key in ("cards", "draw", "discard"):
        values[f"dealer-{key}"] = _cards_text(dealer.get(key))
    for seat in entry.get("seats", []):
        n = seat["seat"]
        for wager, amount in (seat.get("wagers") or {}).items():
            values[f"seat-{n}-{wager}"] = str(amount)
        values[f"seat-{n}-cards"] = _cards_text(seat.get("cards"))
        for key in games.banked(round_.game).decision_keys:
            value = seat.get(key)
            kind = DECISION_KINDS.get(key, (CARD_LIST, ""))[0]
            if kind == MULLIGAN:
                if value:
                    values[f"seat-{n}-mulligan-cards"] = _cards_text(value.get("cards"))
                    values[f"seat-{n}-mulligan-pair_plus"] = str(value.get("pair_plus") or "")
            elif kind == FLAG:
                values[f"seat-{n}-{key}"] = "1" if value else ""
            else:
                values[f"seat-{n}-{key}"] = _cards_text(value)
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

    seats = []
    for n in range(1, round_.table.seats + 1):
        wagers = [
            field(f"seat-{n}-{w}", wager_label(w), "money", f"seat {n} {w}")
            for w in game.seat_wagers
        ]
        decisions = []
        for key in game.decision_keys:
            kind, label = DECISION_KINDS.get(key, (CARD_LIST, key.replace("_", " ")))
            if kind == MULLIGAN:
                decisions.append(
                    field(f"seat-{n}-mulligan-cards", label, "cards", f"seat {n} mulligan cards")
                )
                decisions.append(
                    field(
                        f"seat-{n}-mulligan-pair_plus",
                        "Mulligan pair plus",
                        "money",
                        f"seat {n} mulligan pair plus",
                    )
                )
            else:
                decisions.append(
                    field(f"seat-{n}-{key}", label, "flag" if kind == FLAG else "cards")
                )
        seats.append(
            {
                "n": n,
                "wagers": wagers,
                "cards": field(f"seat-{n}-cards", "Cards", "cards"),
                "decisions": decisions,
                "error": errors.get(f"seat {n}"),
                "played": any(values.get(f"seat-{n}-{w}") for w in game.seat_wagers),
            }
        )
    dealer = [
        field("dealer-cards", "Dealer's cards", "cards"),
        field("dealer-draw", "Dealer drew", "cards"),
        field("dealer-discard", "Dealer discarded", "cards"),
    ]
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
        typed = str(post.get(name, "")).strip().lstrip("$").replace(",", "")
        if not typed:
            return None
        try:
            parse_cents(typed, where=words)
        except EngineError as err:
            errors[field_key(name.replace("-", " "))] = err.message
        return typed

    seats = []
    for n in range(1, round_.table.seats + 1):
        wagers = {}
        for w in game.seat_wagers:
            amount = money(f"seat-{n}-{w}", f"seat {n}'s {wager_label(w).lower()}")
            if amount is not None:
                wagers[w] = amount
        typed_cards = str(post.get(f"seat-{n}-cards", "")).strip()
        if not wagers and not typed_cards:
            continue  # nobody played this seat
        seat: dict[str, Any] = {"seat": n, "wagers": wagers}
        seat["cards"] = cards(f"seat-{n}-cards", f"seat {n}'s cards")
        for key in game.decision_keys:
            kind = DECISION_KINDS.get(key, (CARD_LIST, ""))[0]
            if kind == MULLIGAN:
                if str(post.get(f"seat-{n}-mulligan-cards", "")).strip():
                    mulligan: dict[str, Any] = {
                        "cards": cards(f"seat-{n}-mulligan-cards", f"seat {n}'s mulligan cards")
                    }
                    pair_plus = money(
                        f"seat-{n}-mulligan-pair_plus", f"seat {n}'s mulligan pair plus"
                    )
                    if pair_plus is not None:
                        mulligan["pair_plus"] = pair_plus
                    seat[key] = mulligan
            elif kind == FLAG:
                if post.get(f"seat-{n}-{key}"):
                    seat[key] = True
            elif kind == ONE_CARD:
                chosen = cards(f"seat-{n}-{key}", f"seat {n}'s card set alone")
                if chosen:
                    seat[key] = chosen[0]
            else:
                value = cards(f"seat-{n}-{key}", f"seat {n}'s {key}")
                if value or key in ("discard", "draw"):
                    seat[key] = value
        seats.append(seat)
    dealer: dict[str, Any] = {"cards": cards("dealer-cards", "the dealer's cards")}
    for key in ("draw", "discard"):
        value = cards(f"dealer-{key}", f"the dealer's {key}")
        if value:
            dealer[key] = value
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
