"""The JSON Lines loop shared by the `settle` and `replay` commands: one JSON answer per
non-blank input line, in order; a line that is not UTF-8 is refused as `bad_json`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from .errors import EngineError, Refusal

LineHandler = Callable[[str], tuple[dict[str, Any], int]]


def answer_lines(lines: Iterable[bytes | str], out: IO[str], handle: LineHandler) -> int:
    """Answer each non-blank line (bytes are read as UTF-8); returns how many were refused."""
    refused = 0
    dumps = json.dumps
    write = out.write
    not_utf8 = dumps(EngineError(Refusal.BAD_JSON, "the line is not UTF-8 text").as_dict()) + "\n"
    for raw in lines:
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                write(not_utf8)
                refused += 1
                continue
        else:
            text = raw
        if not text.strip():
            continue
        result, bad = handle(text)
        refused += bad
        write(dumps(result) + "\n")
    out.flush()
    return refused


def run_command(handle: LineHandler) -> None:
    """stdin to stdout; exit 2 when a line was refused, 1 when the reader went away."""
    try:
        refused = answer_lines(sys.stdin.buffer, sys.stdout, handle)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        sys.stderr.close()
        sys.exit(1)
    if refused:
        sys.exit(2)
