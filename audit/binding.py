"""Rows that hold or decide money, bound to the audit chain.

The chain proves the events were not changed; the money lives in other tables (rounds, lines,
slips, meters, paytables...), and the pages and reports read those. Binding ties the two: each
such model names the fields the record covers, once, in a class attribute `AUDIT_BOUND` (a
model of another app, the user, is declared with `register`), and every event that creates or
changes such a row carries the row's canonical content in its data, under the key `bound`:

    {"bound": {"tables.round": {"12": {"status": "settled", "players_net_cents": 500, ...}}}}

A JSON field, a long text and a secret are kept as their SHA-256 (`sha256:<hex>`): the event
stays small and still shows any change. `None` in place of the content records a row's
deletion. `audit_record` writes it (its `obj`, when bound, and the rows given in `bind`), inside
the change's own transaction. `check_rows` walks the events and the live rows together and
reports, by table, id and field: a row that differs from its latest event, a row that no event
binds, and an event whose row is gone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any

from django.apps import apps
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from .chain import check_text, json_text

KEY = "bound"
LONG_TEXT = 200  # characters: a longer text is bound by its hash
MAX_LISTED = 500  # problems listed by name; the rest are counted


@dataclass(frozen=True)
class Spec:
    """What the record binds of one model: its fields, those kept only as a hash, and values
    computed from other tables (the user's roles)."""

    model: type[models.Model]
    fields: tuple[str, ...]
    hashed: frozenset[str] = frozenset()
    computed: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    # Read the row from the database when an event binds it, rather than trust the instance
    # given (a user passed around by requests and signals may be an older copy).
    reread: bool = False

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def table(self) -> str:
        return self.model._meta.db_table


_registered: dict[type[models.Model], Spec] = {}


def register(
    model: type[models.Model],
    fields: Iterable[str],
    *,
    hashed: Iterable[str] = (),
    computed: dict[str, Callable[[Any], Any]] | None = None,
    reread: bool = False,
) -> None:
    """Bind a model whose class is not ours to add `AUDIT_BOUND` to (the user)."""
    _registered[model] = Spec(
        model, tuple(fields), frozenset(hashed), dict(computed or {}), reread=reread
    )
    specs.cache_clear()


@cache
def specs() -> dict[type[models.Model], Spec]:
    """Every bound model, by class (the registry is read once apps are ready)."""
    found = dict(_registered)
    for model in apps.get_models():
        names = getattr(model, "AUDIT_BOUND", None)
        if names is not None and model not in found:
            found[model] = Spec(model, tuple(names))
    for spec in found.values():
        for name in spec.fields:
            spec.model._meta.get_field(name)  # a misspelt field fails at once, not at verify
    return found


def spec_for(model: type[models.Model]) -> Spec | None:
    return specs().get(model)


# --- canonical content --------------------------------------------------------------------------


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _json_digest(value: Any) -> str:
    # Through a JSON round trip first, as the database gives it back: integer keys become text,
    # tuples lists, and keys sort as text. A round's JSON fields are bound again at every step
    # of its play, mostly unchanged: the digest of a text already seen is remembered.
    text = json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))
    return _digest_of_text(text)


@lru_cache(maxsize=512)
def _digest_of_text(text: str) -> str:
    return _sha(json_text(json.loads(text)))


def _canon_for(f: models.Field[Any, Any], hashed: bool) -> Callable[[Any], Any]:
    """The function that makes a field's value canonical (JSON-safe, one form per value)."""
    if hashed:
        return lambda v: None if v is None else _sha(str(v))
    if isinstance(f, models.JSONField):
        return lambda v: None if v is None else _json_digest(v)
    if isinstance(f, models.DecimalField):
        places = Decimal(1).scaleb(-(f.decimal_places or 0))

        def decimal(v: Any) -> Any:
            return None if v is None else format(Decimal(str(v)).quantize(places), "f")

        return decimal
    if isinstance(f, models.DateTimeField):

        def moment(v: Any) -> Any:
            if v is None:
                return None
            if isinstance(v, str):
                v = f.to_python(v)
            return v.astimezone(UTC).isoformat(timespec="microseconds")

        return moment
    if isinstance(f, models.DateField):
        return lambda v: None if v is None else (v if isinstance(v, str) else v.isoformat())
    if isinstance(f, models.BooleanField):
        return lambda v: None if v is None else bool(v)
    if isinstance(f, models.ForeignKey):
        return _canon_for(f.target_field, False)
    if isinstance(f, models.IntegerField | models.AutoField):
        return lambda v: None if v is None else int(v)

    def text(v: Any) -> Any:
        if v is None:
            return None
        v = str(v)
        if len(v) > LONG_TEXT:
            return _sha(v)
        check_text(v, f"{f.model._meta.label_lower}.{f.name}")  # kept in the record as it is
        return v

    return text


Plan = tuple[tuple[str, str, Callable[[Any], Any], Callable[[Any], Any] | None], ...]


@cache
def _plan(model: type[models.Model]) -> Plan:
    """(field name, attribute name, canonical function, parse function) for each bound field."""
    spec = specs()[model]
    plan = []
    for name in spec.fields:
        f = model._meta.get_field(name)
        assert isinstance(f, models.Field)
        plan.append((name, f.attname, _canon_for(f, name in spec.hashed), _parse_for(f)))
    return tuple(plan)


def _parse_for(f: models.Field[Any, Any]) -> Callable[[Any], Any] | None:
    """`to_python` for a value held in another type than the database gives back (a Decimal
    given as text, a flag as "False"); None for a JSON field, whose value is taken as it is."""
    if isinstance(f, models.JSONField):
        return None
    if isinstance(f, models.ForeignKey):
        return _parse_for(f.target_field)
    native: tuple[type, ...] = ()
    if isinstance(f, models.BooleanField):
        native = (bool,)
    elif isinstance(f, models.IntegerField | models.AutoField):
        native = (int,)
    elif isinstance(f, models.DecimalField):
        native = (Decimal,)
    elif isinstance(f, models.DateTimeField):
        native = (datetime,)
    elif isinstance(f, models.DateField):
        native = (date,)
    elif isinstance(f, models.CharField | models.TextField):
        native = (str,)
    to_python = f.to_python

    def parse(v: Any) -> Any:
        return v if type(v) in native else to_python(v)

    return parse


def content(instance: models.Model) -> dict[str, Any]:
    """A bound row's canonical content, from the instance as saved (values it holds in
    another type, a Decimal given as text, are made what the database gives back)."""
    model = type(instance)._meta.concrete_model
    assert model is not None
    spec = specs()[model]
    out = {}
    for name, attname, canon, parse in _plan(model):
        value = getattr(instance, attname)
        if value is not None and parse is not None:
            value = parse(value)
        out[name] = canon(value)
    for name, compute in spec.computed.items():
        out[name] = compute(instance)
    return out


def bound_data(rows: Iterable[models.Model]) -> dict[str, dict[str, Any]]:
    """The `bound` part of an event's data for these rows (unbound ones are left out)."""
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        model = type(row)._meta.concrete_model
        if model is None or model not in specs():
            continue
        if row.pk is None:
            raise ValueError(f"{model._meta.label} is bound before it was saved")
        if specs()[model].reread:
            row = model._default_manager.get(pk=row.pk)
        out.setdefault(model._meta.label_lower, {})[str(row.pk)] = content(row)
    return out


def deleted_data(model: type[models.Model], pks: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """The `bound` part of an event that deletes these rows."""
    return {model._meta.label_lower: {str(pk): None for pk in pks}}


def _digest(value: dict[str, Any] | None) -> bytes:
    return hashlib.sha256(json_text(value).encode()).digest()[:16]


# --- verification -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowProblem:
    table: str
    pk: str
    what: str

    def __str__(self) -> str:
        return f"{self.table} id {self.pk}: {self.what}"


def _events_bound() -> Iterator[tuple[int, dict[str, Any]]]:
    """(seq, bound part) of every event that binds rows, in the order they were written."""
    from .models import AuditEvent

    rows = (
        AuditEvent.objects.filter(data__has_key=KEY)
        .order_by("seq")
        .values_list("seq", f"data__{KEY}")
        .iterator(chunk_size=2000)
    )
    for seq, part in rows:
        if isinstance(part, str):  # a backend that gives the key's value back as text
            part = json.loads(part)
        if isinstance(part, dict):
            yield seq, part


def _event_content(seq: int, label: str, pk: str) -> Any:
    from .models import AuditEvent

    data = AuditEvent.objects.filter(seq=seq).values_list("data", flat=True).first() or {}
    return ((data.get(KEY) or {}).get(label) or {}).get(pk)


def _live_rows(spec: Spec) -> Iterator[tuple[str, dict[str, Any]]]:
    """(pk as text, canonical content) of every live row of a bound model."""
    plan = _plan(spec.model)
    if spec.computed:
        for instance in spec.model._default_manager.order_by("pk").iterator(chunk_size=500):
            yield str(instance.pk), content(instance)
        return
    attnames = [attname for _name, attname, _canon, _parse in plan]
    query = spec.model._default_manager.order_by("pk").values_list("pk", *attnames)
    for row in query.iterator(chunk_size=5000):
        yield (
            str(row[0]),
            {
                name: canon(value)
                for (name, _a, canon, _p), value in zip(plan, row[1:], strict=True)
            },
        )


def _differences(stored: dict[str, Any], live: dict[str, Any]) -> list[str]:
    """Each bound field whose live value is not the recorded one, compared in canonical JSON
    (so `True` is not `1`). A field the record does not hold reads as null: a nullable field
    added to a model's bound fields after its rows were recorded is null in those rows, as the
    migration that added it left them, and says what the record says; any other value in it is
    a difference."""
    names = list(live) + [name for name in stored if name not in live]
    out = []
    for name in names:
        if json_text(stored.get(name)) != json_text(live.get(name)):
            out.append(f"{name} is {live.get(name)!r} but the record says {stored.get(name)!r}")
    return out


def check_rows() -> tuple[int, list[RowProblem]]:
    """(live bound rows compared, problems): every bound row against its latest event."""
    latest: dict[str, dict[str, tuple[int, bytes]]] = {}
    for seq, part in _events_bound():
        for label, rows in part.items():
            into = latest.setdefault(label, {})
            for pk, value in rows.items():
                into[pk] = (seq, _digest(value))
    problems: list[RowProblem] = []
    compared = 0
    gone = _digest(None)
    for spec in specs().values():
        recorded = latest.pop(spec.label, {})
        for pk, live in _live_rows(spec):
            compared += 1
            seen = recorded.pop(pk, None)
            if seen is None:
                problems.append(RowProblem(spec.table, pk, "no audit event records this row"))
            elif seen[1] == gone:
                problems.append(
                    RowProblem(spec.table, pk, f"event #{seen[0]} records its deletion")
                )
            elif seen[1] != _digest(live):
                stored = _event_content(seen[0], spec.label, pk)
                if not isinstance(stored, dict):
                    problems.append(
                        RowProblem(spec.table, pk, f"its content differs (event #{seen[0]})")
                    )
                    continue
                for what in _differences(stored, live):
                    problems.append(RowProblem(spec.table, pk, f"{what} (event #{seen[0]})"))
        problems += _storage_problems(spec)
        for pk, (seq, digest) in recorded.items():
            if digest != gone:
                problems.append(
                    RowProblem(spec.table, pk, f"the row is gone, but event #{seq} records it")
                )
    for label, rows in latest.items():  # a label no model binds (a model that was renamed)
        for pk, (seq, _d) in rows.items():
            problems.append(RowProblem(label, pk, f"event #{seq} binds a row of no known model"))
    return compared, problems


# SQLite keeps any value in any column: a value Django reads back as the recorded one may still
# be stored in another form that the database's own comparisons and sums treat differently (a
# day with a trailing newline drops out of the day's reports). Each bound column must be stored
# exactly as Django writes it.
_SQLITE_FORMS: tuple[tuple[type[models.Field[Any, Any]], str], ...] = (
    (models.DateTimeField, r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?\Z"),
    (models.DateField, r"^\d{4}-\d{2}-\d{2}\Z"),
)
_SQLITE_INTEGERS = (models.IntegerField, models.AutoField, models.BooleanField, models.ForeignKey)


def _storage_problems(spec: Spec) -> list[RowProblem]:
    """SQLite: every bound column stored in the one form Django writes (text dates and times
    in their exact form, integers as integers); other databases type their columns."""
    from django.db import connection

    if connection.vendor != "sqlite":
        return []
    quote = connection.ops.quote_name
    tests, params = [], []
    for name in spec.fields:
        f = spec.model._meta.get_field(name)
        assert isinstance(f, models.Field)
        column = quote(f.column)
        pattern = next((p for kind, p in _SQLITE_FORMS if isinstance(f, kind)), None)
        if pattern is not None:
            tests.append(
                f"SELECT id, %s FROM {quote(spec.table)} WHERE {column} IS NOT NULL "
                f"AND (typeof({column}) != 'text' OR NOT {column} REGEXP %s)"
            )
            params += [name, pattern]
        elif isinstance(f, _SQLITE_INTEGERS):
            tests.append(
                f"SELECT id, %s FROM {quote(spec.table)} "
                f"WHERE typeof({column}) NOT IN ('integer', 'null')"
            )
            params.append(name)
    if not tests:
        return []
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(tests), params)
        found = cursor.fetchall()
    return [
        RowProblem(spec.table, str(pk), f"{name} is not stored in its own form (edited by hand)")
        for pk, name in found
    ]


def summary(problems: list[RowProblem]) -> list[str]:
    """The problems as lines to print, the first `MAX_LISTED` by name."""
    lines = [str(p) for p in problems[:MAX_LISTED]]
    if len(problems) > MAX_LISTED:
        lines.append(f"... and {len(problems) - MAX_LISTED} more bound-row problems")
    return lines


# --- rows no event binds ---------------------------------------------------------------------


def unbound_rows() -> Iterator[models.Model]:
    """Every live bound row that no event binds (rows from before the record bound them)."""
    bound: dict[str, set[str]] = {}
    for _seq, part in _events_bound():
        for label, rows in part.items():
            bound.setdefault(label, set()).update(rows)
    for spec in specs().values():
        known = bound.get(spec.label, set())
        pks = [pk for pk in spec.model._default_manager.values_list("pk", flat=True)]
        missing = [pk for pk in pks if str(pk) not in known]
        for start in range(0, len(missing), 1000):
            yield from spec.model._default_manager.filter(pk__in=missing[start : start + 1000])


# --- before a change: the row must still say what its record says -----------------------------


_LATEST_EVENT = (
    "SELECT seq, data FROM audit_auditevent WHERE object_type = %s AND object_id = %s "
    "ORDER BY seq DESC LIMIT 1"
)


def recorded_differences(instance: models.Model) -> list[str]:
    """How a bound row, as stored now, differs from its latest event (the row being that
    event's object: a meter, a round...); empty when it matches or no event records it yet."""
    from django.db import connection

    model = type(instance)._meta.concrete_model
    assert model is not None
    label = model._meta.label_lower
    # One plain read by the index (object, seq); the ORM's JSON path costs more than the read.
    with connection.cursor() as cursor:
        cursor.execute(_LATEST_EVENT, [label, str(instance.pk)])
        stored = cursor.fetchone()
    if stored is None:
        return []
    data = json.loads(stored[1]) if isinstance(stored[1], str) else stored[1]
    recorded = ((data or {}).get(KEY) or {}).get(label, {}).get(str(instance.pk))
    if recorded is None:
        return []
    live = content(instance)
    return [f"{what} (event #{stored[0]})" for what in _differences(recorded, live)]


def check_as_recorded(instance: models.Model, what: str) -> None:
    """Refuse to change a row that no longer says what its record says (someone changed it
    outside the application): the change would bind the altered row as if it were genuine.
    Call it on the locked row, before the change."""
    from core.errors import ServiceError

    differences = recorded_differences(instance)
    if differences:
        raise ServiceError(
            f"{what} differs from its audit record ({'; '.join(differences)}): nothing was "
            "changed; the pit boss and the auditors must look into it (verify_audit names it)",
            field=type(instance)._meta.model_name or "",
            code="record_differs",
            status=409,
        )
