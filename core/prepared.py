"""Hot reads compiled once: a queryset's SQL reused with new values.

Django compiles a queryset's SQL anew on every evaluation, and for the few reads made on every
API request (the token and its user, the caller's roles, the round under its lock, the audit
chain's head) that compilation costs more than the database's answer. A `PreparedQuery` builds
its queryset once per thread (one database) with placeholder values, keeps the compiled SQL and
Django's own description of its columns, and then only swaps in the values, executes, and
turns the row into model instances exactly as Django's `ModelIterable` does (the same
converters, `from_db`, `select_related` populators and annotations).

Only plain lookups are for this (values compared with `=`/`IN` are passed as parameters; a
value that changes the SQL's shape, such as `None`, must not be a placeholder); every
placeholder must appear in the SQL once at least, which is checked when it is compiled.
tests/test_prepared.py compares each prepared read with the queryset it stands for.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

# In range for a 32-bit integer column (Django refuses a lookup outside it), never an id.
_SENTINEL_BASE = -2_147_480_001
# Dates of the first year AD: no gaming day, no settled round.
_SENTINEL_DAY = date(1, 1, 2)
_SENTINEL_TIME = datetime(1, 1, 2, tzinfo=UTC)


@dataclass
class _Compiled:
    sql: str
    params: list[Any]
    slots: list[tuple[int, str]]  # (parameter position, placeholder name)
    adapt: dict[str, Callable[[Any], Any]]  # placeholder -> the backend's adapter of its value
    names: list[str]  # the columns' names, for values()
    compiler: Any
    converters: Any
    model: type[Model] | None
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]
    annotations: dict[str, int]


class PreparedQuery:
    """`build(**placeholders)` returns the queryset; `all(**values)` its model instances,
    `first(**values)` the first (or None), `column(**values)` the first column of every row (a
    `values_list(flat=True)`), `values(**values)` every row as a dict (a `values()` queryset,
    aggregates included) and `sql(**values)` the SQL and its parameters, to nest in another
    statement.

    `types` names each placeholder's type (`int`, `str`, `date` or `datetime`, an aware one): a
    placeholder value of that type that cannot occur in real data marks where the value goes."""

    def __init__(self, build: Callable[..., QuerySet[Any]], **types: type) -> None:
        self._build = build
        self._types = types
        self._local = threading.local()

    def _sentinels(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i, (name, kind) in enumerate(self._types.items()):
            value = _SENTINEL_BASE - i
            if kind is int:
                out[name] = value
            elif kind is datetime:
                out[name] = _SENTINEL_TIME + timedelta(days=i)
            elif kind is date:
                out[name] = _SENTINEL_DAY + timedelta(days=i)
            else:
                out[name] = f"\x1fprepared:{name}:{value}\x1f"
        return out

    def _compile(self) -> tuple[_Compiled, str]:
        found: tuple[_Compiled, str] | None = getattr(self._local, "compiled", None)
        if found is not None:
            return found
        sentinels = self._sentinels()
        queryset = self._build(**sentinels)
        alias = queryset.db
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        params = list(params)
        by_value = {value: name for name, value in sentinels.items()}
        ops = connections[alias].ops
        adapt: dict[str, Callable[[Any], Any]] = {}
        for name, kind in self._types.items():
            # a backend may pass dates and times on as text (SQLite)
            adapter = {date: ops.adapt_datefield_value, datetime: ops.adapt_datetimefield_value}
            if kind in adapter:
                adapted = adapter[kind](sentinels[name])
                if adapted != sentinels[name]:
                    by_value[adapted] = name
                    adapt[name] = adapter[kind]
        slots = [(i, by_value[p]) for i, p in enumerate(params) if _hashable(p) in by_value]
        missing = set(sentinels) - {name for _, name in slots}
        if missing:
            raise ValueError(f"placeholders not found in the compiled SQL: {sorted(missing)}")
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        klass_info = compiler.klass_info
        if klass_info is not None:
            start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
            init_list = [f[0].target.attname for f in compiler.select[start:end]]
            populators = get_related_populators(klass_info, compiler.select, alias)
            model = klass_info["model"]
        else:
            start, end, init_list, populators, model = 0, 0, [], [], None
        compiled = _Compiled(
            sql=sql,
            params=params,
            slots=slots,
            adapt=adapt,
            names=list(queryset.query.selected)
            if queryset.query.selected
            else [
                *queryset.query.extra_select,
                *queryset.query.values_select,
                *queryset.query.annotation_select,
            ],
            compiler=compiler,
            converters=compiler.get_converters(fields),
            model=model,
            init_list=init_list,
            start=start,
            end=end,
            populators=populators,
            annotations=dict(compiler.annotation_col_map or {}),
        )
        self._local.compiled = (compiled, alias)
        return compiled, alias

    def sql(self, **values: Any) -> tuple[str, list[Any]]:
        """The compiled SQL and its parameters with these values."""
        compiled, _alias = self._compile()
        return compiled.sql, self._params(compiled, values)

    def _params(self, compiled: _Compiled, values: dict[str, Any]) -> list[Any]:
        if set(values) != set(self._types):
            raise TypeError(f"expected the values {sorted(self._types)}, got {sorted(values)}")
        params = list(compiled.params)
        for position, name in compiled.slots:
            adapt = compiled.adapt.get(name)
            params[position] = adapt(values[name]) if adapt else values[name]
        return params

    def _rows(self, values: dict[str, Any]) -> tuple[_Compiled, str, list[list[Any]]]:
        compiled, alias = self._compile()
        params = self._params(compiled, values)
        with connections[alias].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if compiled.converters:
            rows = compiled.compiler.apply_converters(rows, compiled.converters)
        return compiled, alias, [list(row) for row in rows]

    def all(self, **values: Any) -> list[Any]:
        """Every row as a model instance."""
        compiled, alias, rows = self._rows(values)
        assert compiled.model is not None, "all() and first() read model instances"
        out = []
        for row in rows:
            obj = compiled.model.from_db(
                alias, compiled.init_list, row[compiled.start : compiled.end]
            )
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, position in compiled.annotations.items():
                setattr(obj, name, row[position])
            out.append(obj)
        return out

    def first(self, **values: Any) -> Any:
        """The first row's model instance, or None."""
        found = self.all(**values)
        return found[0] if found else None

    def column(self, **values: Any) -> list[Any]:
        _compiled, _alias, rows = self._rows(values)
        return [row[0] for row in rows]

    def values(self, **values: Any) -> list[dict[str, Any]]:
        """Every row of a `values()` queryset as a dict, as iterating it gives."""
        compiled, _alias, rows = self._rows(values)
        names = compiled.names
        return [dict(zip(names, row, strict=True)) for row in rows]


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return None
    return value
