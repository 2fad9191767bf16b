"""Player records, beside the game store on the same Redis link (not part of its interface).

A player is one string key, `<prefix>player:{<id>}`, holding the caller's
JSON text (games/players.py). Its own hash tag: on a Redis Cluster each
player lives in its own slot, apart from every game it plays.
Players do not expire: an identity is meant to be kept (README, sizing).
"""

from __future__ import annotations

from .connections import RedisLink


class PlayerStore:
    """Players' texts by id under the link's key prefix."""

    def __init__(self, link: RedisLink):
        self._link = link
        self._base = f"{link.prefix}player:"

    def key(self, player_id: str) -> str:
        return f"{self._base}{{{player_id}}}"

    def create(self, player_id: str, text: str) -> bool:
        """Store a new player; False (nothing changed) when one already has the id."""
        return bool(self._link.command("create_player", "SET", self.key(player_id), text, "NX"))

    def load(self, player_id: str) -> str | None:
        """The player's text, or None."""
        found: str | None = self._link.command("load_player", "GET", self.key(player_id))
        return found
