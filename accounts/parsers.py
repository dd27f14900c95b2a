"""The API's JSON parser: malformed, too deeply nested JSON, a key given twice in one object
(`{"amount": "1.00", "amount": "40000.00"}`: plain JSON keeps the last, so what a person or a
log reads is not what would be saved), a NUL character or a lone surrogate (`"\\ud800"`, which
no database stores and UTF-8 cannot encode) in a text or a key, or a number beyond I-JSON's
exact range (RFC 7493: a whole number within +/-(2**53 - 1), a finite one) is a 400 naming
where it is, never a server error. The range is checked here, once for every field:
no amount, count, seat or id of the floor comes near it, and every database column holds it."""

from __future__ import annotations

import json
import math
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 20
# The largest whole number JSON carries exactly everywhere (RFC 7493, I-JSON).
MAX_EXACT_INT = 2**53 - 1


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "NUL characters are not allowed"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate (an unpaired \\ud800-\\udfff escape) is not text"
    return None


def _number_problem(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) > MAX_EXACT_INT:
        return f"{value} is too large (at most {MAX_EXACT_INT:,} either way)"
    if isinstance(value, float) and not math.isfinite(value):
        return "the number is too large"
    return None


def check_json(data: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than `max_depth`, NUL characters and lone surrogates, and numbers
    out of range (iteratively: no recursion)."""
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > max_depth:
                raise ValidationError(
                    {path or "body": [f"nested more than {max_depth} levels deep"]}
                )
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                problem = _text_problem(key) if isinstance(key, str) else None
                if problem:
                    raise ValidationError({path or "body": [f"a key: {problem}"]})
                stack.append((item, f"{path}.{key}" if path else str(key), depth + 1))
        else:
            problem = _text_problem(value) if isinstance(value, str) else _number_problem(value)
            if problem:
                raise ValidationError({path or "body": [problem]})


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class DuplicateKey(ValueError):
    """A key given twice in one JSON object (`key` as the body spells it)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} is given twice")
        self.key = key


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return obj


class _Pairs(list[tuple[str, Any]]):
    """An object as the body wrote it, every key kept (to find where a key repeats)."""


def duplicate_key_path(text: str | bytes) -> str | None:
    """The path (`wagers.1.ante`) of the first key given twice in an object, in the body's
    order; None when no key repeats."""
    try:
        data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return None
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _Pairs):
            seen: set[str] = set()
            for key, _ in value:
                if key in seen:
                    return f"{path}.{key}" if path else key
                seen.add(key)
            children = [(item, f"{path}.{key}" if path else key) for key, item in value]
        elif isinstance(value, list):
            children = [(item, f"{path}.{i}" if path else str(i)) for i, item in enumerate(value)]
        else:
            continue
        stack.extend(reversed(children))
    return None


def loads(text: str | bytes) -> Any:
    """json.loads that refuses NaN and Infinity and a key given twice in one object (raising
    DuplicateKey, a ValueError), and turns runaway nesting into a ValueError."""
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_object)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def refuse_duplicate_key(text: str | bytes, exc: DuplicateKey) -> ValidationError:
    """The 400 for a key given twice, naming it where it is in the body."""
    path = duplicate_key_path(text) or exc.key
    return ValidationError(
        {path: [f"the key {exc.key!r} is given twice in one object; give each key once"]}
    )


class StrictJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
        except UnicodeDecodeError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        try:
            data = loads(text)
        except DuplicateKey as exc:
            raise refuse_duplicate_key(text, exc) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        check_json(data)
        return data
