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
