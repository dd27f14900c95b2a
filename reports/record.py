"""The record's verification on the auditor's pages: its runs (nightly, on demand, the
command), "Verify the record now", and acknowledging a failed run with a note.

Pit bosses and auditors (the record's readers) verify and acknowledge; nobody else sees it. On
demand the run is started here and sent to the worker (`casino.enqueue`); with no broker the
task runs in-process, and with the broker unreachable the run is finished here.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from casino.enqueue import enqueue
from core.errors import ServiceError
from core.roles import RECORD_READERS, require

from .models import VerificationRun
from .tasks import verify_the_record
from .verification import (
    Trigger,
    how_started,
    recent_runs,
    record_status,
    run_acknowledge,
    run_finish,
    run_start,
)


def _require_reader(request: HttpRequest) -> None:
    require(
        request.user,
        RECORD_READERS,
        "verify the record",
        message="only pit bosses and auditors verify the record and read its verifications",
    )


def _back() -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("audit:record"), status=303)


@never_cache
@login_required
def record(request: HttpRequest) -> HttpResponse:
    """The runs, newest first, with the button and each open failure's acknowledgement."""
    _require_reader(request)
    return _page(request)


def _page(
    request: HttpRequest, *, refused: int | None = None, error: str = "", note: str = ""
) -> HttpResponse:
    """The page; `refused`: the run whose acknowledgement was refused, with the message and
    the note as typed, shown at its form (status 400)."""
    runs = recent_runs()
    for run in runs:
        run.how = how_started(run)  # type: ignore[attr-defined]
    return render(
        request,
        "audit/record.html",
        {
            "record": record_status(),
            "runs": runs,
            "refused": refused,
            "error": error,
            "note": note,
        },
        status=400 if refused is not None else 200,
    )


@login_required
@require_POST
def record_verify(request: HttpRequest) -> HttpResponse:
    """Verify the record now: the run is the caller's, the work the worker's (or here)."""
    _require_reader(request)
    run = run_start(trigger=Trigger.ON_DEMAND, by=request.user)
    if not enqueue(verify_the_record, trigger=Trigger.ON_DEMAND.value, run_id=run.pk):
        run_finish(run.pk)  # the broker could not take it: verified in this request
    run.refresh_from_db()
    if run.ok is None:
        messages.info(
            request,
            f"Verification {run.pk} started: the worker is walking the record; "
            "its result appears here when it finishes.",
        )
    elif run.ok:
        messages.success(
            request,
            f"The record is whole: {run.events:,} events and {run.rows:,} bound rows checked.",
        )
    else:
        found = len(run.problems)
        messages.error(
            request,
            f"The record is NOT whole: verification {run.pk} found {found:,} "
            f"problem{'' if found == 1 else 's'}. Acknowledge it below with a note once it is "
            "looked into.",
        )
    return _back()


@login_required
@require_POST
def run_acknowledge_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Acknowledge a failed run with a note (refused without one, naming the note field)."""
    _require_reader(request)
    run = get_object_or_404(VerificationRun, pk=pk)
    note = request.POST.get("note", "")
    try:
        run_acknowledge(run=run, by=request.user, note=note)
    except ServiceError as err:
        text = err.message[:1].upper() + err.message[1:]
        if err.field == "note":
            return _page(request, refused=run.pk, error=text, note=note)
        messages.error(request, text)
    else:
        messages.success(request, f"Verification {run.pk}'s failure acknowledged.")
    return _back()
