"""API throttles keyed by the trusted client address (never a client-chosen X-Forwarded-For)
or the user, counted in the shared cache (CACHES: the database, or Redis)."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from .clientip import client_ip


class _TrustedAddress:
    def get_ident(self, request: Any) -> str:
        return client_ip(request)


class AnonThrottle(_TrustedAddress, AnonRateThrottle):
    scope = "anon"


class UserThrottle(_TrustedAddress, UserRateThrottle):
    scope = "user"


class SignInThrottle(_TrustedAddress, AnonRateThrottle):
    """Username-and-password requests per client address."""

    scope = "sign_in"
