"""`/api/`: the API root, the links to every collection and to the schema and its documentation.
The floor's routes (tables.api.urls), the accounting's (accounting.api.urls) and rated play's
(players.api.urls) are mounted under the same prefix; this root names them all, so it lives
above them. Signed-in callers
only, as every API route (an anonymous request is counted by the throttles, then answered 401
in the API's error shape)."""

from __future__ import annotations

from rest_framework.routers import APIRootView

from accounts.throttles import CountAnonymousFirst

# What the root lists: its key in the answer, and the route's name.
LINKS = {
    "tables": "api-table-list",
    "rounds": "api-round-list",
    "hands": "api-hand-list",
    "paytable-versions": "api-paytable-version-list",
    "meters": "api-meter-list",
    "slips": "api-slip-list",
    "chip-denominations": "api-chip-list",
    "variance-alerts": "api-variance-alert-list",
    "reconciliation": "api-reconciliation",
    "players": "api-players",
    "cage-transactions": "api-cage-transaction-list",
    "auth-token": "api-auth-token",
    "schema": "api-schema",
    "docs": "api-docs",
}


class ApiRootView(CountAnonymousFirst, APIRootView):
    """The API root: each collection's address, the OpenAPI schema and the documentation."""

    api_root_dict = LINKS
    schema = None  # not an operation of the schema itself
