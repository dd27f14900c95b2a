"""The markup the tablet builds in Python is the markup its templates drew: a card's face
(`card_face`, as `tablet/_card.html`) and the card grid (`tables.display.grid`, as the grid's
loop over every card did)."""

from __future__ import annotations

from django.template import Context, Template

from tables import display

# The grid's rows as the template drew them, card by card.
GRID_LOOP = (
    '{% for row in grid %}<div class="grid-row" data-suit="{{ row.suit }}" '
    'aria-label="{{ row.name }}">{% for c in row.cards %}<button type="button" '
    'class="gc{% if c.red %} red{% endif %}" data-card="{{ c.code }}" title="{{ c.title }}"'
    '{% if c.used %} disabled data-used="1"{% endif %}>{{ c.label }}</button>{% endfor %}</div>\n'
    "    {% endfor %}"
)


def grid_rows(used: set[str]) -> list[dict[str, object]]:
    rows = []
    for suit in display.GRID_SUITS:
        cards = []
        for rank in display.GRID_RANKS:
            c = display.card(rank + suit)
            c["used"] = c["code"] in used
            cards.append(c)
        rows.append({"suit": suit, "name": display.SUIT_NAME[suit], "cards": cards})
    return rows


def test_the_grid_is_the_templates_loop() -> None:
    for used in (set(), {"Ah", "Td", "2c", "Ks", "9h"}, {r + s for r in "AKQ" for s in "shdc"}):
        want = Template(GRID_LOOP).render(Context({"grid": grid_rows(used)}))
        assert str(display.grid(used)) == want
        assert Template("{{ grid }}").render(Context({"grid": display.grid(used)})) == want


def test_a_cards_face_is_the_card_template() -> None:
    include = Template('{% include "tablet/_card.html" %}')
    big = Template('{% include "tablet/_card.html" with big=1 %}')
    face = Template("{% load tablet_cards %}{{ c|card_face }}")
    big_face = Template('{% load tablet_cards %}{{ c|card_face:"big" }}')
    codes = [r + s for r in display.GRID_RANKS for s in display.GRID_SUITS]
    for c in [display.card(code) for code in codes] + display.cards('10h <b>&"x"</b> A♥'):
        assert face.render(Context({"c": c})) == include.render(Context({"c": c}))
        assert big_face.render(Context({"c": c})) == big.render(Context({"c": c}))
