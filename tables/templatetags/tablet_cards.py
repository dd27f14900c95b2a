"""The tablet's cards in its pages: `{{ c|card_face }}`, `{{ c|card_face:"big" }}` draw a card
(`tables.display.card`) as `tablet/_card.html` does, without an include per card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from tables import display

register = template.Library()


@register.filter
def card_face(c: Mapping[str, Any], size: str = "") -> SafeString:
    return mark_safe(display.card_face(c, big=bool(size)))  # noqa: S308  (escaped there)
