#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

`manage.py settle` (exactly that: no option) runs the settle contract's loop straight from the
engine: it touches neither Django nor the database, and setting Django up (settings, every app,
Celery) cost about as much CPU as settling ten thousand rounds. Its output and exit status are
the command's own (`tables/management/commands/settle.py`, which runs the same loop); any
option or other command goes through Django."""

import os
import sys


def main() -> None:
    if sys.argv[1:] == ["settle"]:
        from tables.engine.contract import settle_line_text
        from tables.engine.jsonl import run_text_command

        run_text_command(settle_line_text)
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
