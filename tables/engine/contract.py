"""The `settle` contract (`docs/contracts/settle.md`): a round as JSON in, its settlement as
JSON out. This module only translates; the rules are the games': each reads its own round
(its rules' `settle`, `tables.engine.registry`) with the readers here (`seat_entries`,
`seat_wagers`, `stake`, `cards_at`, `seat_cards`, `dealer_entry`, `meter_config`).

`settle_round(data)` returns the output object or raises `EngineError` (refused whole).
`settle_line(text)` does the same for one line of JSON Lines and never raises.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from json.encoder import encode_basestring_ascii
from typing import Any, Final

from . import registry
from .cards import CARD_TEXT, Card, format_cards, parse_cards, plain_cards
from .errors import EngineError, Refusal
from .money import format_breakage, format_cents, known_cents, parse_cents
from .paytable_types import Paytable
from .paytables import resolve
from .progressive import JackpotSplit, MeterConfig
from .settlement import DealerAction, Line, Result, SeatResult, Settlement

JSON = dict[str, Any]


def json_object(value: object, code: Refusal, what: str) -> Mapping[str, Any]:
    if type(value) is dict:
        return value
    if not isinstance(value, Mapping):
        raise EngineError(code, f"{what} must be a JSON object", field=what)
    return value


def _seat_number(raw: Mapping[str, Any], index: int) -> int:
    number = raw.get("seat")
    if isinstance(number, bool) or not isinstance(number, int):
        raise EngineError(
            Refusal.BAD_SEAT,
            f"seat entry {index + 1} has no seat number (a whole number from 1 to 7)",
            field="seats",
        )
    return number


def seat_entries(data: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    raw = data.get("seats")
    if not isinstance(raw, list) or not raw:
        raise EngineError(
            Refusal.BAD_SEAT, "a round needs a list of at least one seat", field="seats"
        )
    seats = []
    seen: set[int] = set()
    for i, item in enumerate(raw):
        seat = (
            item
            if type(item) is dict
            else json_object(item, Refusal.BAD_SEAT, f"seat entry {i + 1}")
        )
        number = _seat_number(seat, i)
        if not 1 <= number <= 7:
            raise EngineError(Refusal.BAD_SEAT, f"seat {number} does not exist: seats are 1 to 7")
        if number in seen:
            raise EngineError(Refusal.BAD_SEAT, f"seat {number} appears twice")
        seen.add(number)
        seats.append((number, seat))
    return seats


def seat_wagers(seat: Mapping[str, Any], n: int, allowed: tuple[str, ...]) -> Mapping[str, Any]:
    wagers = seat.get("wagers")
    if type(wagers) is not dict and not isinstance(wagers, Mapping):
        raise EngineError(Refusal.BAD_WAGER, f"seat {n} has no wagers", field=f"seat {n} wagers")
    for name in wagers:
        if name not in allowed:
            hint = placed_wager_hint(name)
            raise EngineError(
                Refusal.BAD_WAGER,
                f"seat {n} may not wager {name!r}{hint}; wagers here: {', '.join(allowed)}",
                field=f"seat {n} {name}",
            )
    return wagers


def placed_wager_hint(name: str) -> str:
    """Why a seat may not give the wager `name` when a game's rules place it themselves
    (the first installed game placing it says what places it), else nothing."""
    for game in registry.banked_names():
        placed = registry.banked_rules(game).placed_wagers.get(name)
        if placed:
            return f" ({placed})"
    return ""


def stake(wagers: Mapping[str, Any], name: str, n: int, *, required: bool) -> int:
    value = wagers.get(name)
    if value is None:
        if required:
            raise EngineError(
                Refusal.BAD_WAGER, f"seat {n} has no {name} wager", field=f"seat {n} {name}"
            )
        return 0
    cents = known_cents(value)
    return cents if cents is not None else parse_cents(value, where=f"seat {n}'s {name}")


def cards_at(value: object, where: str, *, optional: bool = False) -> tuple[Card, ...]:
    if value is None and optional:
        return ()
    if value is None:
        raise EngineError(Refusal.CARD_COUNT, f"{where} are missing", field=where)
    return parse_cards(value, where=where)


def seat_cards(value: object, n: int, what: str, *, optional: bool = False) -> tuple[Card, ...]:
    """`_cards` for seat `n`'s `what` (`cards`, `discard`...), naming it only when needed."""
    cards = plain_cards(value)
    return cards if cards is not None else cards_at(value, f"seat {n}'s {what}", optional=optional)


def dealer_entry(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return json_object(data.get("dealer"), Refusal.CARD_COUNT, "dealer")


def meter_config(raw: object, awards: Mapping[str, int]) -> MeterConfig:
    """The round's `progressive` object read, for a game whose fixed awards and their default
    amounts are `awards` (an award it does not name is refused)."""
    if raw is None:
        return MeterConfig(awards_cents=awards)
    cfg = json_object(raw, Refusal.BAD_PAYTABLE, "progressive")
    known = {"meter", "reset", "rate", "wager", "awards", "split", "cap"}
    for key in cfg:
        if key not in known:
            raise EngineError(Refusal.BAD_PAYTABLE, f"the progressive has no setting {key!r}")

    def amount(key: str, default: int) -> int:
        if cfg.get(key) is None:
            return default
        try:
            return parse_cents(cfg[key], where=f"progressive {key}", allow_zero=True)
        except EngineError as err:
            raise EngineError(
                Refusal.BAD_PAYTABLE, err.message, field=f"progressive {key}"
            ) from None

    defaults = MeterConfig()
    fixed = dict(awards)
    if cfg.get("awards") is not None:
        given = json_object(cfg["awards"], Refusal.BAD_PAYTABLE, "progressive awards")
        for name, value in given.items():
            if name not in awards:
                raise EngineError(Refusal.BAD_PAYTABLE, f"the progressive has no award {name!r}")
            try:
                fixed[name] = parse_cents(value, where=f"progressive award {name}")
            except EngineError as err:
                raise EngineError(Refusal.BAD_PAYTABLE, err.message) from None
    rate = defaults.rate
    if cfg.get("rate") is not None:
        rate = _rate(cfg["rate"])
    split = cfg.get("split", JackpotSplit.EQUAL.value)
    if split not in {s.value for s in JackpotSplit}:
        raise EngineError(
            Refusal.BAD_PAYTABLE,
            f"progressive split must be 'equal' or 'seat_order', not {split!r}",
        )
    cap = None if cfg.get("cap") is None else amount("cap", 0)
    return MeterConfig(
        meter_cents=amount("meter", defaults.meter_cents),
        reset_cents=amount("reset", defaults.reset_cents),
        rate=rate,
        wager_cents=amount("wager", defaults.wager_cents),
        awards_cents=fixed,
        split=JackpotSplit(split),
        cap_cents=cap,
    )


def _rate(value: object) -> Fraction:
    """A contribution rate such as `"0.20"` (20 %), exactly."""
    if isinstance(value, str | int) and not isinstance(value, bool):
        try:
            return Fraction(str(value).strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise EngineError(
        Refusal.BAD_PAYTABLE,
        f'progressive rate must be a decimal string like "0.20", not {value!r}',
        field="progressive rate",
    )


def settle(
    data: object, *, paytable: Paytable | None = None, meter: MeterConfig | None = None
) -> Settlement:
    """Settle one round given in the contract's input form; raises EngineError when refused.

    The site passes the round's pinned `paytable` and its table's `meter` state; the command
    line resolves them from the round itself (`paytable`, `progressive`).
    """
    if type(data) is not dict and not isinstance(data, Mapping):
        raise EngineError(Refusal.BAD_JSON, "a round must be a JSON object")
    rules = registry.banked_rules(data.get("game"))
    game = rules.name
    if paytable is None:
        paytable = resolve(game, data.get("paytable"))
    elif paytable.game != game:
        raise EngineError(Refusal.BAD_PAYTABLE, f"paytable {paytable.name!r} is not for {game}")
    return rules.settle(data, paytable, meter)


def settle_round(data: object) -> JSON:
    """Settle one contract round (a parsed JSON object); raises EngineError when refused."""
    return settlement_to_json(settle(data))


def settle_line(text: str) -> tuple[JSON, bool]:
    """Settle one JSON Lines line: (output object, whether it was refused)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return EngineError(Refusal.BAD_JSON, "the line is not valid JSON").as_dict(), True
    try:
        return settle_round(data), False
    except EngineError as err:
        return err.as_dict(), True


_NOT_JSON: Final = json.dumps(EngineError(Refusal.BAD_JSON, "the line is not valid JSON").as_dict())


def settle_line_text(text: str) -> tuple[str, bool]:
    """`settle_line` with its answer already written as JSON text (no newline): exactly
    `json.dumps(settle_line(text)[0])`, faster (what `manage.py settle` writes)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return _NOT_JSON, True
    try:
        return settlement_to_text(settle(data)), False
    except EngineError as err:
        return json.dumps(err.as_dict()), True


def line_to_json(line: Line) -> JSON:
    out: JSON = {
        "wager": line.wager,
        "stake": format_cents(line.stake_cents),
        "result": line.result.value,
        "net": format_cents(line.net_cents),
    }
    if line.breakage:
        out["breakage"] = format_breakage(line.breakage)
    if line.award is not None:
        out["award"] = line.award
    return out


def settlement_to_json(s: Settlement) -> JSON:
    """The contract's output object for a settlement."""
    d = s.dealer
    dealer: JSON = {"cards": format_cards(d.cards), "action": d.action.value}
    if d.two_card is not None and d.one_card is not None:
        dealer["two_card"] = format_cards(d.two_card)
        dealer["one_card"] = str(d.one_card)
    else:
        dealer["discard"] = format_cards(d.discard)
        dealer["final"] = format_cards(d.final)
        dealer["hand"] = d.hand
    seats = []
    for seat in s.seats:
        out: JSON = {"seat": seat.seat, "final": format_cards(seat.final)}
        if seat.two_card is not None and seat.one_card is not None:
            out["two_card"] = format_cards(seat.two_card)
            out["one_card"] = str(seat.one_card)
        out["hand"] = seat.hand
        out["lines"] = [line_to_json(line) for line in seat.lines]
        out["net"] = format_cents(seat.net_cents)
        seats.append(out)
    result: JSON = {"game": s.game, "dealer": dealer, "seats": seats}
    p = s.progressive
    if p is not None:
        progressive: JSON = {
            "meter_before": format_cents(p.meter_before_cents),
            "contributions": format_cents(p.contributions_cents),
            "paid": format_cents(p.paid_cents),
            "meter_after": format_cents(p.meter_after_cents),
        }
        if p.capped or p.overflow_cents:
            progressive["overflow"] = format_cents(p.overflow_cents)
        result["progressive"] = progressive
    return result


# `settlement_to_text`: the JSON text of `settlement_to_json`, written directly. Every string it
# writes goes through `_quote` (json's own escaping, memoised), every amount through
# `format_cents`; the layout is `json.dumps`'s default (", " and ": "). A test compares the two
# on many rounds (tests/engine/test_settle_text.py).
_QUOTED: dict[str, str] = {}
_QUOTED_CARDS: Final[dict[Card, str]] = {c: f'"{t}"' for c, t in CARD_TEXT.items()}
_MEMO_SIZE: Final = 4096


def _quote(text: str | None) -> str:
    if text is None:
        return "null"
    quoted = _QUOTED.get(text)
    if quoted is None:
        quoted = encode_basestring_ascii(text)
        if len(_QUOTED) < _MEMO_SIZE:
            _QUOTED[text] = quoted
    return quoted


def _card_text(card: Card) -> str:
    quoted = _QUOTED_CARDS.get(card)
    return quoted if quoted is not None else encode_basestring_ascii(str(card))


def _cards_text(cards: Sequence[Card]) -> str:
    quoted = _QUOTED_CARDS
    try:
        return "[" + ", ".join([quoted[c] for c in cards]) + "]"
    except KeyError:
        return "[" + ", ".join([_card_text(c) for c in cards]) + "]"


_RESULT_TEXT: Final = {r: encode_basestring_ascii(r.value) for r in Result}
_ACTION_TEXT: Final = {a: encode_basestring_ascii(a.value) for a in DealerAction}
_LINE_TEXT: dict[tuple[str, int, Result, int, str | None], str] = {}


def _line_text(line: Line) -> str:
    if line.breakage:
        return _write_line(line)
    key = (line.wager, line.stake_cents, line.result, line.net_cents, line.award)
    text = _LINE_TEXT.get(key)
    if text is None:
        text = _write_line(line)
        if len(_LINE_TEXT) < _MEMO_SIZE:
            _LINE_TEXT[key] = text
    return text


def _write_line(line: Line) -> str:
    result = _RESULT_TEXT.get(line.result) or _quote(line.result.value)
    text = (
        '{"wager": '
        + _quote(line.wager)
        + ', "stake": "'
        + format_cents(line.stake_cents)
        + '", "result": '
        + result
        + ', "net": "'
        + format_cents(line.net_cents)
        + '"'
    )
    if line.breakage:
        text += ', "breakage": ' + _quote(format_breakage(line.breakage))
    if line.award is not None:
        text += ', "award": ' + _quote(line.award)
    return text + "}"


def _seat_text(seat: SeatResult) -> str:
    number = seat.seat
    texts = []
    net = 0  # `seat.net_cents`, summed on the way
    for line in seat.lines:
        texts.append(_line_text(line))
        net += line.net_cents
    setting = ""
    if seat.two_card is not None and seat.one_card is not None:
        setting = (
            f', "two_card": {_cards_text(seat.two_card)}, "one_card": {_card_text(seat.one_card)}'
        )
    return (
        f'{{"seat": {number if type(number) is int else json.dumps(number)}, '
        f'"final": {_cards_text(seat.final)}{setting}, "hand": {_quote(seat.hand)}, '
        f'"lines": [{", ".join(texts)}], "net": "{format_cents(net)}"}}'
    )


def settlement_to_text(s: Settlement) -> str:
    """`json.dumps(settlement_to_json(s))`, written directly (the command's hot path)."""
    d = s.dealer
    action = _ACTION_TEXT.get(d.action) or _quote(d.action.value)
    if d.two_card is not None and d.one_card is not None:
        dealer = (
            f'{{"cards": {_cards_text(d.cards)}, "action": {action}, '
            f'"two_card": {_cards_text(d.two_card)}, "one_card": {_card_text(d.one_card)}}}'
        )
    else:
        dealer = (
            f'{{"cards": {_cards_text(d.cards)}, "action": {action}, '
            f'"discard": {_cards_text(d.discard)}, "final": {_cards_text(d.final)}, '
            f'"hand": {_quote(d.hand)}}}'
        )
    seats = ", ".join([_seat_text(seat) for seat in s.seats])
    text = f'{{"game": {_quote(s.game)}, "dealer": {dealer}, "seats": [{seats}]'
    p = s.progressive
    if p is None:
        return text + "}"
    overflow = ""
    if p.capped or p.overflow_cents:
        overflow = f', "overflow": "{format_cents(p.overflow_cents)}"'
    return (
        f'{text}, "progressive": {{"meter_before": "{format_cents(p.meter_before_cents)}", '
        f'"contributions": "{format_cents(p.contributions_cents)}", '
        f'"paid": "{format_cents(p.paid_cents)}", '
        f'"meter_after": "{format_cents(p.meter_after_cents)}"{overflow}}}}}'
    )
