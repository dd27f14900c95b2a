"""The tablet flows of games that are not played in the banked steps: `tablet_flow` -> the view
that draws a table's page (the tablet's `table_page` has checked the dealer is signed in there).
A flow nobody wrote raises, rather than playing the table as another game."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from tables.games import GameDefinition
from tables.models import Table


def _flows() -> dict[str, Callable[[HttpRequest, Table], HttpResponse]]:
    from tables.views import mulligan

    return {"mulligan": mulligan.tablet_page}


def tablet_page(request: HttpRequest, table: Table, game: GameDefinition) -> HttpResponse:
    page = _flows().get(game.tablet_flow)
    if page is None:
        return game.tablet_page(request, table)  # type: ignore[no-any-return]
    return page(request, table)
