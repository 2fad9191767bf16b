"""At most STREAMS_PER_CLIENT open event streams per client address, in each worker.

An open stream holds one of its worker's WORKER_CONNECTIONS for as long as
it lasts, so one address that opens streams without end could take them
all and leave honest clients (and the health check) unanswered. Past the
limit a new stream is refused with `429 rate_limited` before it costs a
store call; the client is the address the rate limits count by
(TRUSTED_PROXIES: the address its proxy names).

Counted in the worker, in memory, because the connections it protects
are the worker's own: no store round trip per stream, nothing shared to
lock, and nothing left counted when a worker dies with its streams. An
instance of WEB_CONCURRENCY workers thus lets one address hold up to that
many times the limit (the README says so).
"""

from __future__ import annotations

import threading

from .problems import ApiProblem

# A refused client has as many streams open as it may: one of them closing
# is what lets it in, and nothing here can say when that will be.
RETRY_AFTER_SECONDS = 5


class OpenStreams:
    """The open event streams of this worker, counted by client address."""

    def __init__(self, limit: int):
        self.limit = limit
        self._lock = threading.Lock()
        self._by_client: dict[str, int] = {}

    def open(self, client: str) -> None:
        """Count a new stream of `client`; ApiProblem 429 when it has `limit` open already."""
        with self._lock:
            held = self._by_client.get(client, 0)
            if held >= self.limit:
                raise ApiProblem(
                    429,
                    "rate_limited",
                    f"This client has {held} event streams open, the most it may; close one first.",
                    headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
                )
            self._by_client[client] = held + 1

    def close(self, client: str) -> None:
        """Count one stream of `client` closed (each `open` that succeeded, once)."""
        with self._lock:
            held = self._by_client.get(client, 0) - 1
            if held > 0:
                self._by_client[client] = held
            else:
                self._by_client.pop(client, None)

    def held_by(self, client: str) -> int:
        with self._lock:
            return self._by_client.get(client, 0)
