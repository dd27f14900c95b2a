"""The gaming day and the shifts, configurable (settings CASINO_GAMING_DAY_START and
CASINO_SHIFTS, in the casino's time zone): a round settled at 03:00 belongs to the gaming day
that began at 06:00 the calendar day before."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.utils import timezone


def _parse(hhmm: str) -> time:
    hours, _, minutes = hhmm.strip().partition(":")
    return time(int(hours), int(minutes or 0))


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


def day_bounds(day: date) -> tuple[datetime, datetime]:
    """The gaming day's first and last-plus-one instants (aware)."""
    start = timezone.make_aware(datetime.combine(day, day_start()))
    return start, start + timedelta(days=1)
