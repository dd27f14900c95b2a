"""API tokens expire and are revoked on sign-out; every issue and revocation is audited."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from audit.models import AuditEvent

pytestmark = pytest.mark.django_db


def get_token(username: str = "pitboss") -> dict[str, Any]:
    response = APIClient().post(
        "/api/auth-token/", {"username": username, "password": "demo"}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()  # type: ignore[no-any-return]


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_token_says_when_it_expires(floor: Any) -> None:
    body = get_token()
    token = Token.objects.get(key=body["token"])
    assert body["expires"] == (token.created + timedelta(hours=12)).isoformat().replace(
        "+00:00", "Z"
    )
    assert AuditEvent.objects.filter(kind="token.issued", actor_id=floor["pitboss"].pk).exists()


@override_settings(CASINO_TOKEN_HOURS=2)
def test_an_expired_token_is_refused_and_deleted_and_a_new_one_is_issued(floor: Any) -> None:
    key = get_token()["token"]
    assert with_token(key).get("/api/tables/").status_code == 200
    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(hours=2, seconds=1))
    response = with_token(key).get("/api/tables/")
    assert response.status_code == 401
    assert response.json()["error"]["message"] == "token expired: get a new one"
    assert not Token.objects.filter(key=key).exists()
    event = AuditEvent.objects.filter(kind="token.revoked").get()
    assert event.data["reason"] == "expired" and event.data["username"] == "pitboss"
    fresh = get_token()["token"]
    assert fresh != key and with_token(fresh).get("/api/tables/").status_code == 200


def test_an_expired_token_is_replaced_when_asked_for_again(floor: Any) -> None:
    key = get_token()["token"]
    assert get_token()["token"] == key  # still valid: the same token
    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(days=1))
    assert get_token()["token"] != key


def test_signing_out_of_the_api_revokes_the_token(floor: Any) -> None:
    key = get_token()["token"]
    response = with_token(key).delete("/api/auth-token/")
    assert response.status_code == 200 and response.json() == {"revoked": 1}
    assert with_token(key).get("/api/tables/").status_code == 401
    event = AuditEvent.objects.filter(kind="token.revoked").get()
    assert event.actor_id == floor["pitboss"].pk and event.data["reason"] == "signed out"
    assert APIClient().delete("/api/auth-token/").status_code == 401


def test_signing_out_of_the_site_revokes_the_users_tokens(floor: Any) -> None:
    key = get_token("dealer")["token"]
    browser = Client()
    assert browser.login(username="dealer", password="demo")
    assert browser.post("/accounts/logout/").status_code == 302
    assert with_token(key).get("/api/tables/").status_code == 401
    assert AuditEvent.objects.filter(kind="token.revoked", data__reason="signed out").exists()


def test_a_token_request_reads_the_users_roles_in_the_tokens_statement(floor: Any) -> None:
    """One statement authenticates and names the roles (issue 16); a role taken away counts
    from the next request on, and a group whose name merely contains a role's is no role."""
    from django.contrib.auth.models import Group
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    pitboss = floor["pitboss"]
    client = with_token(get_token()["token"])
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/tables/").status_code == 200  # the floor's roles only
    on_groups = [q["sql"] for q in captured.captured_queries if "auth_group" in q["sql"]]
    assert len(on_groups) == 1 and "authtoken_token" in on_groups[0], on_groups
    pitboss.groups.remove(Group.objects.get(name="pit_boss"))
    pitboss.groups.add(Group.objects.create(name="pit_boss,admin"))
    assert client.get("/api/tables/").status_code == 403
    pitboss.groups.add(Group.objects.get(name="pit_boss"))
    assert client.get("/api/tables/").status_code == 200
