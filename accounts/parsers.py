"""The API's JSON parser: malformed, too deeply nested or NUL-carrying JSON is a 400 naming
where it is, never a server error."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 20


def check_json(data: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than `max_depth` and NUL characters (iteratively: no recursion)."""
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
                if isinstance(key, str) and "\x00" in key:
                    raise ValidationError({path or "body": ["NUL characters are not allowed"]})
                stack.append((item, f"{path}.{key}" if path else str(key), depth + 1))
        elif isinstance(value, str) and "\x00" in value:
            raise ValidationError({path or "body": ["NUL characters are not allowed"]})


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads(text: str | bytes) -> Any:
    """json.loads that refuses NaN and Infinity, and turns runaway nesting into a ValueError."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


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
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        check_json(data)
        return data
