"""Who may use the dealer's pages, and where they are sent: shared by the tablet's house games
(`tablet`), the poker-room hands (`hands`) and the games' own pages (`game_pages`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache, wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import get_script_prefix, reverse

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
    return table_urls(table.pk)["table"]


# The tablet's addresses of a table, by the names its pages use (`urls.deal`...).
TABLE_URLS = {
    "table": "tablet:table",
    "open": "tablet:open",
    "deal": "tablet:deal",
    "decide": "tablet:decide",
    "dealer": "tablet:dealer",
    "settle": "tablet:settle",
    "approve": "tablet:approve",
    "cancel": "tablet:cancel",
    "back": "tablet:back",
    "watch": "tablet:watch",
    "chips": "accounting:tablet",
    "players": "players:tablet",
}


def table_urls(table_id: int) -> Mapping[str, str]:
    """Every address of the table's tablet pages and forms by name, and the tablet's sign-out
    (the table page draws up to a dozen; each `reverse` walks the URL patterns)."""
    return _addresses(get_script_prefix(), table_id)


@lru_cache(maxsize=1024)
def _addresses(prefix: str, table_id: int) -> Mapping[str, str]:
    """The addresses under the script prefix `prefix` (part of the key: `reverse` reads it)."""
    urls = {name: reverse(route, args=[table_id]) for name, route in TABLE_URLS.items()}
    urls["sign_out"] = reverse("tablet:sign_out")
    return urls
