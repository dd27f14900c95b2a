"""Who may use the dealer's pages, and where they are sent: shared by the tablet's house games
(`tablet`), the poker-room hands (`hands`) and the games' own pages (`game_pages`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from core.roles import DEALERS, Role, has_role, require
from tables import selectors
from tables.models import Table

View = Callable[..., HttpResponse]


# --- access --------------------------------------------------------------------------------


def forbidden(request: HttpRequest, message: str) -> HttpResponse:
    dealer = has_role(request.user, Role.DEALER)  # a dealer elsewhere: back to the tables
    return render(
        request, "tablet/forbidden.html", {"message": message, "perms_dealer": dealer}, status=403
    )


def dealer_only(view: View) -> View:
    """Signed-in dealers only (403 for every other role); a PermissionDenied becomes a 403 page."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            require(
                request.user,
                DEALERS,
                "use the tablet",
                message="The dealer tablet is for dealers: sign in with a dealer's login.",
            )
        except PermissionDenied as err:
            return forbidden(request, str(err))
        try:
            return view(request, *args, **kwargs)
        except PermissionDenied as err:
            return forbidden(request, str(err) or "You may not do that here.")

    return login_required(wrapped)


def my_table(request: HttpRequest, table_id: int) -> Table:
    """The table, if the requesting dealer is signed in at it; PermissionDenied otherwise."""
    mine = selectors.session_of(table_id, request.user.pk)
    if mine is not None:  # the usual case, in one statement
        return mine.table
    table = get_object_or_404(
        Table.objects.select_related("paytable_version", "meter"), pk=table_id
    )
    session = selectors.open_session_at(table)
    if session is None or session.dealer_id != request.user.pk:
        who = (
            f"{session.dealer.get_username()} is signed in there"
            if session
            else "nobody is signed in there"
        )
        raise PermissionDenied(
            f"You are not signed in at {table} ({who}). "
            "Sign in at a table from the tablet's first page."
        )
    return table


def see_other(url: str) -> HttpResponse:
    return HttpResponseRedirect(url, status=303)


def table_url(table: Table) -> str:
    return reverse("tablet:table", args=[table.pk])
