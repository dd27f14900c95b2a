"""API tokens are kept by their keys' digests, expire and are revoked on sign-out; every issue
and revocation is on the audit record, which binds the token's row."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from rest_framework.test import APIClient

from accounts.models import ApiToken, token_digest
from audit.models import AuditEvent
from audit.verify import verify_record

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
    token = ApiToken.objects.get(digest=token_digest(body["token"]))
    assert body["expires"] == (token.created + timedelta(hours=12)).isoformat().replace(
        "+00:00", "Z"
    )
    event = AuditEvent.objects.filter(kind="token.issued", actor_id=floor["pitboss"].pk).get()
    assert (event.object_type, event.object_id) == ("accounts.apitoken", str(token.pk))
    assert event.data["bound"]["accounts.apitoken"][str(token.pk)]["digest"] == token.digest


def test_the_key_is_not_kept_only_its_digest(floor: Any) -> None:
    key = get_token()["token"]
    assert len(key) == 40
    token = ApiToken.objects.get()
    assert token.digest == token_digest(key) != key
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_apitoken")
        assert not any(key in str(value) for value in cursor.fetchone())
    assert key not in str(list(AuditEvent.objects.values_list("data", flat=True)))


@override_settings(CASINO_TOKEN_HOURS=2)
def test_an_expired_token_is_refused_and_deleted_and_a_new_one_is_issued(floor: Any) -> None:
    key = get_token()["token"]
    assert with_token(key).get("/api/tables/").status_code == 200
    with override_settings(CASINO_TOKEN_HOURS=0):  # it is now past its time
        response = with_token(key).get("/api/tables/")
    assert response.status_code == 401
    assert response.json()["error"]["message"] == "token expired: get a new one"
    assert not ApiToken.objects.filter(digest=token_digest(key)).exists()
    event = AuditEvent.objects.filter(kind="token.revoked").get()
    assert event.data["reason"] == "expired" and event.data["username"] == "pitboss"
    assert event.data["bound"] == {"accounts.apitoken": {event.object_id: None}}
    fresh = get_token()["token"]
    assert fresh != key and with_token(fresh).get("/api/tables/").status_code == 200
    assert verify_record().problems == ()


def test_every_request_for_a_token_issues_a_new_key_and_revokes_the_expired(floor: Any) -> None:
    first = get_token()["token"]
    second = get_token()["token"]  # the first key is never shown again: a new one
    assert second != first
    for key in (first, second):
        assert with_token(key).get("/api/tables/").status_code == 200
    with override_settings(CASINO_TOKEN_HOURS=0):
        get_token()
    assert not ApiToken.objects.filter(digest__in=[token_digest(first), token_digest(second)])
    revoked = AuditEvent.objects.filter(kind="token.revoked")
    assert [e.data["reason"] for e in revoked] == ["expired", "expired"]
    assert verify_record().problems == ()


def test_signing_out_of_the_api_revokes_the_token(floor: Any) -> None:
    key = get_token()["token"]
    other = get_token()["token"]  # another device of the same person
    response = with_token(key).delete("/api/auth-token/")
    assert response.status_code == 200 and response.json() == {"revoked": 1}
    assert with_token(key).get("/api/tables/").status_code == 401
    assert with_token(other).get("/api/tables/").status_code == 200
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
    assert len(on_groups) == 1 and "accounts_apitoken" in on_groups[0], on_groups
    assert "audit_auditevent" in on_groups[0]  # the token's record, in the same statement
    pitboss.groups.remove(Group.objects.get(name="pit_boss"))
    pitboss.groups.add(Group.objects.create(name="pit_boss,admin"))
    assert client.get("/api/tables/").status_code == 403
    pitboss.groups.add(Group.objects.get(name="pit_boss"))
    assert client.get("/api/tables/").status_code == 200
