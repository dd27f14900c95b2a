"""Work a request starts that its answer need not wait for.

A settled round asks for its report's rebuild once its transaction commits. Sent from the
request (or, with no broker, run in it), the rebuild held the dealer's answer up: the payout
was on the record but not yet on the tablet. `after_response(fn)` inside a request runs `fn`
once the response has been written, when the server closes it (WSGI's `close()`, which every
server calls after the last byte, and Django's test client too); outside a request (a Celery
task, a management command, the shell) it runs `fn` at once.

The work runs in the same process and thread as the request, before Django's own end-of-request
housekeeping (it is one of the response's closers, which run before `request_finished`), so a
database connection it opens is tidied like the request's own. A failure is logged, never
raised: what was deferred must be safe to lose (a stale report's mark stays and the periodic
job rebuilds it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from functools import partial
from typing import Any

from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

Work = Callable[[], Any]

_pending: ContextVar[list[Work] | None] = ContextVar("after_response", default=None)


def _run(items: list[Work]) -> None:
    for fn in items:
        try:
            fn()
        except Exception:  # noqa: BLE001 - deferred work is safe to lose; say so and go on
            log.exception("work deferred until after the response failed: %r", fn)


def after_response(fn: Work) -> None:
    """Run `fn` after the current request's response is written; now, outside a request."""
    items = _pending.get()
    if items is None:
        fn()
    else:
        items.append(fn)


class AfterResponseMiddleware:
    """Collects the request's deferred work and hands it to the response to run on close."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        items: list[Work] = []
        token = _pending.set(items)
        try:
            response = self.get_response(request)
        except BaseException:
            _pending.reset(token)
            _run(items)  # no response to close: run it now
            raise
        _pending.reset(token)
        if items:
            # Django runs a response's closers in close(), before request_finished (Django's
            # own since 3.0: FileResponse closes its file this way).
            response._resource_closers.append(partial(_run, items))
        return response
