"""The lobby's index: listed games with an open seat, newest first, beside the game store.

One sorted set, `<prefix>lobby`, of game ids scored by when they opened
(epoch ms). It is a hint, never the truth: a join changes the game alone
(one script on the game's slot, GameStore.take_seat), and on a Redis Cluster
the index lives in another slot, so no script could change both. Whoever
reads the index checks each entry against its game (site/lobby.py) and
drops the entries whose game is no longer open; entries older than the
lobby's TTL are dropped as the index is read (and their games aborted). So a crash between a join
and the index's update leaves at worst a stale entry, never a game listed
as open when it is full.
"""

from __future__ import annotations

from .connections import RedisLink


class LobbyIndex:
    """Game ids with an open seat, scored by opening time in ms; and each holder's open games.

    A holder (a player, or the client address of a game made without a
    player token) has a sorted set of its own, `<prefix>lobby:held:{<holder>}`,
    of its open games' ids scored by when their seats' time is up, listed or
    not: what OPEN_GAMES_PER_PLAYER counts (site/lobby.py). A hint as well:
    the counter checks each game, so a game joined or aborted counts no more.
    """

    def __init__(self, link: RedisLink):
        self._link = link
        self._key = f"{link.prefix}lobby"
        self._held = f"{link.prefix}lobby:held:"

    def held(self, holder: str, now_ms: int) -> list[str]:
        """The holder's open games whose seats' time is not up at `now_ms` (those whose time is up are dropped)."""
        key = f"{self._held}{{{holder}}}"
        self._link.command("lobby_held_expire", "ZREMRANGEBYSCORE", key, "-inf", now_ms)
        return list(self._link.command("lobby_held", "ZRANGE", key, 0, -1))

    def hold(self, holder: str, game_id: str, until_ms: int) -> None:
        """Count the game as the holder's until `until_ms` (its seat's time in the lobby); the set goes after its last."""
        key = f"{self._held}{{{holder}}}"
        self._link.command("lobby_hold", "ZADD", key, until_ms, game_id)
        self._link.command("lobby_hold_expire", "PEXPIREAT", key, until_ms)

    def release(self, holder: str, *game_ids: str) -> None:
        if game_ids:
            self._link.command("lobby_release", "ZREM", f"{self._held}{{{holder}}}", *game_ids)

    def add(self, game_id: str, opened_ms: int) -> None:
        self._link.command("lobby_add", "ZADD", self._key, opened_ms, game_id)

    def remove(self, *game_ids: str) -> None:
        if game_ids:
            self._link.command("lobby_remove", "ZREM", self._key, *game_ids)

    def opened(self, game_ids: list[str]) -> list[tuple[str, int]]:
        """(game id, opened ms) of those of `game_ids` that are listed."""
        if not game_ids:
            return []
        scores = self._link.command("lobby_opened", "ZMSCORE", self._key, *game_ids)
        return [
            (game_id, int(float(ms))) for game_id, ms in zip(game_ids, scores, strict=True) if ms is not None
        ]

    def older_than(self, opened_ms: int, count: int) -> list[str]:
        """Up to `count` game ids opened before `opened_ms` (their seats' time is up), oldest first."""
        return list(
            self._link.command(
                "lobby_expired", "ZRANGEBYSCORE", self._key, "-inf", f"({opened_ms}", "LIMIT", 0, count
            )
        )

    def newest(self, before_ms: int | None, count: int) -> list[tuple[str, int]]:
        """Up to `count` (game id, opened ms), newest first, opened at or before `before_ms` (None: any)."""
        top = "+inf" if before_ms is None else str(before_ms)
        found = self._link.command(
            "lobby_page", "ZREVRANGEBYSCORE", self._key, top, "-inf", "WITHSCORES", "LIMIT", 0, count
        )
        return [(member, int(float(score))) for member, score in found]

    def size(self) -> int:
        return int(self._link.command("lobby_size", "ZCARD", self._key))
