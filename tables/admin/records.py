"""What was played, read-only: rounds with their settlement lines, dealer sign-ins, and
player-vs-player hands with their players. A round and a hand are listed, found and shown
alike (`PlayedAdmin`); what each holds is its own."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import flatten_fieldsets
from django.http import HttpRequest
from django.utils.html import format_html_join

from tables.models import DealerSession, Hand, HandPlayer, Round, SettlementLine

from .common import (
    ReadOnlyAdmin,
    ReadOnlyInline,
    admin_link,
    dollars_column,
    json_column,
)


class PlayedAdmin(ReadOnlyAdmin):
    """A round or a hand: listed by table, status and game, newest by when it opened, found by
    its number or its table's name; every field its page shows is read-only."""

    list_filter = ["table", "status", "game"]
    search_fields = ["number__exact", "table__name"]
    date_hierarchy = "opened_at"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return flatten_fieldsets(self.get_fieldsets(request, obj))


class SettlementLineInline(ReadOnlyInline):
    model = SettlementLine
    fields = ["seat", "wager", "stake", "result", "net", "odds", "award", "breakage"]
    readonly_fields = fields

    stake = dollars_column("stake_cents", "stake")
    net = dollars_column("net_cents", "net")


@admin.register(Round)
class RoundAdmin(PlayedAdmin):
    list_display = [
        "__str__",
        "game",
        "status",
        "dealer",
        "paytable_version",
        "handle",
        "house_win",
        "opened_at",
        "settled_at",
    ]
    search_help_text = "a round number, or a table's name"
    list_select_related = ["table", "dealer", "paytable_version"]
    inlines = [SettlementLineInline]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    ("table", "number", "game", "status"),
                    ("dealer", "paytable_version"),
                    ("opened_at", "settled_at"),
                    ("handle", "house_win"),
                ]
            },
        ),
        (
            "Void and correction",
            {"fields": [("voided_by", "voided_at"), "void_reason", "corrects", "corrected_by"]},
        ),
        ("What the dealer entered", {"fields": ["entry_json", "house_way_json"]}),
        ("Settlement", {"fields": ["settlement_json"]}),
    ]

    handle = dollars_column("handle_cents", "handle", ordering=True)
    house_win = dollars_column("house_win_cents", "house win")
    entry_json = json_column("entry", "entry")
    house_way_json = json_column("house_way", "house way")
    settlement_json = json_column("settlement", "settlement")

    @admin.display(description="corrected by")
    def corrected_by(self, obj: Round) -> str:
        return (
            format_html_join(", ", "{}", ((admin_link(r),) for r in obj.corrections.all())) or "—"
        )


@admin.register(SettlementLine)
class SettlementLineAdmin(ReadOnlyAdmin):
    list_display = ["round", "seat", "wager", "stake", "result", "net", "odds", "award", "breakage"]
    list_filter = ["round__table", "round__game", "result", "wager"]
    search_fields = ["round__number__exact", "round__table__name"]
    search_help_text = "a round number, or a table's name"
    list_select_related = ["round", "round__table"]

    stake = dollars_column("stake_cents", "stake", ordering=True)
    net = dollars_column("net_cents", "net", ordering=True)


@admin.register(DealerSession)
class DealerSessionAdmin(ReadOnlyAdmin):
    list_display = ["table", "dealer", "started_at", "ended_at", "is_open"]
    list_filter = ["table", ("ended_at", admin.EmptyFieldListFilter)]
    search_fields = ["dealer__username", "table__name"]
    list_select_related = ["table", "dealer"]

    @admin.display(description="signed in now", boolean=True)
    def is_open(self, obj: DealerSession) -> bool:
        return obj.ended_at is None


class HandPlayerInline(ReadOnlyInline):
    model = HandPlayer
    fields = ["position", "seat", "buy_in", "payoff", "stack_after"]
    readonly_fields = fields

    buy_in = dollars_column("buy_in_cents", "buy-in")
    payoff = dollars_column("payoff_cents", "payoff")
    stack_after = dollars_column("stack_after_cents", "stack after")


@admin.register(Hand)
class HandAdmin(PlayedAdmin):
    """Player-vs-player hands, read-only: the record in the replay contract's form, the pot,
    the rake (the house's win) and each player's payoff."""

    list_display = [
        "__str__",
        "game",
        "status",
        "dealer",
        "settings_version",
        "pot",
        "rake",
        "opened_at",
        "finished_at",
    ]
    search_help_text = "a hand number, or a table's name"
    list_select_related = ["table", "dealer", "settings_version"]
    inlines = [HandPlayerInline]
    fields = [
        ("table", "number", "game", "status"),
        ("dealer", "settings_version"),
        ("opened_at", "finished_at", "gaming_day", "shift"),
        ("pot", "rake"),
        ("voided_at", "voided_by", "void_reason"),
        "record_json",
        "result_json",
    ]

    pot = dollars_column("pot_cents", "pot")
    rake = dollars_column("rake_cents", "rake (house win)")
    record_json = json_column("record", "record (replay contract)")
    result_json = json_column("result", "result")
