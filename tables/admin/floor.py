"""Pits and tables. A table's paytable version is put in force by `paytable_assign` (audited);
the rest of its configuration is saved here and audited as `table.created` / `table.changed`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from tables import games
from tables.models import PaytableVersion, Pit, Table, TableSettingsVersion
from tables.selectors import settings_in_force
from tables.services.paytables import paytable_assign
from tables.services.table_settings import table_settings_assign

from .common import FloorAdmin, service_call


@admin.register(Pit)
class PitAdmin(FloorAdmin):
    audit_noun = "pit"
    list_display = ["name", "table_count"]
    search_fields = ["name"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Pit]:
        return super().get_queryset(request).annotate(table_count=Count("tables"))

    @admin.display(description="tables", ordering="table_count")
    def table_count(self, obj: Any) -> int:
        return int(obj.table_count)


class PaytableVersionChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.get_game_display()}: {obj.name} v{obj.version}"


class SettingsVersionChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.get_game_display()}: {obj.name} v{obj.version}"


class TableForm(forms.ModelForm):  # type: ignore[type-arg]
    """A table's configuration; its paytable version is put in force by `paytable_assign`, a
    player-vs-player table's settings version by `table_settings_assign`."""

    table_settings = SettingsVersionChoiceField(
        queryset=TableSettingsVersion.objects.none(),
        required=False,
        label="Table settings version",
        help_text="Player-vs-player games (poker) only, instead of a paytable: approved versions "
        "are offered; a new version applies to hands opened after it is put in force.",
    )

    class Meta:
        model = Table
        fields = ["name", "pit", "game", "seats", "paytable_version", "meter", "is_open"]
        field_classes = {"paytable_version": PaytableVersionChoiceField}
        help_texts = {
            "paytable_version": "Only approved versions are offered. A new version applies to "
            "rounds that start after it is assigned.",
            "meter": "Only for a game that takes a progressive: the meter the table feeds.",
            "is_open": "The table is on the floor. It opens for play only once its opener slip "
            "(the tray's count) is signed for the gaming day and shift, and closes with its "
            "signed closer: this box alone opens nothing.",
        }
        labels = {"is_open": "In service"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        versions = PaytableVersion.objects.filter(status=PaytableVersion.Status.APPROVED)
        if self.instance.pk:
            versions = versions.filter(game=self.instance.game)
        field = self.fields.get("paytable_version")
        if field is not None:
            field.queryset = versions.order_by("game", "name", "-version")  # type: ignore[attr-defined]
        settings = TableSettingsVersion.objects.filter(status=TableSettingsVersion.Status.APPROVED)
        if self.instance.pk:
            settings = settings.filter(game=self.instance.game)
            self.initial["table_settings"] = settings_in_force(self.instance)
        self.fields["table_settings"].queryset = settings.order_by("game", "name", "-version")  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        game = cleaned.get("game") if "game" in self.fields else self.instance.game
        if not game:
            return cleaned
        label = games.get(game).label
        version = cleaned.get("paytable_version")
        chosen = cleaned.get("table_settings")
        if isinstance(games.get(game), games.PlayerVsPlayerGame):
            if version is not None:
                self.add_error(
                    "paytable_version",
                    f"a {label} table has table settings, not a paytable: leave it empty",
                )
            if chosen is not None and chosen.game != game:
                self.add_error("table_settings", f"{chosen} is not for {label}")
            in_force = settings_in_force(self.instance) if self.instance.pk else None
            if chosen is None and in_force is None and cleaned.get("is_open"):
                self.add_error("table_settings", "an open table needs table settings in force")
            return cleaned
        if chosen is not None:
            self.add_error("table_settings", f"a {label} table has a paytable, not table settings")
        if version is not None and version.game != game:
            self.add_error(
                "paytable_version",
                f"{version.name} v{version.version} is a {version.get_game_display()} "
                f"paytable; this is a {label} table",
            )
        if version is None and "paytable_version" not in self.errors:
            if self.instance.pk and self.instance.paytable_version_id:
                self.add_error(
                    "paytable_version",
                    "a table's paytable can be replaced by another approved version, not removed",
                )
            elif cleaned.get("is_open"):
                self.add_error("paytable_version", "an open table needs a paytable in force")
        return cleaned  # a meter at a table whose game takes none: `Table.clean`


@admin.register(Table)
class TableAdmin(FloorAdmin):
    audit_noun = "table"
    form = TableForm
    fields = [
        "name",
        "pit",
        "game",
        "seats",
        "paytable_version",
        "table_settings",
        "meter",
        "is_open",
    ]
    list_display = ["name", "pit", "game", "seats", "paytable_version", "meter", "is_open"]
    list_filter = ["pit", "game", "is_open"]
    search_fields = ["name"]
    list_select_related = ["pit", "paytable_version", "meter"]

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "paytable_version":  # versions are drafted on their own page
            field.widget.can_add_related = field.widget.can_change_related = False
        return field

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A table keeps its game: its rounds and paytable versions are of that game.
        return ["game"] if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        version = form.cleaned_data.get("paytable_version")
        if not change:
            obj.paytable_version = None  # put in force by the service below, audited
        self.save_config(request, obj, form, change, skip=["paytable_version"])
        if version is not None and (not change or "paytable_version" in form.changed_data):
            with service_call():
                paytable_assign(table=obj, version=version, by=request.user)
            obj.paytable_version = version
        chosen = form.cleaned_data.get("table_settings")
        if chosen is not None and (not change or "table_settings" in form.changed_data):
            with service_call():
                table_settings_assign(table=obj, version=chosen, by=request.user)
