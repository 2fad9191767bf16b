"""Secrets in logged URLs and headers (issue 36): service/telemetry/logs.py redacts them."""

from __future__ import annotations

import pytest

from service.telemetry.logs import REDACTED, redact_secrets


@pytest.mark.parametrize(
    ("logged", "expected"),
    [
        (
            "GET /players/me/events?ticket=abc&ticket=x HTTP/1.1",
            f"GET /players/me/events?ticket={REDACTED}&ticket={REDACTED} HTTP/1.1",
        ),
        ("ticket=abc&last_event_id=5", f"ticket={REDACTED}&last_event_id=5"),
        # Percent-encoded names are what the app decodes them to; case does not matter.
        ("/x?tick%65t=abc;access_token=zz&a=b", f"/x?tick%65t={REDACTED};access_token={REDACTED}&a=b"),
        ("https://example.org/p?TOKEN=1#top", f"https://example.org/p?TOKEN={REDACTED}#top"),
        ("GET /games?status=open&cursor=5.ab HTTP/1.1", "GET /games?status=open&cursor=5.ab HTTP/1.1"),
        ("-", "-"),
    ],
)
def test_secret_query_values_are_redacted_and_nothing_else(logged, expected):
    assert redact_secrets(logged) == expected
