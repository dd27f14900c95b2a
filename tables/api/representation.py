"""A round as the API answers it, built directly from the instance.

`RoundSerializer` (serializers.py) stays the documented shape (the OpenAPI schema is made from
it); building a `ModelSerializer` costs more than the rest of a play step, because DRF makes
its fields anew for every instance. `round_data` gives the very same dict, key for key, from
the round and its lines as the service left them, without reading them again
(tests/tables/test_api_representation.py compares the two on rounds in every state).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework import serializers

from core.prepared import PreparedQuery
from tables.engine.money import format_cents
from tables.models import Round, SettlementLine
from tables.selectors import round_state

_LINES = PreparedQuery(
    lambda round_id: SettlementLine.objects.filter(round_id=round_id), round_id=int
)  # in the model's order: seat, then as written

# Stateless DRF fields, made once: the same formatting as the serializers' fields.
_DATETIME = serializers.DateTimeField()
_BREAKAGE = serializers.DecimalField(max_digits=12, decimal_places=8, coerce_to_string=True)


def _when(value: Any) -> Any:
    return None if value is None else _DATETIME.to_representation(value)


def _username(user: Any) -> str | None:
    return None if user is None else user.get_username()


def line_data(line: SettlementLine) -> dict[str, Any]:
    return {
        "seat": line.seat,
        "wager": line.wager,
        "stake_cents": line.stake_cents,
        "stake": format_cents(line.stake_cents),
        "result": line.result,
        "net_cents": line.net_cents,
        "net": format_cents(line.net_cents),
        "breakage": _BREAKAGE.to_representation(line.breakage),
        "award": line.award,
        "odds": line.odds,
    }


def round_data(round_: Round, lines: Iterable[SettlementLine] | None = None) -> dict[str, Any]:
    """`RoundSerializer(round_).data`. `lines`: the round's lines when the caller has them (an
    open round has none); otherwise they are read (or taken from a prefetch)."""
    if lines is None:
        if round_.status == Round.Status.OPEN:
            lines = ()
        elif "lines" in getattr(round_, "_prefetched_objects_cache", {}):
            lines = round_.lines.all()
        else:
            lines = _LINES.all(round_id=round_.pk)
    house_win = round_.house_win_cents
    return {
        "id": round_.pk,
        "table": round_.table_id,
        "table_name": round_.table.name,
        "number": round_.number,
        "game": round_.game,
        "status": round_.status,
        "dealer": round_.dealer.get_username(),
        "paytable_version": round_.paytable_version_id,
        "entry": round_.entry,
        "state": round_state(round_),
        "house_way": round_.house_way,
        "settlement": round_.settlement,
        "lines": [line_data(line) for line in lines],
        "handle_cents": round_.handle_cents,
        "handle": format_cents(round_.handle_cents),
        "players_net_cents": round_.players_net_cents,
        "players_net": format_cents(round_.players_net_cents),
        "house_win_cents": house_win,
        "house_win": format_cents(house_win),
        "opened_at": _when(round_.opened_at),
        "settled_at": _when(round_.settled_at),
        "voided_at": _when(round_.voided_at),
        "voided_by": _username(round_.voided_by) if round_.voided_by_id else None,
        "void_reason": round_.void_reason,
        "corrects": round_.corrects_id,
        "awaiting_approval": round_.awaiting_approval,
        "approval_requested_at": _when(round_.approval_requested_at),
        "approval_reasons": round_.approval_reasons,
        "approved_by": _username(round_.approved_by) if round_.approved_by_id else None,
        "approved_at": _when(round_.approved_at),
        "cancelled_at": _when(round_.cancelled_at),
        "cancelled_by": _username(round_.cancelled_by) if round_.cancelled_by_id else None,
        "cancel_reason": round_.cancel_reason,
        "void_waiting": round_.void_waiting,
        "void_requested_at": _when(round_.void_requested_at),
        "void_requested_by": (
            _username(round_.void_requested_by) if round_.void_requested_by_id else None
        ),
    }
