"""How the tablet shows cards, money, hands and a settlement to the dealer.

Pure presentation of what the engine and the services return: nothing here decides a result.
Amounts arrive as the contract's decimal strings ("10.00") and leave as dollars ("$10.00").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from html import escape
from typing import Any, Protocol

from core.money import dollars
from tables.engine.cards import parse_card
from tables.engine.errors import EngineError

SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAME = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
GRID_SUITS = ("s", "h", "c", "d")  # black, red, black, red: neighbouring rows differ in colour
GRID_RANKS = "AKQJT98765432"

RESULT_LABEL = {"win": "Win", "lose": "Lose", "push": "Push"}
# The poker hands of the engine's rankings; a game names its own hands (`Words.hand_labels`).
HAND_LABEL = {
    "straight_flush": "Straight flush",
    "three_of_a_kind": "Three of a kind",
    "straight": "Straight",
    "flush": "Flush",
    "pair": "Pair",
    "high_card": "High card",
}
PLURAL = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}
RANK_WORD = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}


class Words(Protocol):
    """What a game tells the pages in its own words (a `tables.games.BankedGame`)."""

    @property
    def high_card_order(self) -> str | None:
        """High-card hands say their highest card in this rank order ("King high")."""
        ...

    @property
    def wager_labels(self) -> Mapping[str, str]: ...

    @property
    def hand_labels(self) -> Mapping[str, str]: ...

    @property
    def award_labels(self) -> Mapping[str, str]: ...

    def hand_cards(self, hand: Mapping[str, Any]) -> list[list[str]] | None: ...

    def settled_hands(
        self, seat: Mapping[str, Any], dealer: Mapping[str, Any]
    ) -> list[dict[str, Any]]: ...


def wager_label(wager: str, labels: Mapping[str, str] | None = None) -> str:
    """A wager in the game's words (`labels`), else its key in words: `"side_bet"` ->
    `"Side Bet"`."""
    return (labels or {}).get(wager) or wager.replace("_", " ").title()


def line_words(line: str, labels: Mapping[str, str] | None = None) -> str:
    """A hand (or a paytable's line) in the game's words, else the engine's, else its key."""
    return (labels or {}).get(line) or HAND_LABEL.get(line) or line.replace("_", " ").capitalize()


def rank_label(rank: str) -> str:
    return "10" if rank == "T" else rank


def card(code: str) -> dict[str, Any]:
    """A card as the templates draw it: `{"code": "Ah", "label": "A♥", "red": True}`."""
    try:
        parsed = str(parse_card(code))
    except EngineError:
        return {"code": code, "label": code, "red": False, "bad": True}
    rank, suit = parsed[0], parsed[1]
    return {
        "code": parsed,
        "label": rank_label(rank) + SUIT_SYMBOL[suit],
        "red": suit in "hd",
        "title": f"{RANK_WORD.get(rank, rank)} of {SUIT_NAME[suit]}",
    }


def cards(codes: Any) -> list[dict[str, Any]]:
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [card(c) for c in codes or []]


def card_text(codes: Any) -> str:
    """`["Kc", "5h"]` -> `"K♣ 5♥"`, for sentences."""
    return " ".join(c["label"] for c in cards(codes))


class Markup(str):
    """Markup built here from escaped or fixed words: a template shows it as it is (its
    `__html__`, as Django's own safe strings)."""

    def __html__(self) -> str:
        return self


def card_face(c: Mapping[str, Any], big: bool = False) -> Markup:
    """A card (`card()`) as the pages draw it, a face in a span: the markup of
    `tablet/_card.html`, without a template's include per card."""
    red = " red" if c.get("red") else ""
    size = " big" if big else ""
    return Markup(  # every value escaped
        f'<span class="pc{red}{size}" title="{escape(str(c.get("title", "")))}" '
        f'data-card="{escape(str(c.get("code", "")))}">{escape(str(c.get("label", "")))}</span>'
    )


def _grid_button(code: str, used: bool) -> str:
    c = card(code)
    red = " red" if c["red"] else ""
    greyed = ' disabled data-used="1"' if used else ""
    return (
        f'<button type="button" class="gc{red}" data-card="{c["code"]}" title="{c["title"]}"'
        f"{greyed}>{c['label']}</button>"
    )


# The grid's rows as markup, built once: per suit its row's opening tag, and each card's button
# free and greyed out (the cards are fixed; only which are in use varies).
_GRID_ROWS = [
    (
        f'<div class="grid-row" data-suit="{suit}" aria-label="{SUIT_NAME[suit]}">',
        [
            (rank + suit, _grid_button(rank + suit, False), _grid_button(rank + suit, True))
            for rank in GRID_RANKS
        ],
    )
    for suit in GRID_SUITS
]


def grid(used: set[str] | frozenset[str]) -> Markup:
    """The 52-card tap grid's rows (`tablet/_grid.html`): one row per suit, ace to two; the
    cards already in the round greyed out (disabled, `data-used`)."""
    out = []
    for opening, buttons in _GRID_ROWS:
        out.append(opening)
        out.extend(taken if code in used else free for code, free, taken in buttons)
        out.append("</div>\n    ")
    return Markup("".join(out))  # the fixed cards' words


def cents_of(amount: Any) -> int:
    """The contract's decimal string ("-10.50") as integer cents."""
    return int(Decimal(str(amount)) * 100)


def amount(value: Any, *, signed: bool = False) -> str:
    return dollars(cents_of(value), signed=signed)


def result_class(cents: int) -> str:
    return "win" if cents > 0 else "lose" if cents < 0 else "push"


def hand_label(game: Words, hand: str | None, final: list[str] | None = None) -> str:
    """The engine's hand name in the game's words; a high-card hand says its highest card
    ("King high") in the game's rank order (`high_card_order`, lowest first; None: never)."""
    if not hand:
        return ""
    ranks = [c[0] for c in final or []]
    order = game.high_card_order
    if hand == "high_card" and ranks and order is not None:
        top = max(ranks, key=order.index)
        return f"{RANK_WORD.get(top, top)} high"
    if hand == "pair" and ranks:
        pair = next((r for r in ranks if ranks.count(r) == 2), None)
        if pair is not None:
            return f"Pair of {PLURAL.get(pair, rank_label(pair) + 's')}"
    return line_words(hand, game.hand_labels)


def wager_summary(wagers: dict[str, str], labels: Mapping[str, str] | None = None) -> str:
    """`{"ante": "10.00", "side_bet": "5.00"}` -> `"Ante $10.00 · Side Bet $5.00"`."""
    return " · ".join(f"{wager_label(k, labels)} {amount(v)}" for k, v in wagers.items())


def limits_summary(limits: dict[str, Any], labels: Mapping[str, str] | None = None) -> list[str]:
    return [
        f"{wager_label(w, labels)} {dollars(lim['min_cents'])} to {dollars(lim['max_cents'])}"
        for w, lim in limits.items()
    ]


def paytable_rows(lines: dict[str, dict[str, str]], game: Words) -> list[dict[str, Any]]:
    """The paytable in force, for the table page: per wager, each hand's odds "N to 1"."""
    rows = []
    for wager, table in lines.items():
        entries = []
        for hand, odds in table.items():
            num, _, den = str(odds).partition("/")
            entries.append(
                {
                    "hand": (game.hand_labels.get(hand) or HAND_LABEL.get(hand))
                    or hand.replace("_", " "),
                    "odds": f"{num} to {den or 1}",
                }
            )
        rows.append({"wager": wager_label(wager, game.wager_labels), "lines": entries})
    return rows


def _hand_sets(game: Words, hand: Mapping[str, Any]) -> list[list[dict[str, Any]]] | None:
    sets = game.hand_cards(hand)
    return [cards(s) for s in sets] if sets is not None else None


def settlement(data: dict[str, Any], game: Words) -> dict[str, Any]:
    """A preview or a settled round (the contract's output) as the confirm step shows it, in
    the game's words (its labels; a hand set into several, each with its own result)."""
    d = data["dealer"]
    dealer: dict[str, Any] = {"cards": cards(d["cards"]), "action": d.get("action", "")}
    dealer["sets"] = _hand_sets(game, d)
    if dealer["sets"] is None:
        dealer["discard"] = cards(d.get("discard"))
        dealer["final"] = cards(d.get("final"))
        dealer["hand"] = hand_label(game, d.get("hand"), d.get("final"))
    seats = []
    handle = net_total = 0
    for s in data["seats"]:
        lines = []
        for line in s["lines"]:
            stake, net = cents_of(line["stake"]), cents_of(line["net"])
            handle += stake
            lines.append(
                {
                    "wager": wager_label(line["wager"], game.wager_labels),
                    "key": line["wager"],
                    "stake": dollars(stake),
                    "result": line["result"],
                    "result_label": RESULT_LABEL.get(line["result"], line["result"]),
                    "award": award_label(line.get("award"), game.award_labels),
                    "net": dollars(net, signed=True),
                    "net_class": line["result"],
                }
            )
        seat_net = cents_of(s["net"])
        net_total += seat_net
        awards = [
            award_sentence(s["seat"], line, game.award_labels)
            for line in s["lines"]
            if line.get("award") and line["result"] == "win"
        ]
        seat: dict[str, Any] = {
            "n": s["seat"],
            "final": cards(s["final"]),
            "hand": hand_label(game, s.get("hand"), s.get("final")),
            "lines": lines,
            "awards": awards,
            "net": dollars(seat_net, signed=True),
            "net_class": result_class(seat_net),
            "verdict": (
                "Pay " + dollars(seat_net)
                if seat_net > 0
                else "Take " + dollars(-seat_net)
                if seat_net < 0
                else "Push"
            ),
        }
        seat["sets"] = _hand_sets(game, s)
        seat["hands"] = game.settled_hands(s, d)
        if seat["hands"]:
            seat["verdict"] = split_verdict(seat["hands"], seat["verdict"])
        seats.append(seat)
    out: dict[str, Any] = {
        "dealer": dealer,
        "seats": seats,
        "handle": dollars(handle),
        "players_net": dollars(net_total, signed=True),
        "house": dollars(-net_total, signed=True),
        "house_class": result_class(-net_total),
    }
    p = data.get("progressive")
    if p:
        out["progressive"] = {k: amount(v) for k, v in p.items()}
    return out


def award_sentence(n: int, line: Mapping[str, Any], labels: Mapping[str, str] | None) -> str:
    """A won progressive award with what it pays and the seat's net on the wager apart: "Seat 1
    wins the progressive jackpot: $25,000.40 paid from the meter; net +$24,999.40 after the
    $1.00 wager" (the net alone would understate what the meter pays)."""
    what = award_label(line["award"], labels)
    return f"Seat {n} " + award_text(
        line["award"], cents_of(line["stake"]), cents_of(line["net"]), what=what
    )


def award_text(award: str, stake_cents: int, net_cents: int, *, what: str = "") -> str:
    """What a seat's progressive award pays and its net on the wager, after "Seat N ": the
    jackpot "wins the progressive jackpot: $25,000.40 paid from the meter; net +$24,999.40
    after the $1.00 wager", another award by its name when given."""
    paid = dollars(net_cents + stake_cents)
    after = f"net {dollars(net_cents, signed=True)} after the {dollars(stake_cents)} wager"
    if award == "jackpot":
        return f"wins the progressive jackpot: {paid} paid from the meter; {after}"
    if what:
        return f"wins the progressive award ({what}): {paid} paid; {after}"
    return f"wins a progressive award: {paid} paid; {after}"


def award_label(award: str | None, labels: Mapping[str, str] | None = None) -> str:
    """A line's award in the game's words, else its key in words."""
    if not award:
        return ""
    return (labels or {}).get(award) or award.replace("_", " ")


def split_verdict(hands: list[dict[str, Any]], verdict: str) -> str:
    """A seat of several hands: "Push" says which hand won and which lost."""
    won = [h["label"].lower() for h in hands if h["result"] == "win"]
    lost = [h["label"].lower() for h in hands if h["result"] == "lose"]
    if won and lost:
        return f"Push: the {won[0]} wins, the {lost[0]} loses"
    if won:
        return f"{verdict}: both hands win"
    return f"{verdict}: both hands lose"


def field_key(field: str | None) -> str:
    """A service's or the engine's field name, normalised so the page can find its input:
    "seat 3's cards" and "seat 3 cards" -> "seat 3 cards"; "dealer.draw" and "the dealer's
    draw" -> "dealer draw"; "seat 2 side_bet" and "seat 2's side-bet hand" -> "seat 2 side bet".
    """
    if not field:
        return ""
    key = field.lower().replace("'s", " ")
    key = re.sub(r"[._\-]", " ", key)
    key = re.sub(r"\b(the|hand)\b", " ", key)
    return " ".join(key.split())


def posted_value(data: Mapping[str, Any] | None, name: str, default: str = "") -> str:
    """A posted input's value to show again, else `default` (what the round holds)."""
    return str(data.get(name, "")) if data is not None else default


def draw_headline(advice: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A drawing game's house way as one instruction, in parts (words and cards): "Discard K♦
    and draw 1 card", "Dealer stands"; where several discards are the house way, "Discard K♥
    and 5♠ or 5♣, then draw 2 cards"."""
    count = advice["draw_count"]
    if not count:
        return [{"text": "Dealer stands"}]
    draw = f"draw {count} card{'s' if count != 1 else ''}"
    choices = [set(c) for c in advice.get("choices") or []]
    if len(choices) < 2:
        return [
            {"text": "Discard"},
            {"cards": cards(advice["discard"])},
            {"text": f"and {draw}"},
        ]
    common = set.intersection(*choices)
    either = sorted(set.union(*choices) - common, key=advice["discard"].__contains__, reverse=True)
    parts: list[dict[str, Any]] = [{"text": "Discard"}]
    if common:
        parts += [{"cards": cards(sorted(common))}, {"text": "and"}]
    left = count - len(common)
    if left == 1:
        for i, code in enumerate(either):
            parts += [{"text": "or"}] if i else []
            parts.append({"cards": [card(code)]})
    else:
        parts += [{"text": f"{'two' if left == 2 else left} of"}, {"cards": cards(either)}]
    return [*parts, {"text": f", then {draw}"}]


_PLAYER_WORD = re.compile(r"\b([Pp])layer (\d+)\b")
_PLAYERS_LIST = re.compile(r"\b([Pp])layers ((?:\d+)(?:(?:, | and )\d+)*)\b")
_CARD_WORD = re.compile(r"(?<![\w'])(10|[2-9TJQKA])([cdhs])(?![\w'])")


def seat_of(player: int, seats: Sequence[int] | None) -> int:
    """A player's seat at the table (`seats`: the seat of each player in order); without the
    seats, the player's place counted from 1."""
    if seats is not None and 0 <= player < len(seats):
        return seats[player]
    return player + 1


def seat_word(player: int, seats: Sequence[int] | None) -> str:
    """`1, [2, 5]` -> `"Seat 5"`."""
    return f"Seat {seat_of(player, seats)}"


def floor_words(text: str, seats: Sequence[int] | None, *, card_codes: bool = True) -> str:
    """An engine's sentence as the floor says it: a player it numbers from 0 named by their
    seat ("player 0" -> "Seat 3", "players 0 and 2" -> "seats 3 and 5") and (`card_codes`)
    a card code as the card ("Kh" -> "K♥"); a refusal that quotes what was typed keeps it
    (`card_codes=False`)."""

    def known(n: int) -> bool:
        return seats is None or 0 <= n < len(seats)

    def players(m: re.Match[str]) -> str:
        if not all(known(int(n)) for n in re.findall(r"\d+", m.group(2))):
            return m.group()
        listed = re.sub(r"\d+", lambda d: str(seat_of(int(d.group()), seats)), m.group(2))
        return ("Seats " if m.group(1) == "P" else "seats ") + listed

    def player(m: re.Match[str]) -> str:
        n = int(m.group(2))
        return seat_word(n, seats) if known(n) else m.group()

    # A player the hand does not have ("there is no player 7") is left as the caller wrote it.
    text = _PLAYERS_LIST.sub(players, text)
    text = _PLAYER_WORD.sub(player, text)
    if card_codes:
        text = _CARD_WORD.sub(lambda m: card_text([m.group(1) + m.group(2)]), text)
    return text
