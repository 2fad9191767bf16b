"""The webhook address guard (site/webhook_addresses.py): public https targets only, every address checked.

No test here connects anywhere: the guard decides before any connection,
and names are resolved by a stand-in resolver (or, for `localhost`, by the
system's, which answers from /etc/hosts).
"""

from __future__ import annotations

import pytest

from service.config import DEFAULT_WEBHOOK_PENDING, DEFAULT_WEBHOOKS_PER_PLAYER, Settings
from service.site.webhook_addresses import AddressGuard, AddressRefused, is_public
from service.storage import webhooks as stored

REFUSED = [
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",  # shared address space (carrier-grade NAT)
    "0.0.0.0",
    "224.0.0.251",
    "255.255.255.255",
    "240.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "ff02::1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "fe80::1%eth0",
]
PUBLIC = ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34"]


@pytest.mark.parametrize("address", REFUSED)
def test_addresses_that_are_not_public_are_refused(address):
    assert not is_public(address)


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_pass(address):
    assert is_public(address)


def _resolving(*addresses):
    return lambda host, port: list(addresses)


def test_a_name_is_refused_when_any_of_its_addresses_is_not_public():
    guard = AddressGuard(resolver=_resolving("93.184.216.34", "10.0.0.7"))
    with pytest.raises(AddressRefused, match=r"10\.0\.0\.7"):
        guard.target("https://hooks.example.org/in")
    target = AddressGuard(resolver=_resolving("93.184.216.34")).target(
        "https://hooks.example.org:8443/in?x=1"
    )
    assert (target.scheme, target.host, target.port, target.path) == (
        "https",
        "hooks.example.org",
        8443,
        "/in?x=1",
    )
    assert target.addresses == ("93.184.216.34",)


def test_localhost_is_refused_by_what_it_resolves_to():
    with pytest.raises(AddressRefused, match="not a public address"):
        AddressGuard().target("https://localhost/hook")


def test_only_https_unless_http_is_allowed_and_private_only_when_allowed():
    with pytest.raises(AddressRefused, match="https://"):
        AddressGuard(resolver=_resolving("93.184.216.34")).target("http://hooks.example.org/")
    allowed = AddressGuard(allow_http=True, allow_private=True)
    assert allowed.target("http://127.0.0.1:9/x").addresses == ("127.0.0.1",)
    for url in (
        "https://u:p@example.org/",
        "https:///nohost",
        "https://example.org:99999/",
        "https://e.org/#f",
    ):
        with pytest.raises(AddressRefused):
            AddressGuard(resolver=_resolving("93.184.216.34")).check_url(url)


def test_a_name_that_does_not_resolve_is_refused():
    with pytest.raises(AddressRefused, match="could not be resolved"):
        AddressGuard().target("https://nothing.invalid/hook")


def test_the_sites_defaults_are_the_settings_defaults():
    assert (stored.DEFAULT_PER_PLAYER, stored.DEFAULT_PENDING) == (
        DEFAULT_WEBHOOKS_PER_PLAYER,
        DEFAULT_WEBHOOK_PENDING,
    )
    settings = Settings.from_env({"WEBHOOK_RETRY_SCHEDULE": "0.5,1,2"})
    assert settings.webhook_retry_schedule == (0.5, 1.0, 2.0) and settings.webhook_senders == 1
