"""Table settings of player-vs-player games (players, ante, bet sizes, raise cap, rake percent
and cap): drafted here (a new version each time), approved by a second admin, never edited;
put in force at a table from the table's page (`table_settings_assign`). Like paytables."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import urlencode

from core.errors import ServiceError
from core.params import ascii_int
from tables import games
from tables.models import TableSettingsVersion
from tables.services.table_settings import table_settings_approve, table_settings_draft

from .common import (
    FloorAdmin,
    admin_link,
    audit_refused_permission,
    by_at,
    pretty_json,
    service_call,
)


def _field(key: str) -> str:
    return f"setting__{key}"


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def _start(request: HttpRequest) -> tuple[str, str, dict[str, Any], TableSettingsVersion | None]:
    """(game, name, values, based on) a draft starts from: `?based_on=<id>`, `?game=<game>`,
    else the first player-vs-player game's defaults."""
    based_on = ascii_int(request.GET.get("based_on", ""))
    if based_on is not None:
        version = TableSettingsVersion.objects.filter(pk=based_on).first()
        if version is not None:
            return version.game, version.name, dict(version.values), version
    pvp = [g for g in games.all_games() if isinstance(g, games.PlayerVsPlayerGame)]
    game = next((g for g in pvp if g.name == request.GET.get("game")), pvp[0] if pvp else None)
    if game is None:
        raise PermissionDenied("no player-vs-player game is registered")
    return game.name, "house", dict(game.default_settings), None


class TableSettingsDraftForm(forms.ModelForm):  # type: ignore[type-arg]
    """A draft of one game's table settings: one input per setting, checked by the game."""

    game_value: str
    based_on_value: TableSettingsVersion | None

    class Meta:
        model = TableSettingsVersion
        fields = ["game", "name"]
        help_texts = {"name": "Drafting under an existing name makes its next version."}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].disabled = True
        self.initial["game"] = self.game_value
        self.values: dict[str, Any] = {}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        game = games.player_vs_player(self.game_value)
        given = {key: cleaned.get(_field(key), "") for key in game.default_settings}
        try:
            self.values = game.check_settings(given)
        except ServiceError as err:
            key = _field(err.field or "")
            if err.field and err.field.startswith("bets_cents"):
                key = _field("bets_cents")
            self.add_error(key if key in self.fields else None, err.message)
        return cleaned


def draft_form_for(game_name: str, based_on: TableSettingsVersion | None) -> type[forms.Form]:
    game = games.player_vs_player(game_name)
    fields: dict[str, Any] = {
        _field(key): forms.CharField(
            label=key.replace("_", " "),
            required=False,
            help_text=game.settings_help.get(key, ""),
        )
        for key in game.default_settings
    }
    attrs = {**fields, "game_value": game_name, "based_on_value": based_on}
    return type(f"TableSettingsDraftForm_{game_name}", (TableSettingsDraftForm,), attrs)


@admin.register(TableSettingsVersion)
class TableSettingsVersionAdmin(FloorAdmin):
    """Drafted here (a new version each time), approved by a second admin, never edited."""

    list_display = ["game", "name", "version", "status", "summary", "drafted", "approved"]
    list_display_links = ["game", "name", "version"]
    list_filter = ["game", "status"]
    search_fields = ["name"]
    list_select_related = ["drafted_by", "approved_by"]
    actions = ["approve_drafts", "draft_from_selected"]
    readonly_fields = [
        "game",
        "name",
        "version",
        "status",
        "summary",
        "settings_json",
        "based_on_link",
        "drafted_by",
        "drafted_at",
        "approved_by",
        "approved_at",
    ]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request)

    def has_approve_permission(self, request: HttpRequest) -> bool:
        return super().has_change_permission(request)

    @admin.display(description="settings")
    def summary(self, obj: TableSettingsVersion) -> str:
        return games.player_vs_player(obj.game).settings_text(obj.values)

    @admin.display(description="as stored")
    def settings_json(self, obj: TableSettingsVersion) -> str:
        return pretty_json(obj.values)

    @admin.display(description="based on")
    def based_on_link(self, obj: TableSettingsVersion) -> str:
        return admin_link(obj.based_on) if obj.based_on else "—"

    @admin.display(description="drafted by, at", ordering="drafted_at")
    def drafted(self, obj: TableSettingsVersion) -> str:
        return by_at(obj.drafted_by, obj.drafted_at)

    @admin.display(description="approved by, at", ordering="approved_at")
    def approved(self, obj: TableSettingsVersion) -> str:
        return by_at(obj.approved_by, obj.approved_at)

    @admin.action(description="Approve selected drafts", permissions=["approve"])
    def approve_drafts(
        self, request: HttpRequest, queryset: QuerySet[TableSettingsVersion]
    ) -> HttpResponse | None:
        for version in list(queryset.order_by("pk")):
            label = f"{version.get_game_display()} {version.name} v{version.version}"
            try:
                table_settings_approve(version=version, approver=request.user)
            except PermissionDenied as err:
                audit_refused_permission(request, f"{label}: {err}")
                self.message_user(request, f"{label} was not approved: {err}.", messages.ERROR)
            except ServiceError as err:
                self.message_user(
                    request, f"{label} was not approved: {err.message}.", messages.WARNING
                )
            else:
                self.message_user(
                    request,
                    f"{label} is approved: it can now be put in force at tables.",
                    messages.SUCCESS,
                )
        return None

    @admin.action(description="Draft a new version from the selected one", permissions=["add"])
    def draft_from_selected(
        self, request: HttpRequest, queryset: QuerySet[TableSettingsVersion]
    ) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, "Select one version to draft from.", messages.WARNING)
            return None
        url = reverse("admin:tables_tablesettingsversion_add")
        return HttpResponseRedirect(f"{url}?{urlencode({'based_on': queryset.get().pk})}")

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            game, _name, _values, based_on = _start(request)
            return draft_form_for(game, based_on)
        return super().get_form(request, obj, change, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        game, name, values, _based_on = _start(request)
        initial: dict[str, Any] = {"name": name}
        for key in games.player_vs_player(game).default_settings:
            initial[_field(key)] = _shown(values.get(key))
        return initial

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            game, *_ = _start(request)
            keys = [_field(k) for k in games.player_vs_player(game).default_settings]
            return [(None, {"fields": ["game", "name"]}), ("Settings", {"fields": keys})]
        return [
            (None, {"fields": ["game", "name", "version", "status", "based_on_link"]}),
            (
                "Drafted and approved",
                {"fields": [("drafted_by", "drafted_at"), ("approved_by", "approved_at")]},
            ),
            ("Settings", {"fields": ["summary", "settings_json"]}),
        ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.readonly_fields if obj is not None else []

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        context = {
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            **(extra_context or {}),
        }
        return super().add_view(request, form_url, context)

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        if change:
            raise PermissionDenied("saved table settings are never edited: draft a new version")
        with service_call():
            return table_settings_draft(
                author=request.user,
                game=form.game_value,
                name=form.cleaned_data["name"],
                values=form.values,
                based_on=form.based_on_value,
            )

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Saved by `table_settings_draft` in `save_form`."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """A version has no related rows to save."""
