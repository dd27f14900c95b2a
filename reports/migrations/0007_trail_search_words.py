"""The trail search's words of every event written before the search read them (new events get
theirs as they are written: `audit.search`)."""

from typing import Any

from django.db import migrations


def write_words(apps: Any, schema_editor: Any) -> None:
    # The words are the pages' own (reports.replay), so the live models and code say them.
    from audit.models import AuditEvent
    from audit.search import write_missing

    events = AuditEvent.objects.filter(search_text__isnull=True).order_by("seq")
    write_missing(events.iterator(chunk_size=2000))


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0006_tables_named_reports"),
        ("audit", "0015_event_search_text_trigram"),
        ("tables", "0020_meter_awards_as_data"),
    ]

    operations = [migrations.RunPython(write_words, migrations.RunPython.noop)]
