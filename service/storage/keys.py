"""The Redis key layout of one game.

Every key of a game carries the game id as a Redis Cluster hash tag
(`{<game_id>}`), so all of them live in one slot and a Lua script may touch
them together on any cluster node that owns it.
"""

from __future__ import annotations


class GameKeys:
    """The names of one game's keys under a prefix."""

    __slots__ = ("_base", "events", "game", "kept", "moves")

    def __init__(self, prefix: str, game_id: str):
        if not game_id:
            # An empty tag `{}` would hash each whole key name: one slot per key.
            raise ValueError("game id must not be empty")
        self._base = f"{prefix}{{{game_id}}}:"
        self.game = self._base + "game"  # hash: version, state, view
        self.moves = self._base + "moves"  # list: the history, oldest first
        # stream: one entry per move, id `<version after it>-0` (lua/commit_move.lua)
        self.events = self._base + "events"
        # string: the record (docs/records.md) of a finished player game, with no TTL (games/kept_records.py)
        self.kept = self._base + "kept"

    def idempotency(self, key: str) -> str:
        """The record hash under one idempotency key: fingerprint, answer (none: in progress)."""
        return f"{self._base}idem:{key}"


def check_prefix(prefix: str) -> str:
    """The prefix, refused if a brace in it would move the hash tag off the game id."""
    if "{" in prefix or "}" in prefix:
        raise ValueError(f"key prefix must not contain braces: {prefix!r}")
    return prefix
