"""The seam between the game-play core and what hangs on a game: the moments a listener hears.

The core (play.py) knows nothing of players, ratings or notices: whatever
follows a game registers a `GameListener` with `GamePlay.listen` and hears
each moment of it, in the order registered. One step runs inside a commit:
`settle`, given the final record of a game a commit is about to end, may
return it changed (a rated game's settlement is decided with its result and
stored in the same atomic step). Every other moment is heard after the store
has it: a listener's own writes live elsewhere (another slot on a Redis
Cluster), so they follow the game's and never hold it back (as lichess's
round applies its perfs with the result and publishes "finishGame" after).
"""

from __future__ import annotations

from typing import Any

from .records import GameRecord


class GameListener:
    """What hears of a game's moments; each is a no-op here, so a listener overrides only those it needs."""

    def settle(self, record: GameRecord) -> GameRecord:
        """The final record of a game the commit being prepared ends, as it is to be stored (`record` unchanged by default)."""
        return record

    def created(self, record: GameRecord) -> None:
        """A new game was stored."""

    def seat_taken(self, record: GameRecord, seat: int) -> None:
        """An open seat of the game was taken (the game after it)."""

    def committed(self, before: GameRecord, after: GameRecord, version: int, result: Any) -> None:
        """A move (a resignation, a timeout) was stored at `version`; `result`: the Game view's result, None while it goes on."""

    def low_time(self, record: GameRecord, seat: int, remaining_ms: int) -> None:
        """The running seat's time fell under the low-time line (clock.low_time_at), told once per game and seat."""

    def pause_of(self, record: GameRecord) -> tuple[str, int, int] | None:
        """A pause the running seat's clock is owed and the record lacks: (player id, since, until) in ms; None for none.

        Asked before a correspondence game is lost on time (GamePlay.expire), so
        a vacation whose pausing of the game was cut short still holds.
        """
        return None
