"""Progressive meters: configured here in dollars; the value moves only by the rounds'
contributions and jackpots and by recorded corrections (`meter_correct`). Entries are read-only."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import urlencode

from core.money import dollars
from tables import games
from tables.models import MeterEntry, ProgressiveMeter
from tables.services.meters import meter_correct, meter_open

from .common import (
    DollarsField,
    FloorAdmin,
    PercentField,
    ReadOnlyInline,
    ServiceFormMixin,
    is_floor_admin,
    service_call,
    table_links,
)

METER_MONEY_LABELS = {
    "value_cents": "starting value",
    "reset_cents": "reset amount",
    "wager_cents": "progressive wager",
    "cap_cents": "cap",
}


def award_field_name(game: str, key: str) -> str:
    """The form field of one award of a game's progressive."""
    return f"award__{game}__{key}"


def award_games(meter: ProgressiveMeter | None) -> list[games.GameDefinition]:
    """The games whose awards the form sets: the meter's own, or (a new meter) every game
    that takes a progressive, the one chosen being the one that counts."""
    if meter is not None:
        return [games.get(meter.game)]
    return [g for g in games.all_games() if g.takes_progressive]


def award_fields(meter: ProgressiveMeter | None) -> dict[str, forms.Field]:
    """One field in dollars per fixed award the game declares, in the game's words (a new
    meter's form, with several games to choose from, names the game too)."""
    shown = award_games(meter)
    out: dict[str, forms.Field] = {}
    for game in shown:
        for award in game.fixed_awards():
            what = f"award: {award.label}"
            if len(shown) > 1:
                what = f"{game.label} {what}"
            out[award_field_name(game.name, award.key)] = DollarsField(
                what=f"the {what}",
                label=f"{what[0].upper()}{what[1:]} ($)",
                required=len(shown) == 1,
                initial=award.default_cents,
            )
    return out


class ProgressiveMeterForm(forms.ModelForm):  # type: ignore[type-arg]
    """The meter's settings; its awards are one field per award of its game, kept together
    as the meter's `awards` (what the record binds and the audit event shows)."""

    class Meta:
        model = ProgressiveMeter
        fields = [
            "name",
            "value_cents",
            "game",
            "reset_cents",
            "rate",
            "wager_cents",
            "split",
            "cap_cents",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        meter = self.instance if self.instance.pk is not None else None
        if meter is not None:
            for key, cents in (meter.awards or {}).items():
                self.initial[award_field_name(meter.game, key)] = cents
            self.initial["awards"] = meter.awards
        elif "game" in self.fields:
            taking = games.progressive_choices()
            if len(taking) == 1:
                self.fields["game"].initial = taking[0][0]
            self.fields["game"].help_text = "the game of the tables it serves: its awards"

    def chosen_game(self) -> games.GameDefinition | None:
        if self.instance.pk is not None:
            return games.get(self.instance.game)
        name = self.cleaned_data.get("game")
        return games.GAMES.get(name) if name else None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        game = self.chosen_game()
        if game is not None:
            awards = {}
            for award in game.fixed_awards():
                name = award_field_name(game.name, award.key)
                if name not in self.fields:
                    continue
                cents = cleaned.get(name)
                if cents is None:
                    if name not in self.errors:
                        self.add_error(name, f"the award {award.label} is required")
                    continue
                awards[award.key] = cents
            if len(awards) == len(game.fixed_awards()):
                cleaned["awards"] = awards
                self.instance.awards = awards
        reset = cleaned.get("reset_cents", self.instance.reset_cents)
        cap = cleaned.get("cap_cents")
        if cap is not None and reset is not None and cap < reset:
            self.add_error(
                "cap_cents",
                f"the cap ({dollars(cap)}) may not be below the reset amount ({dollars(reset)})",
            )
        return cleaned

    @property
    def changed_data(self) -> list[str]:  # type: ignore[override]
        """The form's changed fields, with `awards` when any award's field changed."""
        changed = list(super().changed_data)
        if any(name.startswith("award__") for name in changed):
            changed.append("awards")
        return changed


class RecentMeterEntryInline(ReadOnlyInline):
    """The meter's latest entries, read-only (the full list is under Meter entries)."""

    model = MeterEntry
    fields = ["at", "kind", "amount", "value_after", "round", "by", "reason"]
    readonly_fields = fields
    verbose_name_plural = "recent entries (latest 20)"
    template = "admin/tables/progressivemeter/recent_entries.html"
    RECENT = 20

    def get_queryset(self, request: HttpRequest) -> QuerySet[MeterEntry]:
        match = request.resolver_match
        meter_id = match.kwargs.get("object_id") if match else None
        recent = (
            list(
                MeterEntry.objects.filter(meter_id=meter_id)
                .order_by("-id")
                .values_list("id", flat=True)[: self.RECENT]
            )
            if meter_id
            else []
        )
        return super().get_queryset(request).filter(id__in=recent).order_by("-id")

    @admin.display(description="amount")
    def amount(self, obj: MeterEntry) -> str:
        return dollars(obj.amount_cents)

    @admin.display(description="value after")
    def value_after(self, obj: MeterEntry) -> str:
        return dollars(obj.value_after_cents)


@admin.register(ProgressiveMeter)
class ProgressiveMeterAdmin(FloorAdmin):
    """Configured here; its value moves only by rounds and recorded corrections."""

    audit_noun = "meter"
    form = ProgressiveMeterForm
    list_display = [
        "name",
        "value",
        "reset",
        "rate_percent",
        "wager",
        "cap",
        "overflow",
        "split",
        "linked_tables",
    ]
    search_fields = ["name"]
    change_form_template = "admin/tables/progressivemeter/change_form.html"
    inlines = [RecentMeterEntryInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ProgressiveMeter]:
        return super().get_queryset(request).prefetch_related("tables")

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        """The meter's form with one field per award of its game (a new meter's: of each game
        it may serve)."""
        form = type("ProgressiveMeterForm", (ProgressiveMeterForm,), award_fields(obj))
        return super().get_form(request, obj, change, form=form, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        config = (
            "Configuration",
            {
                "fields": [
                    "reset_cents",
                    "rate",
                    "wager_cents",
                    *award_fields(obj),
                    "split",
                    "cap_cents",
                ]
            },
        )
        if obj is None:
            return [(None, {"fields": ["name", "game", "value_cents"]}), config]
        return [
            (
                None,
                {
                    "fields": ["name", "game", "value", "overflow", "linked_tables"],
                    "description": "The value changes only by contributions, jackpots and "
                    "recorded, authorised corrections.",
                },
            ),
            config,
        ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ["game", "value", "overflow", "linked_tables"] if obj is not None else []

    def get_inlines(self, request: HttpRequest, obj: Any) -> Any:
        return self.inlines if obj is not None else []

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name in METER_MONEY_LABELS:
            what = METER_MONEY_LABELS[db_field.name]
            return DollarsField(
                what=f"the {what}",
                label=f"{what[0].upper()}{what[1:]} ($)",
                required=not db_field.null,
                allow_zero=db_field.name != "wager_cents",
                help_text="leave empty for no cap" if db_field.name == "cap_cents" else "",
            )
        if db_field.name == "rate":
            return PercentField(
                label="Contribution (%)",
                help_text="the share of each progressive wager added to the meter",
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    @admin.display(description="value", ordering="value_cents")
    def value(self, obj: ProgressiveMeter) -> str:
        return dollars(obj.value_cents)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """A new meter is saved at 0, then its starting value is recorded as its first entry."""
        if change:
            self.save_config(request, obj, form, change)
            return
        opening = obj.value_cents
        obj.value_cents = 0
        with transaction.atomic():
            self.save_config(request, obj, form, change)
            meter_open(meter=obj, by=request.user, value_cents=opening)
        obj.refresh_from_db()

    @admin.display(description="reset", ordering="reset_cents")
    def reset(self, obj: ProgressiveMeter) -> str:
        return dollars(obj.reset_cents)

    @admin.display(description="contribution", ordering="rate")
    def rate_percent(self, obj: ProgressiveMeter) -> str:
        return f"{(obj.rate * 100).quantize(Decimal('0.01'))} %"

    @admin.display(description="wager", ordering="wager_cents")
    def wager(self, obj: ProgressiveMeter) -> str:
        return dollars(obj.wager_cents)

    @admin.display(description="cap", ordering="cap_cents")
    def cap(self, obj: ProgressiveMeter) -> str:
        return dollars(obj.cap_cents) if obj.cap_cents is not None else "none"

    @admin.display(description="overflow", ordering="overflow_cents")
    def overflow(self, obj: ProgressiveMeter) -> str:
        return dollars(obj.overflow_cents)

    @admin.display(description="linked tables")
    def linked_tables(self, obj: ProgressiveMeter) -> str:
        return table_links(obj.tables.all())

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        add_url = reverse("admin:tables_meterentry_add")
        context = {
            "correct_url": f"{add_url}?{urlencode({'meter': object_id})}"
            if MeterEntryAdmin.may_correct(request)
            else None,
            "entries_url": reverse("admin:tables_meterentry_changelist")
            + "?"
            + urlencode({"meter__id__exact": object_id}),
            **(extra_context or {}),
        }
        return super().change_view(request, object_id, form_url, context)


class MeterChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} (now {dollars(obj.value_cents)})"


class MeterCorrectionForm(forms.ModelForm):  # type: ignore[type-arg]
    """An authorised correction: a signed amount and the reason, recorded by `meter_correct`."""

    amount = DollarsField(
        what="the correction",
        signed=True,
        allow_zero=False,
        label="Correction ($)",
        help_text="signed: +100.00 adds to the meter, -25.50 takes off",
    )

    class Meta:
        model = MeterEntry
        fields = ["meter", "amount", "reason"]
        field_classes = {"meter": MeterChoiceField}
        help_texts = {"reason": "required: why the meter is corrected, and on whose authority"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = True

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        meter, amount = cleaned.get("meter"), cleaned.get("amount")
        if meter is not None and amount is not None and meter.value_cents + amount < 0:
            self.add_error(
                "amount",
                f"the meter holds {dollars(meter.value_cents)}: a correction "
                f"of {dollars(amount)} would make it negative",
            )
        return cleaned


@admin.register(MeterEntry)
class MeterEntryAdmin(ServiceFormMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    """Every change to a meter, appended; the add form records only corrections."""

    ordering = ["-id"]
    list_display = ["at", "meter", "kind", "amount", "value_after", "round", "by", "reason"]
    list_filter = ["meter", "kind"]
    search_fields = ["reason", "by__username"]
    list_select_related = ["meter", "round", "round__table", "by"]
    readonly_fields = ["meter", "kind", "amount", "value_after", "round", "by", "reason", "at"]

    @staticmethod
    def may_correct(request: HttpRequest) -> bool:
        return is_floor_admin(request) and request.user.has_perm("tables.add_meterentry")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self.may_correct(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            return MeterCorrectionForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ["meter", "amount", "reason"] if obj is None else self.readonly_fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.readonly_fields if obj is not None else []

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        context = {"title": "Record a meter correction", **(extra_context or {})}
        return super().add_view(request, form_url, context)

    def response_add(
        self, request: HttpRequest, obj: Any, post_url_continue: Any = None
    ) -> HttpResponse:
        """Back to the meter, whose value shows the correction."""
        moved, now = dollars(obj.amount_cents), dollars(obj.value_after_cents)
        self.message_user(
            request,
            f"Correction recorded: {obj.meter} moved by {moved} to {now}.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(
            reverse("admin:tables_progressivemeter_change", args=[obj.meter_id])
        )

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        # The service writes the entry, moves the value and audits it.
        with service_call():
            return meter_correct(
                meter=form.cleaned_data["meter"],
                by=request.user,
                amount_cents=form.cleaned_data["amount"],
                reason=form.cleaned_data["reason"],
            )

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Saved by `meter_correct` in `save_form`."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """An entry has no related rows to save."""

    @admin.display(description="amount", ordering="amount_cents")
    def amount(self, obj: MeterEntry) -> str:
        return dollars(obj.amount_cents)

    @admin.display(description="value after", ordering="value_after_cents")
    def value_after(self, obj: MeterEntry) -> str:
        return dollars(obj.value_after_cents)
