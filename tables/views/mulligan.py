"""The players' table display of a Mulligan table: the page the dealer turns to the players.

It is built from the table's view of the game only (`tables.games.mulligan.view.TABLE`, through
`tables.games.mulligan.pages.display`), in which a card the players may not see is `None`: it
never shows a Secret Offer, and shows hands only under Open Hands (and at the end, when every
player reveals). It shows the game in progress, else the table's last finished game, and
refreshes itself. The dealer plays the game on the PvP tablet page (`tables.views.hands`).
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
from tables.games.mulligan import Mulligan, pages
from tables.games.mulligan.play import from_record
from tables.models import Hand, Table
from tables.views.access import my_table


@require_GET
def display(request: HttpRequest, table_id: int) -> HttpResponse:
    """The dealer signed in at the table, and the floor's oversight, may open it."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = get_object_or_404(Table, pk=table_id)
    if not isinstance(games.get(table.game), Mulligan):
        raise Http404(f"{table} does not play Mulligan")
    if not has_any_role(request.user, OVERSIGHT):
        try:
            my_table(request, table_id)
        except PermissionDenied as err:
            return render(request, "tablet/forbidden.html", {"message": str(err)}, status=403)
    hand = selectors.open_hand(table) or selectors.last_hand(table)
    if hand is not None and hand.status == Hand.Status.VOIDED:
        hand = None
    rebuilt = from_record(hand.record) if hand is not None else None
    ctx: dict[str, Any] = {"table": table, "g": None}
    if hand is not None and rebuilt is not None:
        seats = [p.seat for p in hand.players.order_by("position")]
        ctx["g"] = pages.display(rebuilt[1], seats)
    return render(request, "games/mulligan/display.html", ctx)


__all__ = ["display"]
