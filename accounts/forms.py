"""The sign-in form: a locked account is told so (and to ask security), without its password
being checked."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm

from .lockout import is_locked

LOCKED_MESSAGE = "This account is locked after repeated failed sign-ins: ask security to unlock it."


class SignInForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "Your username and password didn't match. Please try again.",
    }

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username and is_locked(username):
            raise forms.ValidationError(LOCKED_MESSAGE, code="locked")
        return super().clean()
