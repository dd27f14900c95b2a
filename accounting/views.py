"""The accounting pages.

- The tablet's chips page (`/accounting/tablet/<table>/`, the dealer signed in at the table):
  buy-ins in two taps (the tablet's "Chips" link, then an amount), the fills and credits
  awaiting the dealer's confirmation, and the tray count at open and close on a denomination
  grid.
- The slip desk (`/accounting/`): pit bosses request fills and credits, count and sign trays;
  the cage issues fills and receives credits; the count team enters and signs drops; auditors
  read. Each signs what awaits one of their roles, and asks for or confirms a void.
- The reconciliation (`/accounting/reconciliation/`, pit bosses and auditors): the count against
  the hands per table, shift and gaming day, and the variance alerts a pit boss acknowledges.
Views parse, call one service or selector and render; refusals are shown, never applied.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from audit.services import audit_refused, audit_refused_duties
from core.bad_request import bad_query
from core.errors import SeparationOfDuties, ServiceError
from core.money import dollars
from core.params import ascii_int
from core.roles import (
    RECORD_READERS,
    SLIP_DESK,
    Role,
    has_any_role,
    has_role,
    require,
    role_names,
    roles_of,
)
from core.strict import form_whole
from tables.engine.money import format_cents
from tables.gaming_day import gaming_day_of, shift_of, shift_starts
from tables.models import DealerSession, Table

from . import rules, selectors, services
from .models import ChipDenomination, Slip, VarianceAlert
from .signature_rules import steps_of

View = Callable[..., HttpResponse]


DESK_ROLES = SLIP_DESK
RECONCILIATION_ROLES = RECORD_READERS
BUY_IN_AMOUNTS = (2000, 5000, 10000, 20000, 50000, 100000)  # cents: the usual buy-ins


def forbidden(request: HttpRequest, message: str) -> HttpResponse:
    """The 403 page with its message, the refusal recorded."""
    audit_refused(
        actor=request.user, method=request.method or "", path=request.path, reason=message
    )
    return render(request, "accounting/forbidden.html", {"message": message}, status=403)


def roles_only(*roles: Role, what: str) -> Callable[[View], View]:
    """Signed-in users of one of `roles` (a 403 page, recorded, for anyone else)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                require(
                    request.user, roles, what, message=f"{what} is for the {role_names(roles)}."
                )
                return view(request, *args, **kwargs)
            except PermissionDenied as err:
                return forbidden(request, str(err) or "You may not do that here.")

        return login_required(wrapped)

    return decorate


def _see_other(url: str) -> HttpResponse:
    return HttpResponseRedirect(url, status=303)


def _chip_grid(post: Any = None) -> list[dict[str, Any]]:
    return [
        {
            "cents": c.value_cents,
            "value": format_cents(c.value_cents),
            "label": c.label,
            "given": (post or {}).get(f"chip_{c.value_cents}", ""),
        }
        for c in ChipDenomination.objects.filter(is_active=True).order_by("value_cents")
    ]


def _posted_chips(post: Any) -> dict[str, int]:
    """The grid's `chip_<cents>` fields as the service's {"5.00": count} (blanks are zero; a
    count is typed in digits)."""
    chips: dict[str, int] = {}
    for name, value in post.items():
        if name.startswith("chip_") and str(value).strip():
            cents = ascii_int(name.removeprefix("chip_"))
            if cents is None:
                raise ServiceError(f"{name}: not a chip", field=name)
            value_text = format_cents(cents)
            chips[value_text] = form_whole(
                value, f"chips.{value_text}", what="a count of chips in digits"
            )
    return chips


def _posted_drop(post: Any) -> dict[str, Any]:
    """A drop's parts as the desk form gives them: the bills typed (`bill_100`: a count), the
    coupons' values, the box number; the parts left empty are not given."""
    parts: dict[str, Any] = {}
    bills = {}
    for value in rules.BILLS:
        given = str(post.get(f"bill_{value // 100}", "")).strip()
        if given:
            bills[str(value // 100)] = form_whole(
                given, f"bills.{value // 100}", what=f"a count of ${value // 100} bills in digits"
            )
    if bills:
        parts["bills"] = bills
    coupons = {k: post.get(k, "").strip() for k in rules.COUPONS if post.get(k, "").strip()}
    if coupons:
        parts["coupons"] = coupons
    if str(post.get("box", "")).strip():
        parts["box"] = form_whole(post["box"], "box", what="a box number in digits")
    return parts


def _slip_rows(slips: Any) -> list[dict[str, Any]]:
    rows = []
    for slip in slips:
        signatures = list(slip.signatures.all())
        step = len(signatures) + 1
        steps = steps_of(slip)
        rows.append(
            {
                "slip": slip,
                "amount": dollars(slip.amount_cents),
                "chips": ", ".join(f"{n} × ${format_cents(int(c))}" for c, n in slip.chips.items()),
                "signatures": signatures,
                "voids": list(slip.voids.all()),
                "next": steps[step - 1].meaning if slip.status == Slip.Status.PENDING else "",
                "next_roles": (
                    [r.value for r in steps[step - 1].roles]
                    if slip.status == Slip.Status.PENDING
                    else []
                ),
            }
        )
    return rows


def _void_action(user: Any, row: dict[str, Any], *, as_dealer: bool) -> str:
    """What `user` may do about the slip's void, as the service will allow it: "ask" (nobody
    has asked yet), "confirm" (someone else asked, and `user` neither entered nor signed the
    slip), "asked" (`user` asked: a second person confirms), or "" (nothing: voided, or not
    their role, or they entered or signed a slip whose void was asked: `row["void_why"]` then
    says so). Nobody is offered a button they would be refused. The dealer's chips page acts
    as a dealer; the desk in the user's other roles."""
    slip = row["slip"]
    if slip.status == Slip.Status.VOIDED:
        return ""
    roles = [r for r in rules.VOID_ROLES[slip.kind] if (r == Role.DEALER) == as_dealer]
    if not any(has_role(user, r) for r in roles):
        return ""
    voids = row["voids"]
    if not voids:
        return "ask"
    if voids[0].by_id == user.pk:
        return "asked"
    refusal = services.void_confirm_refusal(slip, user, signatures=row["signatures"])
    if refusal is not None:
        row["void_why"] = refusal
        row["void_mine"] = "entered" if slip.created_by_id == user.pk else "signed"
        return ""
    return "confirm"


# --- the tablet ------------------------------------------------------------------------------


def _dealer_table(request: HttpRequest, table_id: int) -> Table:
    table = get_object_or_404(Table, pk=table_id)
    if not DealerSession.objects.filter(
        table=table, dealer_id=request.user.pk, ended_at__isnull=True
    ).exists():
        raise PermissionDenied(
            f"You are not signed in at {table}. Sign in at a table from the tablet's first page."
        )
    return table


def _tablet_url(table: Table, **query: Any) -> str:
    url = reverse("accounting:tablet", args=[table.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


# A new patron's description as the tablet asks it (the compliance app checks the fields).
PATRON_DESCRIPTION = (
    ("sex", "Sex"),
    ("apparent_age", "Apparent age"),
    ("height_build", "Height and build"),
    ("hair", "Hair"),
    ("clothing", "Clothing"),
    ("where_seen", "Where seen"),
)


def _render_tablet(
    request: HttpRequest,
    table: Table,
    *,
    error: str = "",
    tray_post: Any = None,
    buy_in_post: Any = None,
    status: int = 200,
) -> HttpResponse:
    now = timezone.now()
    day, shift = gaming_day_of(now), shift_of(now)
    shift_slips = selectors.slips().filter(table=table, gaming_day=day, shift=shift)
    awaiting = [
        row
        for row in _slip_rows(selectors.slips().filter(table=table, status=Slip.Status.PENDING))
        if Role.DEALER.value in row["next_roles"] and row["slip"].created_by_id != request.user.pk
    ]
    live = {
        s.kind: s
        for s in shift_slips.filter(
            kind__in=[rules.OPENER, rules.CLOSER],
            status__in=[Slip.Status.PENDING, Slip.Status.SIGNED],
        )
    }
    notice = None
    wanted = ascii_int(request.GET.get("slip", ""))
    if wanted is not None:
        notice = shift_slips.filter(pk=wanted).first() or (
            Slip.objects.filter(pk=wanted, table=table).first()
        )
    figures = selectors.shift_figures(table=table, gaming_day=day, shift=shift)
    slips = _slip_rows(shift_slips[:30])
    for row in slips:
        row["void"] = _void_action(request.user, row, as_dealer=True)
    return render(
        request,
        "accounting/tablet.html",
        {
            "table": table,
            "gaming_day": day,
            "shift": shift,
            "amounts": [
                (format_cents(c), format_cents(c).removesuffix(".00")) for c in BUY_IN_AMOUNTS
            ],
            "awaiting": awaiting,
            "grid": _chip_grid(tray_post),
            "tray_kind": rules.CLOSER if rules.OPENER in live else rules.OPENER,
            "opener": live.get(rules.OPENER),
            "closer": live.get(rules.CLOSER),
            "slips": slips,
            "voids_to_confirm": [row for row in slips if row["void"] == "confirm"],
            "buy_ins": dollars(figures["buy_ins_cents"]),
            "notice": notice,
            "notice_amount": dollars(notice.amount_cents) if notice else "",
            "error": error,
            "seats": range(1, table.seats + 1),
            "buy_in_post": buy_in_post or {},
            "description": [
                (name, label, (buy_in_post or {}).get(name, ""))
                for name, label in PATRON_DESCRIPTION
            ],
            "described": any((buy_in_post or {}).get(name) for name, _ in PATRON_DESCRIPTION),
            "mtl_threshold": dollars(settings.CASINO_MTL_THRESHOLD_CENTS),
        },
        status=status,
    )


def _posted_patron(post: Any) -> Any:
    """The buy-in's patron as posted: a card or patron number, or a new patron's description
    (any of its fields filled in); both at once is refused."""
    given = post.get("patron", "").strip()
    described = {name: post.get(name, "").strip() for name, _ in PATRON_DESCRIPTION}
    if any(described.values()):
        if given:
            raise ServiceError(
                "patron: give a card or patron number, or describe a new patron, not both",
                field="patron",
            )
        return {"description": {k: v for k, v in described.items() if v}}
    return given or None


@roles_only(Role.DEALER, what="The tablet's chips page")
@require_GET
def tablet(request: HttpRequest, table_id: int) -> HttpResponse:
    return _render_tablet(request, _dealer_table(request, table_id))


@roles_only(Role.DEALER, what="The tablet's chips page")
@require_POST
def tablet_buy_in(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _dealer_table(request, table_id)
    # a quick amount's button, or the "Other amount" field (its Record button, or Enter)
    amount = request.POST.get("amount") or request.POST.get("other_amount", "")
    try:
        slip = services.slip_create(
            table=table,
            kind=rules.BUY_IN,
            by=request.user,
            amount=amount,
            seat=request.POST.get("seat", ""),
            patron=_posted_patron(request.POST),
        )
    except ServiceError as err:
        return _render_tablet(
            request, table, error=err.message, buy_in_post=request.POST, status=err.status
        )
    return _see_other(_tablet_url(table, slip=slip.pk))


@roles_only(Role.DEALER, what="The tablet's chips page")
@require_POST
def tablet_sign(request: HttpRequest, table_id: int, slip_id: int) -> HttpResponse:
    table = _dealer_table(request, table_id)
    slip = get_object_or_404(Slip, pk=slip_id, table=table)
    try:
        services.slip_sign(slip=slip, by=request.user)
    except ServiceError as err:
        return _render_tablet(request, table, error=err.message, status=err.status)
    return _see_other(_tablet_url(table, slip=slip.pk))


@roles_only(Role.DEALER, what="The tablet's chips page")
@require_POST
def tablet_void(request: HttpRequest, table_id: int, slip_id: int) -> HttpResponse:
    """The dealer asks for a slip's void at the table, or confirms one someone else asked."""
    table = _dealer_table(request, table_id)
    slip = get_object_or_404(Slip, pk=slip_id, table=table)
    try:
        services.slip_void(slip=slip, by=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as err:
        if isinstance(err, SeparationOfDuties):  # recorded as a refused permission
            audit_refused_duties(request, err)
        return _render_tablet(request, table, error=err.message, status=err.status)
    return _see_other(_tablet_url(table, slip=slip.pk))


@roles_only(Role.DEALER, what="The tablet's chips page")
@require_POST
def tablet_tray(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _dealer_table(request, table_id)
    kind = request.POST.get("kind", "")
    try:
        if kind not in (rules.OPENER, rules.CLOSER):
            raise ServiceError("count the tray at the opening or the closing", field="kind")
        slip = services.slip_create(
            table=table, kind=kind, by=request.user, chips=_posted_chips(request.POST)
        )
    except ServiceError as err:
        return _render_tablet(
            request, table, error=err.message, tray_post=request.POST, status=err.status
        )
    return _see_other(_tablet_url(table, slip=slip.pk))


# --- the slip desk ---------------------------------------------------------------------------


def _creatable(user: Any) -> list[tuple[str, str]]:
    kinds = []
    for kind in rules.KINDS:
        if kind == rules.BUY_IN:  # the dealer's, on the tablet
            continue
        if any(has_role(user, r) for r in rules.CREATE_ROLES[kind] if r != Role.DEALER):
            kinds.append((kind, str(Slip.Kind(kind).label)))
    return kinds


@roles_only(*DESK_ROLES, what="The slip desk")
@require_GET
def desk(request: HttpRequest) -> HttpResponse:
    return _render_desk(request)


def _render_desk(request: HttpRequest, *, form_error: str = "", status: int = 200) -> HttpResponse:
    user = request.user
    roles = roles_of(user)
    awaiting = [
        row
        for row in _slip_rows(selectors.slips_awaiting(user_roles=roles))
        if row["slip"].created_by_id != user.pk
        and not any(s.by_id == user.pk for s in row["signatures"])
        and set(row["next_roles"]) - {Role.DEALER.value}
    ]
    visible = selectors.slips_visible_to(user)
    recent = _slip_rows(visible[:50])
    for row in recent:
        row["void"] = _void_action(user, row, as_dealer=False)
    return render(
        request,
        "accounting/desk.html",
        {
            "awaiting": awaiting,
            "recent": recent,
            "creatable": _creatable(user),
            "ready_reasons": [
                (reason, str(Slip.Kind(kind).label))
                for kind, _label in _creatable(user)
                for reason in rules.READY_REASONS.get(kind, ())
            ],
            "tables": Table.objects.order_by("name"),
            "grid": _chip_grid(request.POST if request.method == "POST" else None),
            "bills": [
                {
                    "dollars": b // 100,
                    "given": (request.POST if request.method == "POST" else {}).get(
                        f"bill_{b // 100}", ""
                    ),
                }
                for b in rules.BILLS
            ],
            "shifts": [s.strftime("%H:%M") for s in shift_starts()],
            "today": gaming_day_of(timezone.now()),
            "current_shift": shift_of(timezone.now()),
            "form_error": form_error,
            "posted": request.POST if request.method == "POST" else {},
            "is_reader": has_any_role(user, RECONCILIATION_ROLES),
        },
        status=status,
    )


def _late_reason(post: Any, kind: str) -> str:
    """A slip's reason for the previous gaming day: a ready reason picked (`ready_reason`, one
    the kind offers), the words typed (`reason`), or both (the words add to the ready one)."""
    ready = post.get("ready_reason", "")
    typed = post.get("reason", "").strip()
    if ready and ready not in rules.READY_REASONS.get(kind, ()):
        offered = rules.READY_REASONS.get(kind, ())
        raise ServiceError(
            f"reason {ready!r} is not one offered for a {kind.replace('_', '-')} slip"
            + (f": pick {' or '.join(repr(r) for r in offered)}, or write it" if offered else ""),
            field="reason",
        )
    if ready and typed:
        return f"{ready}: {typed}"
    return str(ready or typed)


@roles_only(*DESK_ROLES, what="The slip desk")
@require_POST
def desk_create(request: HttpRequest) -> HttpResponse:
    post = request.POST
    try:
        table_id = post.get("table", "").strip()
        table = None
        if table_id:
            table = Table.objects.filter(
                pk=form_whole(table_id, "table", what="a table's number")
            ).first()
        if table is None:
            raise ServiceError("choose the table", field="table")
        kind = post.get("kind", "")
        day = None
        if post.get("gaming_day"):
            try:
                day = date.fromisoformat(post["gaming_day"])
            except ValueError:
                raise ServiceError(
                    f"gaming day {post['gaming_day']!r} is not a date (YYYY-MM-DD)",
                    field="gaming_day",
                ) from None
        chips = _posted_chips(post)
        parts = _posted_drop(post) if kind == rules.DROP else {}
        slip = services.slip_create(
            table=table,
            kind=kind,
            by=request.user,
            chips=chips if kind in rules.CHIP_KINDS else (chips or None),
            amount=post.get("amount") or None if kind in rules.AMOUNT_KINDS else None,
            markers=post.get("markers") or None if kind == rules.DROP else None,
            **parts,
            gaming_day=day,
            shift=post.get("shift") or None,
            note=post.get("note", ""),
            reason=_late_reason(post, kind),
        )
    except ServiceError as err:
        return _render_desk(request, form_error=err.message, status=err.status)
    messages.success(
        request,
        f"Slip {slip.number} ({slip.get_kind_display()}) for {slip.table}: "
        f"{dollars(slip.amount_cents)}, awaiting its signature.",
    )
    return _see_other(reverse("accounting:desk"))


@roles_only(*DESK_ROLES, what="The slip desk")
@require_POST
def desk_sign(request: HttpRequest, slip_id: int) -> HttpResponse:
    slip = get_object_or_404(Slip, pk=slip_id)
    try:
        slip = services.slip_sign(slip=slip, by=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
        return _see_other(reverse("accounting:desk"))
    state = "it counts now" if slip.counts else "it awaits its next signature"
    messages.success(request, f"You signed slip {slip.number}: {state}.")
    return _see_other(reverse("accounting:desk"))


@roles_only(*DESK_ROLES, Role.DEALER, what="Voiding a slip")
@require_POST
def desk_void(request: HttpRequest, slip_id: int) -> HttpResponse:
    slip = get_object_or_404(Slip, pk=slip_id)
    back = request.POST.get("next") or reverse("accounting:desk")
    if not back.startswith("/accounting/"):
        back = reverse("accounting:desk")
    try:
        slip = services.slip_void(slip=slip, by=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as err:
        if isinstance(err, SeparationOfDuties):  # recorded as a refused permission
            audit_refused_duties(request, err)
        messages.error(request, err.message)
        return _see_other(back)
    if slip.status == Slip.Status.VOIDED:
        messages.success(request, f"Slip {slip.number} is void: enter its replacement.")
    else:
        messages.success(request, f"Void of slip {slip.number} asked: a second person confirms it.")
    return _see_other(back)


# --- the reconciliation ----------------------------------------------------------------------


def reconciliation_tables(day: date) -> list[dict[str, Any]]:
    """The reconciliation's rows: per table (by name) its shifts' figures and the day's."""
    names = dict(Table.objects.values_list("pk", "name"))
    shifts = selectors.shift_rows(gaming_day=day)
    days = selectors.day_rows(gaming_day=day)
    tables = []
    for table_id, row in sorted(days.items(), key=lambda kv: names.get(kv[0], "")):
        tables.append(
            {
                "name": names.get(table_id, "?"),
                "day": row,
                "shifts": [
                    {"shift": shift, **r}
                    for (tid, shift), r in sorted(shifts.items())
                    if tid == table_id
                ],
            }
        )
    return tables


@roles_only(*RECONCILIATION_ROLES, what="The reconciliation")
@require_GET
def reconciliation(request: HttpRequest) -> HttpResponse:
    day = gaming_day_of(timezone.now())
    if request.GET.get("day"):
        try:
            day = date.fromisoformat(request.GET["day"])
        except ValueError:
            return bad_query(
                request,
                field="day",
                message=f"{request.GET['day']!r} is not a gaming day written like 2026-11-21",
            )
    return render(
        request,
        "accounting/reconciliation.html",
        {
            "day": day,
            "tables": reconciliation_tables(day),
            "alerts": VarianceAlert.objects.select_related("table", "acknowledged_by")[:100],
            "can_acknowledge": has_role(request.user, Role.PIT_BOSS),
        },
    )


@roles_only(Role.PIT_BOSS, what="Acknowledging a variance alert")
@require_POST
def acknowledge(request: HttpRequest, alert_id: int) -> HttpResponse:
    alert = get_object_or_404(VarianceAlert, pk=alert_id)
    try:
        services.variance_acknowledge(
            alert=alert, by=request.user, note=request.POST.get("note", "")
        )
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            f"Variance at {alert.table} {alert.gaming_day} shift {alert.shift} acknowledged.",
        )
    return _see_other(reverse("accounting:reconciliation") + f"?day={alert.gaming_day.isoformat()}")


# --- the count sheet -------------------------------------------------------------------------

COUNT_SHEET_READERS = (Role.COUNT, *RECORD_READERS)


@roles_only(*COUNT_SHEET_READERS, what="The count sheet")
@require_http_methods(["GET", "POST"])
def count_sheet(request: HttpRequest) -> HttpResponse:
    """The gaming day's count sheet: each signed drop by part (bills by denomination, chips,
    markers, coupons) per table and shift, the totals, and its signatures; a count-team member
    signs it here (POST)."""
    from .count import count_sheet as sheet_of
    from .count import count_sheet_sign

    day = gaming_day_of(timezone.now())
    if request.GET.get("day"):
        try:
            day = date.fromisoformat(request.GET["day"])
        except ValueError:
            return bad_query(
                request,
                field="day",
                message=f"{request.GET['day']!r} is not a gaming day written like 2026-11-21",
            )
    here = reverse("accounting:count_sheet") + f"?day={day.isoformat()}"
    if request.method == "POST":
        try:
            count_sheet_sign(gaming_day=day, by=request.user)
        except PermissionDenied as err:
            audit_refused(
                actor=request.user,
                method=request.method or "",
                path=request.path,
                reason=str(err),
                action="count_sheet_sign",
            )
            messages.error(request, str(err))
        except ServiceError as err:
            messages.error(request, err.message)
        else:
            messages.success(request, f"Count sheet of {day.isoformat()} signed.")
        return _see_other(here)
    sheet = sheet_of(day)
    return render(
        request,
        "accounting/count_sheet.html",
        {
            "day": day,
            "sheet": sheet,
            "bill_labels": [f"${b // 100}" for b in sheet["bill_values"]],
            "can_sign": has_role(request.user, Role.COUNT),
        },
    )


# --- the property's signature rules ----------------------------------------------------------


@never_cache
@roles_only(Role.ADMIN, what="The slip signature rules")
@require_http_methods(["GET", "POST"])
def signature_rules_page(request: HttpRequest) -> HttpResponse:
    """The fill and credit signature rules in force, the proposals; an admin proposes (the
    roles in order), a second admin approves."""
    from . import signature_rules as sr
    from .models import SignatureRuleProposal

    error, status = "", 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "approve":
                given = request.POST.get("proposal", "").strip()
                proposal = SignatureRuleProposal.objects.filter(
                    pk=int(given) if given.isascii() and given.isdigit() else 0
                ).first()
                if proposal is None:
                    raise ServiceError(
                        f"proposal: there is no proposal {given!r}", field="proposal"
                    )
                sr.rule_approve(proposal=proposal, by=request.user)
            else:
                steps = [
                    request.POST.get(f"step_{i}", "").strip()
                    for i in range(1, len(rules.RULE_ROLES) + 1)
                ]
                sr.rule_propose(
                    kind=request.POST.get("kind", ""),
                    steps=[s for s in steps if s],
                    reason=request.POST.get("reason", ""),
                    by=request.user,
                )
        except PermissionDenied as err:
            audit_refused(
                actor=request.user,
                method=request.method or "",
                path=request.path,
                reason=str(err),
                action="signature_rule",
            )
            error, status = str(err), 403
        except ServiceError as err:
            error, status = err.message, err.status
        else:
            return _see_other(reverse("accounting:signature_rules"))
    in_force = []
    for kind in sr.RULE_KINDS:
        approval = sr.in_force(kind)
        steps = [
            f"{', '.join(str(r.label).lower() for r in step.roles)} ({step.meaning})"
            for step in (
                sr.rule_steps(kind, approval.proposal.steps) if approval else sr.default_steps(kind)
            )
        ]
        in_force.append({"kind": str(Slip.Kind(kind).label), "steps": steps, "approval": approval})
    proposals = [
        {
            "proposal": p,
            "kind": str(Slip.Kind(p.kind).label),
            "steps": sr.describe(p.kind, p.steps),
            "approval": getattr(p, "approval", None),
            "can_approve": p.proposed_by_id != request.user.pk,
        }
        for p in SignatureRuleProposal.objects.select_related(
            "proposed_by", "approval", "approval__approved_by"
        )[:50]
    ]
    return render(
        request,
        "accounting/signature_rules.html",
        {
            "in_force": in_force,
            "proposals": proposals,
            "kinds": [(k, str(Slip.Kind(k).label)) for k in sr.RULE_KINDS],
            "roles": [(r.value, str(r.label)) for r in rules.RULE_ROLES],
            "positions": range(1, len(rules.RULE_ROLES) + 1),
            "error": error,
            "posted": request.POST if error else {},
        },
        status=status,
    )
