"""The games this process stored last, kept decoded so the next move can skip loading them.

A move loads its game (one Redis round trip), judges it, and commits it with
a compare-and-set (another). When the same process made the game's previous
move, it already holds the game as stored: it commits against that copy's
version and revision, and the compare-and-set itself checks that the copy
is still the stored game. A copy that is out of date costs nothing but the
attempt: the refused commit returns the stored game, and the move is judged
again on it. So a copy is only ever a guess at the stored game, never an
answer: refusals (401, 409, 412, 422) are given only against a game just
read from Redis (see moves.py).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from .records import GameRecord


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A game as read from (or written to) the store, decoded."""

    version: int
    revision: str
    record: GameRecord


class RecentGames:
    """A bounded, thread-safe map of game id to the last LoadedGame this process saw stored."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._games: OrderedDict[str, LoadedGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> LoadedGame | None:
        if not self.capacity:
            return None
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def put(self, game_id: str, game: LoadedGame) -> None:
        if not self.capacity:
            return
        with self._lock:
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            if len(self._games) > self.capacity:
                self._games.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)
