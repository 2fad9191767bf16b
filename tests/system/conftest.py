"""Fixtures of the system tests: a Redis whose data survives a crash."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from tests.support.redis_servers import ThrowawayRedis


@pytest.fixture
def durable_redis(tmp_path) -> Iterator[ThrowawayRedis]:
    """A redis-server that fsyncs its append-only file before it answers a write.

    It keeps its port and data directory across stop()/start() and kill -9.
    """
    server = ThrowawayRedis(tmp_path / "redis", ["--appendonly", "yes", "--appendfsync", "always"])
    with server:
        with server.client() as client:
            assert client.config_get("appendfsync") == {"appendfsync": "always"}
        try:
            yield server
        finally:
            if server.pid is not None:
                os.kill(server.pid, signal.SIGCONT)  # a hang test may have stopped it
