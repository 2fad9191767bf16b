"""Lists of games for watching (site/watching.py): the games being played and finished, all and each player's.

Sorted sets of game ids scored by a time in epoch ms:

- `<prefix>{games}:active`: every game being played, by when its play
  began (created with both seats held, or its open seat taken);
- `<prefix>{games}:active:rated`: the rated ones among them;
- `<prefix>{games}:finished`: the games that ended, by when, the newest
  KEPT_GAMES kept;
- `<prefix>games:player:{<id>}:active` and `...:finished`: one player's games
  being played (by when play began) and finished (by when they ended), the
  player's id as hash tag.

The site's lists share the hash tag `{games}` and each player's lists its
id, so the move of a game from one list to another (its end) is one script
on one node of a Redis Cluster: one round trip for the site's lists, one
per player. The finished games and a player's lists keep the newest
KEPT_GAMES and go GAME_TTL_SECONDS after their last change, when their
games have expired too.

They are hints, as the lobby's index is (lobby.py): a game's own slot is
never written with them, so a process that dies between a game's end and
the lists' update leaves a game listed as active. Whoever reads a list
checks each entry against its game and drops the entries it no longer
belongs in (site/watching.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from .connections import RedisLink

# The games kept in a bounded list (the finished games, a player's lists), the newest.
KEPT_GAMES = 1000


@dataclass(frozen=True, slots=True)
class GameList:
    """One list's key, and whether it is bounded (KEPT_GAMES, expiring after its games)."""

    key: str
    bounded: bool = False


class GameLists:
    """The lists of games being played and finished, on the link's key prefix."""

    def __init__(self, link: RedisLink, ttl_ms: int):
        self._link = link
        self._ttl_ms = ttl_ms
        self.active = GameList(f"{link.prefix}{{games}}:active")
        self.active_rated = GameList(f"{link.prefix}{{games}}:active:rated")
        self.finished = GameList(f"{link.prefix}{{games}}:finished", bounded=True)
        self._player = f"{link.prefix}games:player:"

    def player_active(self, player_id: str) -> GameList:
        return GameList(f"{self._player}{{{player_id}}}:active", bounded=True)

    def player_finished(self, player_id: str) -> GameList:
        return GameList(f"{self._player}{{{player_id}}}:finished", bounded=True)

    def add(self, listed: GameList, game_id: str, at_ms: int, *, off: tuple[GameList, ...] = ()) -> None:
        """Put the game on the list at `at_ms` (or move it there), and take it off the lists `off` (in the same slot)."""
        if not off and not listed.bounded:
            self._link.command("game_list_add", "ZADD", listed.key, at_ms, game_id)
            return
        kept = KEPT_GAMES if listed.bounded else 0
        keys = [listed.key, *(other.key for other in off)]
        self._link.script("game_list_move", keys, [game_id, at_ms, kept, self._ttl_ms])

    def remove(self, listed: GameList, *game_ids: str) -> None:
        if game_ids:
            self._link.command("game_list_remove", "ZREM", listed.key, *game_ids)

    def newest(self, listed: GameList, before_ms: int | None, count: int) -> list[tuple[str, int]]:
        """Up to `count` (game id, ms), newest first, at or before `before_ms` (None: any)."""
        top = "+inf" if before_ms is None else str(before_ms)
        found = self._link.command(
            "game_list_page", "ZREVRANGEBYSCORE", listed.key, top, "-inf", "WITHSCORES", "LIMIT", 0, count
        )
        return [(member, int(float(score))) for member, score in found]
