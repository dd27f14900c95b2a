"""The sign-in forms, throttled per client address as `/api/auth-token/` is.

Each sign-in posted (the sign-in page's, the admin's) counts, in the shared cache, against
CASINO_API_SIGN_IN_RATE (20 a minute) for the client's address (accounts.clientip: never a
client-chosen X-Forwarded-For), in the same window as the API's sign-ins: the pages and the API
together get one budget. Past it the form answers 429 with Retry-After and checks no password
(nothing counted toward any account's lockout). Like every throttle it fails open when the
cache cannot count.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse

from .forms import SignInForm
from .throttles import SignInThrottle


def _refused(request: HttpRequest, view: Any) -> float | None:
    """None when this sign-in may go on (and is counted); else the seconds to wait."""
    throttle = SignInThrottle()
    if throttle.allow_request(request, view):
        return None
    wait = throttle.wait()
    return float(wait) if wait is not None else 60.0


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


def throttled_message(wait: float) -> str:
    seconds = _seconds(wait)
    return (
        "Too many sign-ins from this device: no password was checked. "
        f"Try again in {seconds} second{'s' if seconds != 1 else ''}."
    )


class SignInView(LoginView):
    authentication_form = SignInForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = _refused(request, self)
        if wait is None:
            return super().post(request, *args, **kwargs)
        form = self.get_form_class()(request)  # unbound: its password is not checked
        context = self.get_context_data(form=form, refused=throttled_message(wait))
        response = self.render_to_response(context, status=429)
        response["Retry-After"] = str(_seconds(wait))
        return response


def throttled_sign_ins(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Another sign-in form (the admin's) under the same limit."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            wait = _refused(request, None)
            if wait is not None:
                response = HttpResponse(
                    throttled_message(wait), status=429, content_type="text/plain; charset=utf-8"
                )
                response["Retry-After"] = str(_seconds(wait))
                return response
        return view(request, *args, **kwargs)

    return wrapped
