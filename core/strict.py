"""Input taken as given, never coerced: the one set of type checks the services, the API's fields
and the pages share.

In JSON a whole number is a number without a fraction: `4`, not `"4"`, `4.0`, `1.5` nor
`true`; a flag is `true` or `false`, not `"yes"`, `1` nor `"true"`; text is a string; an object
has only the keys its reader knows. A page's form posts text, so its whole numbers are ASCII
digits (`form_whole`). Every refusal is a `ServiceError` naming the field, and the value given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import ServiceError

_DIGITS = re.compile(r"[0-9]{1,18}", re.ASCII)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_whole(value: Any) -> bool:
    """A JSON whole number: an int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole(
    value: Any,
    field: str,
    *,
    least: int | None = None,
    most: int | None = None,
    what: str = "a whole number",
    code: str = "invalid",
) -> int:
    """`value` if it is a whole number within [least, most]; else a refusal naming `field`."""
    if not is_whole(value):
        raise ServiceError(f"{field} must be {what}, not {_shown(value)}", field=field, code=code)
    if least is not None and value < least:
        raise ServiceError(f"{field} must be at least {least}, not {value}", field=field, code=code)
    if most is not None and value > most:
        raise ServiceError(f"{field} must be at most {most}, not {value}", field=field, code=code)
    return int(value)


def form_whole(text: Any, field: str, *, what: str = "a whole number") -> int:
    """A whole number typed in a form: ASCII digits (spaces around them allowed)."""
    stripped = text.strip() if isinstance(text, str) else None
    if stripped is None or not _DIGITS.fullmatch(stripped):
        raise ServiceError(f"{field} must be {what}, not {_shown(text)}", field=field)
    return int(stripped)


def flag(value: Any, field: str, *, code: str = "invalid") -> bool:
    """`value` if it is `True` or `False`; else a refusal naming `field`."""
    if not isinstance(value, bool):
        raise ServiceError(
            f"{field} must be true or false, not {_shown(value)}", field=field, code=code
        )
    return value


def text(value: Any, field: str, *, code: str = "invalid") -> str:
    """`value` if it is a string; else a refusal naming `field`."""
    if not isinstance(value, str):
        raise ServiceError(f"{field} must be text, not {_shown(value)}", field=field, code=code)
    return value


def known_keys(
    given: Mapping[Any, Any], allowed: Iterable[str], where: str, *, code: str = "unknown_field"
) -> None:
    """Refuse a key of `given` that is not in `allowed`, naming it (and the ones allowed)."""
    allowed = set(allowed)
    extra = sorted(str(k) for k in given if k not in allowed)
    if extra:
        field = f"{where} {extra[0]}".strip()
        known = ", ".join(sorted(allowed)) or "none"
        raise ServiceError(
            f"{where or 'the request'} has no field {extra[0]!r} (allowed: {known})",
            field=field,
            code=code,
        )
