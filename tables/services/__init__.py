"""Writes go through services (keyword-only, typed, atomic, audited in the same transaction).

Refusals are `core.errors.ServiceError` (re-exported here for the services' callers)."""

from __future__ import annotations

from core.errors import ServiceError

__all__ = ["ServiceError"]
