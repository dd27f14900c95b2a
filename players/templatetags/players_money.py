"""The players' pages' money and time, as the floor says them."""

from __future__ import annotations

from typing import Any

from django import template

from core.money import dollars as money

register = template.Library()


@register.filter
def dollars(cents: Any) -> str:
    return money(cents)


@register.filter
def duration(seconds: Any) -> str:
    """`3725` -> `"1 h 02 min"`, `300` -> `"5 min"`."""
    total = int(seconds or 0)
    hours, minutes = divmod(total // 60, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
