"""Who watches a game: the event streams open on it across every instance (GET /games/{id}/events' `watchers`).

One sorted set per game, `<prefix>{<game id>}:watchers`, in the game's slot,
one member per open stream (a random name its process gives it) scored by
when its lease ends, on Redis's clock. A process renews the leases of its
streams every few seconds and removes a stream when it closes; a process
that dies leaves members whose leases end, and every renewal drops those.
So a count is right within a lease of a crash, and exactly right otherwise.
"""

from __future__ import annotations

from .connections import RedisLink


class StreamWatchers:
    """The open streams of each game, leased, counted on the store."""

    def __init__(self, link: RedisLink):
        self._link = link
        self._prefix = link.prefix

    def _key(self, game_id: str) -> str:
        return f"{self._prefix}{{{game_id}}}:watchers"

    def renew(self, game_id: str, streams: list[str], lease_ms: int) -> int:
        """Lease `streams` of the game for `lease_ms` more (none: only count); how many streams are open on it."""
        return int(self._link.script("watchers_renew", [self._key(game_id)], [lease_ms, *streams]))

    def leave(self, game_id: str, stream: str) -> None:
        """The stream closed."""
        self._link.command("watchers_leave", "ZREM", self._key(game_id), stream)
