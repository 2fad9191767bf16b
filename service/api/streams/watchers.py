"""How many watch a game: each game stream is told `event: watchers` when the count changes, at most every 5 s.

The count is of the streams open on the game on every instance, kept on the
store (storage/watchers.py): a stream is counted when it opens (and is told
the count then, after its first events), and uncounted when it closes.
Every RENEW_SECONDS one greenlet of each process (a daemon thread under
gevent's patching, started by the first stream, as the wake-ups' listener
is) renews the leases of the process's streams, one call per game they
watch, and hears the count back: a stream whose last count told differs is
told the new one. So a change made on another instance reaches a stream
within RENEW_SECONDS, and a stream hears at most one count per renewal.

Nothing here runs on a move: the count costs one call when a stream opens,
one when it closes, and one per game watched in a process every RENEW_SECONDS.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from collections.abc import Callable

from service.storage import StorageError, StreamWatchers

log = logging.getLogger(__name__)

# Between two renewals (and so between two counts told to a stream).
RENEW_SECONDS = 5.0
# A stream's lease: a process that stops renewing (it died) is uncounted after it.
LEASE_MS = 30_000


class _Stream:
    """One open stream: how to tell it a count, and the last count it was told."""

    __slots__ = ("last", "tell")

    def __init__(self, tell: Callable[[int], None], last: int):
        self.tell = tell
        self.last = last


class GameWatchers:
    """This process's open game streams, counted with every instance's on the store."""

    def __init__(self, store: StreamWatchers, renew_seconds: float = RENEW_SECONDS):
        self._store = store
        self._renew_seconds = renew_seconds
        self._lock = threading.Lock()
        self._games: dict[str, dict[str, _Stream]] = {}
        self._pid: int | None = None

    def join(self, game_id: str, tell: Callable[[int], None]) -> str | None:
        """Count a new stream of the game, tell it the count now; its name, for `leave`.

        None when the store refuses the count (a Redis at `maxmemory` takes
        no write, yet still serves the game's reads): the stream goes on,
        uncounted and told no count, rather than being refused for it.
        """
        name = secrets.token_urlsafe(12)
        try:
            count = self._store.renew(game_id, [name], LEASE_MS)
        except StorageError as error:
            log.warning("a stream was left uncounted: the store refused its lease (%s)", error)
            return None
        with self._lock:
            if self._pid != os.getpid():
                # The first stream of this process (or of a child forked with a copy of the parent's).
                self._pid = os.getpid()
                self._games = {}
                threading.Thread(target=self._renew_for_ever, name="game-watchers", daemon=True).start()
            self._games.setdefault(game_id, {})[name] = _Stream(tell, count)
        tell(count)
        return name

    def leave(self, game_id: str, name: str) -> None:
        """The stream `name` of the game closed (its lease ends on its own if the store fails now)."""
        with self._lock:
            streams = self._games.get(game_id, {})
            streams.pop(name, None)
            if not streams:
                self._games.pop(game_id, None)
        try:
            self._store.leave(game_id, name)
        except StorageError as error:
            log.warning("a closed stream stays counted until its lease ends: the store failed (%s)", error)

    def renew(self) -> None:
        """Renew every stream's lease, game by game, and tell each stream a count it has not been told."""
        with self._lock:
            games = {game_id: dict(streams) for game_id, streams in self._games.items()}
        for game_id, streams in games.items():
            try:
                count = self._store.renew(game_id, list(streams), LEASE_MS)
            except StorageError as error:
                log.warning("the watchers of a game were not counted: the store failed (%s)", error)
                continue
            with self._lock:
                gone = [name for name in streams if name not in self._games.get(game_id, {})]
            for name in gone:
                # Closed while its lease was being renewed: the renewal may have counted it again.
                self.leave(game_id, name)
            for stream in streams.values():
                if stream.last != count:
                    stream.last = count
                    stream.tell(count)

    def _renew_for_ever(self) -> None:
        while True:
            time.sleep(self._renew_seconds)
            try:
                self.renew()
            except Exception:  # the loop must outlive any one failure, or no count is told again
                log.exception("renewing the watchers' leases failed")
