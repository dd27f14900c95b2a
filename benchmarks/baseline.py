"""Before and after in one run: the same benchmark script run against an earlier commit.

`run_against(rev, script, args)` checks `rev` out into a git worktree under the system's temp
folder (once; reused while it exists), copies the *current* benchmark scripts into it (so both
sides are measured by the very same code), runs `script` there with this interpreter and
`--json-out FILE`, and returns what the script wrote. The worktree shares this checkout's
`.venv`: the project's packages are imported from the worktree (its root comes first on
`sys.path`), the third-party ones from the venv.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent


def resolve(rev: str) -> str:
    """The full commit id of `rev` (a tag, branch, HEAD~3, an abbreviated id...)."""
    out = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def worktree(rev: str) -> Path:
    """A detached worktree of `rev`, made once and reused."""
    sha = resolve(rev)
    path = Path(tempfile.gettempdir()) / f"casino-baseline-{sha[:12]}"
    if not (path / "manage.py").exists():
        if path.exists():
            shutil.rmtree(path)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--force", str(path), sha],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    for script in HERE.glob("*.py"):
        shutil.copy2(script, path / "benchmarks" / script.name)
    return path


def run_script(
    root: Path, script: str, args: Sequence[str], *, prefix: Sequence[str] = ()
) -> dict[str, Any]:
    """Run benchmarks/`script` of the tree at `root` with `args`; the JSON it wrote."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        out_path = out.name
    try:
        env = dict(os.environ, PYTHONPATH=str(root))
        subprocess.run(
            [
                *prefix,
                sys.executable,
                str(root / "benchmarks" / script),
                *args,
                "--json-out",
                out_path,
            ],
            cwd=root,
            env=env,
            check=True,
        )
        return json.loads(Path(out_path).read_text())
    finally:
        os.unlink(out_path)


def run_against(
    rev: str, script: str, args: Sequence[str], *, prefix: Sequence[str] = ()
) -> dict[str, Any]:
    """`script` with `args` measured on commit `rev` (see the module's docstring)."""
    return run_script(worktree(rev), script, args, prefix=prefix)


def run_here(script: str, args: Sequence[str], *, prefix: Sequence[str] = ()) -> dict[str, Any]:
    """`script` with `args` measured on this checkout, in a fresh process like the baseline."""
    return run_script(ROOT, script, args, prefix=prefix)
