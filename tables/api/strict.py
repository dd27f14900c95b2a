"""The API's input fields, strict as `core.strict` is: a JSON value is taken as the type it is,
never coerced. A whole number is `4` (not `"4"`, `4.0`, `1.5` nor `true`), text a string
(not a number), an id a whole number; a request's object has only the keys
its serializer declares (any other is refused, naming it). Every API input serializer is a
`StrictSerializer` made of these fields (the table and accounting APIs alike)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.routers import SimpleRouter

from core.params import ID_PATTERN, ascii_int
from core.strict import is_whole


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def refuse_unknown_keys(data: Any, allowed: Mapping[str, Any] | set[str]) -> None:
    """A ValidationError naming the first key of `data` that is not in `allowed`."""
    if not isinstance(data, Mapping):
        return
    extra = sorted(str(k) for k in data if k not in allowed)
    if extra:
        known = ", ".join(sorted(allowed)) or "none"
        raise ValidationError(
            {
                extra[0]: [
                    ErrorDetail(
                        f"is not a field of this request (allowed: {known})", code="unknown_field"
                    )
                ]
            }
        )


class StrictSerializer(serializers.Serializer):
    """An input serializer that refuses any key it does not declare."""

    def to_internal_value(self, data: Any) -> Any:
        writable = {name for name, field in self.fields.items() if not field.read_only}
        refuse_unknown_keys(data, writable)
        return super().to_internal_value(data)


class EmptySerializer(StrictSerializer):
    """A request that takes no input: an empty body, or an empty object."""


class WholeField(serializers.IntegerField):
    """A JSON whole number, within `min_value` and `max_value` when given."""

    default_error_messages = {"invalid": "must be a whole number, not {given}"}

    def to_internal_value(self, data: Any) -> int:
        if not is_whole(data):
            self.fail("invalid", given=_shown(data))
        return super().to_internal_value(data)  # type: ignore[no-any-return]


class TextField(serializers.CharField):
    """A JSON string (a number or a flag is not text)."""

    default_error_messages = {"not_text": "must be text, not {given}"}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_text", given=_shown(data))
        return super().to_internal_value(data)  # type: ignore[no-any-return]


class AmountField(TextField):
    """An amount in dollars as a decimal string (`"1234.00"`), kept as sent: not trimmed, so
    the service's parser refuses `" 1.00"` naming the field instead of reading it as $1.00."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)


class IdField(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """An object's id: a JSON whole number (`1.5` is not table 1, nor is `"1"`)."""

    default_error_messages = {"not_whole": "must be an id (a whole number), not {given}"}

    def to_internal_value(self, data: Any) -> Any:
        if not is_whole(data):
            self.fail("not_whole", given=_shown(data))
        return super().to_internal_value(data)


class QueryIdField(serializers.IntegerField):
    """An id in a query string (`?table=3`): ASCII digits only (`core.params.ascii_int`), so
    "²" and "١٠" are refused naming the parameter, never read as another number."""

    default_error_messages = {"not_id": "must be an id (ASCII digits), not {given}"}

    def to_internal_value(self, data: Any) -> int:
        number = ascii_int(data) if isinstance(data, str) else None
        if number is None:
            self.fail("not_id", given=_shown(data))
        return super().to_internal_value(number)  # type: ignore[no-any-return]


class IdRouter(SimpleRouter):
    """The API's routes, with an object's id in the URL matched as ASCII digits only
    (`/api/slips/١٠/` names no slip: 404), as the pages' `<int:...>` routes do."""

    def get_lookup_regex(self, viewset: Any, lookup_prefix: str = "") -> str:
        if getattr(viewset, "lookup_value_regex", None) is None:
            viewset.lookup_value_regex = ID_PATTERN
        return super().get_lookup_regex(viewset, lookup_prefix)
