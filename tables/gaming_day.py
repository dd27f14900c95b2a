"""The gaming day and the shifts, configurable (settings CASINO_GAMING_DAY_START and
CASINO_SHIFTS, in the casino's time zone): a round settled at 03:00 belongs to the gaming day
that began at 06:00 the calendar day before."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.utils import timezone

_HHMM = re.compile(r"([01]?[0-9]|2[0-3]):([0-5][0-9])", re.ASCII)


def parse_time(hhmm: object, setting: str) -> time:
    """ "06:00" -> 06:00; anything else (a bad hour or minute, a missing colon) is refused with
    a ValueError naming the setting and the value."""
    match = _HHMM.fullmatch(hhmm.strip()) if isinstance(hhmm, str) else None
    if match is None:
        raise ValueError(f"{setting}: {hhmm!r} is not a time of day as HH:MM (e.g. 06:00)")
    return time(int(match.group(1)), int(match.group(2)))


def _parse(hhmm: str) -> time:
    return parse_time(hhmm, "time")


def settings_errors() -> list[str]:
    """What is wrong with CASINO_GAMING_DAY_START and CASINO_SHIFTS (empty: nothing), checked
    at start-up (`tables.checks`) rather than at the first settled round."""
    errors = []
    try:
        parse_time(settings.CASINO_GAMING_DAY_START, "CASINO_GAMING_DAY_START")
    except ValueError as err:
        errors.append(str(err))
    shifts = settings.CASINO_SHIFTS
    if not isinstance(shifts, list | tuple) or not shifts:
        errors.append("CASINO_SHIFTS: give at least one shift start, e.g. 06:00,14:00,22:00")
        return errors
    starts = []
    for value in shifts:
        try:
            starts.append(parse_time(value, "CASINO_SHIFTS"))
        except ValueError as err:
            errors.append(str(err))
    if len(set(starts)) != len(starts):
        errors.append(f"CASINO_SHIFTS: a shift start is given twice ({', '.join(shifts)})")
    return errors


def day_start() -> time:
    return _parse(settings.CASINO_GAMING_DAY_START)


def shift_starts() -> list[time]:
    return sorted(_parse(s) for s in settings.CASINO_SHIFTS)


def gaming_day_of(moment: datetime) -> date:
    local = timezone.localtime(moment)
    start = day_start()
    return (local - timedelta(hours=start.hour, minutes=start.minute)).date()


def shift_of(moment: datetime) -> str:
    """The shift's name: its start time, e.g. "06:00"."""
    local = timezone.localtime(moment).time()
    starts = shift_starts()
    current = starts[-1]
    for start in starts:
        if local >= start:
            current = start
    return current.strftime("%H:%M")


def shift_begins(day: date, shift: str) -> datetime:
    """When gaming day `day`'s shift `shift` ("22:00") begins (aware): a shift that starts
    before the day's start time is the next calendar day's (a 02:00 shift of a day begun at
    06:00)."""
    start = _parse(shift)
    calendar = day if start >= day_start() else day + timedelta(days=1)
    return timezone.make_aware(datetime.combine(calendar, start))


def day_bounds(day: date) -> tuple[datetime, datetime]:
    """The gaming day's first and last-plus-one instants (aware)."""
    start = timezone.make_aware(datetime.combine(day, day_start()))
    return start, start + timedelta(days=1)


def asked_day(given: str) -> date | None:
    """A page's `?day=` as given: today's gaming day when empty; None when it is not a date
    (the page then says how to write one)."""
    given = given.strip()
    if not given:
        return gaming_day_of(timezone.now())
    try:
        return date.fromisoformat(given)
    except ValueError:
        return None
