"""The storage interface: what the API layer may ask of a game store.

The store knows nothing of Patchwork. It keeps the caller's JSON texts (the
engine state with its metadata, and the public view of the game) under a
version number, the history of moves, and the answers recorded under
idempotency keys. Every backend failure surfaces as `StorageError`, so callers
never import the backend's client library to catch its errors.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, NamedTuple


class StorageError(Exception):
    """The store is down, timed out or refused the request."""


class GameExists(ValueError):
    """A game already lives under the id given to create_game (nothing changed).

    Only an id chosen beforehand can meet it (a seek's pairing names its
    game, site/seeks.py): whoever creates it second learns it is there.
    """


class StoreBusy(StorageError):
    """Every connection to the store is in use by this process's other calls, and the store answers them.

    The process has more work than it can do (its callers wait for the CPU
    while holding their connections); the store itself is fine. A
    StorageError still, so whatever gives up on a failed call gives up on
    this one too; the API answers it `503 overloaded`, not as an outage, and
    it is not counted as a store error.
    """


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as loaded to be changed: its version and the caller's state text.

    The stored view is left out: only reads serve it (`load_view`), and
    fetching it with every move would be wasted bytes on the busiest path.
    """

    version: int  # 1 at creation, +1 per committed move
    state: str  # caller's JSON text (engine state + metadata)
    # Random, new with every write. A caller that keeps a game between
    # requests commits against version and revision: should Redis ever lose
    # acknowledged writes and the game reach the same version again by other
    # moves, the revision differs. A token, not content: not compared.
    revision: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class WholeGame:
    """A game with all that its reads serve: state, history, each version's clock entry (None: none)."""

    version: int
    state: str
    moves: tuple[str, ...]
    clocks: tuple[str | None, ...]  # index v - 1 for version v
    changed_in_place: bool = False  # as StoredView's, at the game's version
    revision: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class StoredView:
    """The Game body a read serves, with its version.

    `changed_in_place`: the body changed at this version without a move (a
    join, a seat's new name, a rematch offer: the version counts moves), so
    a client's copy bearing this version's tag may be the earlier body.
    """

    version: int
    view: str
    changed_in_place: bool = False


class ClockRefusal(StrEnum):
    """Why the store's clock refused a write to a game that was as expected (lua/lib/clock.lua's codes)."""

    SKEW = "skew"  # the texts were written for a time too far from the store's: write them again
    EXPIRED = "expired"  # a move at or after the game's deadline
    EARLY = "early"  # a timeout before it


class _Outcome:
    """One outcome of a compare-and-set write (CommitResult): `committed` says whether it stored."""

    __slots__ = ()
    committed: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Stored(_Outcome):
    """Stored: the game's new revision, and with a clock the store's time of the write (Unix ms)."""

    committed: ClassVar[bool] = True
    revision: str
    now_ms: int | None = None


@dataclass(frozen=True, slots=True)
class Moved(_Outcome):
    """Not stored: the game is no longer at the version (and revision) written against; as it is now."""

    current: StoredGame


@dataclass(frozen=True, slots=True)
class Gone(_Outcome):
    """Not stored: no game lives under the id."""


@dataclass(frozen=True, slots=True)
class ClockRefused(_Outcome):
    """Not stored for the clock, the game unchanged: why, the store's time, and the game as it is now
    (None where the write has no game to show: a creation, a join)."""

    reason: ClockRefusal
    now_ms: int
    current: StoredGame | None = None


@dataclass(frozen=True, slots=True)
class SeatExpired(_Outcome):
    """Not stored: the open seat's time in the lobby was up (take_seat)."""


# What a compare-and-set write did: one of these, decoded once from the script's answer (redis_store.py).
CommitResult = Stored | Moved | Gone | ClockRefused | SeatExpired


@dataclass(frozen=True, slots=True)
class IdempotencyRecord:
    """What is stored under an idempotency key."""

    in_progress: bool  # True: the first request with this key is still running
    fingerprint: str  # the fingerprint of the request that claimed the key
    answer: str | None  # the recorded answer text (None while in progress)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One move's event as kept in the game's stream, or an offer's (`seq` > 0)."""

    version: int  # the game's version after the move: the event's id
    data: str  # the caller's text for the event
    end: str | None = None  # the caller's text for the game's end, when this move ended it
    # An offer's event (GameStore.amend) made at `version`: its number after the version's move, from 1.
    seq: int = 0


@dataclass(frozen=True, slots=True)
class EventSlice:
    """Events read from a game's stream, with what a reader needs to trust them."""

    version: int  # the game's version when they were read
    oldest: int | None  # the version of the oldest event kept (None: none kept)
    events: list[StoredEvent]

    def resumes_after(self, after: int) -> bool:
        """Whether the events after version `after` are all here or still to come.

        True when `after` is a version the game has had (1..version) and
        nothing after it has been trimmed away (or expired, or predates the
        stream): the reader then misses nothing by reading on from `after`.
        """
        if not 1 <= after <= self.version:
            return False
        if after == self.version:
            return True
        return self.oldest is not None and self.oldest <= after + 1


@dataclass(frozen=True, slots=True)
class NewEvent:
    """The event to store with a move: its text, and the game's end when the move ends it."""

    data: str
    end: str | None = None


@dataclass(frozen=True, slots=True)
class IdempotencyAnswer:
    """The answer to record under an idempotency key, and the fingerprint of the request that claimed it."""

    key: str
    fingerprint: str  # one line
    answer: str


class ClockCheck(NamedTuple):
    """What a clocked commit asks of the store's clock (store_time.py).

    `at_ms`: the commit's time as the caller reckoned the store's clock
    (`GameStore.now_ms`), which its texts are written for. The commit is
    refused ("skew", with the store's time) when that is more than
    store_time.TOLERANCE_MS from the store's own clock, and unless the later of the two
    falls on the `must_be` side of the game's stored deadline ("before": a
    move; "after": a timeout; "" at a creation or a join, which have none
    to meet). `deadline_ms` is the game's deadline after the commit (None: none).
    """

    at_ms: int
    must_be: str
    deadline_ms: int | None


class ClockLog(NamedTuple):
    """A clocked write's part of the game's clock log: each version's clock (`load_clock`).

    Kept beside the game, not in its state text: only a past version's view
    reads it, and in the text every move would carry (and every read
    decode) the whole game's log again.
    """

    entry: str  # the clock of the version written, as JSON


@dataclass(frozen=True, slots=True, kw_only=True)
class Commit:
    """One move to store with GameStore.commit_move, if the game is still as it was when the move was judged."""

    game_id: str
    version: int  # the version the game must still be at
    # ... and the revision (None: any).
    revision: str | None = None
    state: str  # the caller's state text after the move
    view: str  # the caller's view text after the move
    move: str  # the history entry to append
    event: NewEvent | None = None  # the event to append to the game's stream
    answer: IdempotencyAnswer | None = None  # the answer to record with the move
    clock: ClockCheck | None = None  # the game's clock: what the commit checks of its time
    clock_log: ClockLog | None = None  # with a clock: the new version's entry in the clock log
    # The game's new deadline (Unix ms) when it may come sooner than the one
    # indexed: the store's deadline index is lowered to it first (storage/deadlines.py).
    deadline_hint: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatChange:
    """A game with an open seat taken, to store with GameStore.take_seat if the game is still as it was read."""

    game_id: str
    version: int
    revision: str
    state: str  # the caller's state text with the seat taken
    view: str
    open_until_ms: int  # epoch ms, on the store's clock: no seat is taken from then on
    # The game's clock, started by the take (the last seat taken), its texts written for its time,
    # and its first entry, which starts the game's clock log afresh.
    clock: ClockCheck | None = None
    clock_log: ClockLog | None = None
    # The join's answer, recorded with the take under its Idempotency-Key.
    answer: IdempotencyAnswer | None = None


class EventWatch(ABC):
    """A reader's handle on wake-ups for one game (GameStore.watch_events)."""

    @abstractmethod
    def wait(self, timeout: float) -> bool:
        """True when woken (an event may be new, or the wake-ups were interrupted);
        False after `timeout` without a wake-up."""

    @abstractmethod
    def wake(self) -> None:
        """Make the current wait (or the next) return True at once."""

    @property
    @abstractmethod
    def closing(self) -> bool:
        """True once the process is shutting down: the reader should stop."""

    @abstractmethod
    def close(self) -> None:
        """Stop watching."""

    def __enter__(self) -> EventWatch:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class GameStore(ABC):
    """Games, their move histories, event streams and idempotency records, all under one game id.

    Nothing else: the bot queue (bot_jobs.py) and the request counters
    (request_counter.py) share a backend's connections, not this interface.
    """

    @abstractmethod
    def create_game(
        self,
        game_id: str,
        state: str,
        view: str,
        clock: ClockCheck | None = None,
        clock_log: ClockLog | None = None,
    ) -> CommitResult:
        """Store a new game at version 1 and start the TTL of its keys: Stored.

        GameExists when a game lives under the id. With a clock, `now_ms` is
        the store's time of the creation, and a reckoning of it too far off
        is refused (ClockRefused SKEW, nothing stored).
        """

    @abstractmethod
    def import_game(self, game_id: str, state: str, view: str, version: int, moves: list[str]) -> Stored:
        """Store a game made elsewhere whole, at `version`, with its history `moves` (`version - 1`
        entries, oldest first), and start the TTL of its keys: Stored.

        For a finished game replayed from its record (an import): no clock,
        no events (its stream starts empty; a reader gets its snapshot).
        GameExists when a game lives under the id.
        """

    @abstractmethod
    def now_ms(self) -> int:
        """The store's clock in Unix ms, as this process reckons it (store_time.py): what clocked texts are written for."""

    @abstractmethod
    def load_game(self, game_id: str) -> StoredGame | None:
        """The stored game, or None when there is none (one round trip)."""

    @abstractmethod
    def load_clock(self, game_id: str, version: int) -> str | None:
        """The game's clock as of `version`, as its log keeps it (JSON); None when the log has none for it."""

    @abstractmethod
    def load_view(self, game_id: str) -> StoredView | None:
        """The view for the read path, or None (one round trip)."""

    @abstractmethod
    def load_for_move(
        self, game_id: str, idempotency_key: str | None, fingerprint: str | None
    ) -> tuple[StoredGame | None, IdempotencyRecord | None]:
        """Load the game and claim the idempotency key, atomically, in one round trip.

        With a key and an existing game: an existing record under the key is
        returned unchanged; otherwise the key is claimed with an in-progress
        marker holding `fingerprint` and the second value is None. No game:
        (None, None) and nothing is claimed.
        """

    @abstractmethod
    def commit_move(self, commit: Commit) -> CommitResult:
        """Compare-and-set: store the move if the game is still at `commit.version` (and
        `commit.revision`, when given), in one round trip.

        Stored: the version goes up by one, the game gets a new revision, the
        move is appended to the history, the answer (if any) is recorded under
        its idempotency key for 24 h, and the TTL of the game and its history
        is renewed (records keep their own). With an event, the same commit
        appends it to the game's event stream under the new version and wakes
        the listeners (`watch_events`). Not stored (nothing changed): Moved
        (or, for the clock, ClockRefused) carries the game as it is now, so the
        caller can judge the move again without loading it; Gone when there is none.
        """

    @abstractmethod
    def take_seat(self, seat: SeatChange) -> CommitResult:
        """Compare-and-set: store the game with a seat taken if it is still at `seat.version` and
        `seat.revision` and the store's clock is before `seat.open_until_ms`, in one round trip.

        The version stays (a join is not a move); the game gets a new
        revision, so a second joiner who read the same copy is refused and
        given the game as stored now (Moved). SeatExpired when the time was up.
        With `seat.clock` the game's clock starts at the take, as at a creation
        (`now_ms`: the store's time of it; ClockRefused SKEW as there).
        """

    @abstractmethod
    def amend(
        self,
        game_id: str,
        version: int,
        revision: str,
        state: str,
        view: str,
        event: str | None = None,
        deadline_ms: int | None = None,
    ) -> CommitResult:
        """Compare-and-set: replace the game's state and view if it is still at `version` and `revision`.

        For what changes beside the play (a finished game's `next_game`, an
        offer, a clock paused): the version stays, the revision is new. `event`: an offer's
        event, added to the game's stream in the same step (StoredEvent.seq).
        `deadline_ms`: the running seat's deadline moved (a vacation's pause),
        which later commits' clock checks judge by.
        Refused: Moved, with the game as stored now.
        """

    @abstractmethod
    def renew_revision(self, game_id: str, version: int, revision: str) -> bool:
        """Give the game a new revision, nothing else changed, if it is still at `version` and `revision`.

        Returns whether it did. From then on a commit against that version
        and revision is refused (it returns the game as stored, to be judged
        again): the bot worker fences a commit that is late this way
        (bot_jobs.py).
        """

    @abstractmethod
    def record_answer(self, game_id: str, answer: IdempotencyAnswer) -> None:
        """Record a refusal under its key for 24 h; nothing when the game is gone.

        A record is only ever read with its game (`load_for_move`), so one
        that outlives the game is never replayed; it goes when its 24 h are
        up. Callers scope keys so that a later game under the same id could
        not meet it either (the API scopes them by seat token).
        """

    @abstractmethod
    def release_key(self, game_id: str, idempotency_key: str) -> None:
        """Drop the in-progress marker of a request that ended without a recorded answer."""

    @abstractmethod
    def load_moves(self, game_id: str, start: int = 0, stop: int = -1) -> tuple[int, list[str]] | None:
        """(version, history slice as LRANGE gives it), consistent with each other, or None."""

    @abstractmethod
    def load_whole(self, game_id: str) -> WholeGame | None:
        """The game with its whole history and clock log, read at once; None: no game."""

    @abstractmethod
    def keep_record(self, game_id: str, revision: str, record: str) -> bool:
        """Keep `record` with no TTL, if the game is still at `revision`: it outlives the game's other keys."""

    @abstractmethod
    def load_kept(self, game_id: str) -> str | None:
        """The record kept by `keep_record`, or None."""

    @abstractmethod
    def restore_game(self, game_id: str, whole: WholeGame, view: str) -> bool:
        """Store a game rebuilt from its kept record whole again, with the game's TTL; False: one lives there."""

    @abstractmethod
    def load_events(self, game_id: str, after: int, count: int, after_seq: int = 0) -> EventSlice | None:
        """Up to `count` events after version `after` (and the offers of it up to `after_seq`), with the game's version; None: no game."""

    @abstractmethod
    def watch_events(self, game_id: str) -> EventWatch:
        """A watch that wakes whenever an event may have been added to the game's stream.

        Use it as a context manager. Wake-ups are hints: after each, read the
        stream (`load_events`) from the last version seen.
        """

    @abstractmethod
    def ping(self) -> None:
        """Raise StorageError when the store does not answer."""

    @abstractmethod
    def close(self) -> None:
        """Release the connections."""
