"""Each prepared read gives exactly what the queryset it stands for gives."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.models import Model

from accounts.authentication import _TOKEN, _token_query
from accounts.models import ApiToken
from audit.services import _HEAD, _head_query
from core.prepared import PreparedQuery
from core.roles import _ROLE_NAMES, _role_names_query
from tables.models import Round
from tables.services.rounds import _LOCKED_ROUND, _locked_round_query


def same_instance(got: Model | None, want: Model | None, related: tuple[str, ...] = ()) -> None:
    assert type(got) is type(want)
    if want is None:
        return
    assert got.__dict__.keys() - {"_state"} == want.__dict__.keys() - {"_state"}
    for name, value in want.__dict__.items():
        if name != "_state":
            assert getattr(got, name) == value, name
    assert got._state.db == want._state.db and got._state.adding is False
    for name in related:  # select_related: filled in, no further query
        assert got._meta.get_field(name).is_cached(got)
        same_instance(getattr(got, name), getattr(want, name))


def test_the_locked_round_with_its_table_dealer_version_and_session(settled, floor) -> None:
    dealer = floor["dealer"]
    with transaction.atomic():
        got = _LOCKED_ROUND.first(pk=settled.pk, dealer=dealer.pk)
        want = _locked_round_query(pk=settled.pk, dealer=dealer.pk).get()
        same_instance(got, want, ("table", "dealer", "paytable_version"))
        assert got.dealer_signed_in is True
        assert _LOCKED_ROUND.first(pk=settled.pk, dealer=floor["dealer2"].pk).dealer_signed_in in (
            False,
            0,
        )
        assert _LOCKED_ROUND.first(pk=10**9, dealer=dealer.pk) is None
        assert isinstance(got.entry, dict) and got.settled_at is not None


def test_the_token_with_its_user(floor) -> None:
    token, _key = ApiToken.objects.issue(floor["dealer"])
    got = _TOKEN.first(digest=token.digest)
    same_instance(got, _token_query(digest=token.digest).get(), ("user",))
    assert got.record is not None  # the token's event, read with it
    assert _TOKEN.first(digest="no such digest") is None


def test_the_role_names(floor) -> None:
    for user in floor["users"].values():
        assert sorted(_ROLE_NAMES.column(user=user.pk)) == sorted(_role_names_query(user=user.pk))


def test_the_chain_head(db) -> None:
    with transaction.atomic():
        same_instance(_HEAD.first(pk=1), _head_query(pk=1).get())


def test_a_placeholder_missing_from_the_sql_is_refused(db) -> None:
    missing = PreparedQuery(lambda pk, other: Round.objects.filter(pk=pk), pk=int, other=int)
    with pytest.raises(ValueError, match="other"):
        missing.first(pk=1, other=2)
    with pytest.raises(TypeError):
        _HEAD.first()


def test_the_locked_table_with_its_open_round_and_last_number(settled, floor) -> None:
    from tables.services.rounds import _LOCKED_TABLE, _locked_table_query

    table, dealer = floor["SC-1"], floor["dealer"]
    with transaction.atomic():
        got = _LOCKED_TABLE.first(pk=table.pk, dealer=dealer.pk)
        same_instance(
            got,
            _locked_table_query(pk=table.pk, dealer=dealer.pk).get(),
            ("meter", "paytable_version"),
        )
        assert got.last_number == settled.number and got.open_round_id is None
        assert got.dealer_signed_in and got.paytable_version_id == table.paytable_version_id


def test_the_round_as_stored_its_lines_and_the_idempotency_check(settled) -> None:
    from tables.api.representation import _LINES
    from tables.services.rounds import (
        _KEY_USED_ELSEWHERE,
        _ROUND_AS_STORED,
        _round_as_stored_query,
    )

    same_instance(
        _ROUND_AS_STORED.first(pk=settled.pk),
        _round_as_stored_query(pk=settled.pk).get(),
        ("table", "dealer", "paytable_version"),
    )
    lines = _LINES.all(round_id=settled.pk)
    assert [line.pk for line in lines] == [line.pk for line in settled.lines.all()]
    for got, want in zip(lines, settled.lines.all(), strict=True):
        same_instance(got, want)
    assert _KEY_USED_ELSEWHERE.column(key="no such key", pk=settled.pk) == []


def test_the_session_row(floor) -> None:
    from datetime import timedelta

    from django.contrib.sessions.models import Session
    from django.test import Client
    from django.utils import timezone

    from accounts.sessions import _SESSION, _session_query

    client = Client()
    assert client.login(username="dealer", password="demo")
    key = client.session.session_key
    now = timezone.now()
    same_instance(_SESSION.first(key=key, now=now), _session_query(key=key, now=now).get())
    later = now + timedelta(days=365)
    assert _SESSION.first(key=key, now=later) is None  # expired by then
    assert _session_query(key=key, now=later).first() is None
    assert _SESSION.first(key="no such key", now=now) is None
    assert Session.objects.filter(session_key=key).exists()


def test_the_user_with_their_roles(floor) -> None:
    from accounts.backends import LockoutModelBackend, _user_query
    from accounts.group_names import names
    from core.roles import Role, has_role, roles_of

    backend = LockoutModelBackend()
    for user in floor["users"].values():
        got = backend.get_user(user.pk)
        want = _user_query(pk=user.pk).get()
        assert sorted(names(want.role_names)) == sorted(_role_names_query(user=user.pk))
        del want.role_names
        roles = got.__dict__.pop("_role_names")  # read with the user: no statement of its own
        same_instance(got, want)
        assert sorted(roles) == sorted(_role_names_query(user=user.pk))
        got._role_names = roles
        fresh = type(user).objects.get(pk=user.pk)
        assert roles_of(got) == roles_of(fresh)
        assert all(has_role(got, role) == has_role(fresh, role) for role in Role)
    assert backend.get_user(10**9) is None


def test_the_tablets_reads(floor, settled) -> None:
    from tables import selectors
    from tables.models import DealerSession, Table

    table = Table.objects.get(pk=settled.table_id)
    dealer = floor["dealer"]
    mine = selectors.session_of(table.pk, dealer.pk)
    want = (
        DealerSession.objects.filter(table=table, dealer=dealer, ended_at__isnull=True)
        .select_related("table__paytable_version", "table__meter")
        .get()
    )
    same_instance(mine, want, ("table",))
    same_instance(mine.table, want.table, ("paytable_version", "meter"))
    assert selectors.session_of(table.pk, floor["dealer2"].pk) is None
    assert selectors.session_of(10**9, dealer.pk) is None
    assert selectors.session_of(2**64, dealer.pk) is None
    lowball = floor["LB-1"]
    for t in (table, lowball):
        same_instance(
            selectors.open_round(t),
            t.rounds.filter(status="open", corrects__isnull=True)
            .select_related("paytable_version")
            .first(),
        )
        same_instance(
            selectors.last_settled_round(t),
            t.rounds.filter(status="settled").order_by("-number").first(),
        )
        assert selectors.latest_round_state(t) == (
            t.rounds.filter(corrects__isnull=True)
            .order_by("-number")
            .values("pk", "status", "entry")
            .first()
        )
    assert selectors.last_wagers(table) == {
        s["seat"]: dict(s["wagers"]) for s in settled.entry["seats"]
    }
    assert selectors.last_wagers(lowball) == {}
    same_instance(selectors.round_at(table, settled.pk), Round.objects.get(pk=settled.pk))
    assert selectors.round_at(lowball, settled.pk) is None
    assert selectors.round_at(table, 2**70) is None
    assert selectors.round_at(table, None) is None


def test_a_round_open_at_the_table(floor) -> None:
    from tables import selectors
    from tables.services import rounds as svc
    from tables.services.sessions import dealer_sign_in

    table = floor["LB-1"]
    dealer_sign_in(dealer=floor["dealer"], table=table)
    svc.round_open(table=table, dealer=floor["dealer"], wagers={1: {"ante": "10"}})
    opened = selectors.open_round(table)
    same_instance(
        opened,
        table.rounds.filter(status="open").select_related("paytable_version").get(),
        ("paytable_version",),
    )
    assert selectors.latest_round_state(table)["pk"] == opened.pk
    assert selectors.last_settled_round(table) is None
    assert selectors.last_wagers(table) == {1: {"ante": "10.00"}} or selectors.last_wagers(
        table
    ) == {1: dict(opened.entry["seats"][0]["wagers"])}


def test_a_rounds_page_read(settled) -> None:
    from tables.views.tablet import _ROUND_PAGE

    related = ("table", "dealer", "approved_by", "paytable_version")
    same_instance(
        _ROUND_PAGE.first(pk=settled.pk),
        Round.objects.select_related(*related).get(pk=settled.pk),
        ("table", "dealer", "paytable_version"),
    )
    assert _ROUND_PAGE.first(pk=10**9) is None
