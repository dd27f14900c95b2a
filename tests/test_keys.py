"""The production keys and the audit anchor's witness off the machine: with DEBUG off a missing
key, the development default or an audit key under 32 bytes is refused by the system checks,
the WSGI application, and the Celery worker and beat (which exit 1 at start-up); `check
--deploy` requires AUDIT_ANCHOR_SYSLOG to name a syslog host on another machine.

The subprocesses run outside the test suite (no pytest imported, so settings.TESTING is off)
with DEBUG off and none of the suite's DJANGO_, AUDIT_, CASINO_ or CELERY_ variables."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.checks import run_checks
from django.test import override_settings

from accounts.checks import keys_are_set
from audit.checks import anchor_has_a_witness_off_the_machine, malformed, witness_problem
from casino.celery import refuse_to_start_on_check_errors, start_errors
from casino.settings import key_problem

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_AUDIT_KEY = "insecure-local-audit-key"
DEFAULT_SECRET_KEY = "insecure-local-development-key-not-for-production"


def production_env(tmp_path: Path, **env: str) -> dict[str, str]:
    """This environment without the suite's settings: DEBUG off, a database of the test's own,
    tasks on the in-memory broker; `env` on top."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "PYTEST", "AUDIT_", "CASINO_", "CELERY_", "DATABASE_"))
    }
    clean["DATABASE_URL"] = f"sqlite:///{tmp_path / 'keys.db'}"
    clean["AUDIT_ANCHOR_PATH"] = str(tmp_path / "anchor.jsonl")
    clean.update(env)
    return clean


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def good_keys(**env: str) -> dict[str, str]:
    return {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "AUDIT_CHECKPOINT_KEY": secrets.token_urlsafe(32),
        **env,
    }


# --- the rule --------------------------------------------------------------------------------


def test_a_key_is_refused_when_missing_the_default_or_short() -> None:
    assert key_problem("", DEFAULT_AUDIT_KEY, 32) == "is not set"
    assert "development default" in str(key_problem(DEFAULT_AUDIT_KEY, DEFAULT_AUDIT_KEY, 32))
    assert key_problem("x" * 31, DEFAULT_AUDIT_KEY, 32) == (
        "is 31 bytes long; at least 32 are required"
    )
    assert key_problem("x" * 32, DEFAULT_AUDIT_KEY, 32) is None
    # Bytes, not characters: 16 two-byte characters are 32 bytes.
    assert key_problem("é" * 16, DEFAULT_AUDIT_KEY, 32) is None
    assert key_problem("é" * 15, DEFAULT_AUDIT_KEY, 32) is not None
    # The secret key: only its development default is refused here (Django's security.W009
    # warns of a short one under --deploy).
    assert key_problem("short", DEFAULT_SECRET_KEY) is None
    assert key_problem(DEFAULT_SECRET_KEY, DEFAULT_SECRET_KEY) is not None


def test_the_check_names_each_refused_key_and_why() -> None:
    refused = {
        "MISSING_KEYS": ["DJANGO_SECRET_KEY", "AUDIT_CHECKPOINT_KEY"],
        "KEY_PROBLEMS": {
            "DJANGO_SECRET_KEY": "is not set",
            "AUDIT_CHECKPOINT_KEY": "is 5 bytes long; at least 32 are required",
        },
    }
    with override_settings(**refused):
        errors = keys_are_set()
    assert [(e.id, e.msg) for e in errors] == [
        ("casino.E001", "DJANGO_SECRET_KEY is not set"),
        ("casino.E002", "AUDIT_CHECKPOINT_KEY is 5 bytes long; at least 32 are required"),
    ]
    assert keys_are_set() == []  # the suite's development keys


# --- the worker and beat ---------------------------------------------------------------------


def test_the_worker_start_hook_exits_1_naming_the_key(capfd: pytest.CaptureFixture[str]) -> None:
    refused = {
        "MISSING_KEYS": ["AUDIT_CHECKPOINT_KEY"],
        "KEY_PROBLEMS": {"AUDIT_CHECKPOINT_KEY": "is not set"},
    }
    with override_settings(**refused), pytest.raises(SystemExit) as exited:
        refuse_to_start_on_check_errors(signal=None, sender=None)
    assert exited.value.code == 1
    assert "AUDIT_CHECKPOINT_KEY is not set" in capfd.readouterr().err
    assert start_errors() == []
    refuse_to_start_on_check_errors(signal=None, sender=None)  # good keys: goes on


@pytest.mark.parametrize(
    "audit_key",
    [None, "k" * 29],
    ids=["missing", "short"],
)
def test_a_worker_without_a_good_audit_key_exits_non_zero(
    tmp_path: Path, audit_key: str | None
) -> None:
    env = production_env(tmp_path, DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    if audit_key is not None:
        env["AUDIT_CHECKPOINT_KEY"] = audit_key
    done = run(["-m", "celery", "-A", "casino", "worker", "--pool=solo", "-l", "INFO"], env)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "celery worker refuses to start" in done.stderr
    assert "AUDIT_CHECKPOINT_KEY" in done.stderr
    assert "ready." not in done.stdout + done.stderr


def test_beat_without_the_audit_key_exits_non_zero(tmp_path: Path) -> None:
    env = production_env(tmp_path, DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    schedule = str(tmp_path / "beat-schedule")
    done = run(["-m", "celery", "-A", "casino", "beat", "-s", schedule, "-l", "INFO"], env)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "celery beat refuses to start" in done.stderr
    assert "AUDIT_CHECKPOINT_KEY is not set" in done.stderr


def test_a_worker_with_good_keys_starts(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    with log.open("w") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "casino", "worker", "--pool=solo", "-l", "INFO"],
            cwd=ROOT,
            env=production_env(tmp_path, **good_keys()),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 60
            while "ready." not in log.read_text() and worker.poll() is None:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
            assert worker.poll() is None, log.read_text()  # still running: it started
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    assert "refuses to start" not in log.read_text()


# --- the site and the commands ---------------------------------------------------------------


def test_the_site_and_commands_refuse_the_default_or_a_short_audit_key(tmp_path: Path) -> None:
    default = production_env(tmp_path, **good_keys(AUDIT_CHECKPOINT_KEY=DEFAULT_AUDIT_KEY))
    checked = run(["manage.py", "check"], default)
    assert checked.returncode != 0, checked.stderr
    assert "AUDIT_CHECKPOINT_KEY is the development default" in checked.stderr
    wsgi = run(["-c", "import casino.wsgi"], default)
    assert wsgi.returncode != 0 and "AUDIT_CHECKPOINT_KEY" in wsgi.stderr
    short = production_env(tmp_path, **good_keys(AUDIT_CHECKPOINT_KEY="k" * 31))
    migrated = run(["manage.py", "migrate", "--noinput"], short)
    assert migrated.returncode != 0, migrated.stderr
    assert "AUDIT_CHECKPOINT_KEY is 31 bytes long; at least 32 are required" in migrated.stderr
    secret = production_env(tmp_path, **good_keys(DJANGO_SECRET_KEY=DEFAULT_SECRET_KEY))
    checked = run(["manage.py", "check"], secret)
    assert "DJANGO_SECRET_KEY is the development default" in checked.stderr


def test_debug_on_keeps_the_development_keys(tmp_path: Path) -> None:
    """The embedded default (`bin/run`): no keys and no syslog, and everything starts."""
    env = production_env(tmp_path, DJANGO_DEBUG="true")
    checked = run(["manage.py", "check"], env)
    assert checked.returncode == 0, checked.stderr
    assert "no issues" in checked.stdout


# --- the anchor's witness off the machine ----------------------------------------------------


@pytest.mark.parametrize(
    "target", ["logs.casino.example:514", "logs.casino.example", "10.0.0.7:1514", "192.0.2.1"]
)
def test_a_remote_syslog_host_is_a_witness(target: str) -> None:
    assert malformed(target) is None and witness_problem(target) is None
    with override_settings(AUDIT_ANCHOR_SYSLOG=target):
        assert anchor_has_a_witness_off_the_machine() == []


@pytest.mark.parametrize(
    "target, why",
    [
        ("", "is not set"),
        ("/dev/log", "is a local socket"),
        ("localhost:514", "names this machine"),
        ("127.0.0.1", "names this machine"),
        ("0.0.0.0:514", "names this machine"),
    ],
)
def test_no_syslog_or_a_local_one_is_no_witness(target: str, why: str) -> None:
    with override_settings(AUDIT_ANCHOR_SYSLOG=target):
        [error] = anchor_has_a_witness_off_the_machine()
    assert error.id == "audit.E001" and why in error.msg
    assert "caught only by a copy of the checkpoints off the machine" in str(error.hint)


@pytest.mark.parametrize("target", [":514", "logs.casino.example:syslog", "host:70000"])
def test_a_syslog_value_the_checkpoints_cannot_send_to_fails_every_check(target: str) -> None:
    with override_settings(AUDIT_ANCHOR_SYSLOG=target):
        ids = {m.id for m in run_checks()}
        assert "audit.E002" in ids
        assert anchor_has_a_witness_off_the_machine() == []  # reported once, as E002


def test_check_deploy_requires_the_witness_and_the_embedded_default_does_not(
    tmp_path: Path,
) -> None:
    env = production_env(tmp_path, **good_keys(DJANGO_ALLOWED_HOSTS="casino.example"))
    env["DJANGO_HTTPS"] = "true"
    deploy = run(["manage.py", "check", "--deploy"], env)
    assert deploy.returncode != 0
    assert "(audit.E001) AUDIT_ANCHOR_SYSLOG is not set" in deploy.stderr
    assert "caught only by a copy of the checkpoints off the machine" in deploy.stderr
    assert run(["manage.py", "check"], env).returncode == 0  # not without --deploy
    env["AUDIT_ANCHOR_SYSLOG"] = "logs.casino.example:514"
    deploy = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert deploy.returncode == 0, deploy.stdout + deploy.stderr
