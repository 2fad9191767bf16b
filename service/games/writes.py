"""A change of a stored game, as GamePlay.amend judges it, retries it and writes it: the one compare-and-set.

A change looks at a copy of the game and returns a `Write` (what to store,
how the store is to write it, the answer once stored, what the listeners
hear) or `Unchanged` (nothing to write, the answer as it is). The retries'
limits and the clock's parts of a write are here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from service.storage import ClockCheck, ClockLog, ClockRefused, CommitResult, GameStore, SeatExpired, Stored

from .clock import ClockState
from .jsontext import compact
from .kept import GameCopy
from .listeners import GameListener
from .records import GameRecord

# Two seats, one of them in turn: losing the compare-and-set more than a few
# times in a row means something is hammering the game.
MAX_COMMIT_ATTEMPTS = 8


Answer = TypeVar("Answer", covariant=True)


# Not frozen: every move makes one, and a frozen dataclass sets each field through
# object.__setattr__ (three times the cost of the plain one). Nothing changes it once made.
@dataclass(slots=True)
class Write(Generic[Answer]):
    """A change of a game judged on a copy of it, ready for the store's compare-and-set (GamePlay.amend).

    `send` makes the store's write (commit_move, take_seat, amend, create_game)
    against the copy judged; once it is stored, `done` gives the caller's
    answer, and then each listener hears `heard`.
    """

    record: GameRecord  # the game after the change
    version: int  # its version after the change
    text: str  # record.encode(): the state text the write stores
    send: Callable[[GameStore], CommitResult]
    done: Callable[[Stored], Answer]
    heard: Callable[[GameListener], None] | None = None
    # The answer to a refusal that is not a lost race (the clock's "expired" or "early",
    # the lobby's time up), or raise its Refusal; None: the change is judged again.
    refused: Callable[[ClockRefused | SeatExpired], Answer] | None = None
    deadline_ms: int | None = None  # a clock the write started: its deadline, indexed once stored
    keep: bool = True  # keep the copy written; a creation keeps none (its first move reads the game)

    @classmethod
    def amended(
        cls,
        game: GameCopy,
        record: GameRecord,
        view: str,
        done: Callable[[Stored], Answer],
        event: str | None = None,
        deadline_ms: int | None = None,
    ) -> Write[Answer]:
        """The write of `record` (and its Game body `view`) in place of `game`, its version unchanged: no move.

        `event`: an offer's, for the game's stream; `deadline_ms`: the running
        seat's deadline moved (a pause), also indexed once stored (GameStore.amend).
        """
        text = record.encode()

        def send(store: GameStore) -> CommitResult:
            return store.amend(record.id, game.version, game.revision, text, view, event, deadline_ms)

        return cls(record, game.version, text, send, done, deadline_ms=deadline_ms)


@dataclass(frozen=True, slots=True)
class Unchanged(Generic[Answer]):
    """A change that writes nothing (the game needs none, or is not the copy judged): its answer as it is."""

    answer: Answer


def clock_check(clock: ClockState | None, must_be: str = "") -> ClockCheck | None:
    """What the commit of a version whose clock is `clock` asks of the store's (None: no clock)."""
    if clock is None:
        return None
    return ClockCheck(clock.since_ms, must_be, clock.deadline_ms)


def clock_log(clock: ClockState | None) -> ClockLog | None:
    """The store's clock-log entry of a version whose clock is `clock` (None: no clock).

    The store keeps every clocked game's log from its creation on, so an
    entry is all a write adds to it.
    """
    return None if clock is None else ClockLog(compact(clock.log))


# A commit whose reckoning of the store's time was too far from the store's
# own is written again for the reckoning that refusal corrected: a second
# refusal would mean the store's clock jumped between two round trips.
CLOCK_ATTEMPTS = 2
