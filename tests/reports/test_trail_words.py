"""Every event kind's details on the trail in words: dollars beside money, lists as words,
seats not indices, from a real played day (`played_day`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from audit.kinds import EventKind
from audit.models import AuditEvent
from reports.replay import event_rows

from .played_day import play_a_day

pytestmark = pytest.mark.django_db

MONEY = re.compile(
    r"(amount|cash|chips|markers|pot|rake|stack|payoff|buy.?in|bet|ante|handle|net|win|band|"
    r"value|paid|overflow|contribution|limit|cap|award|fill|credit|drop|meter|threshold)",
    re.IGNORECASE,
)
# A list, a dict or a quoted string as Python prints it.
PYTHON_TEXT = re.compile(r"[\[\]{}]|^'|'$|', '|\('|'\)")
NAMES = re.compile(r"Username|Via|Name", re.IGNORECASE)
BARE_NUMBER = re.compile(r"(?<![$\d.,])-?\d{3,}(?![\d.,%])")


def _texts(row: dict[str, Any]) -> str:
    if row.get("cards"):
        return " ".join(c["label"] for c in row["cards"])
    return str(row.get("text", ""))


def test_every_kind_of_a_played_day_reads_in_words(floor: dict[str, Any]) -> None:
    play_a_day(floor)
    rows = event_rows(AuditEvent.objects.order_by("seq"))
    seen = {r["ev"].kind for r in rows}
    problems = []
    for r in rows:
        for row in r["rows"]:
            label, text = str(row["label"]), _texts(row)
            where = f"#{r['ev'].seq} {r['ev'].kind} {label}: {text}"
            if PYTHON_TEXT.search(text):
                problems.append(f"Python text: {where}")
            if re.search(r"\bSeat 0\b", f"{label} {text}"):
                problems.append(f"an index for a seat: {where}")
            if MONEY.search(label) and BARE_NUMBER.search(text):
                problems.append(f"cents beside money: {where}")
            if not NAMES.search(label) and re.search(r"\b[a-z]+_[a-z_]+\b", text):
                problems.append(f"a code for words: {where}")
    assert not problems, "\n".join(problems[:60])
    played = {
        EventKind.HAND_OPENED,
        EventKind.HAND_STEP,
        EventKind.HAND_FINISHED,
        EventKind.HAND_UNDONE,
        EventKind.HAND_MISDEAL,
        EventKind.HAND_VOIDED,
        EventKind.ROUND_OPENED,
        EventKind.ROUND_SETTLED,
        EventKind.ROUND_APPROVAL_REQUESTED,
        EventKind.ROUND_APPROVED,
        EventKind.ROUND_VOIDED,
        EventKind.ROUND_CANCELLED,
        EventKind.ROUND_STEP_BACK,
        EventKind.METER_ROUND,
        EventKind.METER_ROUND_VOIDED,
        EventKind.SLIP_CREATED,
        EventKind.SLIP_SIGNED,
        EventKind.VARIANCE_ALERT_RAISED,
        EventKind.TABLE_SETTINGS_DRAFTED,
        EventKind.PAYTABLE_DRAFTED,
        EventKind.ROUND_VOID_REQUESTED,
        EventKind.HAND_ASSERTION_FAILED,
    }
    assert played <= seen, sorted(played - seen)


def test_a_step_as_entered_names_seats_not_the_games_numbers(floor: dict[str, Any]) -> None:
    """A hand's step kept as entered (a broken assertion's) numbers players from 0: the trail
    says their seats."""
    game = play_a_day(floor)["mulligan_hand"]
    seats = list(game.players.order_by("position").values_list("seat", flat=True))
    event = AuditEvent.objects.get(kind=EventKind.HAND_ASSERTION_FAILED)
    rows = {r["label"]: r for r in event_rows([event])[0]["rows"]}
    assert rows["Step · Player"]["text"] == f"Seat {seats[1]}"
    assert rows[f"Step · Draws · Seat {seats[0]}"]["text"] == "Kh" or rows[
        f"Step · Draws · Seat {seats[0]}"
    ].get("cards")
    assert not any(label.endswith("Seat 0") for label in rows)
