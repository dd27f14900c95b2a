"""A user's group names (their roles) read in the statement that reads the user or the token."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Subquery, TextField


class GroupNames(Subquery):
    """The names of the groups a subquery selects, as one value: PostgreSQL gives an array,
    SQLite a JSON array (`names` reads either)."""

    template = "ARRAY(%(subquery)s)"
    output_field = TextField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(
            compiler,
            connection,
            template="(SELECT json_group_array(name) FROM (%(subquery)s))",
            **extra,
        )


def names(value: Any) -> list[str]:
    """The names a `GroupNames` column holds."""
    if isinstance(value, str):  # SQLite's JSON array
        value = json.loads(value)
    return list(value or ())
