"""Helpers the test modules share: clients signed in, the API's answers and the admin's forms
and actions."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient


def person(name: str, *roles: str) -> Any:
    """A new account holding these roles (password "a long demo password")."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    user = get_user_model().objects.create_user(name, password="a long demo password")
    for role in roles:
        user.groups.add(Group.objects.get(name=role))
    return user


# --- the API ---------------------------------------------------------------------------------


def client_for(user: Any | None) -> APIClient:
    """A client signed in with a session (None: anonymous)."""
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content)
    return response.json()  # type: ignore[no-any-return]


def refused(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The error shape {"error": {"code", "message", "field"}} with this status (and code)."""
    assert response.status_code == status, (response.status_code, response.content)
    error = response.json()["error"]
    assert set(error) == {"code", "message", "field"} and error["message"]
    assert code is None or error["code"] == code, error
    return error  # type: ignore[no-any-return]


# --- the admin -------------------------------------------------------------------------------


def signed_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def form_errors(response: Any) -> dict[str, list[str]]:
    return dict(response.context["adminform"].form.errors)


def table_settings_approve_action(client: Any, version: Any) -> Any:
    """The table settings' changelist action approving a draft, as an admin posts it."""
    return client.post(
        reverse("admin:tables_tablesettingsversion_changelist"),
        {"action": "approve_drafts", "_selected_action": [version.pk], "index": 0},
        follow=True,
    )
