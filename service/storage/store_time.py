"""The store's clock as this process reckons it: what a clocked commit's texts are written for.

A game clock runs on the store's time, one clock for every instance
(games/clock.py). A commit could read that time only inside its script,
and then every text it stores would have to be finished there; instead
the process reckons the store's time itself, writes its texts whole, and
the script checks the reckoning against its own clock (lua/lib/clock.lua):
one off by more than `TOLERANCE_MS` is refused, with the store's time, and
the move is written again for it. The reckoning is this process's clock
plus an offset that every answer of the store keeps within that answer's
round trip.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# How far a commit's reckoned time may be from the store's own: a time
# charged or a deadline judged is never off by more (and only by the time
# a request spends between its reckoning and its commit, in practice).
TOLERANCE_MS = 1000


class StoreTime:
    """The store's time in Unix ms, reckoned from this process's clock and the store's answers."""

    def __init__(self, read_store_ms: Callable[[], int]):
        """`read_store_ms`: one round trip that returns the store's time (TIME), for the first reckoning."""
        self._read = read_store_ms
        self._offset_ms: float | None = None

    def now_ms(self) -> int:
        """The store's time now, as best this process knows it."""
        offset = self._offset_ms
        if offset is None:
            # Twice: the first may also open the connection, which would widen its round trip.
            for _reading in range(2):
                sent = time.time()
                store_ms = self._read()
                self._offset_ms = None
                self.observe(store_ms, sent)
            offset = self._offset_ms
            assert offset is not None
        return int(time.time() * 1000 + offset)

    def observe(self, store_ms: int, sent: float) -> None:
        """The store answered at `store_ms` a call sent at `sent` (this process's time.time()).

        The store read its clock between the call's sending and its answer,
        so the offset lies between the two it would be at either end. The
        reckoning moves only when it falls outside them, and then no
        further than to the nearer one: two moves a second apart are
        charged a second whatever the latency of each round trip.
        """
        back = time.time()
        lowest, highest = store_ms - back * 1000, store_ms - sent * 1000
        offset = self._offset_ms
        if offset is None:
            self._offset_ms = (lowest + highest) / 2
        elif offset < lowest:
            self._offset_ms = lowest
        elif offset > highest:
            self._offset_ms = highest
