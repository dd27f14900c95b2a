"""A game's own pages beside the tablet (`PlayerVsPlayerGame.pages`, e.g. the display the dealer
turns to the players): `/tablet/table/<id>/<game>/<page>/`, for the dealer signed in at the
table and the floor's oversight, and (the game's player pages) for the table's display screen
signed in with a display key (tables.views.displays). Every page a screen faces the players with
is drawn without the site's navigation (templates/tablet/display_base.html). The page shows the
table's hand in play, else its last finished one, as the game builds it (`page_context`); it
refreshes itself at the table's address, so it follows the table from one game to the next.
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
from tables.views import displays
from tables.views.access import my_table


@require_GET
def game_page(request: HttpRequest, table_id: int, game: str, page: str) -> HttpResponse:
    """404 for a page the table's game does not have; 403 for anyone else than the dealer signed
    in at the table, the floor's oversight and, on the game's player pages, a screen signed in
    with the table's display key (`displays.display_grant`)."""
    if not request.user.is_authenticated:
        grant = None
        if displays.GRANT in request.session:
            table = get_object_or_404(Table, pk=table_id)
            grant = displays.display_grant(request, table, page)
        if grant is False:
            return displays.to_sign_in(
                request, "This display's key is no longer in force: ask a pit boss for a new one."
            )
        if grant is None:
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
    if request.user.is_authenticated and not has_any_role(request.user, OVERSIGHT):
        try:
            my_table(request, table_id)
        except PermissionDenied as err:
            return render(request, "tablet/forbidden.html", {"message": str(err)}, status=403)
    hand = selectors.open_hand(table) or selectors.last_hand(table)
    if hand is not None and hand.status in (Hand.Status.VOIDED, Hand.Status.MISDEAL):
        hand = None  # a game called off shows nothing: its cards are going back in the deck
    seats = [p.seat for p in hand.players.order_by("position")] if hand is not None else []
    record = hand.record if hand is not None else None
    ctx: dict[str, Any] = {"table": table, **played.page_context(page, record, seats)}
    return render(request, template, ctx)


__all__ = ["game_page"]
