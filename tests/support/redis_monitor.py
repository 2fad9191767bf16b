"""Counting the commands an app sends to Redis, with MONITOR.

MONITOR shows every command Redis runs; the commands a Lua script issues
are marked as coming from "lua", so the others are the clients' own round
trips. Used by the tests that pin how many round trips a move takes, and by
benchmarks/http.py.
"""

from __future__ import annotations

import queue
import threading
import uuid
from typing import Self

from redis import Redis


class ClientCommands:
    """Within a `with` block, `take()` says how many client commands Redis ran since the last call."""

    def __init__(self, redis_url: str, game_id: str | None = None):
        """`game_id`: count only the commands on that game's keys (its hash tag), not those of what follows
        games beside it (the site's listeners: the lists of games, players' notices)."""
        self._client = Redis.from_url(redis_url, decode_responses=True)
        self._game_tag = None if game_id is None else f"{{{game_id}}}"
        self._monitor = self._client.monitor()
        self._marker = f"count-mark-{uuid.uuid4().hex}"
        self._counts: queue.Queue[int] = queue.Queue()
        self._reader = threading.Thread(target=self._listen, daemon=True)

    def _listen(self) -> None:
        seen = 0
        while True:
            try:
                command = self._monitor.next_command()
            except Exception:  # the monitor connection was closed: the block ended
                return
            text = command["command"]
            if self._marker in text:
                self._counts.put(seen)
                seen = 0
            elif self._counted(command, text):
                seen += 1

    def _counted(self, command: dict, text: str) -> bool:
        """A client's own command (not one a script ran, not a PING), on the game's keys when one is named."""
        if command.get("client_type") == "lua" or text.startswith("PING"):
            return False
        return self._game_tag is None or self._game_tag in text

    def take(self) -> int:
        """Client commands since the previous take() (or since the block began)."""
        self._client.echo(self._marker)
        return self._counts.get(timeout=10)

    def __enter__(self) -> Self:
        self._monitor.__enter__()
        self._reader.start()
        self.take()  # MONITOR is live once its first marker comes back
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._monitor.__exit__(*exc_info)
        self._client.close()
        self._reader.join(timeout=10)
