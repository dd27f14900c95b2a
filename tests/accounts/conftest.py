from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from casino.enqueue import resume


@pytest.fixture(autouse=True)
def _fresh_counters() -> Any:
    """Throttle and sign-in counters live in the shared cache (Redis is not rolled back)."""
    cache.clear()
    resume()
    yield
    cache.clear()
