"""Table settings of player-vs-player games (players, ante, bet sizes, raise cap, rake percent
and cap): drafted here (a new version each time), approved by a second admin, never edited;
put in force at a table from the table's page (`table_settings_assign`). Like paytables
(`versions.ApprovedVersionAdmin`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from core.errors import ServiceError
from core.params import ascii_int
from tables import games
from tables.models import TableSettingsVersion
from tables.services.table_settings import table_settings_approve, table_settings_draft

from .common import pretty_json
from .versions import (
    VERSION_FIELDSETS,
    VERSION_READONLY,
    ApprovedVersionAdmin,
    VersionDraftForm,
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


class TableSettingsDraftForm(VersionDraftForm):
    """A draft of one game's table settings: one input per setting, checked by the game."""

    class Meta(VersionDraftForm.Meta):
        model = TableSettingsVersion

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
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
class TableSettingsVersionAdmin(ApprovedVersionAdmin):
    """Drafted here with one input per setting, approved by a second admin, never edited."""

    approved_note = "it can now be put in force at tables."
    never_edited = "saved table settings are never edited: draft a new version"
    list_display = ["game", "name", "version", "status", "summary", "drafted", "approved"]
    readonly_fields = [*VERSION_READONLY, "summary", "settings_json"]

    def approve_version(self, version: Any, user: Any) -> None:
        table_settings_approve(version=version, approver=user)

    def draft_version(self, user: Any, form: Any) -> TableSettingsVersion:
        return table_settings_draft(
            author=user,
            game=form.game_value,
            name=form.cleaned_data["name"],
            values=form.values,
            based_on=form.based_on_value,
        )

    @admin.display(description="settings")
    def summary(self, obj: TableSettingsVersion) -> str:
        return games.player_vs_player(obj.game).settings_text(obj.values)

    @admin.display(description="as stored")
    def settings_json(self, obj: TableSettingsVersion) -> str:
        return pretty_json(obj.values)

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
        return [*VERSION_FIELDSETS, ("Settings", {"fields": ["summary", "settings_json"]})]
