"""Production-safe defaults: DEBUG off unless asked, no start without the keys, a clean
`check --deploy` with the documented variables, short sessions, a Content-Security-Policy,
SQLite in WAL mode with a busy timeout, and a hashed lock file that setup installs from."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


def run(code_or_args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "PYTEST", "AUDIT_", "CASINO_"))
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, *code_or_args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=180,
    )


SHOW = "import django,os;os.environ.setdefault('DJANGO_SETTINGS_MODULE','casino.settings');\
django.setup();from django.conf import settings as s;print({})"


def test_debug_is_off_unless_asked() -> None:
    assert run(["-c", SHOW.format("s.DEBUG")]).stdout.strip() == "False"
    assert run(["-c", SHOW.format("s.DEBUG")], DJANGO_DEBUG="true").stdout.strip() == "True"
    assert "DJANGO_DEBUG=${DJANGO_DEBUG:-true}" in (ROOT / "bin" / "run").read_text()


def test_without_debug_the_site_refuses_to_start_without_its_keys() -> None:
    checked = run(["manage.py", "check"])
    assert checked.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in checked.stderr
    assert "AUDIT_CHECKPOINT_KEY is not set" in checked.stderr
    wsgi = run(["-c", "import casino.wsgi"])
    assert wsgi.returncode != 0 and "DJANGO_SECRET_KEY" in wsgi.stderr
    secret = run(["-c", SHOW.format("repr(s.SECRET_KEY)")])
    assert "insecure" not in secret.stdout  # never the known development key


def test_the_documented_variables_make_check_deploy_clean() -> None:
    env = {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "AUDIT_CHECKPOINT_KEY": secrets.token_urlsafe(32),
        "DJANGO_ALLOWED_HOSTS": "casino.example",
        "DJANGO_HTTPS": "true",
        "AUDIT_ANCHOR_SYSLOG": "logs.casino.example:514",
    }
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
    readme = (ROOT / "README.md").read_text()
    for name in env:
        assert f"`{name}`" in readme
    without_https = run(["manage.py", "check", "--deploy"], **{**env, "DJANGO_HTTPS": "false"})
    assert {"security.W004", "security.W008", "security.W012", "security.W016"} <= set(
        re.findall(r"security\.W\d+", without_https.stdout + without_https.stderr)
    )


def test_sessions_are_short_and_end_with_the_browser() -> None:
    assert settings.SESSION_COOKIE_AGE == 30 * 60
    assert settings.SESSION_SAVE_EVERY_REQUEST and settings.SESSION_EXPIRE_AT_BROWSER_CLOSE
    out = run(
        ["-c", SHOW.format("s.SESSION_COOKIE_AGE")],
        DJANGO_DEBUG="true",
        CASINO_SESSION_IDLE_MINUTES="10",
    )
    assert out.stdout.strip() == "600"


def test_every_password_validator_is_on() -> None:
    names = {v["NAME"].rsplit(".", 1)[1] for v in settings.AUTH_PASSWORD_VALIDATORS}
    assert names == {
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    }


@pytest.mark.django_db
def test_pages_send_a_content_security_policy(client: Client) -> None:
    response = client.get("/accounts/login/")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe-eval" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert "<script>" not in response.content.decode()  # no inline script to allow


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    code = (
        "import django,os;os.environ.setdefault('DJANGO_SETTINGS_MODULE','casino.settings');"
        "django.setup();from django.db import connection as c;cur=c.cursor();"
        "cur.execute('PRAGMA journal_mode');print(cur.fetchone()[0]);"
        "cur.execute('PRAGMA busy_timeout');print(cur.fetchone()[0])"
    )
    out = run(["-c", code], DJANGO_DEBUG="true", DATABASE_URL=f"sqlite:///{tmp_path / 'x.db'}")
    assert out.stdout.split() == ["wal", "20000"], out.stderr


def test_thirty_concurrent_writers_on_sqlite_never_see_database_is_locked(tmp_path: Path) -> None:
    """The embedded default under a small floor's load: 30 threads, each reading then writing
    in one transaction (the pattern that fails with "database is locked" by default)."""
    db = tmp_path / "floor.db"
    env = {"DJANGO_DEBUG": "true", "DATABASE_URL": f"sqlite:///{db}"}
    assert run(["manage.py", "migrate", "--noinput"], **env).returncode == 0
    code = """
import django, os, threading
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'casino.settings')
django.setup()
from django.db import connections, transaction
from audit.models import AuditEvent
from audit.services import audit_record
errors = []
barrier = threading.Barrier(30)
def writer(i):
    try:
        barrier.wait()
        for n in range(5):
            with transaction.atomic():
                AuditEvent.objects.count()
                audit_record(actor=None, actor_name=f"t{i}", kind="test.write", data={"n": n})
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connections.close_all()
threads = [threading.Thread(target=writer, args=(i,)) for i in range(30)]
[t.start() for t in threads]
[t.join() for t in threads]
print(len(errors), AuditEvent.objects.filter(kind="test.write").count(), errors[:1])
"""
    out = run(["-c", code], **env)
    assert out.stdout.split()[:2] == ["0", "150"], out.stdout + out.stderr


def test_setup_installs_from_a_hashed_lock_file_with_every_dependency() -> None:
    setup = (ROOT / "bin" / "setup").read_text()
    assert "--require-hashes -r requirements.lock" in setup
    assert "requirements.lock" in setup.split("stamp=")[1].split("\n")[0]  # reinstall on change
    lock = (ROOT / "requirements.lock").read_text()
    pins = dict(re.findall(r"^([a-z0-9._-]+)==([^\s\\]+)", lock, re.MULTILINE))
    assert all(f"{name}=={version} \\" in lock for name, version in pins.items())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["dev"]
    for requirement in wanted:
        name = re.split(r"[\[<>=]", requirement)[0].lower().replace("_", "-")
        assert name in pins, name


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


@pytest.mark.parametrize(
    ("package", "first_safe"),
    [("Django", "5.2.9"), ("djangorestframework", "3.15.2"), ("gunicorn", "23.0")],
)
def test_dependency_floors_are_above_versions_with_known_advisories(
    package: str, first_safe: str
) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (spec,) = [d for d in project["dependencies"] if re.split(r"[\[<>=]", d)[0] == package]
    floor = re.search(r">=([0-9.]+)", spec)
    assert floor is not None and _version(floor.group(1)) >= _version(first_safe), spec


def test_the_settings_never_read_a_forwarded_header_by_default() -> None:
    assert settings.CASINO_TRUSTED_PROXIES == []
    assert (
        not hasattr(settings, "SECURE_PROXY_SSL_HEADER") or settings.SECURE_PROXY_SSL_HEADER is None
    )
    assert "NUM_PROXIES" not in settings.REST_FRAMEWORK
