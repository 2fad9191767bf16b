"""The open-stream counts the workers of one instance share (service/instance/stream_counts.py), across forked processes."""

from __future__ import annotations

from service.instance.stream_counts import StreamCounts
from tests.support.forked import in_child


def test_a_count_is_the_sum_of_every_worker_s_row_and_a_cleared_row_counts_nothing():
    counts = StreamCounts(3)

    def first_worker() -> None:
        for _ in range(5):
            counts.add(0, "203.0.113.7", 1)

    in_child(first_worker)
    counts.add(2, "203.0.113.7", 2)
    counts.add(2, "203.0.113.8", 1)
    assert counts.held("203.0.113.7") == 7
    assert counts.held("203.0.113.8") == 1
    assert counts.held("198.51.100.1") == 0
    counts.add(2, "203.0.113.7", -1)
    assert counts.held("203.0.113.7") == 6
    counts.clear(0)  # the first worker exited
    assert counts.held("203.0.113.7") == 1


def test_a_client_with_few_streams_is_almost_never_refused_for_others_at_their_limit():
    """An instance's worth of streams: 600 addresses at a limit of 32 (19,200 streams), and 20,000 light clients."""
    limit = 32
    counts = StreamCounts(2)
    heavy = [f"198.51.{n // 256}.{n % 256}" for n in range(600)]
    for n, client in enumerate(heavy):
        counts.add(n % 2, client, limit)
    light = [f"10.{n // 65536}.{n // 256 % 256}.{n % 256}" for n in range(20_000)]
    for n, client in enumerate(light):
        counts.add(n % 2, client, 1)
    # A count-min sketch never understates...
    assert all(counts.held(client) >= limit for client in heavy)
    # ...and overstates a light client's count to the limit about once in 35,000.
    refused = [client for client in light if counts.held(client) >= limit]
    assert len(refused) <= 3, refused
