"""The dealer tablet in a real browser: a dealer signs in through the login page and plays a
round of each banked game by tapping the card grid and typing cards, checks the payouts shown
on the confirm step against the engine, and closes the round; a refused entry shows the
engine's message at its field. Each step is saved as a screenshot."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tables.display import amount
from tables.engine import contract
from tables.models import Round, SettlementLine, Table
from tables.selectors import engine_paytable, meter_config

pytestmark = [pytest.mark.browser, pytest.mark.services]

Shot = Callable[[str], None]

# The rounds played, in the settle contract's input form: the engine settles this same data
# to say what the page must show.
SECOND_CHANCE = {
    "game": "second_chance",
    "dealer": {"cards": ["Qd", "7h", "3s"], "draw": ["2c", "2d", "9c"]},
    "seats": [
        {"seat": 1, "wagers": {"ante": "10.00", "pair_plus": "5.00"}, "cards": ["Ah", "Ad", "7c"]},
        {
            "seat": 2,
            "wagers": {"ante": "25.00"},
            "cards": ["5c", "8d", "Js"],
            "mulligan": {"cards": ["8h", "9h", "Th"], "pair_plus": "5.00"},
        },
        {"seat": 3, "wagers": {"ante": "5.00"}, "cards": ["Jc", "6s", "4h"]},
        {"seat": 4, "wagers": {"ante": "5.00"}, "cards": ["2s", "2h", "9d"]},
    ],
}
LOWBALL = {
    "game": "lowball",
    "dealer": {"cards": ["5s", "5c", "Kh"], "discard": ["5c", "Kh"], "draw": ["8d", "9c"]},
    "seats": [
        {
            "seat": 1,
            "wagers": {"ante": "10.00", "bonus": "10.00", "progressive": "1.00"},
            "cards": ["Ah", "2d", "4c"],
        },
        {
            "seat": 2,
            "wagers": {"ante": "5.00", "bonus": "5.00"},
            "cards": ["Qh", "Qd", "6s"],
            "discard": ["Qh", "Qd"],
            "draw": ["6h", "7d"],
        },
        {"seat": 3, "wagers": {"ante": "5.00", "bonus": "5.00"}, "cards": ["Ac", "3d", "8h"]},
    ],
}
PYRAMID = {
    "game": "pyramid",
    "dealer": {"cards": ["Kc", "9d", "5h"]},
    "seats": [
        {"seat": 1, "wagers": {"ante": "10.00"}, "cards": ["Ah", "Qs", "7c"], "one_card": "Qs"},
        {"seat": 2, "wagers": {"ante": "20.00"}, "cards": ["4s", "4d", "2c"], "house_way": True},
        {"seat": 3, "wagers": {"ante": "5.00"}, "cards": ["8c", "6d", "3s"], "one_card": "3s"},
    ],
}


def expect() -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect


def engine_says(table_name: str, data: dict[str, Any]) -> dict[str, Any]:
    """The engine's settlement of `data` under the table's paytable and meter as they are now."""
    table = Table.objects.select_related("paytable_version", "meter").get(name=table_name)
    meter = meter_config(table.meter) if table.meter else None
    settled = contract.settle(data, paytable=engine_paytable(table.paytable_version), meter=meter)
    return contract.settlement_to_json(settled)


# --- steps a dealer takes ------------------------------------------------------------------


def log_in(page: Any, username: str = "dealer") -> None:
    page.goto("/accounts/login/?next=/tablet/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url("**/tablet/")


def sign_in_at(page: Any, table: str) -> None:
    card = page.locator(f'article[data-table="{table}"]')
    card.locator("form button[type=submit], a.button").first.click()
    expect()(page.locator(".t-head h1")).to_contain_text(table)


def at_step(page: Any, label: str) -> None:
    expect()(page.locator(".t-steps li.now")).to_have_text(label)


def tap(page: Any, *cards: str) -> None:
    for card in cards:
        page.click(f'.grid-panel .gc[data-card="{card}"]')


def place_wagers(page: Any, data: dict[str, Any]) -> None:
    """Fill every seat's wagers (clearing the rebet of seats not in `data`), then open."""
    wanted = {s["seat"]: s["wagers"] for s in data["seats"]}
    for field in page.locator("#wagers-form input[data-wager]").all():
        seat = int(field.get_attribute("name").split("-")[1])
        value = wanted.get(seat, {}).get(field.get_attribute("data-wager"), "")
        field.fill(value.removesuffix(".00"))
    for box in page.locator("#wagers-form input[type=checkbox]").all():
        seat = int(box.get_attribute("name").split("-")[1])
        box.set_checked("progressive" in wanted.get(seat, {}))


def open_round(page: Any) -> None:
    page.click("#wagers-form button[type=submit]")
    at_step(page, "Cards")


def confirm_matches_engine(page: Any, expected: dict[str, Any]) -> None:
    """Every line's net and every seat's total on the confirm step is the engine's."""
    for seat in expected["seats"]:
        box = page.locator(f'.seat-result[data-seat="{seat["seat"]}"]')
        for line in seat["lines"]:
            net = box.locator(f'tr[data-wager="{line["wager"]}"] .net')
            expect()(net).to_have_text(amount(line["net"], signed=True))
        expect()(box.locator(".seat-net")).to_have_text(amount(seat["net"], signed=True))
    assert page.locator(".seat-result").count() == len(expected["seats"])


def close_round(page: Any, table: str, expected: dict[str, Any], shot: Shot) -> None:
    page.click(".confirm-btn")
    expect()(page.locator("#next-round")).to_be_visible()
    shot("6-settled")
    round_ = Round.objects.filter(table__name=table).order_by("-number").first()
    assert round_ is not None and round_.status == Round.Status.SETTLED
    assert round_.settlement == expected
    stored = {
        (line.seat, line.wager): line.net_cents
        for line in SettlementLine.objects.filter(round=round_)
    }
    assert stored == {
        (s["seat"], ln["wager"]): int(ln["net"].replace(".", ""))
        for s in expected["seats"]
        for ln in s["lines"]
    }


# --- whole rounds ---------------------------------------------------------------------------


def play_second_chance(page: Any, shot: Shot) -> None:
    sign_in_at(page, "SC-1")
    place_wagers(page, SECOND_CHANCE)
    shot("1-wagers")
    open_round(page)
    tap(page, "Ah", "Ad", "7c", "5c", "8d", "Js")  # seat 1, then seat 2: the grid moves on
    page.fill("#id-seat-3-cards", "jc 6♠ 4H")  # typed, any spelling
    tap(page, "2s", "2h", "9d")  # seat 3 is full: the grid goes on to seat 4
    page.fill("#id-dealer-cards", "Qd 7h 3s")
    expect()(page.locator('.gc[data-card="Ah"]')).to_be_disabled()  # in use: greyed out
    shot("2-cards")
    page.click("#cards-form button[type=submit]")
    at_step(page, "Players")
    shot("3-decisions")
    page.click("#seat-1 form.stand button")
    expect()(page.locator("#seat-1")).to_have_class(re.compile(r"\bdecided\b"))
    expect()(page.locator(".grid-panel")).to_be_hidden()  # no card to enter until a mulligan
    page.click("#seat-2 details.mulligan summary")
    tap(page, "8h", "9h", "Th")  # into seat 2's mulligan hand
    page.fill("#id-seat-2-mulligan-pair_plus", "5")
    shot("3-mulligan")
    page.click("#seat-2 details.mulligan button[type=submit]")
    expect()(page.locator("#seat-2 .summary")).to_contain_text("Mulligan")
    page.click("#seat-3 form.stand button")
    expect()(page.locator("#seat-3 .summary")).to_contain_text("Stands")
    page.click("#seat-4 form.stand button")
    at_step(page, "House way")
    expect()(page.locator("#house-way")).to_have_text("Discard Q♦ 7♥ 3♠ and draw 3 cards")
    tap(page, "2c", "2d", "9c")
    shot("4-dealer")
    page.click("#dealer-form button[type=submit]")
    at_step(page, "Pay and close")
    expected = engine_says("SC-1", SECOND_CHANCE)
    confirm_matches_engine(page, expected)
    shot("5-confirm")
    close_round(page, "SC-1", expected, shot)


def play_lowball(page: Any, shot: Shot) -> None:
    sign_in_at(page, "LB-1")
    place_wagers(page, LOWBALL)
    expect()(page.locator('output[data-mirror-of="id-seat-1-ante"]')).to_have_text("$10.00")
    shot("1-wagers")
    open_round(page)
    tap(page, "Ah", "2d", "4c", "Qh", "Qd", "6s", "Ac", "3d", "8h", "5s", "5c", "Kh")
    shot("2-cards")
    page.click("#cards-form button[type=submit]")
    at_step(page, "Players")
    page.click("#seat-1 form.stand button")
    expect()(page.locator("#seat-1 .summary")).to_contain_text("Stands pat")
    page.click('#seat-2 label.pick:has(input[value="Qh"])')
    page.click('#seat-2 label.pick:has(input[value="Qd"])')
    tap(page, "6h", "7d")
    shot("3-decisions")
    page.click("#seat-2 form.draw button[type=submit]")
    expect()(page.locator("#seat-2 .summary")).to_contain_text("Discards Q♥ Q♦, draws 6♥ 7♦")
    page.click("#seat-3 form.stand button")
    at_step(page, "House way")
    expect()(page.locator("#house-way")).to_have_text("Discard K♥ and 5♠ or 5♣, then draw 2 cards")
    page.click('label.pick-set:has(input[value="5c Kh"])')  # an equivalent discard
    tap(page, "8d", "9c")
    shot("4-dealer")
    page.click("#dealer-form button[type=submit]")
    at_step(page, "Pay and close")
    expected = engine_says("LB-1", LOWBALL)
    confirm_matches_engine(page, expected)
    shot("5-confirm")
    close_round(page, "LB-1", expected, shot)


def play_pyramid(page: Any, shot: Shot) -> None:
    sign_in_at(page, "PY-1")
    place_wagers(page, PYRAMID)
    shot("1-wagers")
    open_round(page)
    page.fill("#id-seat-1-cards", "Ah Qs 7c")
    page.keyboard.press("Enter")  # Enter goes on to the next box
    expect()(page.locator("#id-seat-2-cards")).to_be_focused()
    page.keyboard.type("4s 4d 2c")
    tap(page, "8c", "6d", "3s", "Kc", "9d", "5h")
    shot("2-cards")
    page.click("#cards-form button[type=submit]")
    at_step(page, "Players")
    page.click('#seat-1 label.pick:has(input[value="Qs"])')
    expect()(page.locator('#seat-1 label.pick:has(input[value="Qs"]) .setting')).to_have_text(
        "A♥ 7♣ / Q♠"
    )
    shot("3-decisions")
    page.click("#seat-1 form.set button[type=submit]")
    expect()(page.locator("#seat-1 .summary")).to_contain_text("Set A♥ 7♣ / Q♠")
    page.click("#seat-2 form.house button")
    expect()(page.locator("#seat-2 .summary")).to_contain_text("Set by the house way: 4♠ 4♦ / 2♣")
    page.click('#seat-3 label.pick:has(input[value="3s"])')
    page.click("#seat-3 form.set button[type=submit]")
    at_step(page, "House way")
    expect()(page.locator("#house-way")).to_have_text("Set K♣ 5♥ / 9♦")
    shot("4-dealer")
    page.click("#dealer-form button[type=submit]")
    at_step(page, "Pay and close")
    expected = engine_says("PY-1", PYRAMID)
    confirm_matches_engine(page, expected)
    shot("5-confirm")
    close_round(page, "PY-1", expected, shot)


def shooter(page: Any, folder: Path, prefix: str) -> Shot:
    def shot(name: str) -> None:
        page.screenshot(path=str(folder / f"{prefix}-{name}.png"))

    return shot


@pytest.mark.parametrize(
    "game, play",
    [
        ("second_chance", play_second_chance),
        ("lowball", play_lowball),
        ("pyramid", play_pyramid),
    ],
)
def test_dealer_plays_a_round_and_is_shown_the_engines_payouts(
    page: Any, shots_dir: Path, game: str, play: Callable[[Any, Shot], None]
) -> None:
    log_in(page)
    play(page, shooter(page, shots_dir, game))
    page.click("#next-round")  # the next round's wagers are the last round's (rebet)
    at_step(page, "Wagers")
    data = {"second_chance": SECOND_CHANCE, "lowball": LOWBALL, "pyramid": PYRAMID}[game]
    expect()(page.locator("#id-seat-1-ante")).to_have_value(data["seats"][0]["wagers"]["ante"])


def test_a_duplicate_card_is_refused_at_its_field_and_nothing_is_saved(
    page: Any, shots_dir: Path
) -> None:
    log_in(page)
    sign_in_at(page, "SC-1")
    place_wagers(page, SECOND_CHANCE)
    open_round(page)
    page.fill("#id-seat-1-cards", "Ah Ad 7c")
    page.fill("#id-seat-2-cards", "Ah Kd 2c")  # the ace of hearts again
    page.fill("#id-seat-3-cards", "Jc 6s 4h")
    page.fill("#id-seat-4-cards", "2s 2h 9d")
    page.fill("#id-dealer-cards", "Qd 7h 3s")
    expect()(page.locator(".cardfield:has(#id-seat-2-cards) .pc.dup")).to_have_text("A♥")
    page.click("#cards-form button[type=submit]")
    error = page.locator("#err-seat-2-cards")
    expect()(error).to_have_text("Ah in seat 2's cards is already in the round (seat 1's cards)")
    expect()(page.locator("#id-seat-2-cards")).to_have_value("Ah Kd 2c")  # the input is kept
    expect()(page.locator("#id-dealer-cards")).to_have_value("Qd 7h 3s")
    at_step(page, "Cards")
    page.screenshot(path=str(shots_dir / "refused-duplicate-card.png"), full_page=True)
    assert Round.objects.get(table__name="SC-1").entry["dealer"] == {}  # nothing saved


def test_a_lowball_round_on_a_phone(new_page: Callable[..., Any], shots_dir: Path) -> None:
    """The same round on a 390x844 phone: the grid wraps to seven columns and stays usable."""
    page = new_page(phone=True)
    log_in(page)
    play_lowball(page, shooter(page, shots_dir, "phone-lowball"))
    page.click("#next-round")
    at_step(page, "Wagers")
    assert page.locator(".grid-panel").count() == 0  # no cards to enter before the deal


def test_the_pages_work_without_javascript(new_page: Callable[..., Any], shots_dir: Path) -> None:
    """Progressive enhancement: with JavaScript off, cards are typed and every form posts."""
    page = new_page(javascript=False)
    log_in(page)
    sign_in_at(page, "LB-1")
    place_wagers(page, LOWBALL)
    page.click("#wagers-form button[type=submit]")
    at_step(page, "Cards")
    expect()(page.locator(".grid-panel")).to_be_hidden()  # the grid needs JavaScript
    for seat in LOWBALL["seats"]:
        page.fill(f"#id-seat-{seat['seat']}-cards", " ".join(seat["cards"]))
    page.fill("#id-dealer-cards", " ".join(LOWBALL["dealer"]["cards"]))
    page.click("#cards-form button[type=submit]")
    at_step(page, "Players")
    page.click("#seat-1 form.stand button")
    page.check('#seat-2 input[value="Qh"]', force=True)
    page.check('#seat-2 input[value="Qd"]', force=True)
    page.fill("#id-seat-2-draw", "6h 7d")
    page.click("#seat-2 form.draw button[type=submit]")
    page.click("#seat-3 form.stand button")
    at_step(page, "House way")
    page.check('input[name="dealer-discard"][value="5c Kh"]')
    page.fill("#id-dealer-draw", "8d 9c")
    page.click("#dealer-form button[type=submit]")
    at_step(page, "Pay and close")
    expected = engine_says("LB-1", LOWBALL)
    confirm_matches_engine(page, expected)
    page.screenshot(path=str(shots_dir / "no-javascript-confirm.png"))
    close_round(page, "LB-1", expected, lambda name: None)
