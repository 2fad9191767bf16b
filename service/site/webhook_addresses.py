"""Where a webhook may send: public `https` addresses only, checked at creation and again at each delivery.

A URL is refused when it is not `https` (`http` too with WEBHOOK_ALLOW_HTTP),
carries a user or password, or names a host that is, or resolves to, an
address that is not public: loopback, private, link-local, unspecified,
multicast, reserved or otherwise not globally reachable, IPv4 or IPv6,
including IPv4 inside IPv6 (mapped `::ffff:a.b.c.d`, 6to4, Teredo, NAT64).
Every address a name resolves to must pass, not just the first. With
WEBHOOK_ALLOW_PRIVATE (a test setting) only the scheme is checked.

A delivery resolves the name itself, checks the addresses, and then
connects to a checked address (botworker/webhook_sender.py): a name that
resolves elsewhere a moment later (DNS rebinding) never gets a connection.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from service.languages import Text

Resolve = Callable[[str, int], list[str]]

_NAT64 = ipaddress.ip_network("64:ff9b::/96")
# The longest URL a webhook may have: longer ones are refused (they are not webhooks).
MAX_URL_CHARS = 2000


class AddressRefused(Exception):
    """A URL a webhook may not send to; its `reason` says why (a message of the catalogues)."""

    def __init__(self, reason: Text):
        super().__init__(str(reason))
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Target:
    """Where one delivery goes: the URL's parts, and the checked addresses to connect to."""

    scheme: str
    host: str  # the name, for the Host header and TLS's server name
    port: int
    path: str  # with its query
    addresses: tuple[str, ...]


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to for a TCP connection (the system's resolver)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise AddressRefused(Text("The host {host} could not be resolved.", {"host": host})) from error
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def is_public(address: str) -> bool:
    """Whether an IP address is one a webhook may reach: globally reachable, unicast, no private IPv4 inside."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            # ::ffff:a.b.c.d is the IPv4 address itself, as a dual-stack socket reaches it.
            return is_public(str(ip.ipv4_mapped))
        inner = ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is None and ip in _NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if inner is not None and not is_public(str(inner)):
            return False
    return ip.is_global and not (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_unspecified
        or ip.is_multicast
        or ip.is_reserved
    )


class AddressGuard:
    """The checks of one configuration (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE)."""

    def __init__(self, *, allow_http: bool = False, allow_private: bool = False, resolver: Resolve = resolve):
        self.allow_http = allow_http
        self.allow_private = allow_private
        self._resolve = resolver

    def check_url(self, url: str) -> SplitResult:
        """The URL's parts when its form may be a webhook's (scheme, host, no user); AddressRefused if not."""
        if len(url) > MAX_URL_CHARS:
            raise AddressRefused(
                Text("A webhook URL has at most {most} characters.", {"most": MAX_URL_CHARS})
            )
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 (a port that is not a number raises here)
        except ValueError as error:
            raise AddressRefused(Text("This is not a URL.")) from error
        schemes = ("https", "http") if self.allow_http else ("https",)
        if parts.scheme not in schemes:
            raise AddressRefused(
                Text("A webhook URL must start with https:// (this service sends to no other scheme).")
                if not self.allow_http
                else Text("A webhook URL must start with https:// or http://.")
            )
        if not parts.hostname:
            raise AddressRefused(Text("A webhook URL must name a host."))
        if parts.username is not None or parts.password is not None:
            raise AddressRefused(Text("A webhook URL may not carry a user name or password."))
        if parts.fragment:
            raise AddressRefused(Text("A webhook URL may not have a fragment (#...)."))
        return parts

    def target(self, url: str) -> Target:
        """Where a delivery to `url` may connect: the URL checked, its host resolved, every address checked."""
        parts = self.check_url(url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        addresses = self._resolve(host, port)
        if not addresses:
            raise AddressRefused(Text("The host {host} could not be resolved.", {"host": host}))
        if not self.allow_private:
            for address in addresses:
                if not is_public(address):
                    raise AddressRefused(
                        Text(
                            "The host {host} is or resolves to {address}, which is not a public address "
                            "(loopback, private, link-local, multicast or reserved).",
                            {"host": host, "address": address},
                        )
                    )
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        return Target(parts.scheme, host, port, path, tuple(addresses))
