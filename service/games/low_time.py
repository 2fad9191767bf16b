"""Low time: when a running seat's player is owed its `low_time` notice, and when the timekeepers must look.

A seat's time runs down while nobody moves, so the notice needs a scheduled
look, like a timeout. The cheapest sound one is the deadline index itself:
its one entry per game is kept no later than the game's *next look*, the
earlier of the running seat's deadline and the time its owed notice falls
due (clock.low_time_at). No second entry, no second index, and no extra
command on a move: a commit lowers the entry only when the next look comes
sooner, as it did for deadlines alone (GamePlay._move_write). A timekeeper
that finds the notice due tells it through the game's compare-and-set
(GamePlay.expire), which marks the seat told in the record
(GameRecord.low_time_told): once per game and seat, whatever the instances
and timekeepers; it then sets the entry to the deadline. A seat told never
costs a look again, since the record says so.

A move that hands the turn to a seat already under the line (or leaves the
mover in turn under it) tells it in that move's own commit: at once, not at
the next look. Only seats a player holds (a person or a bot account) are
owed a notice: a service bot's seat hears nothing, and costs no look.
"""

from __future__ import annotations

from .clock import low_time_at
from .records import GameRecord


def owed_at(record: GameRecord) -> int | None:
    """When the running seat's player is to be told its time runs low (None: no notice is owed)."""
    clock, settings = record.clock_now, record.clock
    if clock is None or settings is None or clock.running is None or not record.owes_low_time(clock.running):
        return None
    return low_time_at(settings, clock)


def next_look_ms(record: GameRecord) -> int | None:
    """When a timekeeper must look at the game next: the owed notice, or else the deadline (None: never)."""
    clock = record.clock_now
    deadline = None if clock is None else clock.deadline_ms
    owed = owed_at(record)
    if owed is None or deadline is None:
        return deadline
    return min(owed, deadline)


def told_at_commit(record: GameRecord) -> tuple[GameRecord, int | None]:
    """The record a commit stores, its running seat told when already under the line; and that seat (None: none told)."""
    owed = owed_at(record)
    clock = record.clock_now
    if owed is None or clock is None or owed > clock.since_ms:
        return record, None
    seat = clock.running
    assert seat is not None  # owed_at says a seat runs
    return record.low_time_now_told(seat), seat
