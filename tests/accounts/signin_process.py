"""A separate process signing in (run by test_lockout): `python signin_process.py ACTION USER
[PASSWORD] [COUNT]`, with DATABASE_URL (and CASINO_CACHE_URL) naming the shared store.

ACTION: `create` (the account, password PASSWORD), `fail` (COUNT wrong passwords), `try` (the
right PASSWORD once; prints "signed in" or "refused" and, when locked, "locked")."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DJANGO_DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.contrib.auth import authenticate, get_user_model  # noqa: E402
from django.test import RequestFactory  # noqa: E402

from accounts.lockout import is_locked  # noqa: E402


def main(action: str, username: str, password: str = "", count: str = "1") -> None:
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=f"10.0.0.{os.getpid() % 250}")
    if action == "create":
        get_user_model().objects.create_user(username, password=password)
    elif action == "fail":
        for _ in range(int(count)):
            authenticate(request, username=username, password="not-" + password)
    elif action == "try":
        user = authenticate(request, username=username, password=password)
        print("signed in" if user is not None else "refused")
        print("locked" if is_locked(username) else "not locked")


if __name__ == "__main__":
    main(*sys.argv[1:])
