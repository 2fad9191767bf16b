"""How many watch a game, across two real gunicorn instances (issue 38): `event: watchers` on its streams.

A stream opened on one instance is counted on the other's streams within
the renewal period (5 s), and so is one closed; each stream is told the
count once after its first events and then only when it changes.
"""

from __future__ import annotations

import time

from tests.support.live_service import LiveService
from tests.support.service_client import ServiceClient
from tests.support.sse import EventStream

# A change is told at the next renewal: within 5 s, given a second for the processes' own delays.
TOLD_WITHIN_SECONDS = 6.0


def _next_count(stream: EventStream) -> tuple[int, float]:
    """The next `watchers` count on the stream, and how long it took to come."""
    started = time.monotonic()
    event = stream.next()
    assert event is not None and event.kind == "watchers", event
    return event.json()["count"], time.monotonic() - started


def test_the_watchers_count_spans_instances_and_follows_streams_opened_and_closed(redis_url, tmp_path):
    with (
        LiveService(redis_url, tmp_path / "a.log") as a,
        LiveService(redis_url, tmp_path / "b.log") as b,
        ServiceClient(a.url) as client,
    ):
        game_id, _tokens = client.create_game(21)
        with EventStream(a.url, game_id, watchers=True) as first:
            assert first.next().kind == "game"
            assert _next_count(first)[0] == 1  # itself
            with EventStream(b.url, game_id, watchers=True) as second:
                assert second.next().kind == "game"
                assert _next_count(second)[0] == 2  # the stream on the other instance, and itself
                count, waited = _next_count(first)
                assert count == 2 and waited < TOLD_WITHIN_SECONDS
                with EventStream(a.url, game_id, watchers=True) as third:
                    assert third.next().kind == "game" and _next_count(third)[0] == 3
                    assert _next_count(first)[0] == 3
                    assert _next_count(second)[0] == 3
                # A stream closed on the same instance, then one on the other: each heard within a renewal.
                count, waited = _next_count(second)
                assert count == 2 and waited < TOLD_WITHIN_SECONDS
                assert _next_count(first)[0] == 2
            count, waited = _next_count(first)
            assert count == 1 and waited < TOLD_WITHIN_SECONDS
