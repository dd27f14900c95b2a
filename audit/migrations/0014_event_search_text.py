import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0013_event_object_seq_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="AuditEventText",
            fields=[
                (
                    "event",
                    models.OneToOneField(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        primary_key=True,
                        related_name="search_text",
                        serialize=False,
                        to="audit.auditevent",
                    ),
                ),
                ("text", models.TextField()),
            ],
        ),
    ]
