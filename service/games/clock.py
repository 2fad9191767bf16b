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
`first_move_s`, the game is aborted (a tournament's game is lost on time
instead by the seat to move: GameRecord.first_move_forfeit, decided in
GamePlay.expire). A clock runs on the store's time, one
clock for every instance: each action's clock is a function of the time of
its commit (`ClockAt`), taken at the store's time as this process reckons
it (storage/store_time.py) just before the commit, and
the commit itself holds that reckoning to the store's clock
(storage/lua/lib/clock.lua): it refuses one that is off by more than the
store's tolerance, and judges the deadline by the later of the two. The
texts to store are therefore written out whole before the commit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
# The low-time line (a player's `low_time` notice): a fifth of a real-time
# bank, twelve hours of a correspondence move.
LOW_TIME_SHARE = 5
CORRESPONDENCE_LOW_MS = 12 * HOUR_MS
# Without `first_move_s`: a minute for real time, the allowance for correspondence.
REALTIME_FIRST_MOVE_S = 60


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSettings:
    """A game's time control, as POST /games gave it (bounds checked by openapi.yaml's Clock)."""

    initial_s: int | None = None  # real time
    increment_s: int = 0  # real time
    days_per_move: int | None = None  # correspondence
    first_move_s: int | None = None  # None: the kind's default
    # What every clocked move shows and stores, and adds after a real-time move: made once, with the settings.
    _json: dict[str, Any] = field(init=False, repr=False, compare=False, hash=False)
    increment_ms: int = field(init=False, repr=False, compare=False, hash=False)
    # Game.clock's keys in order, the settings' values set (view_of fills in the rest).
    _view: dict[str, Any] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.days_per_move is not None:
            doc: dict[str, Any] = {"days_per_move": self.days_per_move}
        else:
            doc = {"initial_s": self.initial_s, "increment_s": self.increment_s}
        doc["first_move_s"] = self.first_move_ms // 1000
        object.__setattr__(self, "_json", doc)
        object.__setattr__(self, "increment_ms", self.increment_s * 1000)
        object.__setattr__(self, "_view", {**doc, "remaining_ms": None, "running": None, "deadline": None})

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
        """How long the game waits for its first move before it is aborted (or, with a forfeit, lost)."""
        if self.first_move_s is not None:
            return self.first_move_s * 1000
        return REALTIME_FIRST_MOVE_S * 1000 if self.realtime else self.allowance_ms

    @property
    def low_time_ms(self) -> int:
        """The time left under which a running seat is warned (`low_time`): 20% of the bank, or 12 h."""
        if self.days_per_move is not None:
            return CORRESPONDENCE_LOW_MS
        return self.allowance_ms // LOW_TIME_SHARE

    def to_json(self) -> dict[str, Any]:
        """The settings as Game.clock shows them (and a rematch or seek repeats them).

        One dict per settings, shared: read it, do not change it.
        """
        return self._json

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ClockSettings:
        """The settings a validated `clock` object names."""
        return _settings_from(tuple(doc.items()))


# Every read of a stored clocked game reads its settings, and games share few: each made once.
@lru_cache(maxsize=256)
def _settings_from(items: tuple[tuple[str, Any], ...]) -> ClockSettings:
    doc = dict(items)
    first = doc.get("first_move_s")
    first_move_s = None if first is None else int(first)
    if doc.get("days_per_move") is not None:
        return ClockSettings(days_per_move=int(doc["days_per_move"]), first_move_s=first_move_s)
    return ClockSettings(
        initial_s=int(doc["initial_s"]),
        increment_s=int(doc.get("increment_s") or 0),
        first_move_s=first_move_s,
    )


class ClockState(NamedTuple):
    """The clock as of one version: each seat's time left then, whose time runs, and until when.

    `since_ms` is the store's time (Unix milliseconds) of the action that made
    this version; `deadline_ms` is when the running seat's flag falls (before
    the first move: when the game is aborted); None once the game is over.
    (A named tuple: every clocked move makes one or two, and a frozen
    dataclass costs a few times more to make.)
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


# The clock after an action, as a function of its commit's time (the store's,
# as this process reckons it just before the commit): start, after_move and
# at_deadline with all but that time given (functools.partial).
ClockAt = Callable[[int], ClockState]


def start(settings: ClockSettings, now_ms: int) -> ClockState:
    """The clock of a new game created at now_ms: no bank runs; the first move is awaited."""
    allowance = settings.allowance_ms
    return ClockState((allowance, allowance), None, now_ms, now_ms + settings.first_move_ms)


def after_move(
    settings: ClockSettings,
    clock: ClockState,
    mover: int,
    next_turn: int | None,
    now_ms: int,
    *,
    increment: bool = True,
) -> ClockState:
    """The clock after `mover`'s move (or resignation), committed at now_ms, leaves `next_turn` in turn.

    (`next_turn` None: the game is over.) Real time: the running seat is
    charged from `since_ms` to the commit; a move by it adds the increment
    (`increment` False: a resignation, which earns none; one out of turn
    charges the running seat all the same). Correspondence: the seat that
    gets the turn has the whole allowance again.
    """
    if settings.days_per_move is not None:
        if next_turn is None:
            return ClockState(clock.remaining_ms, None, now_ms, None)
        allowance = settings.allowance_ms
        return ClockState((allowance, allowance), next_turn, now_ms, now_ms + allowance)
    # Each seat's bank by name, not a list to copy and index: this runs on every clocked move.
    first, second = clock.remaining_ms
    running = clock.running
    # The running seat's bank at the commit: what it had, less the time since this version began.
    if running == 0:
        first -= now_ms - clock.since_ms
    elif running == 1:
        second -= now_ms - clock.since_ms
    if increment and (mover == running or running is None):
        if mover == 0:
            first += settings.increment_ms
        else:
            second += settings.increment_ms
    if next_turn is None:
        return ClockState((first, second), None, now_ms, None)
    # Its flag falls when its bank is used up.
    return ClockState((first, second), next_turn, now_ms, now_ms + (first if next_turn == 0 else second))


def at_deadline(settings: ClockSettings, clock: ClockState, now_ms: int) -> ClockState:
    """The clock of a game that ends at its deadline (lost on time, or aborted), committed at now_ms.

    Nothing runs any more. The running seat's real-time bank is empty; a
    correspondence seat's allowance is used up. An abort before the first
    move, or a first move forfeit, leaves the banks whole: none ran.
    """
    remaining = list(clock.remaining_ms)
    if clock.running is not None:
        remaining[clock.running] = 0
    return ClockState((remaining[0], remaining[1]), None, now_ms, None)


def low_time_at(settings: ClockSettings, clock: ClockState) -> int | None:
    """When the running seat's time left falls to the low-time line (None: no seat's time runs).

    Real time and correspondence alike: the line's width before the running
    seat's deadline (a real-time deadline is when its bank is used up).
    """
    if clock.running is None or clock.deadline_ms is None:
        return None
    return clock.deadline_ms - settings.low_time_ms


def rfc3339_ms(ms: int) -> str:
    """Unix milliseconds as RFC 3339 UTC with milliseconds (`2026-12-01T12:00:00.250Z`).

    Every clocked move shows a deadline: the text up to the minute is
    cached, the rest is two table lookups.
    """
    minute, of_minute = divmod(ms, 60_000)
    seconds, millis = divmod(of_minute, 1000)
    return f"{_up_to_the_minute(minute)}{_TWO_DIGITS[seconds]}.{_THREE_DIGITS[millis]}Z"


_TWO_DIGITS = tuple(f"{n:02d}" for n in range(60))
_THREE_DIGITS = tuple(f"{n:03d}" for n in range(1000))


@lru_cache(maxsize=256)
def _up_to_the_minute(minute: int) -> str:
    """`2026-12-01T12:00:` for a minute counted from 1970-01-01T00:00 (deadlines fall in few minutes)."""
    return time.strftime("%Y-%m-%dT%H:%M:", time.gmtime(minute * 60))


def view_of(settings: ClockSettings, clock: ClockState, paused_until_ms: int | None = None) -> dict[str, Any]:
    """Game.clock: the settings, each seat's time left as of the version, whose time runs, and its deadline.

    `paused_until_ms`: the running correspondence seat's clock is paused for its player's vacation
    until then (`paused_until`, shown only then).
    """
    deadline = clock.deadline_ms
    # A copy of the settings' own template, its three changing keys then set:
    # cheaper than merging the settings into a new dict on every move.
    view = settings._view.copy()
    view["remaining_ms"] = list(clock.remaining_ms)
    view["running"] = clock.running
    view["deadline"] = None if deadline is None else rfc3339_ms(deadline)
    if paused_until_ms is not None:
        view["paused_until"] = rfc3339_ms(paused_until_ms)
    return view
