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
`first_move_s`, the game is aborted. A clock is a function of the store's
time only: the time of an action is read inside its commit (one clock for
every instance), so the core cannot know it when it builds the texts to
store. Each value that depends on it is therefore a `Linear` in that time,
written into the texts as a marker that the commit script replaces with its
value (storage/lua/lib/clock.lua does it in Redis, `fill` here, the same
way, for the copy the process keeps). Raw control characters never appear
in JSON this service encodes (they are escaped inside strings), so a marker
cannot be confused with anything a client sent.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .jsontext import Fragment

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


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock as of one version: each seat's time left then, whose time runs, and until when.

    `since_ms` is the store's time (Unix milliseconds) of the action that made
    this version; `deadline_ms` is when the running seat's flag falls (before
    the first move: when the game is aborted); None once the game is over.
    """

    remaining_ms: tuple[int, int]
    running: int | None
    since_ms: int
    deadline_ms: int | None
    # The record's form, made once: a game's whole log is encoded with every move.
    log: tuple[int | None, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        entry = (self.since_ms, *self.remaining_ms, self.running, self.deadline_ms)
        object.__setattr__(self, "log", entry)

    def expired(self, now_ms: int) -> bool:
        return self.deadline_ms is not None and now_ms >= self.deadline_ms

    def to_log(self) -> tuple[int | None, ...]:
        """The record's form: [since, remaining 0, remaining 1, running, deadline]."""
        return self.log

    @classmethod
    def from_log(cls, entry: list[Any]) -> ClockState:
        since, first, second, running, deadline = entry
        return cls((first, second), running, since, deadline)


@dataclass(frozen=True, slots=True)
class Linear:
    """A value that depends on the time of the commit: `base + per_now * now` (per_now is -1, 0 or 1)."""

    base: int
    per_now: int = 0

    def at(self, now_ms: int) -> int:
        return self.base + self.per_now * now_ms


@dataclass(frozen=True, slots=True)
class PendingClock:
    """The clock after an action whose time the commit will read: its values as `Linear`s in that time."""

    remaining_ms: tuple[Linear, Linear]
    running: int | None
    deadline_ms: Linear | None
    # Which side of the stored deadline the commit must fall on: a move must
    # come before it ("before"), a timeout or an abort at or after it ("after").
    must_be: str = "before"

    def at(self, now_ms: int) -> ClockState:
        """The clock once the commit's time is known."""
        return ClockState(
            (self.remaining_ms[0].at(now_ms), self.remaining_ms[1].at(now_ms)),
            self.running,
            now_ms,
            None if self.deadline_ms is None else self.deadline_ms.at(now_ms),
        )


# The markers, by the value each stands for: a seat's time left, the commit's
# time, the deadline in milliseconds and the deadline as the API shows it.
REMAINING_0, REMAINING_1, NOW, DEADLINE_MS, DEADLINE_TEXT = "A", "B", "N", "D", "T"


def marker(name: str) -> Fragment:
    """The marker a commit replaces with the value `name` stands for."""
    return _MARKER_FRAGMENTS[name]


_MARKER_FRAGMENTS = {
    name: Fragment(f"\x01{name}\x01") for name in (REMAINING_0, REMAINING_1, NOW, DEADLINE_MS, DEADLINE_TEXT)
}


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
    remaining = [Linear(clock.remaining_ms[0]), Linear(clock.remaining_ms[1])]
    running = clock.running
    if settings.realtime:
        if running is not None:
            # Its bank at the commit: what it had, less the time since this version began.
            remaining[running] = Linear(clock.remaining_ms[running] + clock.since_ms, -1)
        if increment and (mover == running or running is None):
            remaining[mover] = Linear(
                remaining[mover].base + settings.increment_s * 1000, remaining[mover].per_now
            )
    if next_turn is None:
        return PendingClock((remaining[0], remaining[1]), None, None)
    if not settings.realtime:
        allowance = settings.allowance_ms
        return PendingClock((Linear(allowance), Linear(allowance)), next_turn, Linear(allowance, 1))
    bank = remaining[next_turn]
    # Its flag falls when its bank is used up: the commit's time plus its bank.
    return PendingClock((remaining[0], remaining[1]), next_turn, Linear(bank.base, bank.per_now + 1))


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
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


def view_of(settings: ClockSettings, clock: ClockState | PendingClock) -> dict[str, Any]:
    """Game.clock: the settings, each seat's time left as of the version, whose time runs, and its deadline."""
    doc = settings.to_json()
    if isinstance(clock, PendingClock):
        doc["remaining_ms"] = [marker(REMAINING_0), marker(REMAINING_1)]
        doc["running"] = clock.running
        deadline = clock.deadline_ms
        if deadline is None:
            doc["deadline"] = None
        elif deadline.per_now == 0:
            # Known already (the same seat acts again): written out here, not by the commit.
            doc["deadline"] = rfc3339_ms(deadline.base)
        else:
            doc["deadline"] = marker(DEADLINE_TEXT)
    else:
        doc["remaining_ms"] = list(clock.remaining_ms)
        doc["running"] = clock.running
        doc["deadline"] = None if clock.deadline_ms is None else rfc3339_ms(clock.deadline_ms)
    return doc


def log_entry(clock: ClockState | PendingClock) -> tuple[Any, ...] | list[Any]:
    """The record's form of the clock as of a version (markers for the values the commit fills in)."""
    if isinstance(clock, ClockState):
        return clock.log
    deadline = None if clock.deadline_ms is None else marker(DEADLINE_MS)
    return [marker(NOW), marker(REMAINING_0), marker(REMAINING_1), clock.running, deadline]


def values_at(clock: PendingClock, now_ms: int) -> dict[str, str]:
    """What each marker stands for once the commit's time is known, as JSON text."""
    state = clock.at(now_ms)
    deadline = state.deadline_ms
    return {
        REMAINING_0: str(state.remaining_ms[0]),
        REMAINING_1: str(state.remaining_ms[1]),
        NOW: str(now_ms),
        DEADLINE_MS: "null" if deadline is None else str(deadline),
        DEADLINE_TEXT: "null" if deadline is None else f'"{rfc3339_ms(deadline)}"',
    }


# (Where a text the core encoded is itself a JSON string, a recorded
# answer's body, the markers stand escaped, \u0001A\u0001; only the commit
# script fills those: the core never reads them.)
def fill(text: str, values: dict[str, str]) -> str:
    """`text` with its markers replaced by their values, as the commit script replaces them in Redis."""
    # The markers sit near the end (the clock is among a view's last members):
    # the pattern runs from the first one a plain search finds.
    first = text.find("\x01")
    if first < 0:
        return text
    rest = text[first:]
    for name, value in values.items():
        rest = rest.replace(f"\x01{name}\x01", value)
    return text[:first] + rest
