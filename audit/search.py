"""The trail's search by what happened: each event's words, stored beside it.

An event's search text is its details in the words a person reads (the auditor's pages say them:
the kind in words, who, the table, amounts in dollars, seats, cards as cards) plus the names and
codes of its data (a card's code, an award such as "jackpot"), lowercased. It is written with the
event in the same transaction (`audit.services.audit_record`) into `AuditEventText`, a table of its
own: the event's row is append-only and hashed, and its words are derived from it, so they stay
outside the hash and can be written again from the events (`manage.py audit_search_text`).

The trail sits below the pages that know the words: the reports app registers the words
(`set_text_builder`) when it loads; without it an event's text is its kind, table, who and the
strings of its data.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .binding import KEY
from .kinds import EventKind
from .models import AuditEvent, AuditEventText

log = logging.getLogger(__name__)
TextBuilder = Callable[[AuditEvent], str]
_builder: TextBuilder | None = None
_HASH = re.compile(r"^(sha256:)?[0-9a-f]{40,}$")


def set_text_builder(builder: TextBuilder) -> None:
    """The function that says an event in words for the search (the reports app's)."""
    global _builder
    _builder = builder


def data_words(data: Any) -> Iterator[str]:
    """The strings of an event's data (keys and values, codes with their underscores as
    spaces), not its bound rows or any hash."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == KEY:
                continue
            if not str(key).isdigit():
                yield str(key).replace("_", " ")
            yield from data_words(value)
    elif isinstance(data, list):
        for item in data:
            yield from data_words(item)
    elif isinstance(data, str) and not _HASH.match(data):
        yield data
        if "_" in data:
            yield data.replace("_", " ")


def default_text(event: AuditEvent) -> str:
    return " ".join(data_words(event.data or {}))


def base_words(event: AuditEvent) -> list[str]:
    """What every event's words hold, whoever says the rest: its kind (code and words), table
    and who (the search looks nowhere else but the object's id)."""
    label = str(EventKind(event.kind).label) if event.kind in EventKind.values else ""
    words = event.kind.replace(".", " ").replace("_", " ")
    return [event.kind, words, label, event.table_name, event.actor_name]


def event_text(event: AuditEvent) -> str:
    """The event's search text, lowercased (the search lowercases its words too). Words that
    cannot be said (data of a shape the pages do not know) fall back to `default_text`: the
    event itself is never refused for its search words."""
    try:
        text = (_builder or default_text)(event)
    except Exception:
        log.exception("the search words of a %s event fell back to its data", event.kind)
        text = default_text(event)
    return " ".join([*base_words(event), *text.split()]).lower()


def write_text(event: AuditEvent, text: str) -> None:
    AuditEventText.objects.create(event_id=event.pk, text=text)


def write_missing(events: Iterable[AuditEvent], *, batch: int = 2000) -> int:
    """Write the search text of every event given that has none (the command, a migration);
    returns how many were written."""
    done = 0
    rows: list[AuditEventText] = []
    for event in events:
        rows.append(AuditEventText(event_id=event.pk, text=event_text(event)))
        if len(rows) >= batch:
            done += len(AuditEventText.objects.bulk_create(rows, ignore_conflicts=True))
            rows = []
    if rows:
        done += len(AuditEventText.objects.bulk_create(rows, ignore_conflicts=True))
    return done
