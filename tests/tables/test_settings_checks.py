"""A bad gaming day or shift setting fails `manage.py check` (so every start), not the first
settled round."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings


@pytest.mark.parametrize(
    ("setting", "value", "named"),
    [
        ("CASINO_SHIFTS", ["06:00", "25:00"], "'25:00'"),
        ("CASINO_SHIFTS", ["06:00", "14:60"], "'14:60'"),
        ("CASINO_SHIFTS", ["six"], "'six'"),
        ("CASINO_SHIFTS", [], "at least one shift"),
        ("CASINO_SHIFTS", ["06:00", "06:00"], "given twice"),
        ("CASINO_GAMING_DAY_START", "6am", "'6am'"),
        ("CASINO_GAMING_DAY_START", "", "''"),
    ],
)
def test_a_bad_gaming_day_or_shift_setting_fails_the_check(setting, value, named):
    with override_settings(**{setting: value}), pytest.raises(SystemCheckError) as raised:
        call_command("check")
    assert setting in str(raised.value)
    assert named in str(raised.value)


def test_the_default_settings_pass_the_check():
    with override_settings(
        CASINO_GAMING_DAY_START="06:00", CASINO_SHIFTS=["06:00", "14:00", "22:00"]
    ):
        call_command("check")
