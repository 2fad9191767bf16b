"""Time controls: a game's clock settings, the clock as of each version, and what each action does to it.

Two kinds (docs/api-guide.md#clocks):
- real time: each seat has a bank of `initial_s` seconds, which runs while
  that seat is in turn, and each of its moves adds `increment_s`. Patchwork's
  seat in turn may act several times in a row (it is behind on the track,
  or places leather): its clock runs on through all of them, and each adds
  the increment.
- correspondence: each move must come within `days_per_move` days of the
  seat getting the turn; a seat that acts again gets the turn again.

No bank runs before the game's first move; if it does not come within
`first_move_s`, the game is aborted. A clock runs on the store's time, one
clock for every instance: each action's values are a `Linear` in the time
of its commit (`PendingClock`), made a `ClockState` at the store's time as
this process reckons it (storage/store_time.py) just before the commit, and
the commit itself holds that reckoning to the store's clock
(storage/lua/lib/clock.lua): it refuses one that is off by more than the
store's tolerance, and judges the deadline by the later of the two. The
texts to store are therefore written out whole before the commit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

DAY_MS = 86_400_000
# Without `first_move_s`: a minute for real time, the allowance for correspondence.
REALTIME_FIRST_MOVE_S = 60


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSettings:
    """A game's time control, as POST /games gave it (bounds checked by openapi.yaml's Clock)."""

    initial_s: int | None = None  # real time
    increment_s: int = 0  # real time
    days_per_move: int | None = None  # correspondence
    first_move_s: int | None = None  # None: the kind's default

    @property
    def realtime(self) -> bool:
        return self.days_per_move is None

    @property
    def allowance_ms(self) -> int:
        """A seat's time at the start (real time), or for each move (correspondence)."""
        if self.days_per_move is not None:
            return self.days_per_move * DAY_MS
        assert self.initial_s is not None
        return self.initial_s * 1000

    @property
    def first_move_ms(self) -> int:
        """How long the game waits for its first move before it is aborted."""
        if self.first_move_s is not None:
            return self.first_move_s * 1000
        return REALTIME_FIRST_MOVE_S * 1000 if self.realtime else self.allowance_ms

    def to_json(self) -> dict[str, Any]:
        """The settings as Game.clock shows them (and a rematch or seek repeats them)."""
        if self.days_per_move is not None:
            doc: dict[str, Any] = {"days_per_move": self.days_per_move}
        else:
            doc = {"initial_s": self.initial_s, "increment_s": self.increment_s}
        doc["first_move_s"] = self.first_move_ms // 1000
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ClockSettings:
        """The settings a validated `clock` object names."""
        first = doc.get("first_move_s")
        first_move_s = None if first is None else int(first)
        if doc.get("days_per_move") is not None:
            return cls(days_per_move=int(doc["days_per_move"]), first_move_s=first_move_s)
        return cls(
            initial_s=int(doc["initial_s"]),
            increment_s=int(doc.get("increment_s") or 0),
            first_move_s=first_move_s,
        )


class ClockState(NamedTuple):
    """The clock as of one version: each seat's time left then, whose time runs, and until when.

    `since_ms` is the store's time (Unix milliseconds) of the action that made
    this version; `deadline_ms` is when the running seat's flag falls (before
    the first move: when the game is aborted); None once the game is over.
    (Named tuples, this and the two below: every clocked move makes several,
    and a frozen dataclass costs a few times more to make.)
    """

    remaining_ms: tuple[int, int]
    running: int | None
    since_ms: int
    deadline_ms: int | None

    def expired(self, now_ms: int) -> bool:
        return self.deadline_ms is not None and now_ms >= self.deadline_ms

    @property
    def log(self) -> tuple[int | None, ...]:
        """The record's form: (since, remaining 0, remaining 1, running, deadline)."""
        return (self.since_ms, self.remaining_ms[0], self.remaining_ms[1], self.running, self.deadline_ms)

    @classmethod
    def from_log(cls, entry: list[Any]) -> ClockState:
        since, first, second, running, deadline = entry
        return cls((first, second), running, since, deadline)


class Linear(NamedTuple):
    """A value that depends on the time of the commit: `base + per_now * now` (per_now is -1, 0 or 1)."""

    base: int
    per_now: int = 0

    def at(self, now_ms: int) -> int:
        return self.base + self.per_now * now_ms


class PendingClock(NamedTuple):
    """The clock after an action, before its time is known: its values as `Linear`s in that time."""

    remaining_ms: tuple[Linear, Linear]
    running: int | None
    deadline_ms: Linear | None
    # Which side of the stored deadline the commit must fall on: a move must
    # come before it ("before"), a timeout or an abort at or after it ("after").
    must_be: str = "before"

    def at(self, now_ms: int) -> ClockState:
        """The clock once the commit's time is known."""
        first, second = self.remaining_ms
        deadline = self.deadline_ms
        return ClockState(
            (first.base + first.per_now * now_ms, second.base + second.per_now * now_ms),
            self.running,
            now_ms,
            None if deadline is None else deadline.base + deadline.per_now * now_ms,
        )


def start(settings: ClockSettings) -> PendingClock:
    """The clock of a new game, created at the commit's time: no bank runs; the first move is awaited."""
    allowance = settings.allowance_ms
    return PendingClock((Linear(allowance), Linear(allowance)), None, Linear(settings.first_move_ms, 1))


def after_move(
    settings: ClockSettings, clock: ClockState, mover: int, next_turn: int | None, *, increment: bool = True
) -> PendingClock:
    """The clock after `mover`'s move (or resignation) leaves `next_turn` in turn (None: the game is over).

    Real time: the running seat is charged from `since_ms` to the commit; a
    move by it adds the increment (`increment` False: a resignation, which
    earns none; one out of turn charges the running seat all the same).
    Correspondence: the seat that gets the turn has the whole allowance again.
    """
    first, second = clock.remaining_ms
    if not settings.realtime:
        if next_turn is None:
            return PendingClock((Linear(first), Linear(second)), None, None)
        allowance = settings.allowance_ms
        whole = Linear(allowance)
        return PendingClock((whole, whole), next_turn, Linear(allowance, 1))
    bases, slopes = [first, second], [0, 0]
    running = clock.running
    if running is not None:
        # Its bank at the commit: what it had, less the time since this version began.
        bases[running] += clock.since_ms
        slopes[running] = -1
    if increment and (mover == running or running is None):
        bases[mover] += settings.increment_s * 1000
    remaining = (Linear(bases[0], slopes[0]), Linear(bases[1], slopes[1]))
    if next_turn is None:
        return PendingClock(remaining, None, None)
    # Its flag falls when its bank is used up: the commit's time plus its bank.
    return PendingClock(remaining, next_turn, Linear(bases[next_turn], slopes[next_turn] + 1))


def at_deadline(settings: ClockSettings, clock: ClockState) -> PendingClock:
    """The clock of a game that ends at its deadline (lost on time, or aborted): nothing runs any more.

    The running seat's real-time bank is empty; a correspondence seat's
    allowance is used up. An abort before the first move leaves the banks whole.
    """
    remaining = list(clock.remaining_ms)
    if clock.running is not None:
        remaining[clock.running] = 0
    return PendingClock((Linear(remaining[0]), Linear(remaining[1])), None, None, must_be="after")


def rfc3339_ms(ms: int) -> str:
    """Unix milliseconds as RFC 3339 UTC with milliseconds (`2026-12-01T12:00:00.250Z`)."""
    day, of_day = divmod(ms, DAY_MS)
    seconds, millis = divmod(of_day, 1000)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    return f"{_date_of_day(day)}T{hours:02d}:{minutes:02d}:{seconds:02d}.{millis:03d}Z"


@lru_cache(maxsize=64)
def _date_of_day(day: int) -> str:
    """The calendar date of a day counted from 1970-01-01 (cached: deadlines fall on few days)."""
    return time.strftime("%Y-%m-%d", time.gmtime(day * 86_400))


def view_of(settings: ClockSettings, clock: ClockState) -> dict[str, Any]:
    """Game.clock: the settings, each seat's time left as of the version, whose time runs, and its deadline."""
    doc = settings.to_json()
    doc["remaining_ms"] = list(clock.remaining_ms)
    doc["running"] = clock.running
    doc["deadline"] = None if clock.deadline_ms is None else rfc3339_ms(clock.deadline_ms)
    return doc
