"""A large `settle` input for proving that a change leaves the output byte-for-byte the same.

    .venv/bin/python benchmarks/settle_corpus.py OUT.jsonl [--rounds N] [--seed S]

Writes (in a seeded, shuffled order):

- `--rounds` random legal rounds (`tables.engine.simulate.random_round`): the three games, every
  seat count (random 1-7 and each of 1..7), every shipped paytable (named, omitted, and
  overrides of each), and each named player strategy now and then;
- lowball rounds built to hit the progressive (A-2-4 first hands for the dealer and several
  seats: jackpots shared equally and in seat order, with caps, rates and awards set);
- a few thousand mutated rounds that must be refused, or that use the rarer spellings the
  contract accepts: bad and oddly spelled cards, duplicate cards, bad wagers (negative, zero,
  floats, too many decimals, booleans), a bonus that differs, a raise given by hand, bad seats,
  bad and overridden paytables, bad progressive settings, house-way breaches, pyramid fouls,
  unknown games, lines that are not JSON or not UTF-8, blank lines, CRLF endings.

Compare the command's output before and after a change with `cmp`:

    .venv/bin/python manage.py settle < OUT.jsonl > before.out; echo $? >> before.out
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tables.engine.simulate import GAMES, PAYTABLES, random_round  # noqa: E402
from tables.engine.strategies import STRATEGY_NAMES  # noqa: E402

Round = dict[str, Any]

OVERRIDES: dict[str, list[object]] = {
    "second_chance": [
        {"base": "default", "lines": {"ante": {"straight": "2"}}},
        {"base": "default", "lines": {"pair_plus": {"straight": "5", "pair": "3/2"}}},
        {"lines": {"high_card": "1"}},
        {"base": "default", "lines": {"three_of_a_kind": "5"}},
        {"base": "default", "lines": {"straight": "5"}},  # ambiguous: bad_paytable
        {"base": "default", "lines": {"ante": {"pair": "1/2"}}},  # below even money
        {"base": "default", "lines": {"ante": {"nope": "1"}}},
        {"base": "default", "lines": "x"},
        {"base": "nope"},
        {"base": "default", "lines": {"pair_plus": {"flush": "3 to 2"}}},
        {"base": "default", "lines": {"pair_plus": {"flush": "7:3"}}},
        {"base": "default", "lines": {"pair_plus": {"flush": "2.5"}}},
        {"base": "default", "lines": {"pair_plus": {"flush": "1/0"}}},
        {"base": "default", "lines": {"pair_plus": {"flush": 0}}},
        {"base": "default", "lines": {"pair_plus": {"flush": True}}},
        {"base": "default", "lines": {"pair_plus": {"flush": 4.5}}},
    ],
    "lowball": [
        {"base": "2", "lines": {"a34": "7"}},
        {"base": "3", "lines": {"five_high": "5/2", "seven_high": "1"}},
        {"lines": {"a24_one_colour": 25}},
        {"base": "1", "lines": {"bonus": {"six_high": "3"}}},
        {"base": "1", "lines": {"four_high": "3"}},
        {"base": "4"},
        {"base": 2, "lines": {}},
        {"base": "1", "lines": {"a34": "-1"}},
        {"base": "1", "lines": {"a34": "one"}},
    ],
    "pyramid": [
        {"base": "default", "lines": {"win": "3/2"}},
        {"lines": {"win": 2}},
        {"base": "default", "lines": {"pair": "2"}},
        {"base": "default", "lines": {"ante": {"win": "0.95"}}},
    ],
}
BAD_NAMED = ["nope", "0", 1, 2, None, True, 3.0, "", [], "DEFAULT", " 1"]

CARD_SPELLINGS = ["A♥", "ah", "AH", "10h", "10H", "tD", " Ks", "Qs ", "q♠", "2♧", "J♢", "9♡", "5♤"]
BAD_CARDS = ["Xx", "1h", "", "Ahh", 12, None, True, ["Ah"], {"c": "Ah"}, "11h", "Z♥", "é", "A h"]
BAD_AMOUNTS: list[object] = [
    "-5.00",
    "0",
    "0.00",
    5.5,
    10.0,
    "abc",
    True,
    False,
    "10.001",
    "１０",
    "1e3",
    "",
    " 7.5 ",
    "7.",
    ".5",
    "5.5",
    10,
    0,
    -3,
    "+5",
    "1000000000000",
    "999999999999.99",
    [],
    {},
]


def _cards_in(round_: Round) -> list[tuple[dict[str, Any], str, int]]:
    """Every (container, key, index) holding a card in the round."""
    found: list[tuple[dict[str, Any], str, int]] = []
    dealer = round_.get("dealer", {})
    for key in ("cards", "draw", "discard"):
        for i in range(len(dealer.get(key, []) or [])):
            found.append((dealer, key, i))
    for seat in round_.get("seats", []):
        for key in ("cards", "draw", "discard"):
            for i in range(len(seat.get(key, []) or [])):
                found.append((seat, key, i))
        mulligan = seat.get("mulligan")
        if isinstance(mulligan, dict):
            for i in range(len(mulligan.get("cards", []))):
                found.append((mulligan, "cards", i))
    return found


def _set_card(rng: random.Random, round_: Round, value: object) -> None:
    places = _cards_in(round_)
    holder, key, i = rng.choice(places)
    holder[key][i] = value


def m_bad_card(rng: random.Random, r: Round) -> None:
    _set_card(rng, r, rng.choice(BAD_CARDS))


def m_spelling(rng: random.Random, r: Round) -> None:
    holder, key, i = rng.choice(_cards_in(r))
    card = holder[key][i]
    rank, suit = card[0], card[1]
    spelled = rng.choice(
        [
            card.lower(),
            card.upper(),
            ("10" if rank == "T" else rank) + suit,
            rank + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[suit],
            f" {card} ",
        ]
    )
    holder[key][i] = spelled
    if key == "cards" and "one_card" in holder and holder["one_card"] == card:
        holder["one_card"] = spelled if rng.random() < 0.5 else card


def m_cards_as_string(rng: random.Random, r: Round) -> None:
    holder, key, _ = rng.choice(_cards_in(r))
    sep = rng.choice([" ", ",", ", "])
    holder[key] = sep.join(holder[key])


def m_duplicate(rng: random.Random, r: Round) -> None:
    places = _cards_in(r)
    (h1, k1, i1), (h2, k2, i2) = rng.sample(places, 2) if len(places) > 1 else (places[0],) * 2
    h2[k2][i2] = h1[k1][i1]


def m_card_count(rng: random.Random, r: Round) -> None:
    holder, key, _ = rng.choice(_cards_in(r))
    if rng.random() < 0.5 and len(holder[key]) > 0:
        holder[key].pop()
    else:
        holder[key].append(rng.choice(["2c", "3d", "4h", "5s"]))


def m_cards_shape(rng: random.Random, r: Round) -> None:
    target = rng.choice([r.get("dealer", {})] + r["seats"])
    target["cards"] = rng.choice([None, 5, {"a": 1}, [], "", True])
    if target["cards"] is None and rng.random() < 0.5:
        del target["cards"]


def m_wager(rng: random.Random, r: Round) -> None:
    seat = rng.choice(r["seats"])
    name = rng.choice(list(seat["wagers"]) + ["raise", "pair_plus", "nope", "mulligan_pair_plus"])
    value = rng.choice(BAD_AMOUNTS)
    if r["game"] == "lowball" and name in ("ante", "bonus") and rng.random() < 0.5:
        seat["wagers"]["ante"] = seat["wagers"]["bonus"] = value
    else:
        seat["wagers"][name] = value


def m_drop_wager(rng: random.Random, r: Round) -> None:
    seat = rng.choice(r["seats"])
    if rng.random() < 0.3:
        seat["wagers"] = rng.choice([None, [], "10.00", 5])
        if seat["wagers"] is None and rng.random() < 0.5:
            del seat["wagers"]
    elif seat["wagers"]:
        del seat["wagers"][rng.choice(list(seat["wagers"]))]


def m_mulligan(rng: random.Random, r: Round) -> None:
    seat = rng.choice(r["seats"])
    choice = rng.random()
    if "mulligan" in seat and choice < 0.3:
        seat["mulligan"]["raise"] = seat["wagers"]["ante"]
    elif "mulligan" in seat and choice < 0.5:
        seat["mulligan"]["pair_plus"] = rng.choice(BAD_AMOUNTS)
    elif choice < 0.7:
        seat["mulligan"] = rng.choice([None, [], "Ah Kd", {"cards": None}, {"pair_plus": "5.00"}])
    else:
        seat["wagers"]["mulligan_pair_plus"] = rng.choice(["5.00", "1.00", "0"])


def m_seat(rng: random.Random, r: Round) -> None:
    choice = rng.randrange(9)
    seats = r["seats"]
    if choice == 0:
        r["seats"] = []
    elif choice == 1:
        r["seats"] = rng.choice([None, {}, "1", 3])
        if r["seats"] is None and rng.random() < 0.5:
            del r["seats"]
    elif choice == 2:
        seats[-1]["seat"] = seats[0]["seat"]
    elif choice == 3:
        rng.choice(seats)["seat"] = rng.choice([0, 8, -1, 99, "1", True, 1.0, None])
    elif choice == 4:
        del rng.choice(seats)["seat"]
    elif choice == 5:
        seats.append(rng.choice([None, 3, "seat", []]))
    elif choice == 6:
        rng.shuffle(seats)  # seats out of order: legal, reported in the order given
    elif choice == 7:
        seats.reverse()
    else:
        rng.choice(seats)["extra"] = {"ignored": [1, 2, 3]}


def m_paytable(rng: random.Random, r: Round) -> None:
    if rng.random() < 0.6:
        r["paytable"] = copy.deepcopy(rng.choice(OVERRIDES[r["game"]]))
    else:
        r["paytable"] = rng.choice(BAD_NAMED)


def m_game(rng: random.Random, r: Round) -> None:
    choice = rng.random()
    if choice < 0.2:
        del r["game"]
    else:
        r["game"] = rng.choice(
            ["poker", "Second_Chance", "LOWBALL", 5, None, True, "", "rhode_island", "mulligan"]
            + [g for g in GAMES if g != r["game"]]  # a round of one game named as another
        )


def m_dealer(rng: random.Random, r: Round) -> None:
    dealer = r["dealer"]
    choice = rng.randrange(8)
    if choice == 0:
        r["dealer"] = rng.choice([None, [], "Ah Kd 2c", 7])
        if r["dealer"] is None and rng.random() < 0.5:
            del r["dealer"]
    elif choice == 1:
        dealer["draw"] = rng.choice([["2c", "3d", "4h"], ["2c"], [], None, ["2c", "3d"]])
    elif choice == 2:
        dealer.pop("draw", None)
    elif choice == 3:
        dealer["discard"] = rng.choice([[], dealer["cards"][:1], dealer["cards"][:2], ["2c"]])
    elif choice == 4:
        dealer["discard"] = list(dealer["cards"])
    elif choice == 5:
        dealer["draw"] = (dealer.get("draw") or []) + ["Kc"]
    elif choice == 6:
        dealer["discard"] = rng.choice([None, "Ah", 5])
    else:
        dealer["cards"] = dealer["cards"][:2]


def m_lowball_seat(rng: random.Random, r: Round) -> None:
    if r["game"] != "lowball":
        return m_wager(rng, r)
    seat = rng.choice(r["seats"])
    choice = rng.randrange(6)
    if choice == 0:
        seat["discard"] = list(seat["cards"])
        seat["draw"] = ["2c", "3d", "4h"]
    elif choice == 1:
        seat["discard"] = ["Ks"] if "Ks" not in seat["cards"] else ["Kh"]
        seat["draw"] = ["2c"]
    elif choice == 2:
        seat["discard"] = seat["cards"][:1] * 2
        seat["draw"] = ["2c", "3d"]
    elif choice == 3:
        seat["draw"] = (seat.get("draw") or []) + ["2c"]
    elif choice == 4:
        seat["wagers"]["bonus"] = "1.00" if seat["wagers"]["ante"] != "1.00" else "2.00"
    else:
        seat["wagers"]["progressive"] = rng.choice(["2.00", "1.00", "1", "0.50", "0", 1])
    return None


def m_pyramid_seat(rng: random.Random, r: Round) -> None:
    if r["game"] != "pyramid":
        return m_dealer(rng, r)
    seat = rng.choice(r["seats"])
    choice = rng.randrange(6)
    if choice == 0:
        seat["one_card"] = max(seat["cards"], key=lambda c: "23456789TJQKA".index(c[0]))
        seat.pop("house_way", None)
    elif choice == 1:
        seat["one_card"] = "2c" if "2c" not in seat["cards"] else "2d"
        seat.pop("house_way", None)
    elif choice == 2:
        seat["house_way"] = True
        seat["one_card"] = seat["cards"][0]
    elif choice == 3:
        seat.pop("house_way", None)
        seat.pop("one_card", None)
    elif choice == 4:
        seat.pop("one_card", None)
        seat["house_way"] = rng.choice([False, 1, "yes", None])
    else:
        seat["one_card"] = rng.choice(BAD_CARDS + CARD_SPELLINGS)
        seat.pop("house_way", None)
    return None


def m_progressive(rng: random.Random, r: Round) -> None:
    if r["game"] != "lowball":
        r["progressive"] = {"meter": "100.00"}  # ignored by the other games
        return
    p = r.setdefault("progressive", {})
    choice = rng.randrange(14)
    if choice == 0:
        p["rate"] = rng.choice(["1.5", "abc", "-0.1", "1", "0", "0.333", 0, 1, 0.2, "1/3", " 0.1 "])
    elif choice == 1:
        p["bogus"] = 1
    elif choice == 2:
        p["awards"] = rng.choice(
            [
                {"jackpot": "5.00"},
                {"six_high": "1.00"},
                {"five_high": "-1"},
                {"five_high": "0"},
                {"one_colour": "500.00", "two_colour": "100.00"},
                [],
                None,
                {"four_high": 25},
            ]
        )
    elif choice == 3:
        p["cap"] = rng.choice(["50000.00", "10.00", "0", "abc", None, "25000.01", "26000.00"])
    elif choice == 4:
        p["split"] = rng.choice(["seat_order", "equal", "x", None, 1])
    elif choice == 5:
        p["meter"] = rng.choice(["-1", "0", "0.00", "abc", 5, "1e9", "99999.99"])
    elif choice == 6:
        p["reset"] = rng.choice(["-1", "0", "abc", "25000.00", "30000.00"])
    elif choice == 7:
        p["wager"] = rng.choice(["2.00", "0", "-1", "abc", "0.50"])
    elif choice == 8:
        r["progressive"] = rng.choice([None, [], "on", 5])
    elif choice == 9:
        p["meter"] = "0.01"
        p["rate"] = "0.99"
    else:
        for seat in r["seats"]:
            seat["wagers"]["progressive"] = p.get("wager", "1.00")


MUTATIONS: list[Callable[[random.Random, Round], None]] = [
    m_bad_card,
    m_spelling,
    m_spelling,
    m_cards_as_string,
    m_duplicate,
    m_card_count,
    m_cards_shape,
    m_wager,
    m_wager,
    m_drop_wager,
    m_mulligan,
    m_seat,
    m_paytable,
    m_paytable,
    m_game,
    m_dealer,
    m_lowball_seat,
    m_pyramid_seat,
    m_progressive,
    m_progressive,
]

A24 = [("Ac", "2d", "4h"), ("Ad", "2h", "4s"), ("Ah", "2s", "4c"), ("As", "2c", "4d")]


def jackpot_round(rng: random.Random) -> Round:
    """A lowball round where the dealer and some seats start with A-2-4 (jackpots, awards)."""
    n_seats = rng.randint(1, 3)
    hands = rng.sample(A24, n_seats + 1)
    if rng.random() < 0.3:  # a suited A-2-4 is a flush, not a jackpot hand
        hands[0] = ("Ac", "2c", "4c") if "Ac" not in sum(hands[1:], ()) else hands[0]
    used = {c for h in hands for c in h}
    deck = [r + s for r in "3567TJQK" for s in "cdhs" if r + s not in used]
    rng.shuffle(deck)
    seats = []
    numbers = sorted(rng.sample(range(1, 8), n_seats))
    for n, hand in zip(numbers, hands[1:], strict=True):
        ante = rng.choice(["5.00", "3.33", "10.00"])
        seat: dict[str, Any] = {
            "seat": n,
            "wagers": {"ante": ante, "bonus": ante, "progressive": "1.00"},
            "cards": list(hand),
        }
        if rng.random() < 0.3:
            seat["wagers"].pop("progressive")
        seats.append(seat)
    if rng.random() < 0.5:  # a non-jackpot seat that may win a fixed award
        hand = [deck.pop() for _ in range(3)]
        n = next(i for i in range(1, 8) if i not in numbers)
        seats.append(
            {
                "seat": n,
                "wagers": {"ante": "1.00", "bonus": "1.00", "progressive": "1.00"},
                "cards": hand,
                "discard": hand[:1],
                "draw": [deck.pop()],
            }
        )
    progressive: dict[str, Any] = {
        "meter": rng.choice(["25000.00", "10000.01", "12345.67", "0.03"]),
        "reset": rng.choice(["10000.00", "0.00", "1000.00"]),
        "rate": rng.choice(["0.20", "0.15", "0.33"]),
        "split": rng.choice(["equal", "seat_order"]),
    }
    if rng.random() < 0.3:
        progressive["cap"] = rng.choice(["25000.00", "25000.05", "30000.00"])
    if rng.random() < 0.3:
        progressive["awards"] = {"one_colour": "250.00", "five_high": "4.00"}
    if rng.random() < 0.2:
        del progressive["reset"]
    round_: Round = {
        "game": "lowball",
        "paytable": rng.choice(["1", "2", "3"]),
        "dealer": {"cards": list(hands[0])},
        "seats": seats,
    }
    if rng.random() < 0.8:
        round_["progressive"] = progressive
    return round_


def not_json(rng: random.Random) -> bytes:
    options = [
        b"not json",
        b"{",
        b"[]",
        b"null",
        b"42",
        b'"a string"',
        b"true",
        b'{"game": "pyramid",}',
        b"\xff\xfe{}",
        b"\xc3\x28",
        "\ufeff{}".encode(),
        b"[" * 5000 + b"]" * 5000,
        b'{"game": NaN}',
        b'{"game": "pyramid"} {"game": "pyramid"}',
        b"{}",
        b'{"game": "lowball", "seats": Infinity}',
        '{"game": "π"}'.encode(),
        b"\x00",
    ]
    return rng.choice(options)


def generate(seed: int, rounds: int) -> list[bytes]:
    rng = random.Random(seed)
    lines: list[bytes] = []

    def dump(round_: object) -> bytes:
        ensure_ascii = rng.random() < 0.7
        sort_keys = rng.random() < 0.1
        return json.dumps(round_, ensure_ascii=ensure_ascii, sort_keys=sort_keys).encode()

    legal: list[Round] = []
    for i in range(rounds):
        game = GAMES[i % len(GAMES)]
        seats = None if rng.random() < 0.5 else rng.randint(1, 7)
        paytable = None
        if rng.random() < 0.5:
            paytable = rng.choice(PAYTABLES[game])
        strategy = rng.choice(STRATEGY_NAMES) if rng.random() < 0.1 else None
        round_ = random_round(rng, game, seats=seats, paytable=paytable, strategy=strategy)
        if rng.random() < 0.02:
            round_["paytable"] = copy.deepcopy(rng.choice(OVERRIDES[game][:3]))
        legal.append(round_)
        lines.append(dump(round_))
    for _ in range(max(rounds // 100, 50)):
        lines.append(dump(jackpot_round(rng)))
    for _ in range(max(rounds // 25, 200)):
        round_ = copy.deepcopy(rng.choice(legal))
        for _ in range(1 if rng.random() < 0.8 else 2):
            # an earlier mutation may have left nothing to mutate: keep what there is
            with contextlib.suppress(KeyError, IndexError, TypeError, AttributeError, ValueError):
                rng.choice(MUTATIONS)(rng, round_)
        lines.append(dump(round_))
    for _ in range(max(rounds // 200, 30)):
        lines.append(not_json(rng))
    for _ in range(max(rounds // 500, 20)):
        lines.append(rng.choice([b"", b"   ", b"\t", b" \r"]))
    rng.shuffle(lines)
    return [line + (b"\r\n" if rng.random() < 0.01 else b"\n") for line in lines]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rounds", type=int, default=100_000, help="legal rounds (100000)")
    parser.add_argument("--seed", type=int, default=16, help="seed (16)")
    args = parser.parse_args(argv)
    lines = generate(args.seed, args.rounds)
    args.out.write_bytes(b"".join(lines))
    print(f"{len(lines):,} lines written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
