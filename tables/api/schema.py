"""The OpenAPI schema's operations, each with every error it can answer, in the API's one error
shape (`ErrorSerializer`): what a view declares (`extend_schema`), and what the site answers
around it for any operation, which a view cannot see:

- 400 anywhere: a query value with a NUL character or a whole number beyond 64 bits
  (`accounts.middleware.RequestGuardMiddleware`), a body that is not JSON or repeats a key;
- 401 where the operation takes credentials, 403 where a role or sign-in is required;
- 404 on an object's route and on a list's page past its end;
- 406 for an `Accept` the API cannot answer, 415 for a body that is not JSON;
- 409 on every write (two requests at once: the database refused the second);
- 413 for a body over CASINO_MAX_BODY_BYTES, 429 where throttled, 503 when the database is
  busy or out of reach (both with `Retry-After`).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework.permissions import AllowAny

from .serializers import ErrorSerializer

DESCRIBED = {
    400: "Refused: the message names the field, seat, card or wager; nothing was changed.",
    401: "No credentials (send a session cookie or `Authorization: Token <key>`).",
    403: "The caller's role may not do this (recorded in the audit trail).",
    404: "No such object (or not visible to the caller).",
    406: "The `Accept` header asks for a type the API does not answer (it answers JSON).",
    409: "Conflict with the round's or table's state (e.g. already settled).",
    413: "The request body is larger than the API takes (CASINO_MAX_BODY_BYTES); nothing changed.",
    415: "The body is not JSON (`Content-Type: application/json`); nothing was changed.",
    429: "Too many requests: wait the seconds of `Retry-After`.",
    503: "The database is busy or out of reach: nothing was saved; try again after `Retry-After`.",
}
# Described where the site, not the view, gives them.
AROUND = {
    400: "A query value or the body cannot be taken (a NUL character, a number beyond 64 bits, "
    "JSON that is malformed or repeats a key): the message names it; nothing was changed.",
    404: "No such object, or a page past the list's end.",
    409: "Another request changed this at the same moment: nothing was saved; try again.",
}
RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 1},
        "description": "Seconds to wait before trying again.",
    }
}
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BODIES = frozenset({"POST", "PUT", "PATCH"})


class ApiAutoSchema(AutoSchema):
    def _error_statuses(self) -> list[int]:
        view: Any = self.view
        statuses = [400, 406, 413, 503]
        permissions = view.get_permissions()
        open_to_all = all(isinstance(p, AllowAny) for p in permissions)
        if view.get_authenticators() or not open_to_all:
            statuses.append(401)
        if not open_to_all:
            statuses.append(403)
        if "{" in self.path or (self._is_list_view() and self._get_paginator() is not None):
            statuses.append(404)
        if self.method in WRITES:
            statuses.append(409)
        if self.method in BODIES:
            statuses.append(415)
        if view.get_throttles():
            statuses.append(429)
        return sorted(statuses)

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for status in self._error_statuses():
            code = str(status)
            if code not in responses:
                described = AROUND.get(status, DESCRIBED[status])
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, description=described),
                    code,
                    direction=direction,
                )
            if status in (429, 503):
                responses[code].setdefault("headers", {}).update(RETRY_AFTER)
        return dict(sorted(responses.items()))
