"""Audit events in words for the trail's pages: each event's details readable (dollars, cards
drawn as cards, seats named), and a round's record replayed step by step as the tablet played
it (wagers, the deal, each seat's decision, the dealer's house way, the sign-off, the pay)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from audit import binding, search
from audit.kinds import EventKind
from audit.models import AuditEvent
from core.money import dollars
from tables import games
from tables.display import card_text, cards, hand_label, wager_label, wager_summary
from tables.models import HandPlayer, Round

_CARD = re.compile(r"^(10|[2-9TJQKA])[cdhs]$", re.IGNORECASE)
KIND_LABEL = {k.value: str(k.label) for k in EventKind}
# The bulky copies (and the rows' bound content, which is the verifier's) are left to the CSV.
HIDDEN_KEYS = {
    "settlement",
    "entry",
    "before",
    "idempotency_key",
    "paytable_version_id",
    "record",  # a hand's record as it opened, and its result: the hand's page shows them whole
    "result",
    binding.KEY,
}


def kind_label(kind: str) -> str:
    return KIND_LABEL.get(kind, kind.replace(".", ": ").replace("_", " ").capitalize())


def event_rows(events: Iterable[AuditEvent]) -> list[dict[str, Any]]:
    """Each event with its kind in words and its details readable (the trail's search, and a
    round's or a hand's record: `audit/_events.html`)."""
    events = list(events)
    seats = hand_seats(events)
    return [
        {
            "ev": ev,
            "label": kind_label(ev.kind),
            "rows": readable(in_seats(ev, seats), kind=ev.kind),
        }
        for ev in events
    ]


def hand_seats(events: Iterable[AuditEvent]) -> dict[str, list[int]]:
    """Each hand's players' seats in player order, for the events of hands that name a player
    by the number the game gives it (a step as entered, without its sentence)."""
    ids = {
        ev.object_id
        for ev in events
        if ev.object_type == "tables.hand"
        and isinstance((ev.data or {}).get("step"), dict)
        and not (ev.data or {}).get("text")
    }
    found: dict[str, list[int]] = {}
    hands = [int(i) for i in ids if i.isdigit()]
    if not hands:  # no hand's step among them (a slip's, a patron's event): nothing to read
        return found
    for hand, seat in (
        HandPlayer.objects.filter(hand_id__in=hands)
        .order_by("hand_id", "position")
        .values_list("hand_id", "seat")
    ):
        found.setdefault(str(hand), []).append(seat)
    return found


def in_seats(event: AuditEvent, seats: dict[str, list[int]]) -> dict[str, Any]:
    """The event's data with a hand's step as entered (players numbered from 0) naming each
    player by their seat: `player` and `offer_of` as "Seat 3", a dict keyed by players (the
    cards each drew) keyed by seats."""
    data = event.data or {}
    step = data.get("step")
    order = seats.get(event.object_id)
    if not isinstance(step, dict) or data.get("text") or not order:
        return data

    def seat(n: Any) -> Any:
        return f"Seat {order[n]}" if isinstance(n, int) and 0 <= n < len(order) else n

    named: dict[str, Any] = {}
    for key, value in step.items():
        if key in ("player", "offer_of"):
            named[key] = seat(value)
        elif isinstance(value, dict):
            named[key] = {
                (str(order[int(k)]) if k.isdigit() and int(k) < len(order) else k): v
                for k, v in value.items()
            }
        else:
            named[key] = value
    return {**data, "step": named}


# Amounts some events keep in cents without the `_cents` suffix (a hand's figures).
MONEY_KEYS = frozenset({"pot", "rake", "stacks", "payoffs", "awards", "in_pot", "buy_ins"})
# Text kept as typed or as named (never turned into words).
NAME_KEYS = frozenset({"username", "name", "via", "reason", "note", "text", "actor", "by"})
# What an event's `number` counts, by the kind's subject.
_NUMBER_OF = {"hand": "Hand", "slip": "Slip", "round": "Round", "meter": "Round"}
_CODE = re.compile(r"^[a-z]+(_[a-z]+)+$")
_CARD_IN_TEXT = re.compile(r"(?<![\w])(10|[2-9TJQKA])([cdhs])(?![a-z0-9])")


def _is_cards(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, str) and _CARD.match(v) for v in value)
    )


def _label(key: str, kind: str = "") -> str:
    key = key.removesuffix("_cents")
    if key.endswith("_id"):
        return key.removesuffix("_id").replace("_", " ").capitalize() + " (id)"
    words = {
        "players_net": "Players' net",
        "handle": "Handle",
        "number": _NUMBER_OF.get(kind.partition(".")[0], "Number"),
        "corrects_number": "Corrects round",
        "corrects_round": "Corrects round id",
        "applied_discard": "Discarded",
        "draw_count": "Cards to draw",
        "text": "Step",
        "band": "Theoretical band",
        "in_pot": "In the pot",
        "mtl_entry": "MTL entry",
        "ctr_opened": "CTR opened",
    }
    return words.get(key, key.replace("_", " ").capitalize())


def _is_money(key: str) -> bool:
    return key.endswith("_cents") or key in MONEY_KEYS


def _money(key: str, value: int) -> str:
    signed = "net" in key or "payoff" in key or key == "amount_cents"
    return dollars(value, signed=signed)


def _word(key: str, value: Any) -> str:
    """A scalar in words: a game by its name, a code ("pit_boss") as words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    if key == "game":
        try:
            return games.get(text).label
        except games.UnknownGame:
            pass
    if key not in NAME_KEYS and _CODE.match(text):
        return text.replace("_", " ")
    if key == "rule":  # the engine's sentence names cards by their codes
        return _CARD_IN_TEXT.sub(lambda m: card_text([m.group(1) + m.group(2)]), text)
    return text


def readable(data: Any, prefix: str = "", *, kind: str = "") -> list[dict[str, Any]]:
    """An event's data as (label, words or cards) rows: amounts in dollars, card lists as
    cards, lists as words, codes as words, nested objects flattened ("Seat 3 · Cards"), the
    bulky copies left to the CSV."""
    rows: list[dict[str, Any]] = []
    if not isinstance(data, dict):
        return [{"label": prefix or "Value", "text": str(data)}]
    for key, value in data.items():
        key = str(key)
        if key in HIDDEN_KEYS or value in (None, "", [], {}):
            continue
        if key == "step" and isinstance(value, dict) and data.get("text"):
            continue  # a hand's step as entered (players numbered from 0): `text` says it
        label = f"{prefix} · {_label(key, kind)}" if prefix else _label(key, kind)
        if key.isdigit():
            if prefix.endswith("Chips"):  # a slip's chips: count by denomination (cents)
                label = f"{prefix} · {dollars(int(key))}"
            else:
                label = f"{prefix} · Seat {key}" if prefix else f"Seat {key}"
        if _is_money(key) and isinstance(value, int) and not isinstance(value, bool):
            rows.append({"label": label, "text": _money(key, value)})
        elif _is_money(key) and isinstance(value, list) and all(isinstance(v, int) for v in value):
            joiner = " to " if key == "band_cents" and len(value) == 2 else ", "
            rows.append({"label": label, "text": joiner.join(_money(key, v) for v in value)})
        elif _is_cards(value):
            rows.append({"label": label, "cards": cards(value)})
        elif isinstance(value, dict):
            rows.extend(readable(value, label, kind=kind))
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            for item in value:
                if "seat" in item:
                    seat = {k: v for k, v in item.items() if k != "seat"}
                    if set(seat) == {"wagers"}:
                        rows.append(
                            {"label": f"Seat {item['seat']}", "text": wager_summary(seat["wagers"])}
                        )
                    else:
                        rows.extend(readable(seat, f"Seat {item['seat']}", kind=kind))
                else:
                    rows.extend(readable(item, label, kind=kind))
        elif isinstance(value, list) and all(isinstance(v, list) for v in value):
            # choices of cards ("discard 5♣ or 5♥"), or any list of lists, as words
            parts = [
                card_text(v) if _is_cards(v) else ", ".join(_word(key, x) for x in v)
                for v in value
                if v
            ]
            if parts:
                rows.append({"label": label, "text": " or ".join(parts)})
        elif isinstance(value, list):
            rows.append({"label": label, "text": ", ".join(_word(key, v) for v in value)})
        else:
            rows.append({"label": label, "text": _word(key, value)})
    return rows


def row_text(row: dict[str, Any]) -> str:
    """A detail row's words (its cards as the floor says them)."""
    if row.get("cards"):
        return " ".join(str(c["label"]) for c in row["cards"])
    return str(row.get("text", ""))


def event_sentence(event: AuditEvent, seats: dict[str, list[int]] | None = None) -> str:
    """The event in one sentence: its kind in words, then each detail ("Round settled:
    Round 4; Handle $11.00; Players' net -$6.00."); `seats`: `hand_seats` of its batch (else
    looked up)."""
    label = kind_label(event.kind)
    data = in_seats(event, hand_seats([event]) if seats is None else seats)
    parts = [f"{r['label']} {row_text(r)}" for r in readable(data, kind=event.kind)]
    return f"{label}: {'; '.join(parts)}." if parts else f"{label}."


def search_words(event: AuditEvent) -> str:
    """What the trail's search matches beside the event's kind, table and who
    (`audit.search`): its sentence, and the names and codes of its data (hidden copies
    included: a settlement's award, a card's code)."""
    return " ".join([event_sentence(event), *search.data_words(event.data or {})])


def _step(event: AuditEvent, title: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "at": event.at,
        "who": event.actor_name or "system",
        "kind": event.kind,
        "title": title,
        "rows": rows,
    }


def replay_steps(round_: Round, events: list[AuditEvent]) -> list[dict[str, Any]]:
    """The round as it was played, one step per event, in words and cards."""
    game = games.banked(round_.game)
    labels = game.wager_labels
    seat_cards: dict[int, list[str]] = {}
    steps = []
    for ev in events:
        data = ev.data or {}
        kind = ev.kind
        if kind == EventKind.ROUND_OPENED:
            rows = [
                {"label": f"Seat {s['seat']}", "text": wager_summary(s["wagers"], labels)}
                for s in data.get("seats", [])
            ]
            steps.append(_step(ev, f"Wagers placed, round #{data.get('number')} opened", rows))
        elif kind == EventKind.ROUND_CARDS_ENTERED:
            rows = []
            for n, hand in sorted((data.get("seats") or {}).items(), key=lambda i: int(i[0])):
                seat_cards[int(n)] = hand
                rows.append({"label": f"Seat {n}", "cards": cards(hand)})
            rows.append({"label": "Dealer", "cards": cards(data.get("dealer") or [])})
            steps.append(_step(ev, "The deal", rows))
        elif kind == EventKind.ROUND_DECISION:
            n = data.get("seat")
            decision = data.get("decision") or {}
            try:
                words = game.decision_summary(
                    {"seat": n, "cards": seat_cards.get(int(n or 0), []), **decision}
                )
            except Exception:  # an old event's shape: shown field by field below
                words = ""
            rows = [{"label": f"Seat {n}", "text": words}] if words else readable(decision)
            steps.append(_step(ev, f"Seat {n} decides", rows))
        elif kind == EventKind.ROUND_HOUSE_WAY:
            rows = []
            if data.get("rule"):
                rows.append({"label": "House way", "text": str(data["rule"])})
            for key, label in (("applied_discard", "Discarded"), ("draw", "Drew")):
                if data.get(key):
                    rows.append({"label": label, "cards": cards(data[key])})
            if not rows:
                rows = [{"label": "Dealer", "text": "stands"}]
            steps.append(_step(ev, "The dealer plays the house way", rows))
        elif kind == EventKind.ROUND_SETTLED:
            steps.append(_step(ev, "Paid and closed", _money_rows(data)))
        elif kind == EventKind.ROUND_APPROVAL_REQUESTED:
            rows = [{"label": "Why", "text": r} for r in data.get("reasons", [])]
            steps.append(_step(ev, "Waits for a pit boss's sign-off (nothing paid)", rows))
        elif kind == EventKind.ROUND_APPROVED:
            steps.append(_step(ev, f"Approved by pit boss {ev.actor_name}", []))
        elif kind == EventKind.ROUND_CANCELLED:
            rows = [{"label": "Reason", "text": str(data.get("reason", ""))}]
            steps.append(_step(ev, "Cancelled (misdeal): nothing paid", rows))
        elif kind == EventKind.ROUND_STEP_BACK:
            rows = [{"label": "From", "text": f"the {data.get('from')} step"}]
            steps.append(_step(ev, f"Went back to the {data.get('to')} step to fix it", rows))
        elif kind == EventKind.ROUND_VOID_REQUESTED:
            rows = [{"label": "Reason", "text": str(data.get("reason", ""))}]
            rows += [{"label": "Sign-off because", "text": r} for r in data.get("reasons", [])]
            title = f"Void requested by pit boss {ev.actor_name}: waits for a second pit boss"
            steps.append(_step(ev, title, rows))
        elif kind == EventKind.ROUND_VOID_WITHDRAWN:
            rows = [
                {"label": "Reason", "text": str(data.get("reason", ""))},
                {"label": "Void asked for by", "text": str(data.get("requested_by") or "")},
            ]
            steps.append(_step(ev, f"Void withdrawn by pit boss {ev.actor_name}", rows))
        elif kind == EventKind.ROUND_VOIDED:
            rows = [{"label": "Reason", "text": str(data.get("reason", ""))}, *_money_rows(data)]
            title = "Voided by a pit boss"
            if data.get("requested_by"):
                title = (
                    f"Voided: asked for by pit boss {data['requested_by']}, approved by pit boss "
                    f"{data.get('approved_by') or ev.actor_name}"
                )
            steps.append(_step(ev, title, rows))
        elif kind == EventKind.ROUND_CORRECTED:
            title = f"Entered as the correction of #{data.get('corrects_number')}"
            steps.append(_step(ev, title, _money_rows(data)))
        else:
            steps.append(_step(ev, kind_label(kind), readable(data)))
    return steps


def _money_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    if "handle_cents" in data:
        rows.append({"label": "Handle", "text": dollars(data["handle_cents"])})
    if "players_net_cents" in data:
        net = data["players_net_cents"]
        rows.append({"label": "Players", "text": dollars(net, signed=True)})
        rows.append({"label": "House", "text": dollars(-net, signed=True)})
    return rows


def _odds(odds: str) -> str:
    """ "3/2" -> "3 to 2", "10" -> "10 to 1"."""
    if not odds:
        return ""
    num, _, den = odds.partition("/")
    return f"{num} to {den or 1}"


def lines_in_words(round_: Round) -> list[dict[str, Any]]:
    """The settlement lines in dollars and words."""
    game = games.banked(round_.game)
    hands = {
        s["seat"]: hand_label(game, s.get("hand"), s.get("final"))
        for s in (round_.settlement or {}).get("seats", [])
    }
    return [
        {
            "seat": line.seat,
            "hand": hands.get(line.seat, ""),
            "wager": wager_label(line.wager, game.wager_labels),
            "stake": dollars(line.stake_cents),
            "result": line.result,
            "result_label": line.get_result_display(),
            "net": dollars(line.net_cents, signed=True),
            "odds": _odds(line.odds),
            "award": line.award.replace("_", " "),
            "breakage": line.breakage,
        }
        for line in round_.lines.order_by("seat", "id")
    ]


def hand_steps(
    game: games.PlayerVsPlayerGame, record: dict[str, Any], seats: list[int]
) -> list[dict[str, Any]]:
    """A player-vs-player hand step by step (`game.replay_steps`) as the hand page shows it:
    the step's sentence, its cards drawn as cards, the pot and each seat's stack in dollars."""
    rows = []
    for n, step in enumerate(game.replay_steps(record, seats=seats), start=1):
        details: list[dict[str, Any]] = []
        if step.cards:
            details.append({"label": "Cards", "cards": cards(list(step.cards))})
        if step.pot is not None:
            details.append({"label": "Pot", "text": dollars(step.pot)})
        if step.stacks is not None:
            details.append(
                {
                    "label": "Stacks",
                    "text": " · ".join(
                        f"Seat {seat} {dollars(stack)}"
                        for seat, stack in zip(seats, step.stacks, strict=False)
                    ),
                }
            )
        rows.append({"n": n, "title": step.text, "rows": details})
    return rows
