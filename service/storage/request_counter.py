"""Fixed-window request counters shared by every instance: what the API's rate limits count with.

Beside the game store, on the same Redis link, not part of its interface:
a counter knows nothing of games (service/api/middleware/ratelimit.py says
what is counted). Each count is one script (lua/count_request.lua).
"""

from __future__ import annotations

from .connections import RedisLink


class RequestCounter:
    """Counts requests in named fixed windows under the link's key prefix."""

    def __init__(self, link: RedisLink):
        self._link = link
        self._base = f"{link.prefix}ratelimit:"

    def count(self, name: str, window_seconds: int) -> tuple[int, int]:
        """Count one request in the window called `name`: (requests counted in it, milliseconds until it ends).

        The window starts with its first request. StorageError when Redis does not answer.
        """
        count, left = self._link.script("count_request", [self._base + name], [int(window_seconds * 1000)])
        return int(count), int(left)
