"""The pit-boss dashboard: the floor at a glance (refreshed by htmx), charts of hold by table
and by day (Chart.js, refreshed from a JSON endpoint), hold reports by any grouping and period
with their CSV, the drill-down from a table to its rounds, and the hold alert rules.

Pit bosses and auditors read every page; only a pit boss changes an alert rule. Amounts are
integer cents until the template (or the CSV) writes them as dollars.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from defusedcsv import csv
from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.core.validators import MaxValueValidator, MinValueValidator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django_htmx.http import HttpResponseClientRedirect

from accounting import selectors as accounting_selectors
from accounting.selectors import GROUPED, empty_accounting
from audit.services import audit_refused_duties
from core.bad_request import bad_query
from core.errors import SeparationOfDuties, ServiceError
from core.money import dollars
from core.roles import (
    MARKER_ISSUERS,
    PIT_BOSSES,
    RECORD_READERS,
    Role,
    has_any_role,
    has_role,
    require,
)
from players.selectors import open_alerts as refused_cards
from tables import games
from tables.engine.errors import EngineError
from tables.engine.money import format_cents, parse_cents
from tables.gaming_day import gaming_day_of
from tables.models import Round, Table
from tables.selectors import round_preview
from tables.services import controls as control_services
from tables.services.duties import rounds_allowed

from .alerts import alert_rule_save, alert_rule_set_active, applicable_rule
from .floor import CHART_DAYS, chart_series, floor_status, refresh_stale
from .models import HoldAlertRule
from .reporting import HOLD_MIN_BASE_CENTS, hold_percent
from .selectors import (
    hand_sums,
    hold_rows,
    large_payouts_on,
    open_rounds_at,
    periods,
    round_sums,
    rounds_awaiting_approval,
    rounds_void_waiting,
    table_hands_of,
    table_rounds_of,
    totals,
)
from .templatetags.reports_money import wager_sort_key
from .verification import record_status

View = Callable[..., HttpResponse]

BY_CHOICES = [
    ("table", "Table"),
    ("game", "Game"),
    ("paytable_version", "Paytable version"),
    ("dealer", "Dealer"),
    ("shift", "Shift"),
    ("gaming_day", "Gaming day"),
]
PERIOD_CHOICES = [
    ("day", "Gaming day"),
    ("mtd", "Month to date"),
    ("ytd", "Year to date"),
    ("30d", "Last 30 days"),
]
PERIOD_SHORT = {"day": "Day", "mtd": "MTD", "ytd": "YTD", "30d": "30 days"}
ISO_DATE = "%Y-%m-%d"  # only: 03/10/2026 is March in one country and October in another


ROUNDS_PER_PAGE = 200  # a busy table deals over a thousand rounds a day


def reader_required(view: View) -> View:
    """Pit bosses and auditors only. Anonymous: to the sign-in page (an htmx poll sends the
    whole page there rather than swapping the sign-in form into the floor)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            if getattr(request, "htmx", False):
                back = request.htmx.current_url_abs_path or reverse("reports:dashboard")  # type: ignore[attr-defined]
                query = QueryDict(mutable=True)
                query["next"] = back
                return HttpResponseClientRedirect(f"{reverse('login')}?{query.urlencode('/')}")
            return redirect_to_login(request.get_full_path())
        require(
            request.user,
            RECORD_READERS,
            "read the dashboard",
            message="only pit bosses and auditors read the dashboard",
        )
        return view(request, *args, **kwargs)

    return wrapped


def today() -> date:
    return gaming_day_of(timezone.now())


# The gaming days a report may end on: a period or a chart reaches back up to a year from its
# day and a link a day past it, all within the calendar Python counts.
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(9998, 12, 31)


class ReportQuery(forms.Form):
    by = forms.ChoiceField(choices=BY_CHOICES, required=False, label="Group by")
    period = forms.ChoiceField(choices=PERIOD_CHOICES, required=False)
    day = forms.DateField(
        required=False,
        label="Ending on",
        input_formats=[ISO_DATE],
        validators=[
            MinValueValidator(FIRST_DAY, message=f"must be {FIRST_DAY.isoformat()} or later"),
            MaxValueValidator(LAST_DAY, message=f"must be {LAST_DAY.isoformat()} or earlier"),
        ],
    )
    table = forms.CharField(required=False, max_length=30)
    game = forms.ChoiceField(choices=lambda: [("", "Every game"), *games.choices()], required=False)

    def resolved(self) -> dict[str, Any]:
        """The query with defaults (by table, today's gaming day) and its range of days."""
        self.is_valid()  # a value not understood falls back to its default, the others stand
        data = self.cleaned_data
        day = data.get("day") or today()
        period = data.get("period") or "day"
        start, end = _range(period, day)
        return {
            "by": data.get("by") or "table",
            "period": period,
            "day": day,
            "start": start,
            "end": end,
            "table": (data.get("table") or "").strip(),
            "game": data.get("game") or "",
        }


def _range(period: str, day: date) -> tuple[date, date]:
    if period == "30d":
        return day - timedelta(days=CHART_DAYS - 1), day
    return periods(day)[period]


def _labels(by: str, row: dict[str, Any]) -> list[str]:
    if by == "table":
        return [row["table__name"], dict(games.choices()).get(row["game"], row["game"])]
    if by == "game":
        return [dict(games.choices()).get(row["game"], row["game"])]
    if by == "paytable_version":
        if row["paytable_version"] is None:  # player-vs-player hands: table settings, no paytable
            return ["(table settings)", dict(games.choices()).get(row["game"], row["game"])]
        return [
            f"{row['paytable_version__name']} v{row['paytable_version__version']}",
            dict(games.choices()).get(row["game"], row["game"]),
        ]
    if by == "dealer":
        return [row["dealer__username"]]
    if by == "shift":
        return [row["shift"]]
    return [row["gaming_day"].isoformat()]


LABEL_HEADERS = {
    "table": ["Table", "Game"],
    "game": ["Game"],
    "paytable_version": ["Paytable version", "Game"],
    "dealer": ["Dealer"],
    "shift": ["Shift"],
    "gaming_day": ["Gaming day"],
}


def hold_report(query: dict[str, Any]) -> dict[str, Any]:
    """The report's rows, their totals and the wagers played, for the page and the CSV."""
    refresh_stale(query["start"], query["end"])
    rows = hold_rows(
        start=query["start"],
        end=query["end"],
        by=query["by"],
        table=query["table"] or None,
        game=query["game"] or None,
    )
    total = totals(rows)
    wagers: set[str] = set()
    total["handle_by_wager"] = {}
    for row in rows:
        for wager, cents in row["handle_by_wager"].items():
            wagers.add(wager)
            total["handle_by_wager"][wager] = total["handle_by_wager"].get(wager, 0) + cents
    table_ids = dict(Table.objects.values_list("name", "pk"))
    for row in rows:
        row["labels"] = _labels(query["by"], row)
        row["link"] = _drill_link(query, row, table_ids)
    counted = query["by"] in GROUPED  # the count's columns: by table, shift or gaming day
    if counted and not rows:
        total.update(empty_accounting())
    return {
        "rows": rows,
        "total": total,
        "wagers": sorted(wagers, key=wager_sort_key),
        "headers": LABEL_HEADERS[query["by"]],
        "accounting": counted,
    }


def _drill_link(query: dict[str, Any], row: dict[str, Any], table_ids: dict[str, int]) -> str:
    """A day's table row opens the table's rounds; a gaming day opens that day by table."""
    if query["by"] == "table" and query["period"] == "day":
        url = reverse("reports:table_rounds", args=[table_ids[row["table__name"]]])
        return f"{url}?day={query['day'].isoformat()}"
    if query["by"] == "gaming_day":
        if query["table"] in table_ids:
            url = reverse("reports:table_rounds", args=[table_ids[query["table"]]])
            return f"{url}?day={row['gaming_day'].isoformat()}"
        day = row["gaming_day"].isoformat()
        return f"{reverse('reports:reports')}?by=table&period=day&day={day}"
    return ""


def _query_string(query: dict[str, Any]) -> str:
    params = {"by": query["by"], "period": query["period"], "day": query["day"].isoformat()}
    params.update({k: query[k] for k in ("table", "game") if query[k]})
    return urlencode(params)


@never_cache
@reader_required
def dashboard(request: HttpRequest) -> HttpResponse:
    form = ReportQuery(request.GET)
    query = form.resolved()
    now = timezone.now()
    floor = floor_status(now=now, gaming_day=today())
    charts = chart_series(start=query["start"], end=query["end"])
    return render(
        request,
        "reports/dashboard.html",
        {
            "floor": floor,
            "query": query,
            "periods": [(v, label, PERIOD_SHORT[v]) for v, label in PERIOD_CHOICES],
            "charts": charts,
            "charts_url": f"{reverse('reports:dashboard_charts')}?{_query_string(query)}",
            "reports_query": _query_string(query),
            "can_configure": has_role(request.user, Role.PIT_BOSS),
            "count": count_panel(today()),
            **waiting_for_sign_off(request.user),
            "large_payouts": large_payouts_on(floor.gaming_day),
            "record": record_status(now=now),
            "refused_cards": list(refused_cards()[:20]),
            "can_acknowledge": has_role(request.user, Role.PIT_BOSS),
        },
    )


def waiting_for_sign_off(user: Any) -> dict[str, Any]:
    """The payouts and the voids waiting for a pit boss, each with what `user` may do to it
    (`rounds_allowed`: who took part in every listed round read at once)."""
    payouts = rounds_awaiting_approval()
    voids = rounds_void_waiting()
    allowed = rounds_allowed(user, [*payouts, *voids])
    return {
        "awaiting": [(r, allowed[r.pk]) for r in payouts],
        "voids_waiting": [(r, allowed[r.pk]) for r in voids],
        "waiting_count": len(payouts) + len(voids),
    }


def count_panel(day: date) -> dict[str, Any]:
    """The count against the hands for the dashboard: the day's tables and the open variance
    alerts (docs/accounting.md)."""
    names = dict(Table.objects.values_list("pk", "name"))
    rows = [
        {"table": names.get(table_id, "?"), **row}
        for table_id, row in sorted(
            accounting_selectors.day_rows(gaming_day=day).items(),
            key=lambda kv: names.get(kv[0], ""),
        )
    ]
    handovers = [
        {"alert": a, "chips": "; ".join(accounting_selectors.handover_lines(a))}
        for a in accounting_selectors.handover_alerts(gaming_day=day)[:20]
    ]
    return {
        "day": day,
        "rows": rows,
        "alerts": list(accounting_selectors.open_alerts()[:20]),
        "handovers": handovers,
    }


@never_cache
@reader_required
def floor_partial(request: HttpRequest) -> HttpResponse:
    floor = floor_status(now=timezone.now(), gaming_day=today())
    return render(
        request,
        "reports/_floor.html",
        {
            "floor": floor,
            **waiting_for_sign_off(request.user),
            "large_payouts": large_payouts_on(floor.gaming_day),
            "record": record_status(),
        },
    )


def _payouts(round_: Round) -> list[dict[str, Any]]:
    """Each seat's result in dollars as the round settles now (the confirm page's figures); none
    when it cannot be settled now (the service then refuses the approval and says why)."""
    try:
        preview = round_preview(round_)
    except ServiceError:
        return []
    return [
        {"seat": s["seat"], "net_cents": cents, "abs_cents": abs(cents)}
        for s in preview.get("seats", [])
        for cents in [int(Decimal(s["net"]) * 100)]  # "5699.00": exact, never a float
    ]


@reader_required
def round_approve(request: HttpRequest, pk: int) -> HttpResponse:
    """A pit boss signs off a payout (signed in as themselves) in two presses: the button on the
    dashboard or the round's record opens this confirm page (GET: the table, the round, each
    seat's payout in dollars), whose own button approves and pays. A POST without the confirm
    step's field (`confirm=approve`) pays nothing and is sent here to confirm."""
    round_ = get_object_or_404(Round.objects.select_related("table", "dealer"), pk=pk)
    here = reverse("audit:round_approve", args=[round_.pk])
    if request.method == "POST" and request.POST.get("confirm") != "approve":
        return HttpResponseRedirect(here, status=303)
    if request.method == "POST":
        try:
            approved = control_services.round_approve(round=round_, by=request.user)
        except ServiceError as err:
            if isinstance(err, SeparationOfDuties):
                audit_refused_duties(request, err)
            messages.error(request, err.message)
        else:
            messages.success(
                request,
                f"{'Correction of round' if approved.corrects_id else 'Round'} #{approved.number} "
                f"at {approved.table.name} approved and paid "
                f"(players {dollars(approved.players_net_cents, signed=True)}).",
            )
        return HttpResponseRedirect(reverse("reports:dashboard"), status=303)
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    allowed = rounds_allowed(request.user, [round_])[round_.pk]
    payouts = _payouts(round_) if round_.awaiting_approval else []
    return render(
        request,
        "audit/approve.html",
        {
            "round": round_,
            "waiting": round_.awaiting_approval,
            "may_approve": allowed.may.get("approve", False),
            "why": allowed.why.get("approve", ""),
            "payouts": payouts,
            "paid_cents": sum(p["net_cents"] for p in payouts if p["net_cents"] > 0),
            "players_cents": sum(p["net_cents"] for p in payouts),
        },
    )


@never_cache
@reader_required
def dashboard_charts(request: HttpRequest) -> JsonResponse:
    form = ReportQuery(request.GET)
    query = form.resolved()
    if form.errors:  # the dashboard asks with what it understood: say what is wrong
        field = "day" if "day" in form.errors else next(iter(form.errors))
        message = f"{field}: " + "; ".join(form.errors[field])
        return JsonResponse(
            {"error": {"code": "invalid", "message": message, "field": field}}, status=400
        )
    return JsonResponse(chart_series(start=query["start"], end=query["end"]))


@reader_required
def reports(request: HttpRequest) -> HttpResponse:
    form = ReportQuery(request.GET)
    query = form.resolved()
    report = hold_report(query)
    return render(
        request,
        "reports/reports.html",
        {
            "form": form,
            "query": query,
            "report": report,
            "csv_url": f"{reverse('reports:reports_csv')}?{_query_string(query)}",
            "by_choices": BY_CHOICES,
            "period_choices": PERIOD_CHOICES,
            "games": games.choices(),
            "table_names": Table.objects.order_by("name").values_list("name", flat=True),
            "period_label": dict(PERIOD_CHOICES)[query["period"]],
            "by_label": dict(BY_CHOICES)[query["by"]],
            "chart": report_chart(report),
        },
    )


def report_chart(report: dict[str, Any]) -> dict[str, Any]:
    """The report's rows for its chart (static/js/dashboard.js, key "report"): each row's first
    label, hold % as a decimal string, win and handle in cents."""
    rows = report["rows"]
    return {
        "report": {
            "labels": [row["labels"][0] for row in rows],
            "hold_percent": [
                None if row["hold_percent"] is None else str(row["hold_percent"]) for row in rows
            ],
            "win_cents": [row["win_cents"] for row in rows],
            "handle_cents": [row["handle_cents"] for row in rows],
        },
        "hold_min_handle_cents": HOLD_MIN_BASE_CENTS,
    }


def _text_cell(text: str) -> str:
    """A name as a spreadsheet cell: one starting like a formula (a username may start with
    + - @) is quoted so that opening the export never runs it."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv_response(filename: str) -> tuple[HttpResponse, Any]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, csv.writer(response)


@reader_required
def reports_csv(request: HttpRequest) -> HttpResponse:
    """The report as CSV: amounts in dollars with two decimals (exact, from the cents), hold %
    with two decimals, and a last row TOTAL. By table, shift or gaming day, the count's columns
    too (drop, fills, credits, count win, hold % of drop, variance, expected drop; blank where
    the count is not complete). Two counts of hands: `seat_hands`, the seats' hands played in
    banked rounds (each seat's hand against the dealer), and `poker_hands`, the player-vs-player
    hands finished (docs/trail.md, "The reports' CSV")."""
    form = ReportQuery(request.GET)
    if request.GET and not form.is_valid():
        field = next(iter(form.errors))
        return bad_query(request, field=field, message="; ".join(form.errors[field]))
    query = form.resolved()
    report = hold_report(query)
    filename = f"hold-by-{query['by']}-{query['period']}-{query['day'].isoformat()}.csv"
    response, writer = _csv_response(filename)
    wagers = report["wagers"]
    writer.writerow(
        [h.lower().replace(" ", "_") for h in report["headers"]]
        + ["rounds", "seat_hands", "handle"]
        + [f"handle_{w}" for w in wagers]
        + ["win", "hold_percent", "progressive_contributions", "jackpots_paid"]
        + ["voids", "voided_handle", "corrections", "hold_percent_without_jackpots"]
        + ["poker_hands", "pots", "rake"]
        + (
            ["drop", "fills", "credits", "count_win", "hold_percent_drop", "variance"]
            + ["expected_drop"]
            if report["accounting"]
            else []
        )
    )

    def money(cents: int | None) -> str:
        return "" if cents is None else format_cents(cents)

    def figures(row: dict[str, Any]) -> list[Any]:
        return (
            [row["rounds"], row["hands"], format_cents(row["handle_cents"])]
            + [format_cents(row["handle_by_wager"].get(w, 0)) for w in wagers]
            + [
                format_cents(row["win_cents"]),
                "" if row["hold_percent"] is None else str(row["hold_percent"]),
                format_cents(row["progressive_contributions_cents"]),
                format_cents(row["jackpots_paid_cents"]),
                row["voids"],
                format_cents(row["voided_handle_cents"]),
                row["corrections"],
                (
                    ""
                    if row["hold_ex_jackpots_percent"] is None
                    else str(row["hold_ex_jackpots_percent"])
                ),
                row["pvp_hands"],
                format_cents(row["pots_cents"]),
                format_cents(row["rake_cents"]),
            ]
            + (
                [
                    money(row["drop_cents"]),
                    money(row["fills_cents"]),
                    money(row["credits_cents"]),
                    money(row["count_win_cents"]),
                    "" if row["hold_percent_drop"] is None else str(row["hold_percent_drop"]),
                    money(row["variance_cents"]),
                    money(row["expected_drop_cents"]),
                ]
                if report["accounting"]
                else []
            )
        )

    for row in report["rows"]:
        writer.writerow([_text_cell(label) for label in row["labels"]] + figures(row))
    blanks = [""] * (len(report["headers"]) - 1)
    writer.writerow(["TOTAL", *blanks] + figures(report["total"]))
    return response


DAY_MESSAGE = "must be a gaming day written like 2026-11-21"


def _day_param(request: HttpRequest) -> date:
    day = forms.DateField(required=False, input_formats=[ISO_DATE]).clean(
        request.GET.get("day") or None
    )
    if day is not None and not FIRST_DAY <= day <= LAST_DAY:
        raise forms.ValidationError("out of range")
    return day or today()


@reader_required
def table_rounds(request: HttpRequest, pk: int) -> HttpResponse:
    """One table's rounds on a gaming day, newest first, each opening its record."""
    table = get_object_or_404(Table.objects.select_related("pit"), pk=pk)
    try:
        day = _day_param(request)
    except forms.ValidationError:
        return bad_query(request, field="day", message=DAY_MESSAGE)
    all_rounds = table_rounds_of(table, day)
    page = Paginator(all_rounds, ROUNDS_PER_PAGE).get_page(request.GET.get("page"))
    sums = round_sums(all_rounds)
    open_rounds = open_rounds_at(table) if day == today() else []
    handle = sums["handle"] or 0
    win = -(sums["net"] or 0)
    hands = table_hands_of(table, day)
    hands_total = hand_sums(hands)
    return render(
        request,
        "reports/table_rounds.html",
        {
            "table": table,
            "day": day,
            "is_today": day == today(),
            "issues_markers": day == today() and has_any_role(request.user, MARKER_ISSUERS),
            "previous_day": day - timedelta(days=1),
            "next_day": day + timedelta(days=1) if day < today() else None,
            "rounds": page.object_list,
            "page": page,
            "open_rounds": open_rounds,
            "total": {
                "rounds": sums["rounds"],
                "voids": sums["voids"],
                "handle_cents": handle,
                "win_cents": win,
                "hold_percent": hold_percent(win, handle),
            },
            "csv_url": f"{reverse('reports:table_rounds_csv', args=[table.pk])}?day={day}",
            "pvp": isinstance(games.get(table.game), games.PlayerVsPlayerGame),
            "hands": list(hands[:ROUNDS_PER_PAGE]),
            "hands_total": {
                "hands": hands_total["hands"],
                "voids": hands_total["voids"],
                "pots_cents": hands_total["pots"] or 0,
                "rake_cents": hands_total["rake"] or 0,
            },
        },
    )


@reader_required
def table_rounds_csv(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk)
    try:
        day = _day_param(request)
    except forms.ValidationError:
        return bad_query(request, field="day", message=DAY_MESSAGE)
    response, writer = _csv_response(f"rounds-{table.name}-{day.isoformat()}.csv")
    writer.writerow(
        ["table", "number", "status", "dealer", "shift", "settled_at", "handle", "win", "corrects"]
    )
    for r in table_rounds_of(table, day):
        writer.writerow(
            [
                table.name,
                r.number,
                r.status,
                _text_cell(r.dealer.get_username()),
                r.shift,
                timezone.localtime(r.settled_at).isoformat() if r.settled_at else "",
                format_cents(r.handle_cents),
                format_cents(r.house_win_cents),
                r.corrects.number if r.corrects else "",
            ]
        )
    return response


class AlertRuleForm(forms.Form):
    table = forms.ModelChoiceField(
        queryset=Table.objects.order_by("name"),
        required=False,
        empty_label="—",
        help_text="one table, or leave empty",
    )
    game = forms.ChoiceField(
        choices=lambda: [("", "—"), *games.choices()],
        required=False,
        help_text="every table of a game (leave both empty for every table)",
    )
    min_hold_percent = forms.DecimalField(max_digits=6, decimal_places=2, label="Lowest hold %")
    max_hold_percent = forms.DecimalField(max_digits=6, decimal_places=2, label="Highest hold %")
    min_handle = forms.CharField(
        required=False,
        initial="0.00",
        label="Minimum handle ($)",
        help_text="no alert until the day's handle reaches this",
    )

    def clean_min_handle(self) -> int:
        try:
            return parse_cents(
                self.cleaned_data.get("min_handle") or "0",
                where="the minimum handle",
                allow_zero=True,
            )
        except EngineError as err:
            raise forms.ValidationError(str(err)) from err

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("table") and data.get("game"):
            self.add_error("game", "a rule watches a table or a game, not both")
        low, high = data.get("min_hold_percent"), data.get("max_hold_percent")
        if low is not None and high is not None and low >= high:
            self.add_error("max_hold_percent", "the highest hold must be above the lowest")
        return data

    @classmethod
    def for_rule(cls, rule: HoldAlertRule) -> AlertRuleForm:
        return cls(
            initial={
                "table": rule.table_id,
                "game": rule.game,
                "min_hold_percent": rule.min_hold_percent,
                "max_hold_percent": rule.max_hold_percent,
                "min_handle": format_cents(rule.min_handle_cents),
            }
        )


def _save_rule(request: HttpRequest, form: AlertRuleForm, rule: HoldAlertRule | None) -> bool:
    if not form.is_valid():
        return False
    data = form.cleaned_data
    try:
        alert_rule_save(
            by=request.user,  # type: ignore[arg-type]
            rule=rule,
            table=data["table"],
            game=data["game"],
            min_hold_percent=data["min_hold_percent"],
            max_hold_percent=data["max_hold_percent"],
            min_handle_cents=data["min_handle"],
        )
    except ServiceError as err:
        form.add_error(err.field if err.field in form.fields else None, err.message)
        return False
    return True


def _scope(rule: HoldAlertRule) -> str:
    if rule.table is not None:
        return f"Table {rule.table.name}"
    if rule.game:
        return dict(games.choices()).get(rule.game, rule.game)
    return "Every table"


def _require_pit_boss(request: HttpRequest) -> None:
    require(
        request.user,
        PIT_BOSSES,
        "configure hold alerts",
        message="only a pit boss configures hold alerts",
    )


@reader_required
def alerts(request: HttpRequest) -> HttpResponse:
    """The hold alert rules and the tables each watches; a pit boss adds one here."""
    form = AlertRuleForm()
    if request.method == "POST":
        _require_pit_boss(request)
        form = AlertRuleForm(request.POST)
        if _save_rule(request, form, None):
            return redirect("reports:alerts")
    rules = list(HoldAlertRule.objects.select_related("table").order_by("-is_active", "id"))
    tables = list(Table.objects.order_by("name"))
    watching = {t.name: applicable_rule(t, rules) for t in tables}
    for rule in rules:
        rule.scope = _scope(rule)  # type: ignore[attr-defined]
        rule.watches = [n for n, r in watching.items() if r is not None and r.pk == rule.pk]  # type: ignore[attr-defined]
    return render(
        request,
        "reports/alerts.html",
        {
            "rules": rules,
            "form": form,
            "can_configure": has_role(request.user, Role.PIT_BOSS),
            "unwatched": [name for name, r in watching.items() if r is None],
        },
        status=400 if form.is_bound and form.errors else 200,
    )


@reader_required
def alert_edit(request: HttpRequest, pk: int) -> HttpResponse:
    _require_pit_boss(request)
    rule = get_object_or_404(HoldAlertRule.objects.select_related("table"), pk=pk)
    form = AlertRuleForm.for_rule(rule)
    if request.method == "POST":
        form = AlertRuleForm(request.POST)
        if _save_rule(request, form, rule):
            return redirect("reports:alerts")
    return render(
        request,
        "reports/alerts_edit.html",
        {"rule": rule, "scope": _scope(rule), "form": form},
        status=400 if form.is_bound and form.errors else 200,
    )


@reader_required
def alert_toggle(request: HttpRequest, pk: int) -> HttpResponse:
    """POST `active=0` deactivates the rule, `active=1` brings it back."""
    if request.method != "POST":
        return redirect("reports:alerts")
    _require_pit_boss(request)
    rule = get_object_or_404(HoldAlertRule, pk=pk)
    try:
        alert_rule_set_active(by=request.user, rule=rule, active=request.POST.get("active") == "1")  # type: ignore[arg-type]
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("reports:alerts")
