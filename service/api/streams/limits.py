"""At most STREAMS_PER_CLIENT open event streams per client address on an instance.

An open stream holds one of its worker's WORKER_CONNECTIONS for as long as
it lasts, so one address that opens streams without end could take them
all and leave honest clients (and the health check) unanswered. Past the
limit a new stream is refused with `429 rate_limited` before it costs a
store call; the client is the address the rate limits count by
(TRUSTED_PROXIES: the address its proxy names).

Counted in memory the workers of the instance share (service/instance/stream_counts.py),
not in Redis: a stream's open and close cost no round trip, and what the
limit protects is the instance's own connections. Where there is no such
table (an app made outside gunicorn, or a worker beyond the table's rows)
the app counts its own streams alone.
"""

from __future__ import annotations

import threading

from service.api.problems import ApiProblem
from service.instance.stream_counts import StreamCounts
from service.languages import Text

# A refused client has as many streams open as it may: one of them closing
# is what lets it in, and nothing here can say when that will be.
RETRY_AFTER_SECONDS = 5


class OpenStreams:
    """The open event streams by client address: `counts`' row `row` holds this process's."""

    def __init__(self, limit: int, shared: tuple[StreamCounts, int] | None = None):
        self.limit = limit
        self._counts, self._row = shared if shared is not None else (StreamCounts(1), 0)
        # Between looking at a count and adding to it, within this process.
        self._lock = threading.Lock()

    def open(self, client: str) -> None:
        """Count a new stream of `client`; ApiProblem 429 when it has `limit` open already."""
        with self._lock:
            held = self._counts.held(client)
            if held >= self.limit:
                raise ApiProblem.of(
                    "rate_limited",
                    Text(
                        "This client has {held} event streams open, the most it may; close one first.",
                        {"held": held},
                    ),
                    headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
                )
            self._counts.add(self._row, client, 1)

    def close(self, client: str) -> None:
        """Count one stream of `client` closed (once for each `open` that succeeded)."""
        with self._lock:
            self._counts.add(self._row, client, -1)
