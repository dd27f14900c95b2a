"""An independent plain-Python settler of the `settle` contract, the yardstick of
`settle_cpu.py --plain`.

    python benchmarks/plain_settler.py < rounds.jsonl > settlements.jsonl

It reads JSON Lines rounds on standard input and writes one settlement per line, as
`docs/contracts/settle.md` describes, for the three house-banked games (`second_chance`,
`lowball`, `pyramid`) with their named paytables and the Lowball progressive, applying the
rules of `docs/rules/`. It is written from those documents (and, for the choices below,
the engine's output) alone, with the standard library
only: it imports nothing of the project (neither the engine, the games nor Django), so it is a
second, independent reading of the rules and a fair measure of what a simple settler costs.

What the project's generator (`benchmarks/bench_settle.py`, the default mix) produces is
covered completely. Beyond it, the checks a settler needs are made (bad JSON, unknown game,
bad or repeated cards, card counts, wagers, seats, the dealer's house way, a fouled Pyramid
hand, unknown paytables) with messages of its own; paytable overrides, a meter cap and
configured award amounts are refused as `bad_paytable` (the engine accepts them). The exit
status is 2 when a line was refused, as the contract says.

Where the contract leaves a choice open (the order of the cards in `discard` and `two_card`,
which card of a pair or of three of a kind the house way throws away or puts alone), this
settler makes the choices `manage.py settle` makes, so that the two outputs can be compared
byte for byte. Only the Lowball dealer's choices (which card of three of a kind or of a pair
is kept) can change a result: the suit kept may make the final hand a flush.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

# --- cards --------------------------------------------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_ALIASES = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
RED = {"d", "h"}
# The order of suits for a free choice between cards of one rank (the Lowball dealer's three
# of a kind): spades above hearts above clubs above diamonds.
SUIT_ORDER = {"d": 0, "c": 1, "h": 2, "s": 3}


class Refused(Exception):
    """A round that breaks a rule: its code and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Card:
    """One card: its rank (2..14, the ace 14), its suit letter and its canonical text."""

    __slots__ = ("rank", "suit", "text")

    def __init__(self, rank: int, suit: str) -> None:
        self.rank = rank
        self.suit = suit
        self.text = RANKS[rank - 2] + suit

    @property
    def low_rank(self) -> int:
        """The rank with the ace as a one (Lowball)."""
        return 1 if self.rank == 14 else self.rank


def low_first(cards: list[Card]) -> list[Card]:
    """The cards from the highest down with the ace low (Lowball), by suit on equal ranks."""
    return sorted(cards, key=lambda c: (c.low_rank, SUIT_ORDER[c.suit]), reverse=True)


def parse_card(value: Any) -> Card:
    if not isinstance(value, str):
        raise Refused("bad_card", f"{value!r} is not a card")
    text = value.strip()
    if text[:2] == "10":
        text = "T" + text[2:]
    if len(text) != 2:
        raise Refused("bad_card", f"{value!r} is not a card (a rank and a suit, e.g. Ah)")
    rank_char, suit_char = text[0].upper(), SUIT_ALIASES.get(text[1], text[1].lower())
    if rank_char not in RANKS or suit_char not in SUITS:
        raise Refused("bad_card", f"{value!r} is not a card (a rank and a suit, e.g. Ah)")
    return Card(RANKS.index(rank_char) + 2, suit_char)


def parse_cards(value: Any, count: int | None, where: str) -> list[Card]:
    """A list of cards; exactly `count` of them unless `count` is None."""
    if not isinstance(value, list):
        raise Refused("card_count", f"{where}: expected a list of cards")
    cards = [parse_card(v) for v in value]
    if count is not None and len(cards) != count:
        raise Refused("card_count", f"{where}: {len(cards)} cards, expected {count}")
    return cards


class Deck:
    """The cards a round has used so far: a card may appear only once."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def take(self, cards: list[Card], where: str) -> None:
        for card in cards:
            if card.text in self.seen:
                raise Refused(
                    "duplicate_card", f"{card.text} in {where} is already in {self.seen[card.text]}"
                )
            self.seen[card.text] = where


def texts(cards: list[Card]) -> list[str]:
    return [c.text for c in cards]


# --- money --------------------------------------------------------------------------------


def parse_money(value: Any, where: str) -> int:
    """A positive amount in dollars ("10.00") as integer cents."""
    if not isinstance(value, str):
        raise Refused("bad_wager", f"{where}: {value!r} is not an amount")
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise Refused("bad_wager", f"{where}: {value!r} is not an amount") from None
    if not amount.is_finite() or amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise Refused("bad_wager", f"{where}: {value!r} is not a positive amount in cents")
    return int(amount * 100)


def parse_setting(value: Any, where: str) -> Decimal:
    """A progressive setting (an amount or a rate) as a Decimal."""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise Refused("bad_paytable", f"{where}: {value!r} is not a number") from None
    if not amount.is_finite() or amount < 0:
        raise Refused("bad_paytable", f"{where}: {value!r} is not a positive number")
    return amount


def dollars(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def breakage_text(cents: Fraction) -> str:
    """The fraction of a cent not paid, in dollars ("0.005"); exact for the named paytables'
    odds, whose denominators are 1 and 2."""
    value = cents / 100
    return format((Decimal(value.numerator) / Decimal(value.denominator)).normalize(), "f")


def line(wager: str, stake: int, result: str, odds: Fraction = Fraction(1)) -> dict[str, Any]:
    """One settlement line; a win is paid at `odds` to 1, rounded down to the cent."""
    breakage = Fraction(0)
    if result == "win":
        exact = stake * odds
        net = exact.numerator // exact.denominator
        breakage = exact - net
    elif result == "lose":
        net = -stake
    else:
        net = 0
    out: dict[str, Any] = {"wager": wager, "stake": dollars(stake), "result": result}
    out["net"] = dollars(net)
    if breakage:
        out["breakage"] = breakage_text(breakage)
    out["_net"] = net
    return out


def finish_seat(seat: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    total = 0
    for entry in lines:
        total += entry.pop("_net")
    seat["lines"] = lines
    seat["net"] = dollars(total)
    return seat


def compare(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return (a > b) - (a < b)


# --- three-card poker (2nd Chance) --------------------------------------------------------

CATEGORY_NAMES = ["high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush"]
HIGH, PAIR, FLUSH, STRAIGHT, TRIPS, STRAIGHT_FLUSH = range(6)


def poker_hand(cards: list[Card]) -> tuple[int, ...]:
    """(category, tie-breakers...): the higher tuple is the better three-card poker hand."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    flush = cards[0].suit == cards[1].suit == cards[2].suit
    if ranks == [14, 3, 2]:
        straight_top = 3
    elif ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1:
        straight_top = ranks[0]
    else:
        straight_top = 0
    if straight_top and flush:
        return (STRAIGHT_FLUSH, straight_top)
    if ranks[0] == ranks[2]:
        return (TRIPS, ranks[0])
    if straight_top:
        return (STRAIGHT, straight_top)
    if flush:
        return (FLUSH, *ranks)
    if ranks[0] == ranks[1]:
        return (PAIR, ranks[0], ranks[2])
    if ranks[1] == ranks[2]:
        return (PAIR, ranks[1], ranks[0])
    return (HIGH, *ranks)


SECOND_CHANCE_ANTE = {
    STRAIGHT_FLUSH: Fraction(6),
    TRIPS: Fraction(4),
    STRAIGHT: Fraction(3, 2),
}
SECOND_CHANCE_PAIR_PLUS = {
    STRAIGHT_FLUSH: Fraction(40),
    TRIPS: Fraction(30),
    STRAIGHT: Fraction(6),
    FLUSH: Fraction(3),
    PAIR: Fraction(1),
}


def pair_plus_line(wager: str, stake: int, cards: list[Card]) -> dict[str, Any]:
    odds = SECOND_CHANCE_PAIR_PLUS.get(poker_hand(cards)[0])
    return line(wager, stake, "lose") if odds is None else line(wager, stake, "win", odds)


def settle_second_chance(round_: dict[str, Any], deck: Deck) -> dict[str, Any]:
    named_paytable(round_, ("default",), "default")
    dealer_in = round_.get("dealer")
    if not isinstance(dealer_in, dict):
        raise Refused("card_count", "dealer: the dealer's cards are missing")
    first = parse_cards(dealer_in.get("cards"), 3, "the dealer's cards")
    deck.take(first, "the dealer's cards")
    first_hand = poker_hand(first)
    keeps = first_hand[0] > HIGH or first_hand[1] >= 13  # king-high or better
    if keeps:
        if "draw" in dealer_in:
            raise Refused("house_way", "the dealer stands on king-high or better: no draw")
        final, dealer = first, {"action": "stand", "discard": []}
    else:
        if "draw" not in dealer_in:
            raise Refused("house_way", "the dealer draws on queen-high or worse: draw missing")
        final = parse_cards(dealer_in["draw"], 3, "the dealer's draw")
        deck.take(final, "the dealer's draw")
        dealer = {"action": "draw", "discard": texts(first)}
    dealer_hand = poker_hand(final)
    dealer_out = {"cards": texts(first), **dealer, "final": texts(final)}
    dealer_out["hand"] = CATEGORY_NAMES[dealer_hand[0]]

    seats_out = []
    for number, seat in seats_of(round_):
        wagers = seat.get("wagers")
        if not isinstance(wagers, dict) or "ante" not in wagers:
            raise Refused("bad_wager", f"seat {number}: the ante is missing")
        if "raise" in wagers:
            raise Refused("bad_wager", f"seat {number}: the raise is placed by the mulligan")
        ante = parse_money(wagers["ante"], f"seat {number} ante")
        pair_plus = wagers.get("pair_plus")
        pair_plus_cents = None if pair_plus is None else parse_money(pair_plus, "pair plus")
        cards = parse_cards(seat.get("cards"), 3, f"seat {number}'s cards")
        deck.take(cards, f"seat {number}'s cards")
        mulligan = seat.get("mulligan")
        final = cards
        mulligan_pp = None
        if mulligan is not None:
            if not isinstance(mulligan, dict):
                raise Refused("card_count", f"seat {number}: the mulligan has no cards")
            final = parse_cards(mulligan.get("cards"), 3, f"seat {number}'s mulligan")
            deck.take(final, f"seat {number}'s mulligan")
            if mulligan.get("pair_plus") is not None:
                mulligan_pp = parse_money(mulligan["pair_plus"], "mulligan pair plus")
        if set(wagers) - {"ante", "pair_plus"}:
            raise Refused("bad_wager", f"seat {number}: an unknown wager")

        hand = poker_hand(final)
        outcome = compare(hand, dealer_hand)
        odds = SECOND_CHANCE_ANTE.get(hand[0], Fraction(1))
        result = "win" if outcome > 0 else "lose" if outcome < 0 else "push"
        lines = [line("ante", ante, result, odds)]
        if mulligan is not None:  # the Raise, equal to the Ante, settles like it
            lines.append(line("raise", ante, result, odds))
        if pair_plus_cents is not None:
            lines.append(pair_plus_line("pair_plus", pair_plus_cents, cards))
        if mulligan_pp is not None:
            lines.append(pair_plus_line("mulligan_pair_plus", mulligan_pp, final))
        seat_out = {"seat": number, "final": texts(final), "hand": CATEGORY_NAMES[hand[0]]}
        seats_out.append(finish_seat(seat_out, lines))
    return {"game": "second_chance", "dealer": dealer_out, "seats": seats_out}


# --- Lowball ------------------------------------------------------------------------------


def low_hand(cards: list[Card]) -> tuple[tuple[int, ...], int]:
    """(key, category): the lower key is the better Lowball hand; the ace is a one. Lowball
    ranks the categories from the best up in the order they are numbered (HIGH first)."""
    ranks = sorted((c.low_rank for c in cards), reverse=True)
    flush = cards[0].suit == cards[1].suit == cards[2].suit
    straight = ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1
    if straight and flush:
        category, tie = STRAIGHT_FLUSH, (ranks[0],)
    elif ranks[0] == ranks[2]:
        category, tie = TRIPS, (ranks[0],)
    elif straight:
        category, tie = STRAIGHT, (ranks[0],)
    elif flush:
        category, tie = FLUSH, tuple(ranks)
    elif ranks[0] == ranks[1]:
        category, tie = PAIR, (ranks[0], ranks[2])
    elif ranks[1] == ranks[2]:
        category, tie = PAIR, (ranks[1], ranks[0])
    else:
        category, tie = HIGH, tuple(ranks)
    return (category, *tie), category


def low_name(cards: list[Card]) -> str:
    """The hand's bonus name when it is a bonus hand, its category otherwise."""
    key, category = low_hand(cards)
    if category != HIGH:
        return CATEGORY_NAMES[category]
    ranks = key[1:]
    if ranks == (4, 2, 1):
        colours = {c.suit in RED for c in cards}
        return "a24_one_colour" if len(colours) == 1 else "a24_two_colour"
    if ranks == (4, 3, 1):
        return "a34"
    return {5: "five_high", 6: "six_high", 7: "seven_high"}.get(ranks[0], "high_card")


LOWBALL_BONUS = {
    "1": {"a24_one_colour": 10, "a24_two_colour": 6, "a34": 5},
    "2": {"a24_one_colour": 12, "a24_two_colour": 8, "a34": 4},
    "3": {"a24_one_colour": 10, "a24_two_colour": 6, "a34": 4},
}
for _table in LOWBALL_BONUS.values():
    _table.update(five_high=3, six_high=2, seven_high=1)

PROGRESSIVE_DEFAULTS = {
    "meter": "25000.00",
    "reset": "10000.00",
    "rate": "0.20",
    "wager": "1.00",
}
FIXED_AWARDS = {"one_colour": 20000, "two_colour": 5000, "four_high": 1000, "five_high": 300}


def is_high(card: Card) -> bool:
    """Ten to king: "high" in the Lowball house way (the ace is low)."""
    return 10 <= card.rank <= 13


def dealer_discards(cards: list[Card]) -> list[list[Card]]:
    """Every discard the Lowball house way allows for the dealer's hand, each in the order the
    house way names its cards; the first is the one proposed when the round names none."""
    _, category = low_hand(cards)
    ordered = low_first(cards)
    if category == TRIPS:
        a, b, c = ordered
        return [[a, b], [a, c], [b, c]]
    if category in (FLUSH, STRAIGHT, STRAIGHT_FLUSH):
        if is_high(ordered[0]) and is_high(ordered[1]):
            return [ordered[:2]]
        return [ordered[:1]]
    if category == PAIR:
        pair_rank = ordered[1].low_rank  # the middle card always belongs to the pair
        pair = [c for c in cards if c.low_rank == pair_rank]
        odd = next(c for c in cards if c.low_rank != pair_rank)
        higher = odd if odd.low_rank > pair_rank else pair[1]  # the higher card left
        if is_high(higher):  # two cards go: either pair card with the higher one
            if higher is odd:
                return [[pair[0], odd], [pair[1], odd]]
            return [pair]
        # one card goes: the pair card of the third card's suit, if there is one
        same_suit = [c for c in pair if c.suit == odd.suit]
        return [[c] for c in same_suit or pair]
    high = [c for c in ordered if is_high(c)]
    if len(high) == 3:
        return [high[:2]]
    return [high]


def same_cards(a: list[Card], b: list[Card]) -> bool:
    return sorted(c.text for c in a) == sorted(c.text for c in b)


def draw_hand(cards: list[Card], discard: list[Card], draw: list[Card]) -> list[Card]:
    thrown = {c.text for c in discard}
    return [c for c in cards if c.text not in thrown] + draw


def progressive_settings(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Refused("bad_paytable", "progressive: expected an object of settings")
    unknown = set(value) - {"meter", "reset", "rate", "wager", "split"}
    if unknown:
        raise Refused("bad_paytable", f"progressive: unsupported setting {sorted(unknown)[0]}")
    settings: dict[str, Any] = {}
    for name, default in PROGRESSIVE_DEFAULTS.items():
        settings[name] = parse_setting(value.get(name, default), f"progressive {name}")
    split = value.get("split", "equal")
    if split not in ("equal", "seat_order"):
        raise Refused("bad_paytable", f"progressive: unknown split {split!r}")
    settings["split"] = split
    return settings


def settle_lowball(round_: dict[str, Any], deck: Deck) -> dict[str, Any]:
    paytable = named_paytable(round_, tuple(LOWBALL_BONUS), "1")
    bonus_table = LOWBALL_BONUS[paytable]
    dealer_in = round_.get("dealer")
    if not isinstance(dealer_in, dict):
        raise Refused("card_count", "dealer: the dealer's cards are missing")
    first = parse_cards(dealer_in.get("cards"), 3, "the dealer's cards")
    deck.take(first, "the dealer's cards")
    allowed = dealer_discards(first)
    if "discard" in dealer_in:
        discard = parse_cards(dealer_in["discard"], None, "the dealer's discard")
        if not any(same_cards(discard, option) for option in allowed):
            raise Refused("house_way", "the dealer's discard breaks the house way")
    else:
        discard = allowed[0]
    if discard:
        draw = parse_cards(dealer_in.get("draw"), len(discard), "the dealer's draw")
        deck.take(draw, "the dealer's draw")
    elif dealer_in.get("draw"):
        raise Refused("house_way", "the dealer stands on this hand: no draw")
    else:
        draw = []
    dealer_final = draw_hand(first, discard, draw)
    dealer_key, _ = low_hand(dealer_final)
    dealer_out = {
        "cards": texts(first),
        "action": "draw" if discard else "stand",
        "discard": texts(discard),
        "final": texts(dealer_final),
        "hand": low_name(dealer_final),
    }
    dealer_first_name = low_name(first)

    settings = None
    if "progressive" in round_:
        settings = progressive_settings(round_["progressive"])

    seats_out = []
    progressive_seats = []  # (seat output, its progressive line, the award's name)
    for number, seat in seats_of(round_):
        wagers = seat.get("wagers")
        if not isinstance(wagers, dict) or "ante" not in wagers or "bonus" not in wagers:
            raise Refused("bad_wager", f"seat {number}: the ante and the bonus are required")
        if set(wagers) - {"ante", "bonus", "progressive"}:
            raise Refused("bad_wager", f"seat {number}: an unknown wager")
        ante = parse_money(wagers["ante"], f"seat {number} ante")
        bonus = parse_money(wagers["bonus"], f"seat {number} bonus")
        if bonus != ante:
            raise Refused("bad_wager", f"seat {number}: the bonus must equal the ante")
        progressive = None
        if "progressive" in wagers:
            progressive = parse_money(wagers["progressive"], f"seat {number} progressive")
            if settings is None:
                settings = progressive_settings({})
            if Decimal(progressive) != settings["wager"] * 100:
                raise Refused("bad_wager", f"seat {number}: not the configured progressive")
        cards = parse_cards(seat.get("cards"), 3, f"seat {number}'s cards")
        deck.take(cards, f"seat {number}'s cards")
        seat_discard = parse_cards(seat.get("discard", []), None, f"seat {number}'s discard")
        if len(seat_discard) > 2:
            raise Refused("card_count", f"seat {number}: at most two cards may be thrown away")
        held = {c.text for c in cards}
        for card in seat_discard:
            if card.text not in held:
                raise Refused("bad_card", f"seat {number} discards {card.text}, not its card")
        if len({c.text for c in seat_discard}) != len(seat_discard):
            raise Refused("duplicate_card", f"seat {number} discards a card twice")
        seat_draw = parse_cards(seat.get("draw", []), len(seat_discard), f"seat {number}'s draw")
        deck.take(seat_draw, f"seat {number}'s draw")

        final = draw_hand(cards, seat_discard, seat_draw)
        key, _ = low_hand(final)
        name = low_name(final)
        outcome = compare(dealer_key, key)  # > 0: the player's hand is lower, it wins
        if outcome > 0:
            lines = [line("ante", ante, "win")]
            odds = bonus_table.get(name)
            if odds is None:
                lines.append(line("bonus", bonus, "push"))
            else:
                lines.append(line("bonus", bonus, "win", Fraction(odds)))
        else:
            result = "lose" if outcome < 0 else "push"
            lines = [line("ante", ante, result), line("bonus", bonus, result)]
        seat_out = {"seat": number, "final": texts(final), "hand": name}
        if progressive is not None:
            first_name = low_name(cards)
            award = None
            if first_name.startswith("a24") and dealer_first_name.startswith("a24"):
                award = "jackpot"
            elif outcome > 0 and first_name == "a24_one_colour":
                award = "one_colour"
            elif outcome > 0 and first_name == "a24_two_colour":
                award = "two_colour"
            elif outcome > 0 and name in ("a24_one_colour", "a24_two_colour", "a34"):
                award = "four_high"
            elif outcome > 0 and name == "five_high":
                award = "five_high"
            entry = line("progressive", progressive, "lose")
            lines.append(entry)
            progressive_seats.append((number, entry, award))
        seats_out.append((seat_out, lines))

    progressive_out = None
    if settings is not None:
        cents = 100
        meter = int(settings["meter"] * cents)
        reset = int(settings["reset"] * cents)
        staked = sum(-entry["_net"] for _, entry, _ in progressive_seats)
        contributions = int(settings["rate"] * staked)  # rounded down to the cent
        pot = meter + contributions
        winners = [(n, e) for n, e, award in progressive_seats if award == "jackpot"]
        shares: list[int] = []
        if winners and settings["split"] == "equal":
            base, rest = divmod(pot, len(winners))
            order = sorted(range(len(winners)), key=lambda i: winners[i][0])
            shares = [base] * len(winners)
            for i in order[:rest]:
                shares[i] += 1
        elif winners:
            shares = [pot] + [reset] * (len(winners) - 1)
        paid = sum(shares)
        for (_, entry), share in zip(winners, shares, strict=True):
            award_line(entry, share, "jackpot")
        for _, entry, award in progressive_seats:
            if award in FIXED_AWARDS:
                award_line(entry, FIXED_AWARDS[award], award)
        progressive_out = {
            "meter_before": dollars(meter),
            "contributions": dollars(contributions),
            "paid": dollars(paid),
            "meter_after": dollars(reset if winners else pot),
        }

    out: dict[str, Any] = {
        "game": "lowball",
        "dealer": dealer_out,
        "seats": [finish_seat(seat, lines) for seat, lines in seats_out],
    }
    if progressive_out is not None:
        out["progressive"] = progressive_out
    return out


def award_line(entry: dict[str, Any], amount: int, name: str) -> None:
    """Turn a losing progressive line into a win of `amount`; the stake stays collected."""
    stake = -entry["_net"]
    net = amount - stake
    entry["result"] = "win"
    entry["net"] = dollars(net)
    entry["award"] = name
    entry["_net"] = net


# --- Pyramid ------------------------------------------------------------------------------


def two_card_value(cards: list[Card]) -> tuple[int, int, int]:
    high, low = sorted((c.rank for c in cards), reverse=True)
    return (1, high, 0) if high == low else (0, high, low)


def dealer_alone(cards: list[Card]) -> Card:
    """The card the dealer's house way puts in the one-card hand."""
    ranks = sorted(c.rank for c in cards)
    if ranks[0] == ranks[2]:  # three of a kind: the last card alone, the others a pair
        return cards[2]
    if ranks[0] != ranks[1] and ranks[1] != ranks[2]:
        return next(c for c in cards if c.rank == ranks[1])
    pair_rank = ranks[1]
    odd = next(c for c in cards if c.rank != pair_rank)
    if pair_rank <= 8 or odd.rank >= pair_rank - 3:  # 9s: the odd card if 6 or higher, ...
        return odd
    return next(c for c in cards if c.rank == pair_rank)  # the pair's first card alone


def player_alone(cards: list[Card]) -> Card:
    """The card the player strategy puts in the one-card hand ("house_way": true)."""
    ranks = sorted(c.rank for c in cards)
    if ranks[0] == ranks[2]:  # three of a kind: the first card alone, the others a pair
        return cards[0]
    if ranks[0] != ranks[1] and ranks[1] != ranks[2]:
        low, middle, top = ranks
        if low == 2 and ((middle == 3 and top >= 5) or (middle == 4 and top >= 12)):
            alone = low
        else:
            alone = middle
        return next(c for c in cards if c.rank == alone)
    pair_rank = ranks[1]
    odd = next(c for c in cards if c.rank != pair_rank)
    if odd.rank <= 4:
        split = pair_rank >= 11
    elif odd.rank <= 7:
        split = pair_rank >= 12
    elif odd.rank <= 9:
        split = pair_rank >= 13
    elif odd.rank <= 11:
        split = pair_rank == 14
    else:
        split = False
    if split:
        return next(c for c in cards if c.rank == pair_rank)
    return odd


def set_hand(cards: list[Card], alone: Card) -> list[Card]:
    """The two-card hand left when `alone` goes in the one-card hand, highest card first."""
    return sorted((c for c in cards if c is not alone), key=lambda c: c.rank, reverse=True)


def settle_pyramid(round_: dict[str, Any], deck: Deck) -> dict[str, Any]:
    named_paytable(round_, ("default",), "default")
    dealer_in = round_.get("dealer")
    if not isinstance(dealer_in, dict):
        raise Refused("card_count", "dealer: the dealer's cards are missing")
    if "draw" in dealer_in or "discard" in dealer_in:
        raise Refused("house_way", "the Pyramid dealer neither draws nor discards")
    dealer_cards = parse_cards(dealer_in.get("cards"), 3, "the dealer's cards")
    deck.take(dealer_cards, "the dealer's cards")
    dealer_one = dealer_alone(dealer_cards)
    dealer_two = set_hand(dealer_cards, dealer_one)
    dealer_two_value = two_card_value(dealer_two)
    dealer_out = {
        "cards": texts(dealer_cards),
        "action": "set",
        "two_card": texts(dealer_two),
        "one_card": dealer_one.text,
    }
    seats_out = []
    for number, seat in seats_of(round_):
        wagers = seat.get("wagers")
        if not isinstance(wagers, dict) or set(wagers) != {"ante"}:
            raise Refused("bad_wager", f"seat {number}: Pyramid takes exactly an ante")
        ante = parse_money(wagers["ante"], f"seat {number} ante")
        cards = parse_cards(seat.get("cards"), 3, f"seat {number}'s cards")
        deck.take(cards, f"seat {number}'s cards")
        if seat.get("house_way") is True:
            one = player_alone(cards)
        elif "one_card" in seat:
            chosen = parse_card(seat["one_card"])
            found = [c for c in cards if c.text == chosen.text]
            if not found:
                raise Refused("foul", f"seat {number}: {chosen.text} is not one of its cards")
            one = found[0]
        else:
            raise Refused("foul", f"seat {number}: neither one_card nor house_way")
        two = set_hand(cards, one)
        two_value = two_card_value(two)
        if two_value[0] == 0 and one.rank > two_value[1]:
            raise Refused("foul", f"seat {number}: {one.text} alone is above the two-card hand")
        wins = (two_value > dealer_two_value) + (one.rank > dealer_one.rank)
        result = {2: "win", 1: "push", 0: "lose"}[wins]
        seat_out = {
            "seat": number,
            "final": texts(cards),
            "two_card": texts(two),
            "one_card": one.text,
            "hand": "pair" if two_value[0] else "high_card",
        }
        seats_out.append(finish_seat(seat_out, [line("ante", ante, result)]))
    return {"game": "pyramid", "dealer": dealer_out, "seats": seats_out}


# --- the round ----------------------------------------------------------------------------


def named_paytable(round_: dict[str, Any], names: tuple[str, ...], default: str) -> str:
    paytable = round_.get("paytable", default)
    if paytable not in names:
        raise Refused("bad_paytable", f"paytable {paytable!r}: one of {', '.join(names)}")
    return str(paytable)


def seats_of(round_: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The seats, each with its number: 1 to 7, each once, at least one seat."""
    seats = round_.get("seats")
    if not isinstance(seats, list) or not seats:
        raise Refused("bad_seat", "the round has no seats")
    numbered = []
    used = set()
    for seat in seats:
        number = seat.get("seat") if isinstance(seat, dict) else None
        if type(number) is not int or not 1 <= number <= 7 or number in used:
            raise Refused("bad_seat", f"seat {number!r}: a number from 1 to 7, once each")
        used.add(number)
        numbered.append((number, seat))
    return numbered


GAMES = {
    "second_chance": settle_second_chance,
    "lowball": settle_lowball,
    "pyramid": settle_pyramid,
}


def settle(text: str) -> dict[str, Any]:
    """One input line's answer: its settlement, or `{"error": ...}`."""
    try:
        round_ = json.loads(text)
    except ValueError:
        return error("bad_json", "the line is not valid JSON")
    if not isinstance(round_, dict):
        return error("bad_json", "the line is not a JSON object")
    game = round_.get("game")
    settler = GAMES.get(game) if isinstance(game, str) else None
    if settler is None:
        return error("unknown_game", f"game {round_.get('game')!r} is not one of {list(GAMES)}")
    try:
        return settler(round_, Deck())
    except Refused as refused:
        return error(refused.code, refused.message)
    except (AttributeError, TypeError, KeyError, ValueError) as exc:
        return error("bad_json", f"the round is malformed: {exc}")


def error(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def main() -> int:
    refused = 0
    out = []
    for raw in sys.stdin.buffer:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            answer = error("bad_json", "the line is not UTF-8 text")
        else:
            if not text.strip():
                continue
            answer = settle(text)
        if "error" in answer:
            refused += 1
        out.append(json.dumps(answer))
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
    return 2 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
