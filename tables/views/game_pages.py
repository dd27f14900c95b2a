"""A game's own pages beside the tablet (`PlayerVsPlayerGame.pages`, e.g. the display the dealer
turns to the players): `/tablet/table/<id>/<game>/<page>/`, for the dealer signed in at the
table and the floor's oversight. The page shows the table's hand in play, else its last
finished one, as the game builds it (`page_context`); it refreshes itself.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from core.roles import OVERSIGHT, has_any_role
from tables import games, selectors
from tables.models import Hand, Table
from tables.views.access import my_table


@require_GET
def game_page(request: HttpRequest, table_id: int, game: str, page: str) -> HttpResponse:
    """404 for a page the table's game does not have; 403 for anyone else than the dealer signed
    in at the table and the floor's oversight."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = get_object_or_404(Table, pk=table_id)
    played = games.get(table.game)
    template = (
        played.pages.get(page)
        if isinstance(played, games.PlayerVsPlayerGame) and played.name == game
        else None
    )
    if template is None:
        raise Http404(f"{table} has no page {game}/{page}")
    if not has_any_role(request.user, OVERSIGHT):
        try:
            my_table(request, table_id)
        except PermissionDenied as err:
            return render(request, "tablet/forbidden.html", {"message": str(err)}, status=403)
    hand = selectors.open_hand(table) or selectors.last_hand(table)
    if hand is not None and hand.status == Hand.Status.VOIDED:
        hand = None
    seats = [p.seat for p in hand.players.order_by("position")] if hand is not None else []
    record = hand.record if hand is not None else None
    ctx: dict[str, Any] = {"table": table, **played.page_context(page, record, seats)}
    return render(request, template, ctx)


__all__ = ["game_page"]
