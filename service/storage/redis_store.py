"""The GameStore on Redis, standalone or Cluster, through the connections of connections.py.

Each operation is one round trip: a plain read (HMGET) or one Lua script
(lua/<operation>.lua, scripts.py), so concurrent app instances never
interleave inside a move. Adding an operation is a method on the interface
(store.py), its method here and its script file.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from .arguments import NOT_CLOCKED, ClockArgs, CommitArgs, CreateArgs, DeadlineHint, ImportArgs, SeatArgs
from .connections import RedisLink
from .deadlines import Deadlines
from .keys import GameKeys
from .store import (
    ClockCheck,
    ClockLog,
    ClockRefusal,
    ClockRefused,
    Commit,
    CommitResult,
    EventSlice,
    EventWatch,
    GameExists,
    GameStore,
    Gone,
    IdempotencyAnswer,
    IdempotencyRecord,
    Moved,
    SeatChange,
    SeatExpired,
    Stored,
    StoredEvent,
    StoredGame,
    StoredView,
    WholeGame,
)
from .store_time import StoreTime
from .wakeups import Wakeups

# An answer is replayed for 24 h (docs/api-guide.md#idempotency). A record keeps this expiry from
# the moment it is answered, whatever the game's own TTL: renewing records
# with every move would make a move's cost grow with the game's history.
# One outliving its game is never replayed (the game is read first) and
# goes when its 24 h are up.
RECORD_TTL_MS = 24 * 3600 * 1000
# A claimed key whose request crashed frees itself after this long.
MARKER_TTL_MS = 30_000
# A game's event stream keeps its last EVENTS_MAXLEN events: a whole game
# (at most about 150 moves), so any client may resume from any version.
EVENTS_MAXLEN = 256
# A finished game's events are kept this long after its last move (a client
# that missed the end resumes within it), not the game's whole TTL: at about
# 1.6 KB an event, a finished game's stream is the bulk of what it costs Redis.
FINISHED_EVENTS_TTL_MS = 3600 * 1000
# Redis list indexes are signed 64-bit: one beyond is past the end of any
# list, but Redis refuses it instead of answering with an empty slice.
_INDEX_MIN, _INDEX_MAX = -(2**63), 2**63 - 1
# The log entry of a clocked commit that brings none (the scripts store it as JSON null).
_NO_CLOCK_LOG = ClockLog("null")


def _entry_version(entry_id: str) -> int:
    """The version a stream entry id (`<version>-0`) names."""
    return int(entry_id.partition("-")[0])


def _oldest_version(entry_id: str) -> int:
    """The oldest version whose move's event a stream holds, from its oldest entry's id.

    An offer's entry (`<version>-<n>`, n > 0) first means the stream lost that
    version's move (expired, trimmed): the first it holds is the next version's.
    """
    version, _dash, seq = entry_id.partition("-")
    return int(version) + (seq != "0")


def _list_index(index: int) -> int:
    return min(max(index, _INDEX_MIN), _INDEX_MAX)


def _record(answer: IdempotencyAnswer) -> str:
    """The stored form of an answered record (scripts.py): fingerprint, newline, answer."""
    if "\n" in answer.fingerprint:
        raise ValueError("a fingerprint must not contain a newline")
    return f"{answer.fingerprint}\n{answer.answer}"


def _parse_record(record: str) -> IdempotencyRecord:
    fingerprint, answered, answer = record.partition("\n")
    return IdempotencyRecord(not answered, fingerprint, answer if answered else None)


def _current(found: list[Any]) -> StoredGame:
    """The game as stored now, from a compare-and-set script's refusal ({code, version, revision, state})."""
    return StoredGame(int(found[1]), found[3], found[2])


def _new_revision() -> str:
    # Random rather than counted: instances share nothing, and forked
    # workers would share a counter's state.
    return secrets.token_hex(8)


class RedisGameStore(GameStore):
    """Games in Redis under `<prefix>{<game_id>}:...` keys, expiring `ttl_seconds` after the last move."""

    def __init__(
        self,
        link: RedisLink,
        *,
        ttl_seconds: int,
        deadlines: Deadlines,
        cluster: bool = False,
        subscribe: Callable[[], Any] | None = None,
    ):
        """`link`: the Redis to use and the key prefix; `deadlines`: the deadline index on it, which
        on a single Redis a commit lowers itself (on a Cluster its entry is in another slot, so the
        store lowers it just before); `subscribe` opens a pub/sub connection for the event
        wake-ups (wakeups.py)."""
        if ttl_seconds <= 0:
            raise ValueError(f"ttl_seconds must be positive, not {ttl_seconds}")
        self._link = link
        self._deadlines = deadlines
        self._cluster = cluster
        self._prefix = link.prefix
        self._ttl_ms = int(ttl_seconds * 1000)  # PEXPIRE takes whole milliseconds
        self.events_channel = f"{self._prefix}events"
        self.wakeups = Wakeups(subscribe, self.events_channel) if subscribe is not None else None
        self._time = StoreTime(self._read_time)

    def _read_time(self) -> int:
        seconds, micros = self._link.command("time", "TIME")
        return int(seconds) * 1000 + int(micros) // 1000

    def now_ms(self) -> int:
        """The store's clock as this process reckons it (store_time.py)."""
        return self._time.now_ms()

    def _clocked(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Run a clocked script: each answer but `moved` ends with the store's time, which corrects this
        process's reckoning of it (a creation's is the time itself)."""
        sent = time.time()
        found = self._link.script(name, keys, args)
        if isinstance(found, list) and found[0] != "moved" and len(found) > 1:
            self._time.observe(int(found[-1]), sent)
        elif isinstance(found, int) and found > 1:
            self._time.observe(found, sent)
        return found

    def _keys(self, game_id: str) -> GameKeys:
        return GameKeys(self._prefix, game_id)

    def create_game(
        self,
        game_id: str,
        state: str,
        view: str,
        clock: ClockCheck | None = None,
        clock_log: ClockLog | None = None,
    ) -> CommitResult:
        """Store a new game at version 1 and start the TTL of its keys; with a clock, checked against the store's."""
        keys = self._keys(game_id)
        revision = _new_revision()
        head = CreateArgs(state=state, view=view, ttl_ms=self._ttl_ms, revision=revision)
        if clock is None:
            created = self._link.script(
                "create_game", [keys.game, keys.moves, keys.events], [*head, NOT_CLOCKED]
            )
        else:
            entry = clock_log.entry if clock_log is not None else "null"
            created = self._clocked(
                "create_game", [keys.game, keys.moves, keys.events], [*head, *ClockArgs.of(clock, entry)]
            )
        if not created:
            raise GameExists(f"a game with id {game_id!r} already exists")
        if isinstance(created, list):
            return ClockRefused(ClockRefusal(created[0]), int(created[1]))
        return Stored(revision, int(created) if clock is not None else None)

    def import_game(self, game_id: str, state: str, view: str, version: int, moves: list[str]) -> Stored:
        """Store a game whole at `version` with its history, and start the TTL of its keys."""
        keys = self._keys(game_id)
        revision = _new_revision()
        args = ImportArgs(
            state=state,
            view=view,
            ttl_ms=self._ttl_ms,
            revision=revision,
            version=version,
            moves=json.dumps(moves),
            clocks="[]",
            changed=0,
        )
        if not self._link.script("import_game", [keys.game, keys.moves, keys.events], list(args)):
            raise GameExists(f"a game with id {game_id!r} already exists")
        return Stored(revision)

    def load_game(self, game_id: str) -> StoredGame | None:
        """The stored game, or None when there is none (one round trip)."""
        keys = self._keys(game_id)
        version, revision, state = self._link.command(
            "load_game", "HMGET", keys.game, "version", "revision", "state"
        )
        if version is None:
            return None
        return StoredGame(int(version), state, revision)

    def load_clock(self, game_id: str, version: int) -> str | None:
        """The game's clock as of `version`: its field in the game's hash (lua/commit_move.lua)."""
        entry: str | None = self._link.command(
            "load_clock", "HGET", self._keys(game_id).game, f"clock:{version}"
        )
        return entry

    def load_view(self, game_id: str) -> StoredView | None:
        """The view for the read path, or None (one round trip)."""
        keys = self._keys(game_id)
        version, view, changed = self._link.command(
            "load_view", "HMGET", keys.game, "version", "view", "changed"
        )
        if version is None:
            return None
        # `changed`: the version whose body a join or an amendment last replaced (take_seat, amend_game).
        return StoredView(int(version), view, changed == version)

    def load_for_move(
        self, game_id: str, idempotency_key: str | None, fingerprint: str | None
    ) -> tuple[StoredGame | None, IdempotencyRecord | None]:
        """Load the game and claim the idempotency key, atomically, in one round trip."""
        if idempotency_key is None:
            return self.load_game(game_id), None
        if fingerprint is None or "\n" in fingerprint:
            raise ValueError("claiming an idempotency key needs a one-line fingerprint")
        keys = self._keys(game_id)
        found = self._link.script(
            "load_for_move", [keys.game, keys.idempotency(idempotency_key)], [fingerprint, MARKER_TTL_MS]
        )
        if found is None:
            return None, None
        game = StoredGame(int(found[0]), found[2], found[1])
        if len(found) == 3:
            return game, None
        return game, _parse_record(found[3])

    def commit_move(self, commit: Commit) -> CommitResult:
        """Compare-and-set on version (and revision): store the move and its event, or say what is stored now."""
        keys = self._keys(commit.game_id)
        script_keys = [keys.game, keys.moves, keys.events]
        revision = _new_revision()
        event = commit.event
        head = CommitArgs(
            expected_version=commit.version,
            expected_revision="*" if commit.revision is None else commit.revision,
            new_revision=revision,
            state=commit.state,
            view=commit.view,
            move=commit.move,
            ttl_ms=self._ttl_ms,
            event=event.data if event else "",
            event_end=(event.end or "") if event else "",
            events_ttl_ms=FINISHED_EVENTS_TTL_MS if event and event.end else self._ttl_ms,
            channel=self.events_channel,
            wakeup=f"{commit.game_id} {commit.version + 1}",
            events_maxlen=EVENTS_MAXLEN,
        )
        # The idempotency record's key and its two arguments, last (lua/commit_move.lua).
        record: tuple[Any, ...] = ()
        if commit.answer is not None:
            script_keys.append(keys.idempotency(commit.answer.key))
            record = (RECORD_TTL_MS, _record(commit.answer))
        if commit.clock is None:
            args = [*head, NOT_CLOCKED, *record]
        else:
            hint = commit.deadline_hint
            lowered: int | str = ""
            if hint is not None and self._cluster:
                self._deadlines.schedule(commit.game_id, hint)
            elif hint is not None:
                # One round trip: the commit lowers the game's index entry itself.
                script_keys.append(self._deadlines.shard_of(commit.game_id))
                lowered = hint
            log = commit.clock_log or _NO_CLOCK_LOG
            args = [
                *head,
                *ClockArgs.of(commit.clock, log.entry),
                *DeadlineHint(lowered=lowered, game_id=commit.game_id),
                *record,
            ]
        # Not _clocked: the answer's form is known here, and read once (every clocked move comes this way).
        sent = time.time()
        found = self._link.script("commit_move", script_keys, args)
        if found is None:
            return Gone()
        outcome = found[0]
        if outcome == "moved":
            return Moved(_current(found))
        if commit.clock is None:
            return Stored(revision)  # {'stored'}: an unclocked commit is refused only as 'moved'
        now_ms = int(found[-1])
        self._time.observe(now_ms, sent)
        if outcome == "stored":
            return Stored(revision, now_ms)
        return ClockRefused(ClockRefusal(outcome), now_ms, _current(found))

    def take_seat(self, seat: SeatChange) -> CommitResult:
        """Compare-and-set on version and revision, before the lobby's time is up: store the game with a seat taken."""
        revision = _new_revision()
        head = SeatArgs(
            expected_version=seat.version,
            expected_revision=seat.revision,
            new_revision=revision,
            state=seat.state,
            view=seat.view,
            open_until_ms=seat.open_until_ms,
        )
        keys = [self._keys(seat.game_id).game]
        if seat.clock is None:
            args: list[Any] = [*head, NOT_CLOCKED]
        else:
            entry = seat.clock_log.entry if seat.clock_log is not None else "null"
            args = [*head, *ClockArgs.of(seat.clock, entry)]
        if seat.answer is not None:
            # The record's key and its two arguments, last (lua/take_seat.lua).
            keys.append(self._keys(seat.game_id).idempotency(seat.answer.key))
            args += [RECORD_TTL_MS, _record(seat.answer)]
        if seat.clock is None:
            found = self._link.script("take_seat", keys, args)
        else:
            found = self._clocked("take_seat", keys, args)
        if found is None:
            return Gone()
        if found[0] == "moved":
            return Moved(_current(found))
        if found[0] == "expired":
            return SeatExpired()
        if found[0] == "skew":
            return ClockRefused(ClockRefusal.SKEW, int(found[1]))
        return Stored(revision, int(found[1]))

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
        """Compare-and-set on version and revision: replace the game's state and view (add `event`, move the deadline)."""
        new_revision = _new_revision()
        keys = self._keys(game_id)
        args: list[Any] = [
            version,
            revision,
            new_revision,
            state,
            view,
            "" if deadline_ms is None else deadline_ms,
        ]
        if event is None:
            found = self._link.script("amend_game", [keys.game], args)
        else:
            args += [
                event,
                EVENTS_MAXLEN,
                FINISHED_EVENTS_TTL_MS,
                self.events_channel,
                f"{game_id} {version}",
            ]
            found = self._link.script("amend_game", [keys.game, keys.events], args)
        if found is None:
            return Gone()
        if found[0] == "moved":
            return Moved(_current(found))
        return Stored(new_revision)

    def renew_revision(self, game_id: str, version: int, revision: str) -> bool:
        """Give the game a new revision if it is still at `version` and `revision`; whether it did."""
        keys = self._keys(game_id)
        return bool(self._link.script("renew_revision", [keys.game], [version, revision, _new_revision()]))

    def record_answer(self, game_id: str, answer: IdempotencyAnswer) -> None:
        """Record a refusal under its key for 24 h; nothing when the game is gone."""
        keys = self._keys(game_id)
        self._link.script(
            "record_answer", [keys.game, keys.idempotency(answer.key)], [_record(answer), RECORD_TTL_MS]
        )

    def release_key(self, game_id: str, idempotency_key: str) -> None:
        """Drop the in-progress marker of a request that ended without a recorded answer."""
        self._link.script("release_key", [self._keys(game_id).idempotency(idempotency_key)])

    def load_moves(self, game_id: str, start: int = 0, stop: int = -1) -> tuple[int, list[str]] | None:
        """(version, history slice as LRANGE gives it), consistent with each other, or None."""
        keys = self._keys(game_id)
        found = self._link.script(
            "load_moves", [keys.game, keys.moves], [_list_index(start), _list_index(stop)]
        )
        if found is None:
            return None
        return int(found[0]), list(found[1])

    def load_whole(self, game_id: str) -> WholeGame | None:
        """The game with its whole history and clock log, read at once (lua/load_whole.lua); None: no game."""
        keys = self._keys(game_id)
        found = self._link.script("load_whole", [keys.game, keys.moves], [])
        if found is None:
            return None
        version, revision, state, changed, moves, clocks = found
        return WholeGame(
            version=int(version),
            state=state,
            moves=tuple(moves),
            clocks=tuple(entry or None for entry in clocks),
            changed_in_place=changed == version,
            revision=revision,
        )

    def keep_record(self, game_id: str, revision: str, record: str) -> bool:
        """Keep `record` with no TTL while the game is at `revision` (lua/keep_record.lua)."""
        keys = self._keys(game_id)
        return bool(self._link.script("keep_record", [keys.game, keys.kept], [revision, record]))

    def load_kept(self, game_id: str) -> str | None:
        """The record kept by `keep_record`, or None."""
        found: str | None = self._link.command("load_kept", "GET", self._keys(game_id).kept)
        return found

    def restore_game(self, game_id: str, whole: WholeGame, view: str) -> bool:
        """Store a game rebuilt from its kept record whole again, with the game's TTL (lua/import_game.lua)."""
        keys = self._keys(game_id)
        args = ImportArgs(
            state=whole.state,
            view=view,
            ttl_ms=self._ttl_ms,
            revision=_new_revision(),
            version=whole.version,
            moves=json.dumps(whole.moves),
            clocks=json.dumps(whole.clocks),
            changed=whole.version if whole.changed_in_place else 0,
        )
        return bool(self._link.script("import_game", [keys.game, keys.moves, keys.events], list(args)))

    def load_events(self, game_id: str, after: int, count: int, after_seq: int = 0) -> EventSlice | None:
        """Up to `count` events after version `after` (and its offer `after_seq`), with the game's version; None: no game."""
        keys = self._keys(game_id)
        found = self._link.script("load_events", [keys.game, keys.events], [max(after, 0), count, after_seq])
        if found is None:
            return None
        version, oldest, entries = found
        events = []
        for entry_id, fields in entries:
            values = dict(zip(fields[::2], fields[1::2]))
            if "offer" in values:
                at, _dash, seq = entry_id.partition("-")
                events.append(StoredEvent(int(at), values["offer"], seq=int(seq)))
            else:
                events.append(StoredEvent(_entry_version(entry_id), values["data"], values.get("end")))
        return EventSlice(int(version), _oldest_version(oldest) if oldest else None, events)

    def watch_events(self, game_id: str) -> EventWatch:
        """A watch woken by each commit on the game, in any process (wakeups.py)."""
        if self.wakeups is None:
            raise RuntimeError("this store was opened without event wake-ups")
        return self.wakeups.watch(game_id)

    def ping(self) -> None:
        """Raise StorageError when the store does not answer."""
        self._link.command("ping", "PING")

    def close(self) -> None:
        """Release the connections (the link's, shared with the bot queue and the counters)."""
        if self.wakeups is not None:
            self.wakeups.close()
        self._link.close()
