"""Paytable versions: drafted here with one input per line (a new version each time), approved
by a second admin, never edited; a change is a new version drafted from an existing one
(`versions.ApprovedVersionAdmin`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join

from core.errors import ServiceError
from core.money import dollars
from core.params import ascii_int
from tables import display, games
from tables.engine.errors import EngineError
from tables.engine.money import format_odds, parse_odds
from tables.engine.strategies import Strategy
from tables.models import PaytableVersion
from tables.selectors import version_figures, version_in_use
from tables.services.figures import FLOOR_STRATEGY, compute_figures, has_figures
from tables.services.paytables import paytable_approve, paytable_draft, validate_limits

from .common import DollarsField, table_links
from .versions import (
    VERSION_FIELDSETS,
    VERSION_READONLY,
    ApprovedVersionAdmin,
    VersionDraftForm,
)

ODDS_HELP = 'Odds as "6" (6 to 1), "3/2" or "3 to 2". Every line is required and must be positive.'
FALLBACK_LIMITS = {"min_cents": 500, "max_cents": 50_000}


def _line_field(wager: str, line: str) -> str:
    return f"line__{wager}__{line}"


def _limit_field(wager: str, bound: str) -> str:
    return f"limit__{wager}__{bound}"


def _wager_label(game: str, wager: str) -> str:
    return display.wager_label(wager, games.banked(game).wager_labels)


# Paytable lines that are not hand names, in words.
LINE_WORDS = {
    "win": "Win (the hand beats the dealer's)",
    "push": "Push",
    "ante_bonus": "Ante bonus",
}


def line_label(game: str, line: str) -> str:
    """A paytable line in the game's words: "pair" -> "Pair", "straight_flush" -> "Straight
    flush"."""
    return LINE_WORDS.get(line) or display.line_words(line, games.banked(game).hand_labels)


def compare_versions(draft: PaytableVersion, current: PaytableVersion) -> list[tuple[str, ...]]:
    """Line by line (and limit by limit): (what, in use, this version, change)."""
    rows: list[tuple[str, ...]] = []
    wagers = list(dict.fromkeys([*current.lines, *draft.lines]))
    for wager in wagers:
        old, new = current.lines.get(wager, {}), draft.lines.get(wager, {})
        for line in dict.fromkeys([*old, *new]):
            before = format_odds(parse_odds(old[line], where=line)) if line in old else "—"
            after = format_odds(parse_odds(new[line], where=line)) if line in new else "—"
            if line not in old:
                change = "new line"
            elif line not in new:
                change = "removed"
            elif parse_odds(old[line], where=line) == parse_odds(new[line], where=line):
                change = "same"
            elif parse_odds(new[line], where=line) > parse_odds(old[line], where=line):
                change = "pays more"
            else:
                change = "pays less"
            label = f"{_wager_label(draft.game, wager)}: {line_label(draft.game, line)}"
            rows.append((label, before, after, change))
    for wager in dict.fromkeys([*current.limits, *draft.limits]):
        for bound, word in (("min_cents", "minimum"), ("max_cents", "maximum")):
            old_c = current.limits.get(wager, {}).get(bound)
            new_c = draft.limits.get(wager, {}).get(bound)
            change = "same" if old_c == new_c else "changed"
            rows.append(
                (
                    f"{_wager_label(draft.game, wager)} {word}",
                    dollars(old_c) if old_c is not None else "—",
                    dollars(new_c) if new_c is not None else "—",
                    change,
                )
            )
    return rows


def _default_limits(game: str) -> dict[str, dict[str, int]]:
    """The limits of the game's latest approved version, else $5 to $500 for each wager."""
    latest = (
        PaytableVersion.objects.filter(game=game, status=PaytableVersion.Status.APPROVED)
        .order_by("-approved_at")
        .first()
    )
    known = latest.limits if latest else {}
    return {w: dict(known.get(w) or FALLBACK_LIMITS) for w in games.banked(game).limited_wagers}


@dataclass(frozen=True)
class DraftStart:
    """What a new draft is pre-filled with: the rules' named paytable or an existing version."""

    game: str
    name: str
    lines: dict[str, dict[str, str]]
    limits: dict[str, dict[str, int]]
    based_on: PaytableVersion | None


def draft_start(request: HttpRequest) -> DraftStart | None:
    """`?based_on=<id>`, or `?game=<game>[&named=<rules' paytable>]`; None asks for a choice."""
    based_on = request.GET.get("based_on", "")
    if based_on:
        wanted = ascii_int(based_on)
        found = PaytableVersion.objects.filter(pk=wanted) if wanted is not None else None
        version = found.first() if found is not None else None
        if version is None:
            return None
        return DraftStart(version.game, version.name, version.lines, version.limits, version)
    game = request.GET.get("game", "")
    if game not in games.names():
        return None
    definition = games.banked(game)
    tables = definition.named_paytables()
    paytable = tables.get(request.GET.get("named", "")) or tables[definition.default_paytable]
    return DraftStart(game, paytable.name, paytable.as_data(), _default_limits(game), None)


class PaytableDraftForm(VersionDraftForm):
    """A draft of one game's paytable: one input per required line, limits in dollars.

    The per-game subclass (`draft_form_for`) declares the line and limit fields; `clean`
    checks them with the engine and the service's own validators, naming the line or wager.
    """

    class Meta(VersionDraftForm.Meta):
        model = PaytableVersion

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lines: dict[str, dict[str, str]] = {}
        self.limits: dict[str, dict[str, int]] = {}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        self.lines = self._clean_lines(cleaned)
        self.limits = self._clean_limits(cleaned)
        return cleaned

    def _clean_lines(self, cleaned: dict[str, Any]) -> dict[str, dict[str, str]]:
        game = games.banked(self.game_value)
        lines: dict[str, dict[str, str]] = {}
        ok = True
        for wager, names in game.required_lines().items():
            lines[wager] = {}
            for line in names:
                key = _line_field(wager, line)
                raw = (cleaned.get(key) or "").strip()
                if not raw:
                    self.add_error(key, f"{wager} line {line} is missing: give its odds")
                    ok = False
                    continue
                try:
                    lines[wager][line] = str(parse_odds(raw, where=f"{wager} line {line}"))
                except EngineError as err:
                    self.add_error(key, err.message)
                    ok = False
        if ok:  # the game's rules that span lines (e.g. a win pays at least even money)
            try:
                game.paytable(cleaned.get("name") or "draft", lines)
            except EngineError as err:
                wager, _, line = (err.field or "").partition(".")
                key = _line_field(wager, line)
                self.add_error(key if key in self.fields else None, err.message)
        return lines

    def _clean_limits(self, cleaned: dict[str, Any]) -> dict[str, dict[str, int]]:
        limits: dict[str, dict[str, int]] = {}
        ok = True
        for wager in games.banked(self.game_value).limited_wagers:
            given = {}
            for bound in ("min", "max"):
                key = _limit_field(wager, bound)
                value = cleaned.get(key)
                if value is None:
                    if key not in self.errors:
                        self.add_error(key, f"the {wager} {bound}imum is missing")
                    ok = False
                given[f"{bound}_cents"] = value
            limits[wager] = given
        if ok:
            try:
                return validate_limits(self.game_value, limits)
            except ServiceError as err:
                wager = (err.field or "").removeprefix("limits.")
                key = _limit_field(wager, "max")
                self.add_error(key if key in self.fields else None, err.message)
        return {}

    def draft_kwargs(self) -> dict[str, Any]:
        """The validated draft, as `paytable_draft` takes it."""
        return {
            "game": self.game_value,
            "name": self.cleaned_data["name"],
            "lines": self.lines,
            "limits": self.limits,
            "based_on": self.based_on_value,
        }


def draft_form_for(start: DraftStart) -> type[PaytableDraftForm]:
    """The draft form of one game: its paytable form's lines and its limited wagers."""
    game = start.game
    fields: dict[str, forms.Field] = {}
    for wager, names in games.banked(game).required_lines().items():
        for line in names:
            fields[_line_field(wager, line)] = forms.CharField(
                label=line_label(game, line),
                required=False,
                widget=forms.TextInput(attrs={"size": 8, "placeholder": "e.g. 3/2"}),
            )
    for wager in games.banked(game).limited_wagers:
        for bound in ("min", "max"):
            fields[_limit_field(wager, bound)] = DollarsField(
                what=f"the {wager} {bound}imum",
                label=f"{_wager_label(game, wager)} {bound}imum ($)",
                required=False,
                allow_zero=False,
            )
    attrs = {**fields, "game_value": game, "based_on_value": start.based_on}
    return type(f"PaytableDraftForm_{game}", (PaytableDraftForm,), attrs)


def draft_fieldsets(game: str) -> list[tuple[str | None, dict[str, Any]]]:
    sets: list[tuple[str | None, dict[str, Any]]] = [
        (None, {"fields": ["game", "name"]}),
    ]
    for wager, names in games.banked(game).required_lines().items():
        sets.append(
            (
                f"{_wager_label(game, wager)} paytable: odds N to 1",
                {
                    "fields": [_line_field(wager, line) for line in names],
                    "description": ODDS_HELP,
                },
            )
        )
    sets.append(
        (
            "Table limits, in dollars",
            {
                "fields": [
                    (_limit_field(w, "min"), _limit_field(w, "max"))
                    for w in games.banked(game).limited_wagers
                ],
            },
        )
    )
    return sets


@admin.register(PaytableVersion)
class PaytableVersionAdmin(ApprovedVersionAdmin):
    """Drafted here with one input per line, approved by a second admin, never edited."""

    approved_note = "it can now be assigned to tables."
    never_edited = "a saved paytable version is never edited: draft a new one"
    list_display = ["game", "name", "version", "status", "drafted", "approved", "tables_using"]
    readonly_fields = [
        *VERSION_READONLY,
        "paytable_lines",
        "theoretical_figures",
        "table_limits",
        "tables_using",
        "compared_with_in_use",
    ]

    def approve_version(self, version: Any, user: Any) -> None:
        paytable_approve(version=version, approver=user)

    def draft_version(self, user: Any, form: Any) -> PaytableVersion:
        return paytable_draft(author=user, **form.draft_kwargs())

    # The changelist.

    def get_queryset(self, request: HttpRequest) -> QuerySet[PaytableVersion]:
        return super().get_queryset(request).prefetch_related("tables")

    @admin.display(description="tables using it")
    def tables_using(self, obj: PaytableVersion) -> str:
        return table_links(obj.tables.all())

    # The add form: choose a starting point, then one input per line.

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        start = draft_start(request)
        if start is None:
            return self.choose_start_view(request)
        label = games.get(start.game).label
        source = (
            f"Copied from {start.based_on}."
            if start.based_on
            else f"Pre-filled with the rules' {label} paytable {start.name!r}."
        )
        context = {
            "title": f"Draft a {label} paytable version",
            "subtitle": source,
            **(extra_context or {}),
        }
        return super().add_view(request, form_url, context)

    def choose_start_view(self, request: HttpRequest) -> HttpResponse:
        starts = []
        for game in games.all_games():
            if not isinstance(game, games.BankedGame):
                continue  # a paytable is a banked game's
            latest: dict[str, PaytableVersion] = {}
            for version in PaytableVersion.objects.filter(game=game.name).order_by(
                "name", "-version"
            ):
                latest.setdefault(version.name, version)
            starts.append(
                {
                    "game": game.label,
                    "named": [
                        (name, self.add_url(game=game.name, named=name))
                        for name in game.named_paytables()
                    ],
                    "versions": [(v, self.add_url(based_on=v.pk)) for v in latest.values()],
                }
            )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Draft a paytable version",
            "subtitle": "Choose where to start",
            "starts": starts,
        }
        return TemplateResponse(request, "admin/tables/paytableversion/choose_start.html", context)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        start = draft_start(request)
        if start is None:
            return {}
        initial: dict[str, Any] = {"name": start.name}
        for wager, names in games.banked(start.game).required_lines().items():
            for line in names:
                initial[_line_field(wager, line)] = start.lines.get(wager, {}).get(line, "")
        for wager in games.banked(start.game).limited_wagers:
            given = start.limits.get(wager) or FALLBACK_LIMITS
            initial[_limit_field(wager, "min")] = given["min_cents"]
            initial[_limit_field(wager, "max")] = given["max_cents"]
        return initial

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            start = draft_start(request)
            if start is None:  # add_view shows the chooser first; only a forged POST lands here
                raise PermissionDenied("choose a game or a version to draft from")
            return draft_form_for(start)
        return super().get_form(request, obj, change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            start = draft_start(request)
            return draft_fieldsets(start.game) if start else [(None, {"fields": ["game", "name"]})]
        return [
            *VERSION_FIELDSETS,
            (
                "Paytable",
                {
                    "fields": [
                        "paytable_lines",
                        "theoretical_figures",
                        "table_limits",
                        "tables_using",
                    ]
                },
            ),
            (
                "Compared with the version in use",
                {"fields": ["compared_with_in_use"]},
            ),
        ]

    # The read-only page of a version.

    @admin.display(description="lines (odds N to 1)")
    def paytable_lines(self, obj: PaytableVersion) -> str:
        rows = []
        for wager, lines in obj.lines.items():
            for line, odds in lines.items():
                rows.append(
                    (
                        _wager_label(obj.game, wager),
                        line_label(obj.game, line),
                        format_odds(parse_odds(odds, where=line)),
                    )
                )
        return format_html(
            "<table><thead><tr><th>wager</th><th>line</th><th>pays</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    @admin.display(description="line by line")
    def compared_with_in_use(self, obj: PaytableVersion) -> str:
        current = version_in_use(obj)
        if current is None:
            return "No approved version of this game to compare with."
        rows = compare_versions(obj, current)
        changed = sum(1 for row in rows if row[3] != "same")
        head = format_html(
            "<p>{} {} v{} ({}): {} of {} lines and limits differ.</p>",
            "In use:" if current.tables.exists() else "Latest approved:",
            current.name,
            current.version,
            ", ".join(t.name for t in current.tables.all()) or "no table",
            changed,
            len(rows),
        )
        return format_html(
            '{}<table class="paytable-diff"><thead><tr><th>line</th><th>in use</th>'
            "<th>this version</th><th>change</th></tr></thead><tbody>{}</tbody></table>",
            head,
            format_html_join(
                "",
                '<tr class="{}"><td>{}</td><td>{}</td><td>{}</td><td><strong>{}</strong></td></tr>',
                (("changed" if r[3] != "same" else "same", *r) for r in rows),
            ),
        )

    @admin.display(description="table limits")
    def table_limits(self, obj: PaytableVersion) -> str:
        rows = [
            (_wager_label(obj.game, w), dollars(lim["min_cents"]), dollars(lim["max_cents"]))
            for w, lim in obj.limits.items()
        ]
        return format_html(
            "<table><thead><tr><th>wager</th><th>minimum</th><th>maximum</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    @admin.display(description="theoretical figures")
    def theoretical_figures(self, obj: PaytableVersion) -> str:
        """The version's house edge and spread per wager (the player playing the floor's
        strategy); a draft's, computed now, beside those of the version in use."""
        if not has_figures(obj.game):
            return "—"
        strategy = FLOOR_STRATEGY.value
        columns: list[tuple[str, dict[str, Any] | None]] = []
        if obj.is_approved:
            stored = version_figures(obj, strategy)
            if stored is None:
                return "Being computed: a worker computes them once the version is approved."
            columns.append((f"v{obj.version}", stored.figures))
        else:
            (draft,) = compute_figures(
                game=obj.game, lines=obj.lines, name=obj.name, strategies=[Strategy(strategy)]
            )
            columns.append((f"this draft (v{obj.version}, computed now)", draft))
            current = version_in_use(obj)
            if current is not None:
                stored = version_figures(current, strategy)
                columns.append((f"v{current.version} in use", stored.figures if stored else None))
        return figures_table(columns, strategy)


def _figure_cells(report: dict[str, Any] | None, wager: str) -> tuple[str, str, str, str]:
    if report is None:
        return ("computing…", "", "", "")
    found = next((w for w in report["wagers"] if w["wager"] == wager), None)
    if found is None:
        return ("—", "", "", "")
    edge = found["house_edge"]
    method = found["method"].replace("_", " ")
    if "samples" in found:
        method += f", {found['samples']:,} samples"
    return (
        f"{Decimal(edge['per_initial_wager']) * 100:.4f}%",
        f"{Decimal(edge['per_total_wagered']) * 100:.4f}%",
        f"{Decimal(found['std_dev']):.4f}",
        method,
    )


def figures_table(columns: list[tuple[str, dict[str, Any] | None]], strategy: str) -> str:
    """Per wager: the edge per initial wager and per total wagered, the standard deviation per
    unit and the method, for each version shown side by side."""
    wagers: list[str] = []
    for _label, report in columns:
        for w in (report or {}).get("wagers", []):
            if w["wager"] not in wagers:
                wagers.append(w["wager"])
    head = format_html_join("", '<th colspan="4">{}</th>', ((label,) for label, _report in columns))
    sub = format_html_join(
        "",
        "<th>{}</th><th>{}</th><th>{}</th><th>{}</th>",
        (("edge", "per total wagered", "std dev", "method") for _ in columns),
    )
    rows = format_html_join(
        "",
        "<tr><td>{}</td>{}</tr>",
        (
            (
                games.wager_label(w),
                format_html_join(
                    "",
                    "<td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                    (_figure_cells(report, w) for _label, report in columns),
                ),
            )
            for w in wagers
        ),
    )
    return format_html(
        '<table class="theoretical-figures"><thead><tr><th rowspan="2">wager</th>{}</tr>'
        "<tr>{}</tr></thead><tbody>{}</tbody></table>"
        '<p class="help">The house edge is the player\'s expected loss per unit; the player '
        "plays the {} strategy (see docs/house_edge.md).</p>",
        head,
        sub,
        rows,
        strategy,
    )
