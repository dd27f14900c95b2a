"""What the API reads and writes. Output serializers render models; input serializers only
check the shape of a request, strictly (`strict`: a key they do not declare is refused, naming
it; a whole number is a JSON number, text a string, an id a whole number), and the services
judge its content (cards, wagers, limits), so the API and the tablet refuse the same things with
the same messages.

Money: every amount is an integer `*_cents` field plus the same amount as a decimal string
("12.50"); never a float. Input amounts are decimal strings (a float is refused by the engine).
"""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from tables import games
from tables.engine.money import format_cents
from tables.models import (
    DealerSession,
    Hand,
    HandPlayer,
    PaytableVersion,
    ProgressiveMeter,
    Round,
    SettlementLine,
    Table,
)
from tables.selectors import last_wagers, round_state

from .strict import IdField, QueryIdField, StrictSerializer, TextField, WholeField

AMOUNT_PATTERN = r"^-?\d+\.\d{2}$"
CARDS_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"type": "array", "items": {"type": "string"}, "example": ["Ah", "Kd", "2c"]},
        {"type": "string", "example": "Ah Kd 2c"},
    ],
    "description": 'Cards as a list ["Ah", "Kd", "2c"] or one string "Ah Kd 2c" '
    "(10h and A♥ are accepted too).",
}


# --- fields ------------------------------------------------------------------------------


@extend_schema_field({"type": "string", "pattern": AMOUNT_PATTERN, "example": "12.50"})
class AmountField(serializers.Field):
    """Integer cents rendered as a decimal string: 1250 -> "12.50" (read-only)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: int) -> str:
        return format_cents(value)


def _wagers_example() -> dict[str, dict[str, str]]:
    """Seat 1's typed wagers in the first banked game, for the schema's example."""
    banked = [g for g in games.all_games() if isinstance(g, games.BankedGame)]
    return {"1": {w: "10.00" for w in banked[0].typed_wagers}} if banked else {}


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}},
        "example": _wagers_example(),
        "description": "Each seat's wagers (seat number -> wager -> decimal string). Wagers: "
        + games.api_help("api_wagers"),
    }
)
class WagersField(serializers.JSONField):
    pass


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": CARDS_SCHEMA,
        "example": {"1": ["9d", "8h", "2s"], "4": "Kc Th 4d"},
        "description": "Each seat's three cards (seat number -> cards).",
    }
)
class SeatCardsField(serializers.JSONField):
    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError(
                'must be an object of seat number -> cards, e.g. {"1": "Ah Kd 2c"}'
            )
        return value


@extend_schema_field({**CARDS_SCHEMA, "nullable": True})
class CardsField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": True})
class ObjectField(serializers.JSONField):
    """Free-form JSON object (the round's entry, the house way, a settlement)."""


# --- errors ------------------------------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="e.g. duplicate_card, bad_wager, foul, house_way, "
        "not_open, already_settled, forbidden, not_found"
    )
    message = serializers.CharField(help_text="For a person: names the seat, card or wager.")
    field = serializers.CharField(allow_null=True, help_text="The input at fault, when known.")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


# --- paytables ---------------------------------------------------------------------------


class PaytableSummarySerializer(serializers.ModelSerializer):
    summary = serializers.CharField(source="__str__", read_only=True)

    class Meta:
        model = PaytableVersion
        fields = ["id", "game", "name", "version", "summary"]  # in force, so always approved


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "properties": {
                "min_cents": {"type": "integer"},
                "max_cents": {"type": "integer"},
                "min": {"type": "string", "pattern": AMOUNT_PATTERN},
                "max": {"type": "string", "pattern": AMOUNT_PATTERN},
            },
            "required": ["min_cents", "max_cents", "min", "max"],
        },
    }
)
class LimitsField(serializers.Field):
    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: dict[str, dict[str, int]]) -> dict[str, Any]:
        return {
            wager: {
                "min_cents": lim["min_cents"],
                "max_cents": lim["max_cents"],
                "min": format_cents(lim["min_cents"]),
                "max": format_cents(lim["max_cents"]),
            }
            for wager, lim in value.items()
        }


class PaytableVersionSerializer(serializers.ModelSerializer):
    summary = serializers.CharField(source="__str__", read_only=True)
    lines = serializers.JSONField(
        read_only=True, help_text='wager -> line -> odds to 1 as an exact fraction ("3/2").'
    )
    limits = LimitsField()
    drafted_by = serializers.CharField(source="drafted_by.get_username", read_only=True)
    approved_by = serializers.CharField(
        source="approved_by.get_username", read_only=True, allow_null=True
    )
    tables = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True, help_text="Tables where this version is in force."
    )

    class Meta:
        model = PaytableVersion
        fields = [
            "id",
            "game",
            "name",
            "version",
            "status",
            "summary",
            "lines",
            "limits",
            "drafted_by",
            "drafted_at",
            "approved_by",
            "approved_at",
            "based_on",
            "tables",
        ]


# --- meters ------------------------------------------------------------------------------


class TableRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Table
        fields = ["id", "name"]


def _awards_example(as_text: bool) -> dict[str, Any]:
    """The first progressive game's awards at their default amounts, for the schema's example."""
    taking = [g for g in games.all_games() if g.takes_progressive]
    if not taking:
        return {}
    return {
        a.key: format_cents(a.default_cents) if as_text else a.default_cents
        for a in taking[0].fixed_awards()
        if a.default_cents is not None
    }


def _awards_help() -> str:
    return "; ".join(
        f"{g.label}: " + ", ".join(f"{a.key} ({a.label})" for a in g.fixed_awards())
        for g in games.all_games()
        if g.takes_progressive
    )


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "string"},
        "readOnly": True,
        "example": _awards_example(True),
        "description": "Each fixed award the meter pays (award key -> decimal string), as its "
        "game declares them; the jackpot is the meter's own value. Awards: " + _awards_help(),
    }
)
class AwardsField(serializers.Field):
    """A meter's awards in cents rendered as decimal strings per award key (read-only)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: dict[str, int]) -> dict[str, str]:
        return {key: format_cents(cents) for key, cents in value.items()}


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "integer"},
        "readOnly": True,
        "example": _awards_example(False),
        "description": "The same awards in integer cents.",
    }
)
class AwardsCentsField(serializers.Field):
    """A meter's awards in integer cents per award key (read-only)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: dict[str, int]) -> dict[str, int]:
        return dict(value)


class MeterSerializer(serializers.ModelSerializer):
    value = AmountField(source="value_cents")
    reset = AmountField(source="reset_cents")
    rate = serializers.DecimalField(
        max_digits=6,
        decimal_places=4,
        coerce_to_string=True,
        read_only=True,
        help_text='Contribution rate: "0.2000" is 20 %.',
    )
    wager = AmountField(source="wager_cents")
    game = serializers.CharField(
        read_only=True, help_text="The game of the tables the meter serves (its awards' game)."
    )
    awards_cents = AwardsCentsField(source="awards")
    awards = AwardsField()
    cap = AmountField(source="cap_cents", allow_null=True)
    overflow = AmountField(source="overflow_cents")
    tables = TableRefSerializer(many=True, read_only=True)

    class Meta:
        model = ProgressiveMeter
        fields = [
            "id",
            "name",
            "value_cents",
            "value",
            "reset_cents",
            "reset",
            "rate",
            "wager_cents",
            "wager",
            "game",
            "awards_cents",
            "awards",
            "split",
            "cap_cents",
            "cap",
            "overflow_cents",
            "overflow",
            "tables",
        ]


# --- tables ------------------------------------------------------------------------------


class TableSerializer(serializers.ModelSerializer):
    """A table; `dealer_username` and `open_round` come annotated from `selectors.tables`."""

    pit = serializers.CharField(source="pit.name", read_only=True)
    paytable_version = PaytableSummarySerializer(read_only=True, allow_null=True)
    meter = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    dealer = serializers.CharField(
        source="dealer_username",
        read_only=True,
        allow_null=True,
        help_text="The dealer signed in at the table, if any.",
    )
    open_round = serializers.IntegerField(
        source="open_round_id",
        read_only=True,
        allow_null=True,
        help_text="The id of the round in play, if any.",
    )
    open_hand = serializers.IntegerField(
        source="open_hand_id",
        read_only=True,
        allow_null=True,
        help_text="A player-vs-player table's hand in play, if any.",
    )
    settings_version = serializers.IntegerField(
        source="settings_version_id",
        read_only=True,
        allow_null=True,
        help_text="A player-vs-player table's table settings version in force, if any.",
    )
    rebet = serializers.SerializerMethodField(
        help_text="Each seat's wagers in the table's last round (seat -> wager -> amount)."
    )

    class Meta:
        model = Table
        fields = [
            "id",
            "name",
            "pit",
            "game",
            "seats",
            "paytable_version",
            "meter",
            "is_open",
            "dealer",
            "open_round",
            "open_hand",
            "settings_version",
            "rebet",
        ]

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": {"type": "string", "pattern": AMOUNT_PATTERN},
            },
        }
    )
    def get_rebet(self, table: Table) -> dict[str, dict[str, str]]:
        return {str(seat): wagers for seat, wagers in last_wagers(table).items()}


class DealerSessionSerializer(serializers.ModelSerializer):
    table_name = serializers.CharField(source="table.name", read_only=True)
    dealer = serializers.CharField(source="dealer.get_username", read_only=True)

    class Meta:
        model = DealerSession
        fields = ["id", "table", "table_name", "dealer", "started_at", "ended_at"]


class SignOutSerializer(serializers.Serializer):
    signed_out = serializers.ListField(
        child=serializers.CharField(), help_text="The tables the dealer was signed in at."
    )


# --- rounds ------------------------------------------------------------------------------


class SettlementLineSerializer(serializers.ModelSerializer):
    stake = AmountField(source="stake_cents")
    net = AmountField(source="net_cents")
    breakage = serializers.DecimalField(
        max_digits=12,
        decimal_places=8,
        coerce_to_string=True,
        read_only=True,
        help_text="The fraction of a cent not paid, in currency units.",
    )

    class Meta:
        model = SettlementLine
        fields = [
            "seat",
            "wager",
            "stake_cents",
            "stake",
            "result",
            "net_cents",
            "net",
            "breakage",
            "award",
            "odds",
        ]


# --- what rounds and hands share ---------------------------------------------------------------


class StateField(serializers.Field):
    """A round's or hand's state as it stands, computed from the whole object (read only)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        kwargs["source"] = "*"
        super().__init__(**kwargs)


# What a round's and a hand's representations share: the table's name, the dealer's and the
# voider's usernames. (No docstring: the schema would give it to both as their description.)
class PlayedSerializer(serializers.ModelSerializer):
    table_name = serializers.CharField(source="table.name", read_only=True)
    dealer = serializers.CharField(source="dealer.get_username", read_only=True)
    voided_by = serializers.CharField(
        source="voided_by.get_username", read_only=True, allow_null=True
    )


class PlayedFilterSerializer(serializers.Serializer):
    """A list's filters: a table (the model's subclass adds its statuses)."""

    table = QueryIdField(required=False, min_value=1, help_text="A table id.")


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            "step": {"type": "string", "enum": ["cards", "decisions", "dealer", "confirm", "done"]},
            "seats": {"type": "array", "items": {"type": "integer"}},
            "pending": {"type": "array", "items": {"type": "integer"}},
            "advice": {
                "type": "object",
                "additionalProperties": True,
                "description": "The house way for the dealer's hand.",
            },
            "status": {"type": "string"},
        },
        "required": ["step"],
    }
)
class RoundStateField(StateField):
    def to_representation(self, value: Round) -> dict[str, Any]:
        return round_state(value)


class RoundSerializer(PlayedSerializer):
    entry = ObjectField(
        read_only=True,
        help_text="The round as entered so far, in the settle contract's input form.",
    )
    state = RoundStateField(help_text="What the dealer must do next.")
    house_way = ObjectField(read_only=True)
    settlement = ObjectField(
        read_only=True, allow_null=True, help_text="The engine's settlement, frozen when settled."
    )
    lines = SettlementLineSerializer(many=True, read_only=True)
    handle = AmountField(source="handle_cents")
    players_net = AmountField(source="players_net_cents")
    house_win_cents = serializers.IntegerField(read_only=True)
    house_win = AmountField(source="house_win_cents")
    awaiting_approval = serializers.BooleanField(
        read_only=True, help_text="Waiting for a pit boss's sign-off: nothing is paid yet."
    )
    approval_reasons = ObjectField(read_only=True)
    approved_by = serializers.CharField(
        source="approved_by.get_username", read_only=True, allow_null=True
    )
    cancelled_by = serializers.CharField(
        source="cancelled_by.get_username", read_only=True, allow_null=True
    )
    void_waiting = serializers.BooleanField(
        read_only=True,
        help_text="A void was asked for and waits for a second pit boss's approval: the round "
        "still counts as settled (its reason is `void_reason`).",
    )
    void_requested_by = serializers.CharField(
        source="void_requested_by.get_username", read_only=True, allow_null=True
    )

    class Meta:
        model = Round
        fields = [
            "id",
            "table",
            "table_name",
            "number",
            "game",
            "status",
            "dealer",
            "paytable_version",
            "entry",
            "state",
            "house_way",
            "settlement",
            "lines",
            "handle_cents",
            "handle",
            "players_net_cents",
            "players_net",
            "house_win_cents",
            "house_win",
            "opened_at",
            "settled_at",
            "voided_at",
            "voided_by",
            "void_reason",
            "corrects",
            "awaiting_approval",
            "approval_requested_at",
            "approval_reasons",
            "approved_by",
            "approved_at",
            "cancelled_at",
            "cancelled_by",
            "cancel_reason",
            "void_waiting",
            "void_requested_at",
            "void_requested_by",
        ]


class RoundFilterSerializer(PlayedFilterSerializer):
    status = serializers.ChoiceField(choices=Round.Status.choices, required=False)


class RoundOpenSerializer(StrictSerializer):
    table = IdField(queryset=Table.objects.all())
    wagers = WagersField()


class RoundDealSerializer(StrictSerializer):
    cards = SeatCardsField()
    dealer = CardsField(help_text="The dealer's three cards.")


class RoundDecideSerializer(StrictSerializer):
    seat = WholeField(min_value=1, max_value=7, help_text="The seat's number.")
    decision = serializers.DictField(help_text=games.api_help("api_decision"))


class RoundDealerSerializer(StrictSerializer):
    draw = CardsField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The dealer's replacement cards, by the house way.",
    )
    discard = CardsField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Where the house way leaves a choice of equivalent cards, which ones the "
        "dealer discarded (defaults to the house way's proposal).",
    )


class RoundCancelSerializer(StrictSerializer):
    reason = TextField(
        required=False, allow_blank=True, max_length=500, help_text="Why (e.g. misdeal)."
    )


class RoundVoidSerializer(StrictSerializer):
    reason = TextField(max_length=500, help_text="Why the round is voided.")


class RoundVoidWithdrawSerializer(StrictSerializer):
    reason = TextField(max_length=500, help_text="Why the void is withdrawn.")


class RoundBackSerializer(StrictSerializer):
    to = serializers.ChoiceField(
        choices=["cards", "decisions", "dealer"], help_text="The step to go back to."
    )


class RoundSettleSerializer(StrictSerializer):
    idempotency_key = TextField(
        required=False,
        max_length=100,
        help_text="The idempotency key, when not sent as the Idempotency-Key header.",
    )


class PreviewSerializer(serializers.Serializer):
    """The settle contract's output object (documented in `docs/contracts/settle.md`)."""

    game = serializers.CharField()
    dealer = ObjectField()
    seats = serializers.ListField(child=ObjectField())
    progressive = ObjectField(required=False)


# --- player-vs-player hands --------------------------------------------------------------


class HandPlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = HandPlayer
        fields = ["position", "seat", "buy_in_cents", "payoff_cents", "stack_after_cents"]


@extend_schema_field(
    {
        "type": "object",
        "description": " ".join(
            ["The game's own keys."]
            + [g.view_help for g in games.all_games() if isinstance(g, games.PlayerVsPlayerGame)]
        ),
    }
)
class HandStateField(StateField):
    """The hand as it stands (the game's `view`): what it waits for, who acts and the legal
    actions with the cents each puts in, pot, bets, stacks, actions so far, and the outcome."""

    def to_representation(self, value: Hand) -> dict[str, Any]:
        return games.player_vs_player(value.game).view(value.record)


class HandSerializer(PlayedSerializer):
    record = ObjectField(
        read_only=True, help_text="The hand so far in the `replay` contract's form (cents)."
    )
    state = HandStateField(help_text="The hand as it stands and what it needs next.")
    settings = ObjectField(source="settings_version.values", read_only=True)
    players = HandPlayerSerializer(many=True, read_only=True)
    result = ObjectField(read_only=True, allow_null=True)

    class Meta:
        model = Hand
        fields = [
            "id",
            "table",
            "table_name",
            "number",
            "game",
            "status",
            "dealer",
            "settings_version",
            "settings",
            "players",
            "record",
            "state",
            "pot_cents",
            "rake_cents",
            "result",
            "gaming_day",
            "shift",
            "opened_at",
            "finished_at",
            "voided_at",
            "voided_by",
            "void_reason",
        ]


class HandFilterSerializer(PlayedFilterSerializer):
    status = serializers.ChoiceField(choices=Hand.Status.choices, required=False)


class HandOpenSerializer(StrictSerializer):
    table = IdField(queryset=Table.objects.all())
    players = serializers.JSONField(
        help_text='Each player\'s buy-in in cents by seat: {"1": 10000, "3": 5000}.'
    )
    first = WholeField(
        required=False,
        min_value=0,
        help_text="The player (index in seat order) who acts first; by default it moves round "
        "one player per hand.",
    )


_STEP_FIELDS: dict[str, Any] = {
    "text": lambda f: TextField(required=False, help_text=f.help),
    "whole": lambda f: WholeField(required=False, min_value=0, help_text=f.help),
    "texts": lambda f: serializers.ListField(child=TextField(), required=False, help_text=f.help),
    "json": lambda f: serializers.JSONField(required=False, help_text=f.help),
}


class HandStepSerializer(StrictSerializer):
    """One step, in the game's own form (the game's engine checks it whole): the fields are the
    game's (`step_fields`; `step_serializer` builds one class a game)."""

    game: ClassVar[games.PlayerVsPlayerGame]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        kinds = self.game.step_kinds
        if kinds and len([k for k in kinds if k in attrs]) != 1:
            raise serializers.ValidationError(f"a step is exactly one of {', '.join(kinds)}")
        for name, needs in self.game.step_needs.items():
            if name in attrs and not set(needs) & set(attrs):
                raise serializers.ValidationError({name: f"{name} goes with {' or '.join(needs)}"})
        return attrs


_STEP_SERIALIZERS: dict[str, type[HandStepSerializer]] = {}


def step_serializer(game: games.PlayerVsPlayerGame) -> type[HandStepSerializer]:
    """The step serializer of `game`, from its `step_fields` (built once a game)."""
    built = _STEP_SERIALIZERS.get(game.name)
    if built is None or built.game is not game:
        fields = {name: _STEP_FIELDS[f.kind](f) for name, f in game.step_fields.items()}
        title = "".join(part.title() for part in game.name.split("_"))
        attrs = {**fields, "game": game, "__doc__": game.step_help, "__module__": __name__}
        built = type(f"{title}StepSerializer", (HandStepSerializer,), attrs)
        _STEP_SERIALIZERS[game.name] = built
    return built


def step_schema() -> Any:
    """Every player-vs-player game's step, for the API's schema."""
    return PolymorphicProxySerializer(
        component_name="HandStep",
        serializers=[
            step_serializer(g) for g in games.all_games() if isinstance(g, games.PlayerVsPlayerGame)
        ],
        resource_type_field_name=None,
    )


class HandMisdealSerializer(StrictSerializer):
    reason = TextField(max_length=500, help_text="Why the hand is a misdeal (e.g. a card exposed).")


class HandVoidSerializer(StrictSerializer):
    reason = TextField(help_text="Why the hand is voided.")
