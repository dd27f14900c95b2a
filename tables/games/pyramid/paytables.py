"""Pyramid Poker's paytable: one line, the odds a winning Ante is paid at (even money by
default, `docs/rules/pyramid.md`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tables.engine.paytable_types import Paytable, PaytableForm, build_paytable

from .game import NAME

FORM: Final = PaytableForm(NAME, {"ante": ("win",)})

NAMED: Final[Mapping[str, Paytable]] = {
    "default": build_paytable(FORM, "default", {"ante": {"win": 1}}),
}

DEFAULT: Final = "default"
