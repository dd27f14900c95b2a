"""The card grid at the poker-room tables, in a real browser, and the taps a round takes.

- A Rhode Island Hold 'Em hand played with the grid only (no card typed): the hole cards, the
  flop and the turn tapped, a bet taken back with "Undo last action", a fold confirmed, the
  pot, the pots and the stacks in agreement; then the next hand called a misdeal (confirmed).
- A Mulligan game under High Risk with the grid only: the five cards of each seat and the 13
  burnt cards tapped at the deal, the draws after a mulligan tapped in draw order.
- A round of each house-banked game as `test_tablet.py` plays it, its taps counted.

Each card screen is saved at 1024x768 and 768x1024 (under the session's screenshot folder)
and checked there: no element wider than the viewport (no sideways scroll) and every button,
link, summary and tappable card at least 44 x 44 px. Every tap and every typed character of a
round is counted by the test itself (`Counter`); `docs/tablet.md` gives the counts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tables.games.mulligan.game import Variant
from tables.models import Hand
from tests.games.mulligan.floor import mulligan_table

from .test_tablet import expect, log_in, play_lowball, play_pyramid, play_second_chance
from .test_tablet_followed import SMALL_TARGETS

pytestmark = [pytest.mark.browser, pytest.mark.services]

SIZES = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}

# Any element wider than the viewport, or sticking out past its right edge.
TOO_WIDE = """
() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  document.querySelectorAll('body *').forEach((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    if (r.right > width + 0.5 || r.left < -0.5) {
      out.push(`${el.tagName}.${el.className} ${r.left.toFixed(0)}..${r.right.toFixed(0)}`);
    }
  });
  return out;
}
"""


class Counter:
    """The page as the test drives it, counting each tap (a click) and each typed character."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.typed = 0

    def tap(self, selector: str) -> None:
        self.taps += 1
        self.page.click(selector)

    def tap_on(self, locator: Any) -> None:
        self.taps += 1
        locator.click()

    def type(self, selector: str, text: str) -> None:
        self.typed += len(text)
        self.page.fill(selector, text)

    def cards(self, *codes: str) -> None:
        for code in codes:
            self.tap(f'.grid-panel:not([hidden]) .gc[data-card="{code}"]')

    def since(self, mark: tuple[int, int]) -> tuple[int, int]:
        return self.taps - mark[0], self.typed - mark[1]

    @property
    def mark(self) -> tuple[int, int]:
        return self.taps, self.typed


def screens(page: Any, folder: Path, name: str) -> None:
    """Save the screen at both sizes and check it there; back to the first size after."""
    first = page.viewport_size
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(folder / f"poker-grid-{name}-{size}.png"), full_page=True)
        assert page.evaluate(TOO_WIDE) == [], (name, size)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{name} at {size} scrolls sideways ({width}px)"
        assert page.evaluate(SMALL_TARGETS) == [], (name, size)
    page.set_viewport_size(first)


def grid_shown(page: Any) -> None:
    expect()(page.locator(".grid-panel:not([hidden])")).to_have_count(1)
    expect()(page.locator(".grid-panel:not([hidden]) .gc")).to_have_count(52)


def greyed(page: Any, *codes: str) -> None:
    for code in codes:
        expect()(page.locator(f'.gc[data-card="{code}"][data-used]')).to_be_disabled()


def ri_act(t: Counter, label: str) -> None:
    t.tap_on(t.page.locator("#action-form button.ri-action", has_text=label).first)


def board(page: Any) -> Any:
    return page.locator(".ri-board")


def stacks(page: Any) -> list[str]:
    return page.locator(".ri-player dd.stack").all_inner_texts()


@pytest.fixture
def tablet(new_page: Callable[..., Any]) -> Any:
    # The machine may be busy: a closed hand's report is rebuilt as its answer is sent.
    expect().set_options(timeout=20_000)
    page = new_page()
    page.set_viewport_size(SIZES["landscape"])
    log_in(page)
    return page


def test_a_rhode_island_hand_with_the_grid_only(tablet: Any, shots_dir: Path) -> None:
    page = tablet
    page.locator('article[data-table="RI-1"]').locator(
        "form button[type=submit], a.button"
    ).first.click()
    t = Counter(page)
    t.type("#id-seat-1-buy_in", "100")
    t.type("#id-seat-2-buy_in", "100")
    first_buy_ins = t.mark
    hand_start = t.mark
    t.tap("#buyins-form button[type=submit]")

    # The hole cards: the antes are in the pot and out of the stacks.
    expect()(page.locator("#hole-form")).to_contain_text("Antes are in ($10.00 in the pot)")
    expect()(board(page).locator("#pot")).to_have_text("$10.00")
    assert stacks(page) == ["$95.00", "$95.00"]
    grid_shown(page)
    screens(page, shots_dir, "ri-1-hole")
    t.cards("Ah", "Kc")  # seat 1's box, then seat 2's: the grid moves on
    expect()(page.locator("#id-hole-0")).to_have_value("Ah")
    expect()(page.locator("#id-hole-1")).to_have_value("Kc")
    t.tap("#hole-form button[type=submit]")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 1 to act")

    # A bet by mistake, taken back after its confirmation; then bet and call.
    ri_act(t, "Bet $10.00")
    expect()(board(page).locator("#pot")).to_have_text("$20.00")
    expect()(board(page)).to_contain_text("Main pot $10.00")
    expect()(board(page).locator("#round-bets")).to_contain_text("Bets this round $10.00")
    undo = t.mark
    t.tap("#undo")
    expect()(page.locator("#confirm-question")).to_contain_text("Take back: Seat 1 bets")
    t.tap("#confirm-yes")
    undo_taps = t.since(undo)
    expect()(page.locator("#action-form h2")).to_contain_text("seat 1 to act")
    expect()(board(page).locator("#pot")).to_have_text("$10.00")
    ri_act(t, "Bet $10.00")
    ri_act(t, "Call $10.00")

    # The flop: the hole cards are greyed on the grid.
    expect()(page.locator("#board-form h2")).to_have_text("Deal the flop")
    expect()(board(page).locator("#pot")).to_have_text("$30.00")
    expect()(board(page)).to_contain_text("Main pot $30.00")
    expect()(board(page).locator("#round-bets")).to_have_count(0)
    assert stacks(page) == ["$85.00", "$85.00"]
    grid_shown(page)
    greyed(page, "Ah", "Kc")
    screens(page, shots_dir, "ri-2-flop")
    t.cards("Qd")
    t.tap("#board-form button[type=submit]")
    ri_act(t, "Check")
    ri_act(t, "Check")

    # The turn: the flop is greyed too.
    expect()(page.locator("#board-form h2")).to_have_text("Deal the turn")
    greyed(page, "Ah", "Kc", "Qd")
    screens(page, shots_dir, "ri-3-turn")
    t.cards("2s")
    t.tap("#board-form button[type=submit]")
    ri_act(t, "Bet $20.00")
    ri_act(t, "Fold")
    expect()(page.locator("#confirm-question")).to_contain_text("Seat 2 folds")
    t.tap("#confirm-yes")
    expect()(page.locator("#finish-form h2")).to_contain_text("Hand over: seat 1 wins")
    t.tap("#finish-form button[type=submit]")
    expect()(page.locator("#buyins-form")).to_contain_text("The stacks after hand 1")
    hand = Hand.objects.get(table__name="RI-1", number=1)
    assert hand.status == Hand.Status.FINISHED
    assert hand.record["hole"] == ["Ah", "Kc"]
    assert (hand.record["flop"], hand.record["turn"]) == ("Qd", "2s")
    hand_taps, hand_typed = t.since(hand_start)
    buy_in_typed = first_buy_ins[1]
    assert hand_typed == 0  # no card typed: only the first hand's buy-ins were
    assert (hand_taps, undo_taps) == (19, (2, 0))  # 17 taps, and 2 for the undo

    # The next hand: the stacks are filled in; a misdeal before the flop, confirmed.
    second = t.mark
    t.tap("#buyins-form button[type=submit]")
    grid_shown(page)
    t.cards("3c", "4d")
    t.tap("#hole-form button[type=submit]")
    expect()(page.locator("#action-form h2")).to_contain_text("to act")
    t.tap("#hand-controls summary")
    t.type("#id-reason", "exposed")
    t.tap("#misdeal")
    expect()(page.locator("#confirm-question")).to_contain_text("Misdeal: exposed")
    t.tap("#confirm-yes")
    expect()(page.locator("#buyins-form")).to_contain_text("(a misdeal) are filled in")
    assert Hand.objects.get(table__name="RI-1", number=2).status == Hand.Status.MISDEAL
    assert t.since(second) == (7, len("exposed"))
    print(
        f"\nRhode Island: a hand {hand_taps} taps (the undo {undo_taps[0]} more), "
        f"buy-ins typed {buy_in_typed} characters at the first hand"
    )


MULLIGAN_DEAL = ("3d 4d 5d 6d 8s", "9c 9d 9h 7s 7c", "Ah Kh Qh Jh 2c")
MULLIGAN_BURN = "2s 3s 4s 5s 6s 9s Ts Js Qs Ks As 2d 7d"


def test_a_mulligan_game_with_the_grid_only(tablet: Any, shots_dir: Path) -> None:
    users = {u.username: u for u in get_user_model().objects.all()}
    table = mulligan_table(users, {Variant.HIGH_RISK}, sign_in=False)
    page = tablet
    page.goto("/tablet/")
    page.locator(f'article[data-table="{table.name}"]').locator(
        "form button[type=submit], a.button"
    ).first.click()
    t = Counter(page)
    for seat in (1, 2, 3):
        t.type(f"#id-seat-{seat}-buy_in", "20")
    game_start = t.mark
    t.tap("#buyins-form button[type=submit]")

    # The deal: five cards to each seat, then the 13 burnt cards, all tapped.
    expect()(page.locator("#deal-form")).to_be_visible()
    grid_shown(page)
    expect()(page.locator(".grid-hint")).to_contain_text("already in this game")
    screens(page, shots_dir, "mulligan-1-deal")
    deal = t.mark
    for cards in (*MULLIGAN_DEAL, MULLIGAN_BURN):
        t.cards(*cards.split())
    for p, cards in enumerate(MULLIGAN_DEAL):
        expect()(page.locator(f"#id-hand_{p}")).to_have_value(cards)
    expect()(page.locator("#id-burn")).to_have_value(MULLIGAN_BURN)
    screens(page, shots_dir, "mulligan-2-dealt")
    t.tap("#deal-form button[type=submit]")
    deal_taps = t.since(deal)[0]
    expect()(page.locator("p.headline")).to_contain_text("Turn 1: Seat 1 is the auctioneer")

    # Seat 1 auctions 8s; seats 2 and 3 offer; seat 1 mulligans: the draws tapped in order.
    t.tap_on(page.locator('#auction-form label.pick:has([data-card="8s"])'))
    t.tap("#auction-form button[type=submit]")
    for player, card in ((1, "7c"), (2, "2c")):
        form = page.locator(f"#offer-{player}")
        t.tap_on(form.locator(f'label.pick:has([data-card="{card}"])'))
        t.tap_on(form.locator("button[type=submit]"))
        expect()(page.locator(f"#offer-{player}")).to_have_count(0)
    expect()(page.locator("#mulligan-form .cardfield")).to_have_count(3)
    grid_shown(page)
    # every card out of the deck pile is greyed: the hands, the ring, the burn
    greyed(page, "3d", "9c", "Ah", "8s", "7c", "2c", "2s", "2d")
    screens(page, shots_dir, "mulligan-3-draws")
    t.cards("Tc", "Jc", "Qc")
    assert [page.locator(f"#id-draw_{p}").input_value() for p in range(3)] == ["Tc", "Jc", "Qc"]
    t.tap("#mulligan-form button[type=submit]")
    expect()(page.locator("p.headline")).to_contain_text("Turn 2: Seat 2 is the auctioneer")

    # Seats 2 and 3 fold (each confirmed): the game is over; the dealer closes it.
    for _ in range(2):
        t.tap("form:has(input[name=do][value=fold]) button")
        t.tap("#confirm-yes")
    expect()(page.locator("p.headline")).to_contain_text("The game is over")
    t.tap("#finish-form button[type=submit]")
    expect()(page.locator("#buyins-form")).to_be_visible()
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.FINISHED
    taps, typed = t.since(game_start)
    assert typed == 0  # no card typed
    # the deal: 15 cards, the 13 burnt (High Risk only) and its button
    assert (taps, deal_taps) == (45, 29)
    print(f"\nMulligan (High Risk): a game {taps} taps, the deal {deal_taps}")


class CountingPage:
    """A page whose clicks, fills and typing are counted (the house games' rounds as
    `test_tablet.py` plays them, some cards typed)."""

    def __init__(self, page: Any) -> None:
        self._page = page
        self.taps = 0
        self.typed = 0
        self.keyboard = self

    def click(self, selector: str, **kwargs: Any) -> None:
        self.taps += 1
        self._page.click(selector, **kwargs)

    def fill(self, selector: str, value: str, **kwargs: Any) -> None:
        self.typed += len(value)
        self._page.fill(selector, value, **kwargs)

    def type(self, text: str, **kwargs: Any) -> None:
        self.typed += len(text)
        self._page.keyboard.type(text, **kwargs)

    def press(self, key: str, **kwargs: Any) -> None:
        self.typed += 1
        self._page.keyboard.press(key, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)


@pytest.mark.parametrize(
    ("game", "play", "counted", "cards_typed"),
    [
        ("second_chance", play_second_chance, (24, 17), 6),
        ("lowball", play_lowball, (26, 0), 0),
        ("pyramid", play_pyramid, (15, 17), 6),
    ],
)
def test_the_taps_of_a_house_round(
    tablet: Any,
    game: str,
    play: Callable[[Any, Any], None],
    counted: tuple[int, int],
    cards_typed: int,
) -> None:
    """The round `test_tablet.py` plays, counted (its wagers filled field by field are left
    out: the rebet fills them in); it types some cards, each one tap on the grid instead."""
    page = CountingPage(tablet)
    play(page, lambda name: None)
    assert (page.taps, page.typed) == counted
    print(
        f"\n{game}: {page.taps} taps and {cards_typed} cards typed: "
        f"{page.taps + cards_typed} taps with the grid only"
    )
