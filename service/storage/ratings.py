"""What rated games leave beside the game store: the settlements still to apply, and the leaderboard.

- `<prefix>ratings:pending`: sorted set of game ids by when their final
  commit was prepared (epoch ms). Written before that commit, removed once
  the settlement is applied to both players (site/rated_games.py says why this
  order repairs a crash between the two).
- `<prefix>leaderboard`: sorted set of player ids by rating, for players
  with enough rated games.
"""

from __future__ import annotations

from .connections import RedisLink


class RatingBook:
    """The pending settlements and the leaderboard under the link's key prefix."""

    def __init__(self, link: RedisLink):
        self._link = link
        self._pending = f"{link.prefix}ratings:pending"
        self._board = f"{link.prefix}leaderboard"

    def queue(self, game_id: str, at_ms: int) -> None:
        self._link.command("rating_queue", "ZADD", self._pending, at_ms, game_id)

    def done(self, game_id: str) -> None:
        self._link.command("rating_done", "ZREM", self._pending, game_id)

    def pending_before(self, at_ms: int, count: int) -> list[str]:
        """Up to `count` game ids queued before `at_ms`, oldest first."""
        return list(
            self._link.command(
                "rating_pending", "ZRANGEBYSCORE", self._pending, "-inf", at_ms, "LIMIT", 0, count
            )
        )

    def rank(self, player_id: str, rating: float) -> None:
        self._link.command("leaderboard_rank", "ZADD", self._board, rating, player_id)

    def top(self, count: int) -> list[str]:
        return list(self._link.command("leaderboard_top", "ZREVRANGE", self._board, 0, count - 1))
