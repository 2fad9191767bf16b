"""What Chromium's EventSource does on its own, cross-origin (docs/api-guide.md#live-updates).

The guide tells pages when to recreate an EventSource; these measure the two
cases it names: the browser's own reconnect after the service closed a
stream (it sends Last-Event-ID: is that preflighted?), and a 503 with
Retry-After (does the browser wait and retry, or give up?). Should a
Chromium release change either, the guide must change with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.support.redis_servers import ThrowawayRedis

from .conftest import call
from .servers import CountedService


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[ThrowawayRedis]:
    with ThrowawayRedis(tmp_path / "redis") as server:
        yield server


@pytest.fixture
def service(tmp_path: Path, redis: ThrowawayRedis) -> Iterator[CountedService]:
    """The conftest's service, on a Redis this module can stop."""
    with CountedService(redis.url, tmp_path / "service.log") as live:
        yield live


def stream_requests(service: CountedService, game_id: str) -> list[str]:
    return [method for method, target in service.requests() if target.startswith(f"/games/{game_id}/events")]


def test_the_browsers_own_reconnect_sends_last_event_id_without_a_preflight(chromium, service):
    game = call(chromium, "createGame", service.url)
    resign = requests.post(
        f"{service.url}/games/{game['id']}/resign",
        headers={"Authorization": f"Bearer {game['tokens'][0]}"},
        timeout=10,
    )
    assert resign.status_code == 201
    # The stream of a finished game: snapshot, end, closed by the service. The
    # browser reconnects after retry (2 s) with Last-Event-ID: 2, the last
    # version, which the service answers 204: the browser then gives up.
    watched = call(chromium, "watchEventSource", service.url, game["id"], 4000)
    assert [e["type"] for e in watched["seen"]] == ["game", "end", "error", "error"]
    assert watched["seen"][2]["readyState"] == 0  # reconnecting by itself
    assert watched["seen"][3]["readyState"] == 2  # the 204: given up
    assert stream_requests(service, game["id"]) == ["GET", "GET"]
    assert service.preflights() == 0
    statuses = [line for line in service.settled_log().splitlines() if f"/games/{game['id']}/events" in line]
    assert '" 204 ' in statuses[-1], statuses


def test_a_503_with_retry_after_makes_the_browser_give_up(chromium, service, redis):
    game = call(chromium, "createGame", service.url)
    redis.stop()
    watched = call(chromium, "watchEventSource", service.url, game["id"], 4000)
    assert watched["seen"] == [{"type": "error", "readyState": 2}]
    # One request: no retry, though the 503 carried Retry-After.
    assert stream_requests(service, game["id"]) == ["GET"]
    assert any(
        f"/games/{game['id']}/events" in line and '" 503 ' in line
        for line in service.settled_log().splitlines()
    )
