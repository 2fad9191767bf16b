"""How many watch a game, across two real gunicorn instances (issue 38): `event: watchers` on its streams.

A stream opened on one instance is counted on the other's streams within
the renewal period (5 s), and so is one closed; each stream is told the
count once after its first events and then only when it changes.
"""

from __future__ import annotations

import time

from tests.support.live_service import LiveService
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.service_client import ServiceClient, wait_until_ready
from tests.support.sse import EventStream

CLUSTER = {"REDIS_CLUSTER": "1"}

# A change is told at the next renewal: within 5 s, given a second for the processes' own delays.
TOLD_WITHIN_SECONDS = 6.0


def _next_count(stream: EventStream) -> tuple[int, float]:
    """The next `watchers` count on the stream, and how long it took to come."""
    started = time.monotonic()
    event = stream.next()
    assert event is not None and event.kind == "watchers", event
    return event.json()["count"], time.monotonic() - started


def _watched_across(a: LiveService, b: LiveService) -> None:
    """Streams opened and closed on both instances: each told the count of all of them, within a renewal."""
    with ServiceClient(a.url) as client:
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


def test_the_watchers_count_spans_instances_and_follows_streams_opened_and_closed(redis_url, tmp_path):
    with LiveService(redis_url, tmp_path / "a.log") as a, LiveService(redis_url, tmp_path / "b.log") as b:
        _watched_across(a, b)


def test_the_watchers_count_on_a_redis_cluster(tmp_path):
    with (
        ThrowawayCluster(tmp_path / "cluster") as cluster,
        LiveService(cluster.url, tmp_path / "a.log", env=CLUSTER) as a,
        LiveService(cluster.url, tmp_path / "b.log", env=CLUSTER) as b,
    ):
        wait_until_ready(a.url)
        wait_until_ready(b.url)
        _watched_across(a, b)
