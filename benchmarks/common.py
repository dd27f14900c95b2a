"""Shared by the benchmark scripts: the machine's description and PostgreSQL admin statements."""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any


def machine(**extra: str) -> dict[str, str]:
    """CPU model, cores usable, Python, OS (and any extra lines, e.g. postgresql=...)."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    info = {
        "cpu": f"{model} ({platform.machine()})",
        "nproc": f"{usable} usable of {os.cpu_count()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }
    info.update(extra)
    info["os"] = f"{platform.system()} {platform.release()}"
    return info


def admin_execute(admin_url: str, *statements: str) -> list[Any]:
    """Run statements on the `postgres` maintenance database (autocommit); the last rows."""
    import psycopg

    rows: list[Any] = []
    with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as conn:
        for statement in statements:
            cur = conn.execute(statement)
            rows = cur.fetchall() if cur.description else []
    return rows
