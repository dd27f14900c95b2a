"""The cash write path's reads compiled once give what their querysets give: the patron by
number and by card through a merge, the patron's day locked with its open CTRs, the patron as
it is now."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from compliance import services
from compliance.merge import patron_merge
from compliance.models import PatronDay
from tests.compliance.conftest import buy_in, described, identify, today
from tests.test_prepared import same_instance


def test_the_patron_by_number_and_card_through_its_merge(cash: dict[str, Any]) -> None:
    source, target = described(cash), identify(cash, described(cash))
    patron_merge(
        merged=source.number, into=target.number, by=cash["compliance"], reason="the same man"
    )
    got = services._BY_NUMBER.first(number=source.number)
    want = services.Patron.objects.select_related("merged_into__into").get(pk=source.pk)
    same_instance(got, want)
    assert services._through_merge(got) == target
    assert services._BY_NUMBER.first(number="P999999") is None
    assert services._BY_CARD.first(card="987654321") is None


def test_the_day_locked_with_its_open_ctrs(cash: dict[str, Any]) -> None:
    patron = identify(cash, described(cash))
    buy_in(cash, "SC-1", "10500.00", seat=1, patron=patron.number)
    with transaction.atomic():
        got = services._DAY_LOCKED.first(patron=patron.pk, day=today())
        same_instance(got, services._day_locked_query(patron.pk, today()).get())
        assert bool(got.ctr_in) and not got.ctr_out
        assert got == PatronDay.objects.get(patron=patron, gaming_day=today())
    now = services._patron_now(patron.pk)
    assert now.identified and now.merged_into is None and now.player_status is None


def test_the_patron_now_sees_a_merge_and_no_identification(cash: dict[str, Any]) -> None:
    source, target = described(cash), identify(cash, described(cash))
    assert not services._patron_now(source.pk).identified
    patron_merge(
        merged=source.number, into=target.number, by=cash["compliance"], reason="the same man"
    )
    assert services._patron_now(source.pk).merged_into == target.number
