"""The JSON Lines loop shared by the `settle` and `replay` commands: one JSON answer per
non-blank input line, in order; a line that is not UTF-8 is refused as `bad_json`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from .errors import EngineError, Refusal

LineHandler = Callable[[str], tuple[dict[str, Any], int]]
# A handler that writes its answer itself: the JSON text of the answer object, without newline.
TextLineHandler = Callable[[str], tuple[str, int]]

# Answers are written in batches of this many lines (one `write` each) unless `out` is
# line-buffered (a terminal), where each answer is written as soon as it is known, as before.
BATCH_LINES = 256


def answer_lines(lines: Iterable[bytes | str], out: IO[str], handle: LineHandler) -> int:
    """Answer each non-blank line (bytes are read as UTF-8); returns how many were refused."""
    dumps = json.dumps

    def handle_text(text: str) -> tuple[str, int]:
        result, bad = handle(text)
        return dumps(result), bad

    return answer_text_lines(lines, out, handle_text)


def answer_text_lines(lines: Iterable[bytes | str], out: IO[str], handle: TextLineHandler) -> int:
    """`answer_lines` for a handler that returns its answer as JSON text."""
    refused = 0
    write = out.write
    per_line = bool(getattr(out, "line_buffering", False))
    not_utf8 = (
        json.dumps(EngineError(Refusal.BAD_JSON, "the line is not UTF-8 text").as_dict()) + "\n"
    )
    pending: list[str] = []
    add = pending.append
    for raw in lines:
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                add(not_utf8)
                refused += 1
                continue
        else:
            text = raw
        if not text or text.isspace():  # (as `not text.strip()`, without copying the line)
            continue
        answer, bad = handle(text)
        refused += bad
        add(answer)
        add("\n")
        if per_line or len(pending) >= 2 * BATCH_LINES:
            write("".join(pending))
            pending.clear()
    if pending:
        write("".join(pending))
    out.flush()
    return refused


def run_command(handle: LineHandler) -> None:
    """stdin to stdout; exit 2 when a line was refused, 1 when the reader went away."""
    dumps = json.dumps

    def handle_text(text: str) -> tuple[str, int]:
        result, bad = handle(text)
        return dumps(result), bad

    run_text_command(handle_text)


def run_text_command(handle: TextLineHandler) -> None:
    """`run_command` for a handler that returns its answer as JSON text."""
    try:
        refused = answer_text_lines(sys.stdin.buffer, sys.stdout, handle)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        sys.stderr.close()
        sys.exit(1)
    if refused:
        sys.exit(2)
