"""The compliance officer's cases (docs/compliance.md, "Suspicious activity"): a case opened
from one or more open alerts of one patron (or by hand for a patron and a gaming day), notes
appended to it, and its decision: file a SAR or not, with the reason. Keyword-only, atomic,
audited in the same transaction; every row is appended (a note, the decision), never changed.

Only the compliance role works a case. A compliance officer who also holds the cage role cannot
decide a case over a cash transaction they recorded themselves (separation of duties)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.roles import COMPLIANCE_READERS, require
from core.strict import flag, text
from tables.gaming_day import gaming_day_of

from .models import Alert, Case, CaseAlert, CaseDecision, CaseNote, CashTransaction, Patron

# FinCEN: a SAR is filed within 30 days of the initial detection of the facts behind it.
SAR_DUE_DAYS = 30
TEXT_MOST = 2000
_ID = re.compile(r"[0-9]{1,18}", re.ASCII)


def sar_threshold() -> int:
    return int(settings.CASINO_SAR_THRESHOLD_CENTS)


def due_on(case: Case) -> date:
    return case.detected_on + timedelta(days=SAR_DUE_DAYS)


def _words(value: Any, field: str, *, what: str) -> str:
    given = text(value, field).strip()
    if not given:
        raise ServiceError(f"{field}: {what}", field=field, code="required")
    if len(given) > TEXT_MOST:
        raise ServiceError(f"{field}: at most {TEXT_MOST} characters", field=field)
    return given


def _alert_ids(values: Iterable[Any]) -> list[int]:
    ids = []
    for value in values:
        given = str(value).strip() if isinstance(value, str | int) else None
        if given is None or not _ID.fullmatch(given):
            raise ServiceError(f"alerts: {value!r} is not an alert's number", field="alerts")
        ids.append(int(given))
    return sorted(set(ids))


def _patron(value: Any) -> Patron:
    given = text(value, "patron").strip()
    found = Patron.objects.filter(number=given).first() if given else None
    if found is None:
        raise ServiceError(
            f"patron: there is no patron {given}" if given else "patron: name the patron (P1001)",
            field="patron",
        )
    return found


def _day(value: Any) -> date:
    if value in (None, ""):
        return gaming_day_of(timezone.now())
    try:
        return date.fromisoformat(text(value, "day").strip())
    except ValueError:
        raise ServiceError(
            f"day: {value!r} is not a gaming day (written like 2026-11-21)", field="day"
        ) from None


@transaction.atomic
def case_open(
    *,
    by: AbstractBaseUser,
    alerts: Iterable[Any] = (),
    patron: Any = None,
    day: Any = None,
    note: Any = "",
) -> Case:
    """A case about one patron: from open alerts (all of that patron; none already in a case),
    or by hand for a patron and a gaming day. The SAR's 30 days run from the first alert's
    detection (or from the opening)."""
    require(by, COMPLIANCE_READERS, "open a compliance case")
    ids = _alert_ids(alerts)
    now = timezone.now()
    note_text = _words(note, "note", what="") if str(note or "").strip() else ""
    if ids:
        found = list(Alert.objects.select_for_update().filter(pk__in=ids).select_related("patron"))
        missing = sorted(set(ids) - {a.pk for a in found})
        if missing:
            raise ServiceError(f"alerts: there is no alert {missing[0]}", field="alerts")
        taken = CaseAlert.objects.filter(alert_id__in=ids).select_related("case").first()
        if taken is not None:
            raise ServiceError(
                f"alerts: alert {taken.alert_id} is already in case {taken.case_id}",
                field="alerts",
                code="conflict",
                status=409,
            )
        patrons = {a.patron for a in found}
        if len(patrons) > 1:
            raise ServiceError(
                "alerts: a case is about one patron; these alerts are of "
                + ", ".join(sorted(p.number for p in patrons)),
                field="alerts",
            )
        who = patrons.pop()
        if patron not in (None, "") and text(patron, "patron").strip() != who.number:
            raise ServiceError(
                f"patron: the alerts are {who.number}'s, not {patron}", field="patron"
            )
        first = min(a.first_day for a in found)
        last = max(a.gaming_day for a in found)
        detected = min(timezone.localdate(a.raised_at) for a in found)
    else:
        if patron in (None, ""):
            raise ServiceError(
                "alerts: choose one or more alerts, or name the patron", field="alerts"
            )
        who = _patron(patron)
        found = []
        first = last = _day(day)
        detected = timezone.localdate(now)
    case = Case.objects.create(
        patron=who,
        first_day=first,
        last_day=last,
        detected_on=detected,
        opened_at=now,
        opened_by=by,
    )
    bind: list[Any] = [CaseAlert.objects.create(case=case, alert=a) for a in found]
    if note_text:
        bind.append(CaseNote.objects.create(case=case, text=note_text, at=now, by=by))
    audit_record(
        actor=by,
        kind=EventKind.CASE_OPENED,
        obj=case,
        bind=bind,
        data={"case": case.pk, "patron": who.number, "alerts": [a.pk for a in found]},
    )
    return case


@transaction.atomic
def case_note(*, case: Case, by: AbstractBaseUser, note: Any) -> CaseNote:
    """A note appended to a case (decided or not)."""
    require(by, COMPLIANCE_READERS, "add a note to a compliance case")
    given = _words(note, "note", what="write the note")
    row = CaseNote.objects.create(case=case, text=given, at=timezone.now(), by=by)
    audit_record(
        actor=by,
        kind=EventKind.CASE_NOTE,
        obj=row,
        data={"case": case.pk, "patron": case.patron.number},
    )
    return row


def own_transactions(case: Case, by: AbstractBaseUser) -> Any:
    """The case's cash transactions that `by` recorded themselves."""
    return CashTransaction.objects.filter(
        patron_id=case.patron_id,
        gaming_day__gte=case.first_day,
        gaming_day__lte=case.last_day,
        by=by,
    )


@transaction.atomic
def case_decide(*, case: Case, by: AbstractBaseUser, file_sar: Any, reason: Any) -> CaseDecision:
    """The case's decision, once: file a SAR or not, with the reason, by a compliance officer
    who recorded none of its cash transactions."""
    require(by, COMPLIANCE_READERS, "decide a compliance case")
    sar = flag(file_sar, "file_sar")
    why = _words(reason, "reason", what="give the reason for the decision")
    case = Case.objects.select_for_update().get(pk=case.pk)
    if CaseDecision.objects.filter(case=case).exists():
        raise ServiceError(
            f"decision: case {case.pk} is already decided (add a note instead)",
            field="decision",
            code="conflict",
            status=409,
        )
    if own_transactions(case, by).exists():
        raise ServiceError(
            f"decision: you recorded a cash transaction of this case ({case.patron.number}'s); "
            "another compliance officer decides it",
            field="decision",
            code="separation_of_duties",
            status=403,
        )
    row = CaseDecision.objects.create(case=case, file_sar=sar, reason=why, at=timezone.now(), by=by)
    audit_record(
        actor=by,
        kind=EventKind.CASE_DECIDED,
        obj=row,
        data={"case": case.pk, "patron": case.patron.number, "file_sar": sar},
    )
    return row
