"""A paytable version's theoretical figures (issue 14): computed by a Celery job when the version
is approved (in-process, and by a real worker on PostgreSQL and Redis), stored with it once and
never changed, recorded on the audit chain, caught up when the broker was down, and shown in
the admin beside its lines (a draft's beside the version in use)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import DatabaseError, transaction
from django.test import Client
from django.urls import reverse

from audit.kinds import EventKind
from audit.models import AuditEvent
from tables import games
from tables.models import PaytableEdge, PaytableVersion
from tables.services.figures import compute_missing_figures, paytable_figures_compute
from tables.services.paytables import paytable_approve, paytable_draft
from tables.tasks import compute_paytable_figures
from tests.reports.test_worker_integration import start_worker, wait_until, worker_env

__all__ = ["worker_env"]  # the fixture, shared with the reports' worker tests

PYRAMID_LIMITS = {"ante": {"min_cents": 500, "max_cents": 50000}}


def pyramid_draft(floor: dict[str, Any], name: str = "house", win: str = "1") -> PaytableVersion:
    lines = games.banked("pyramid").named_paytables()["default"].as_data()
    lines = {wager: {**odds, "win": win} for wager, odds in lines.items()}
    return paytable_draft(
        author=floor["admin"], game="pyramid", name=name, lines=lines, limits=PYRAMID_LIMITS
    )


def figure_events() -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(kind=EventKind.PAYTABLE_FIGURES))


@pytest.mark.django_db
def test_approving_a_version_computes_its_figures_in_process(
    floor: dict[str, Any], eager_celery: Any, django_capture_on_commit_callbacks: Any
) -> None:
    draft = pyramid_draft(floor)
    assert not draft.edges.exists()  # a draft has none
    with django_capture_on_commit_callbacks(execute=True):
        version = paytable_approve(version=draft, approver=floor["admin2"])
        assert not version.edges.exists()  # not before the approval is committed
    (edge,) = version.edges.all()
    assert edge.strategy == "optimal" and edge.method == PaytableEdge.Method.EXACT
    (ante,) = edge.figures["wagers"]
    assert ante["method"] == "exact" and ante["house_edge"]["exact"]
    assert ante["house_edge"]["per_initial_wager"] == "0.0387357234"  # the rules' table, 1 to 1
    assert edge.figures["strategy"]["name"] == "optimal"
    assert float(edge.figures["seat_covariance"]["wagers"]["ante"]["covariance"]) > 0.1
    (event,) = figure_events()
    assert event.object_id == str(version.pk) and event.actor_name == "system"
    assert event.data["strategy"] == "optimal" and event.data["method"] == "exact"
    assert event.data["wagers"]["ante"]["house_edge"] == "0.0387357234"


@pytest.mark.django_db
def test_a_mixed_version_records_each_wagers_method(floor: dict[str, Any]) -> None:
    (edge,) = paytable_figures_compute(version_id=floor["SC-1"].paytable_version_id, seed=3)
    assert edge.method == PaytableEdge.Method.MIXED
    methods = {w["wager"]: w["method"] for w in edge.figures["wagers"]}
    assert methods == {
        "ante_raise": "monte_carlo",
        "pair_plus": "exact",
        "mulligan_pair_plus": "exact",
    }
    pair_plus = next(w for w in edge.figures["wagers"] if w["wager"] == "pair_plus")
    assert (
        pair_plus["house_edge"]["exact"]["per_initial_wager"] == "402/5525"
    )  # 1,608 / 22,100: 7.2760%
    assert edge.figures["seed"] == 3


@pytest.mark.django_db
def test_the_job_is_idempotent_and_the_figures_never_change(floor: dict[str, Any]) -> None:
    version = floor["PY-1"].paytable_version
    assert compute_paytable_figures.apply(args=[version.pk]).get() == 1
    before = list(PaytableEdge.objects.values())
    for _ in range(2):  # a duplicate delivery, a retry
        assert compute_paytable_figures.apply(args=[version.pk]).get() == 0
    assert list(PaytableEdge.objects.values()) == before and len(figure_events()) == 1
    edge = version.edges.get()
    with pytest.raises(DatabaseError), transaction.atomic():
        PaytableEdge.objects.filter(pk=edge.pk).update(figures={"wagers": []})
    with pytest.raises(DatabaseError), transaction.atomic():
        PaytableEdge.objects.filter(pk=edge.pk).delete()
    assert list(PaytableEdge.objects.values()) == before
    with pytest.raises(Exception, match="paytable_edge_once|UNIQUE|unique"), transaction.atomic():
        PaytableEdge.objects.create(
            version=version, strategy="optimal", method="exact", figures={"wagers": []}
        )


@pytest.mark.django_db
def test_no_figures_for_a_draft_or_a_version_that_is_gone(floor: dict[str, Any]) -> None:
    draft = pyramid_draft(floor)
    assert paytable_figures_compute(version_id=draft.pk) == []
    assert compute_paytable_figures.apply(args=[10**9]).get() == 0
    assert not PaytableEdge.objects.exists()


@pytest.mark.django_db
def test_the_catch_up_computes_what_the_broker_never_took(
    floor: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    draft = pyramid_draft(floor)
    with (
        mock.patch("tables.services.figures.enqueue", return_value=False) as sent,
        django_capture_on_commit_callbacks(execute=True),
    ):
        version = paytable_approve(version=draft, approver=floor["admin2"])
    sent.assert_called_once()
    assert not version.edges.exists()
    # The demo's three versions and this one, computed once each.
    assert compute_missing_figures() == 4
    assert version.edges.count() == 1 and compute_missing_figures() == 0


# --- the admin --------------------------------------------------------------------------------


def signed_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


@pytest.mark.django_db
def test_the_admin_shows_a_versions_figures_next_to_its_lines(floor: dict[str, Any]) -> None:
    version = floor["PY-1"].paytable_version
    url = reverse("admin:tables_paytableversion_change", args=[version.pk])
    page = signed_in("admin").get(url).content.decode()
    assert "Being computed" in page
    paytable_figures_compute(version_id=version.pk)
    page = signed_in("admin").get(url).content.decode()
    assert "theoretical-figures" in page and "3.8736%" in page and "exact" in page
    assert page.index("<th>pays</th>") < page.index("theoretical-figures")  # after the lines


@pytest.mark.django_db
def test_a_drafts_page_shows_its_figures_beside_the_version_in_use(
    floor: dict[str, Any],
) -> None:
    current = floor["PY-1"].paytable_version
    paytable_figures_compute(version_id=current.pk)
    draft = pyramid_draft(floor, name=current.name, win="19/20")  # the win paid 19 to 20
    page = (
        signed_in("admin2")
        .get(reverse("admin:tables_paytableversion_change", args=[draft.pk]))
        .content.decode()
    )
    assert f"this draft (v{draft.version}, computed now)" in page
    assert f"v{current.version} in use" in page
    assert "3.8736%" in page  # the version in use
    assert not draft.edges.exists()  # shown, not stored: a draft's figures are not kept


# --- a real worker ----------------------------------------------------------------------------


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_computes_the_figures_of_an_approved_version(
    worker_env: dict[str, str],
) -> None:
    import os

    from django.core.management import call_command
    from django.test import override_settings

    worker = start_worker(worker_env)
    try:
        with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
            call_command("seed_demo", stdout=quiet)  # approves the demo's three versions
        versions = PaytableVersion.objects.filter(status="approved")
        assert versions.count() == 3
        assert wait_until(lambda: PaytableEdge.objects.count() == 3, timeout=90)
        assert set(PaytableEdge.objects.values_list("version__game", flat=True)) == {
            "pyramid",
            "second_chance",
            "lowball",
        }
        assert len(figure_events()) == 3
        compute_paytable_figures.delay(versions.get(game="pyramid").pk)  # delivered again
        import time

        time.sleep(3)
        assert PaytableEdge.objects.count() == 3 and len(figure_events()) == 3
    finally:
        worker.terminate()
        worker.wait(timeout=20)
