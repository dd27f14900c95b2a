"""The client's address: the connection's, unless it comes from a trusted proxy.

X-Forwarded-For is believed only from the proxies in CASINO_TRUSTED_PROXIES (addresses or
networks; empty by default, so a client can never choose its own address). Walking the header
from the right, the first address that is not a trusted proxy is the client.
"""

from __future__ import annotations

import ipaddress
from functools import cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@cache
def _trusted(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


def _is_trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_ip(request: HttpRequest) -> str:
    remote = str(request.META.get("REMOTE_ADDR", "") or "")
    networks = _trusted(tuple(settings.CASINO_TRUSTED_PROXIES))
    if not networks or not _is_trusted(remote, networks):
        return remote
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", "") or "")
    hops = [h.strip() for h in forwarded.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, networks):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return remote  # a malformed hop: fall back to the proxy itself
    return hops[0] if hops else remote
