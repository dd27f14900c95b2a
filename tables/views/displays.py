"""The players' display on its own screen: its sign-in with a table's display key, and the pit
boss's page that issues and revokes the keys.

A screen signed in with a display key holds a session with no account in it, only the key's id
and its table (`display_grant`): the games' player pages of that table
(`PlayerVsPlayerGame.player_pages`, served by `game_pages`) accept it while the key stands;
every other page and the API see an anonymous visitor and refuse (the sign-in page, 401/403).
Signing in with a key ends whatever account was signed in on that browser first, so a screen
never carries a dealer's or a pit boss's session.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.clientip import client_ip
from core.params import ascii_int
from core.roles import DISPLAY_KEEPERS, require
from tables import games, selectors
from tables.models import DisplayKey, Table
from tables.services import ServiceError
from tables.services.displays import (
    display_key_issue,
    display_key_revoke,
    display_opened,
    has_display,
)

GRANT = "display_grant"  # the session's key: {"key": <DisplayKey id>, "table": <Table id>}


def display_grant(request: HttpRequest, table: Table, page: str) -> bool | None:
    """Whether this request's display session may see `page` of `table`: True when its key
    stands and opens that page; False when its key no longer stands (revoked: the grant is
    dropped); None when it holds no display key, or one of another table, or the page is none
    of the players' (the visitor is as anonymous as any other)."""
    grant = request.session.get(GRANT)
    if not isinstance(grant, dict):
        return None
    key_id, table_id = grant.get("key"), grant.get("table")
    if not isinstance(key_id, int) or not isinstance(table_id, int):
        return None
    if not selectors.display_key_live(key_id, table_id):
        del request.session[GRANT]
        return False
    game = games.GAMES.get(table.game)
    if (
        table.pk == table_id
        and isinstance(game, games.PlayerVsPlayerGame)
        and page in game.player_pages
    ):
        return True
    return None


def display_address(table: Table) -> str:
    """Where a display key of `table` lands: the first of its game's player pages."""
    game = games.get(table.game)
    assert isinstance(game, games.PlayerVsPlayerGame) and game.player_pages
    return reverse(
        "tablet:game_page",
        kwargs={"table_id": table.pk, "game": game.name, "page": game.player_pages[0]},
    )


def to_sign_in(request: HttpRequest, message: str) -> HttpResponse:
    """A display whose key no longer stands: back to the display's sign-in (a refresh made by
    htmx is sent there whole, not swapped into the page)."""
    response: HttpResponse
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=403)
        response["HX-Redirect"] = reverse("display_sign_in")
        return response
    return render(request, "tablet/display_sign_in.html", {"error": message, "key": ""}, status=403)


@never_cache
@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest, key: str = "") -> HttpResponse:
    """The display's sign-in: the key typed (or its link followed), then one tap to open the
    table's display on this screen. GET changes nothing; POST signs the screen in."""
    if request.method == "GET":
        found = selectors.display_key_for(key) if key else None
        error = (
            "This display link is not in force: ask a pit boss for a new one."
            if (key and found is None)
            else ""
        )
        return render(
            request,
            "tablet/display_sign_in.html",
            {"key": key if found else "", "table": found.table if found else None, "error": error},
            status=403 if error else 200,
        )
    typed = str(request.POST.get("key", "")).strip().lower()
    found = selectors.display_key_for(typed)
    if found is None or not has_display(found.table):
        return render(
            request,
            "tablet/display_sign_in.html",
            {
                "key": "",
                "table": None,
                "error": "Key: no display key in force matches it; ask a pit boss for one.",
            },
            status=403,
        )
    if request.user.is_authenticated:
        logout(request)  # the screen keeps no staff session
    request.session.cycle_key()
    request.session[GRANT] = {"key": found.pk, "table": found.table_id}
    display_opened(key=found, remote=client_ip(request))
    return HttpResponseRedirect(display_address(found.table))


def _keys_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    tables = [t for t in Table.objects.filter(is_open=True).order_by("name") if has_display(t)]
    keys: dict[int, list[DisplayKey]] = {}
    for k in selectors.display_keys().filter(table__in=tables):
        keys.setdefault(k.table_id, []).append(k)
    rows = [
        {
            "table": t,
            "address": display_address(t),
            "live": [k for k in keys.get(t.pk, []) if k.active],
            "revoked": [k for k in keys.get(t.pk, []) if not k.active][:5],
        }
        for t in tables
    ]
    return {"rows": rows, **extra}


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def keys_page(request: HttpRequest) -> HttpResponse:
    """The pit boss's (or admin's) page of the tables' display keys: issue one (its link is
    shown once, here), revoke one."""
    try:
        require(request.user, DISPLAY_KEEPERS, "issue or revoke display keys")
    except PermissionDenied as err:
        return render(request, "tablet/forbidden.html", {"message": str(err)}, status=403)
    if request.method == "GET":
        return render(request, "tablet/display_keys.html", _keys_context(request))
    action = request.POST.get("do")
    try:
        if action == "issue":
            table = get_object_or_404(Table, pk=_id(request.POST.get("table"), "table"))
            row, key = display_key_issue(table=table, by=request.user)
            link = request.build_absolute_uri(reverse("display_sign_in_key", args=[key]))
            return render(
                request,
                "tablet/display_keys.html",
                _keys_context(request, issued={"table": table, "key": key, "link": link}),
            )
        if action == "revoke":
            row = get_object_or_404(DisplayKey, pk=_id(request.POST.get("key"), "key"))
            display_key_revoke(key=row, by=request.user)
            messages.success(request, f"The display key of {row.table} is revoked.")
            return redirect("tablet:display_keys")
    except ServiceError as err:
        return render(
            request, "tablet/display_keys.html", _keys_context(request, error=str(err)), status=400
        )
    return render(
        request,
        "tablet/display_keys.html",
        _keys_context(request, error="Choose issue or revoke."),
        status=400,
    )


def _id(value: Any, field: str) -> int:
    """The posted id of a table or a key: ASCII digits (`core.params.ascii_int`), else the
    form's error naming the field."""
    number = ascii_int(value)
    if number is None:
        what = "a table" if field == "table" else "a display key"
        raise ServiceError(f"{field}: choose {what} from the list", field=field)
    return number


__all__ = ["display_address", "display_grant", "keys_page", "sign_in", "to_sign_in"]
