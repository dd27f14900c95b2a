"""What was played, read-only: rounds with their settlement lines, dealer sign-ins, and
player-vs-player hands with their players."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html_join

from core.money import dollars
from tables.models import DealerSession, Hand, HandPlayer, Round, SettlementLine

from .common import ReadOnlyAdmin, ReadOnlyInline, admin_link, pretty_json


class SettlementLineInline(ReadOnlyInline):
    model = SettlementLine
    fields = ["seat", "wager", "stake", "result", "net", "odds", "award", "breakage"]
    readonly_fields = fields

    @admin.display(description="stake")
    def stake(self, obj: SettlementLine) -> str:
        return dollars(obj.stake_cents)

    @admin.display(description="net")
    def net(self, obj: SettlementLine) -> str:
        return dollars(obj.net_cents)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
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
    list_filter = ["table", "status", "game"]
    search_fields = ["number__exact", "table__name"]
    search_help_text = "a round number, or a table's name"
    list_select_related = ["table", "dealer", "paytable_version"]
    date_hierarchy = "opened_at"
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
    readonly_fields = [
        "table",
        "number",
        "game",
        "status",
        "dealer",
        "paytable_version",
        "opened_at",
        "settled_at",
        "handle",
        "house_win",
        "voided_by",
        "voided_at",
        "void_reason",
        "corrects",
        "corrected_by",
        "entry_json",
        "house_way_json",
        "settlement_json",
    ]

    @admin.display(description="handle", ordering="handle_cents")
    def handle(self, obj: Round) -> str:
        return dollars(obj.handle_cents)

    @admin.display(description="house win")
    def house_win(self, obj: Round) -> str:
        return dollars(obj.house_win_cents)

    @admin.display(description="corrected by")
    def corrected_by(self, obj: Round) -> str:
        return (
            format_html_join(", ", "{}", ((admin_link(r),) for r in obj.corrections.all())) or "—"
        )

    @admin.display(description="entry")
    def entry_json(self, obj: Round) -> str:
        return pretty_json(obj.entry)

    @admin.display(description="house way")
    def house_way_json(self, obj: Round) -> str:
        return pretty_json(obj.house_way)

    @admin.display(description="settlement")
    def settlement_json(self, obj: Round) -> str:
        return pretty_json(obj.settlement) if obj.settlement is not None else "—"


@admin.register(SettlementLine)
class SettlementLineAdmin(ReadOnlyAdmin):
    list_display = ["round", "seat", "wager", "stake", "result", "net", "odds", "award", "breakage"]
    list_filter = ["round__table", "round__game", "result", "wager"]
    search_fields = ["round__number__exact", "round__table__name"]
    search_help_text = "a round number, or a table's name"
    list_select_related = ["round", "round__table"]

    @admin.display(description="stake", ordering="stake_cents")
    def stake(self, obj: SettlementLine) -> str:
        return dollars(obj.stake_cents)

    @admin.display(description="net", ordering="net_cents")
    def net(self, obj: SettlementLine) -> str:
        return dollars(obj.net_cents)


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

    @admin.display(description="buy-in")
    def buy_in(self, obj: HandPlayer) -> str:
        return dollars(obj.buy_in_cents)

    @admin.display(description="payoff")
    def payoff(self, obj: HandPlayer) -> str:
        return dollars(obj.payoff_cents)

    @admin.display(description="stack after")
    def stack_after(self, obj: HandPlayer) -> str:
        return dollars(obj.stack_after_cents)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
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
    list_filter = ["table", "status", "game"]
    search_fields = ["number__exact", "table__name"]
    search_help_text = "a hand number, or a table's name"
    list_select_related = ["table", "dealer", "settings_version"]
    date_hierarchy = "opened_at"
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
    readonly_fields = [
        "table",
        "number",
        "game",
        "status",
        "dealer",
        "settings_version",
        "opened_at",
        "finished_at",
        "gaming_day",
        "shift",
        "pot",
        "rake",
        "voided_at",
        "voided_by",
        "void_reason",
        "record_json",
        "result_json",
    ]

    @admin.display(description="pot")
    def pot(self, obj: Hand) -> str:
        return dollars(obj.pot_cents)

    @admin.display(description="rake (house win)")
    def rake(self, obj: Hand) -> str:
        return dollars(obj.rake_cents)

    @admin.display(description="record (replay contract)")
    def record_json(self, obj: Hand) -> str:
        return pretty_json(obj.record)

    @admin.display(description="result")
    def result_json(self, obj: Hand) -> str:
        return pretty_json(obj.result)
