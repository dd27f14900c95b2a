"""The sign-in page, throttled per client address as `/api/auth-token/` is.

Each sign-in posted counts, in the shared cache, against CASINO_API_SIGN_IN_RATE (20 a minute)
for the client's address (accounts.clientip: never a client-chosen X-Forwarded-For), in the
same window as the API's sign-ins: the page and the API together get one budget. Past it the
page answers 429 with Retry-After and checks no password (nothing counted toward any
account's lockout). Like every throttle it fails open when the cache cannot count.
"""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse

from .forms import SignInForm
from .throttles import SignInThrottle


def throttled_message(wait: float | None) -> str:
    seconds = max(1, math.ceil(wait)) if wait is not None else 60
    return (
        "Too many sign-ins from this device: no password was checked. "
        f"Try again in {seconds} second{'s' if seconds != 1 else ''}."
    )


class SignInView(LoginView):
    authentication_form = SignInForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        throttle = SignInThrottle()
        if throttle.allow_request(request, self):
            return super().post(request, *args, **kwargs)
        wait = throttle.wait()
        form = self.get_form_class()(request)  # unbound: its password is not checked
        context = self.get_context_data(form=form, refused=throttled_message(wait))
        response = self.render_to_response(context, status=429)
        response["Retry-After"] = str(max(1, math.ceil(wait)) if wait is not None else 60)
        return response
