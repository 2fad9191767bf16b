"""Copies of stored games, and the ones this process keeps so the next move can skip loading them.

A move loads its game (one Redis round trip), judges it, and commits it with
a compare-and-set (another). When the same process made the game's previous
move, it already holds a copy of the game as stored: it commits against that
copy's version and revision, and the compare-and-set itself checks that the
copy is still the stored game. A kept copy that is out of date costs nothing
but the attempt: the refused commit returns the stored game, and the move is
judged again on it. So a kept copy is only ever a guess at the stored game,
never an answer: refusals are given only against a copy just read from the
store (see play.py). `RECENT_GAMES` sets how many copies a process keeps.

Under gunicorn the workers of one instance also share the copies they
store (service/instance/shared_copies.py): a move that lands on another worker than the
game's last finds that worker's copy there, not a stale one of its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from service.instance.shared_copies import SharedCopies
from service.storage import StoredGame

from .records import GameRecord


@dataclass(frozen=True, slots=True)
class GameCopy:
    """A game as read from (or written to) the store, decoded."""

    version: int
    revision: str
    record: GameRecord

    @classmethod
    def of(cls, stored: StoredGame) -> GameCopy:
        """Decode a game the store returned."""
        return cls(stored.version, stored.revision, GameRecord.decode(stored.state))


class KeptCopies:
    """A bounded, thread-safe map of game id to the last copy this process stored or read."""

    def __init__(self, capacity: int, shared: SharedCopies | None = None):
        self.capacity = capacity
        self.shared = shared  # the copies the instance's other workers wrote (instance/shared_copies.py)
        self._copies: OrderedDict[str, GameCopy] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> GameCopy | None:
        if not self.capacity:
            return None
        with self._lock:
            copy = self._copies.get(game_id)
            if copy is not None:
                self._copies.move_to_end(game_id)
        if self.shared is not None:
            found = self.shared.get(game_id, newer_than=copy.version if copy is not None else 0)
            if found is not None:
                # Another worker of this instance stored the game since.
                version, revision, text = found
                copy = GameCopy(version, revision, GameRecord.decode(text))
                self._keep(game_id, copy)
        return copy

    def put(self, game_id: str, copy: GameCopy, text: str | None = None) -> None:
        """Keep `copy`; `text`, its stored text, shares it with the instance's other workers."""
        if not self.capacity:
            return
        self._keep(game_id, copy)
        if self.shared is not None and text is not None:
            self.shared.put(game_id, copy.version, copy.revision, text)

    def _keep(self, game_id: str, copy: GameCopy) -> None:
        with self._lock:
            self._copies[game_id] = copy
            self._copies.move_to_end(game_id)
            if len(self._copies) > self.capacity:
                self._copies.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._copies.pop(game_id, None)
