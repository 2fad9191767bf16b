"""The GameStore on Redis, standalone or Cluster, through redis-py.

Each operation is one round trip: a plain read (HMGET) or one Lua script
(see scripts.py), so concurrent app instances never interleave inside a
move. redis-py retries nothing here: one attempt bounded by the connect and
socket timeouts keeps every call well inside the API's 2 s promise even when
Redis hangs instead of refusing, and a connection that failed reconnects by
itself once Redis is back.

On a standalone Redis each command takes a connection from a small bounded
pool of the store's own (_ConnectionPool) and hands it back as soon as the
answer is read. Under gunicorn's gevent workers every request is a
greenlet, so a connection per thread would become a connect per request
and as many connections as open requests; the pool keeps a worker to a
fixed number. It is not redis-py's pool, whose checkout (a lock, and
polling the socket for stray data) cost about a fifth of each call: redis-py
drops a connection on any error in the middle of a command, so no stray
answer can be left on one for the next user. What it keeps of that poll is
one zero-timeout select per command, which finds the sockets a restarted
Redis closed before they fail a request (see _ConnectionPool).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from time import perf_counter
from typing import Any, Protocol

import hiredis
from gevent.monkey import get_original
from redis import ConnectionPool, Redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.connection import AbstractConnection
from redis.exceptions import (
    ClusterError,
    MaxConnectionsError,
    NoScriptError,
    RedisClusterException,
    RedisError,
    SlotNotCoveredError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

from service.config import ConfigError, Settings
from service.telemetry.metrics import store_duration, store_errors

from . import bot_jobs, scripts
from .bot_jobs import BotJobs
from .keys import GameKeys, check_prefix
from .store import (
    CommitResult,
    EventSlice,
    EventWatch,
    GameStore,
    IdempotencyRecord,
    NewEvent,
    StorageError,
    StoreBusy,
    StoredEvent,
    StoredGame,
)
from .wakeups import Wakeups

# The system's select, never gevent's: gevent's yields to other greenlets
# when a socket is ready, and a look at a socket must not wait for the CPU.
_select = get_original("select", "select")
# What a connection that Redis stopped answering or closed raises (redis-py
# has then closed its socket).
_CONNECTION_LOST = (RedisConnectionError, RedisTimeoutError, OSError)

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


def _entry_version(entry_id: str) -> int:
    """The version a stream entry id (`<version>-0`) names."""
    return int(entry_id.partition("-")[0])


def _list_index(index: int) -> int:
    return min(max(index, _INDEX_MIN), _INDEX_MAX)


def _record(fingerprint: str, answer: str) -> str:
    """The stored form of an answered record (scripts.py): fingerprint, newline, answer."""
    if "\n" in fingerprint:
        raise ValueError("a fingerprint must not contain a newline")
    return f"{fingerprint}\n{answer}"


def _parse_record(record: str) -> IdempotencyRecord:
    fingerprint, answered, answer = record.partition("\n")
    return IdempotencyRecord(not answered, fingerprint, answer if answered else None)


def _new_revision() -> str:
    # Random rather than counted: instances share nothing, and forked
    # workers would share a counter's state.
    return secrets.token_hex(8)


class _StoreCall:
    """One call to Redis: timed for its operation's histogram, and what redis-py raises made a StorageError.

    A failed call is counted as a store error of its operation. Written as
    a class rather than a generator-based context manager: it runs on every
    store call, and this costs less.
    """

    __slots__ = ("_operation", "_started")

    def __init__(self, operation: str):
        self._operation = operation

    def __enter__(self) -> None:
        self._started = perf_counter()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _trace: Any) -> None:
        store_duration(self._operation).observe(perf_counter() - self._started)
        if isinstance(error, MaxConnectionsError):
            # A cluster node's pool is all lent out (it refuses at once rather
            # than waiting): this process's load, not a failure of Redis.
            raise StoreBusy(f"every connection to a Redis node is in use ({self._operation})") from error
        if isinstance(error, (RedisError, RedisClusterException, OSError)):
            store_errors(self._operation).inc()
            raise StorageError(_describe(error)) from error


def _describe(error: Exception) -> str:
    text = f"{type(error).__name__}: {error}"
    if "OOM command not allowed" in text:
        # At maxmemory with noeviction: reads go on, writes fail until memory frees.
        return f"Redis is full (maxmemory), writes refused: {text}"
    return text


# The store's Lua scripts, by the attribute that runs each on a connection.
_SCRIPTS = {**scripts.SCRIPTS, **bot_jobs.SCRIPTS}


class _Script(Protocol):
    """One of _SCRIPTS, run with its keys and arguments: answers what the script returns."""

    def __call__(self, keys: list[str], args: Sequence[object] = ()) -> Any: ...


class _Commands(ABC):
    """What the store sends commands through: a _ClusterConnection, or a _ConnectionPool lending _Connections.

    Each of _SCRIPTS is an attribute of that name, set when one is made.
    """

    create_game: _Script
    load_for_move: _Script
    commit_move: _Script
    record_answer: _Script
    release_key: _Script
    load_moves: _Script
    load_events: _Script
    count_request: _Script
    renew_revision: _Script
    bot_enqueue: _Script
    bot_take: _Script
    bot_reclaim: _Script
    bot_queued: _Script
    bot_adopt: _Script

    @abstractmethod
    def command(self, *args: Any) -> Any:
        """Send one command and return its answer."""

    @abstractmethod
    def close(self) -> None:
        """Close the connections."""


class _Connection(_Commands):
    """A single-connection redis-py client (standalone Redis), the store's scripts, and the fastest way to send it a command.

    Commands are sent straight on the client's connection: redis-py's
    per-command layer (retry wrapper, metrics and event hooks, locks) cost
    about as much CPU as the round trip itself. That layer adds nothing
    here: no retries are wanted, and the connection drops itself on any
    error mid-command, so the next command reconnects and never reads a
    stale answer.
    """

    def __init__(self, client: Redis, generation: int = 0):
        if client.connection is None:
            raise ValueError("a _Connection needs a single-connection client")
        self.client = client
        self._own: AbstractConnection = client.connection
        # The pool's generation (_ConnectionPool) when this connection's socket was last known new.
        self.generation = generation
        for name, source in _SCRIPTS.items():
            setattr(self, name, self._script(source))

    def readable(self) -> bool:
        """Whether its socket has something to read: an answer not read yet, or the server's close."""
        # redis-py keeps the socket in _sock (None while disconnected); the
        # look is one system call, no read: an answer found stays to be read.
        sock = self._own._sock
        return sock is not None and bool(_select([sock], [], [], 0)[0])

    def disconnect(self) -> None:
        """Close its socket: the next command connects anew."""
        self._own.disconnect()

    def command(self, *args: Any) -> Any:
        """Send one command and return its answer."""
        # hiredis packs the arguments as they are (str, bytes, int); redis-py's
        # packer first re-tuples and type-checks each one in Python. Health
        # checks are off in this client, as send_command would ask.
        self._own.send_packed_command([hiredis.pack_command(args)], check_health=False)
        return self._own.read_response()

    def _script(self, source: str) -> Callable[..., Any]:
        sha = _sha_of(source)

        def run(keys: list[str], args: Sequence[object] = ()) -> Any:
            try:
                return self.command("EVALSHA", sha, len(keys), *keys, *args)
            except NoScriptError:  # Redis restarted or was flushed: load it again
                self.command("SCRIPT", "LOAD", source)
                return self.command("EVALSHA", sha, len(keys), *keys, *args)

        return run

    def close(self) -> None:
        self.client.close()
        # A single-connection client only hands its connection back to redis-py's pool.
        self.client.connection_pool.disconnect()


def _sha_of(source: str) -> str:
    """The SHA1 that EVALSHA names a script by."""
    return hashlib.sha1(source.encode()).hexdigest()


# What a Redis Cluster answers when it refused a command before running it,
# as redis-py raises it: TRYAGAIN, MOVED and ASK past the redirects redis-py
# follows by itself ("TTL exhausted"), CLUSTERDOWN and MASTERDOWN (a
# failover), and a slot missing from the client's map. Each is safe to send
# again: nothing ran.
_REFUSED_UNRUN = (ClusterError, SlotNotCoveredError)
# The first pause before sending a refused command again, doubling up to the last.
_FIRST_PAUSE, _LAST_PAUSE = 0.005, 0.1


class _ClusterConnection(_Commands):
    """A RedisCluster client and the store's scripts: each command routed by its key's slot, refusals sent again.

    redis-py follows MOVED (updating its slot map) and ASK (with ASKING)
    within a call, and retries TRYAGAIN (16 tries in all), but gives up after
    about 0.4 s. A slot being resharded answers TRYAGAIN for as long as its
    keys take to MIGRATE to the new master: to a script whose keys are split
    between the two nodes, and to one that names a key neither holds yet (a
    new game, a new Idempotency-Key), until the slot's move completes. So a
    refused command is sent again, with growing pauses, for up to
    `patience` seconds: the operator's resharding shows as a slower move,
    not a 503. A timeout or a dropped connection is never sent again: the
    command may have run. (A move sent again would not be applied twice,
    its compare-and-set finds the version moved on, but it would be
    answered as if another client had moved first.)
    """

    def __init__(self, client: RedisCluster, patience: float):
        self.client = client
        self._patience = patience
        for name, source in _SCRIPTS.items():
            setattr(self, name, self._script(source))

    def command(self, *args: Any) -> Any:
        """Send one command to the node serving its key and return its answer."""
        return self._until_run(self.client.execute_command, *args)

    def _script(self, source: str) -> Callable[..., Any]:
        sha = _sha_of(source)

        def evalsha(keys: list[str], args: Sequence[object]) -> Any:
            try:
                return self.client.execute_command("EVALSHA", sha, len(keys), *keys, *args)
            except NoScriptError:
                # The node serving the slot never loaded it: a replica just
                # promoted (Redis 7 does not replicate the script cache), a
                # master added, a node restarted. Load it on every master.
                self.client.script_load(source)
                return self.client.execute_command("EVALSHA", sha, len(keys), *keys, *args)

        def run(keys: list[str], args: Sequence[object] = ()) -> Any:
            return self._until_run(evalsha, keys, args)

        return run

    def _until_run(self, call: Callable[..., Any], *args: Any) -> Any:
        deadline = perf_counter() + self._patience
        pause = _FIRST_PAUSE
        while True:
            try:
                return call(*args)
            except _REFUSED_UNRUN:
                if perf_counter() + pause > deadline:
                    raise
                # time.sleep looked up now, not bound at import: the arbiter
                # imports this module before gevent patches its workers, and
                # an unpatched sleep would stall every greenlet of the worker.
                time.sleep(pause)
                pause = min(pause * 2, _LAST_PAUSE)

    def close(self) -> None:
        self.client.close()
        # RedisCluster.close() leaves open the node pools that from_url
        # made (their clients do not own them): close those sockets too.
        for node in self.client.get_nodes():
            if node.redis_connection is not None:
                node.redis_connection.connection_pool.disconnect()


class _Waiter:
    """A borrower waiting for a connection to be handed to it."""

    __slots__ = ("connection", "handed")

    def __init__(self) -> None:
        self.connection: _Connection | None = None
        self.handed = threading.Event()


class _ConnectionPool(_Commands):
    """At most `size` single-connection clients, each lent out for one command.

    The same interface as _Connection (command, the scripts), so the store
    cannot tell them apart. While nobody waits, lending an idle connection
    is a list pop and giving it back an append, both atomic without a lock:
    a semaphore (a Python-level Condition under gevent's monkey-patching)
    would cost more than the command's own client work. A borrower that finds none idle takes the
    lock to open one more or, at `size`, queues up; connections given back
    then go to the queue in order, so nobody starves. The most recently
    returned connection goes out first, so a quiet worker keeps using one or two.

    A borrower that waited `wait` seconds in vain is told why: when a lent
    connection has its answer waiting unread, or waits to be taken by the
    borrower it was handed to (or is still being opened), Redis answers and
    the borrowers are waiting for this process's CPU (overload: StoreBusy,
    `503 overloaded`); when every lent connection waits for Redis, or one
    was lost meanwhile, Redis is not answering (a ConnectionError: a store
    error, `503 storage_unavailable`).

    No connection fails a command for having outlived its Redis:
    - one that Redis closed while it sat idle (Redis restarted: its close
      reaches every idle socket at once) is readable before it is lent, so it
      is reconnected instead of failing the next request on it;
    - after a command fails for its connection (lost, timed out), the pool
      moves to a new generation: every connection made before (its Redis
      may be gone or hung without closing anything) is reconnected when it
      is next lent, instead of each failing once in turn.
    The look is one system call (a zero-timeout select) per command lent.
    """

    def __init__(self, connect: Callable[[], Redis], size: int, wait: float):
        self._connect = connect
        self._size = size
        self._wait = wait
        self._idle: list[_Connection] = []
        self._opened: list[_Connection] = []
        self._opening = 0
        self._generation = 0
        # Connections handed to waiting borrowers that have not taken them yet.
        self._handed = 0
        self._lock = threading.Lock()
        self._waiters: deque[_Waiter] = deque()
        for name in _SCRIPTS:
            setattr(self, name, self._lending(name))

    def _borrow(self) -> _Connection:
        if not self._waiters:
            try:
                return self._current(self._idle.pop())
            except IndexError:
                pass
        return self._borrow_slowly()

    def _current(self, connection: _Connection) -> _Connection:
        """The connection, reconnected first if its socket may be one its Redis no longer answers."""
        if connection.generation != self._generation or connection.readable():
            # Readable while idle: no answer is pending on a connection given
            # back (redis-py drops it on any error mid-command), so it is the
            # server's close.
            connection.disconnect()
            connection.generation = self._generation
        return connection

    def _borrow_slowly(self) -> _Connection:
        waiter = _Waiter()
        with self._lock:
            # Queued before looking: a connection given back after the look
            # finds this borrower in the queue and is handed to it.
            self._waiters.append(waiter)
            if self._idle:
                self._waiters.remove(waiter)
                return self._current(self._idle.pop())
            may_open = len(self._opened) + self._opening < self._size
            if may_open:
                self._waiters.remove(waiter)
                self._opening += 1
        if may_open:
            return self._open()
        generation = self._generation
        waiter.handed.wait(self._wait)
        with self._lock:
            if waiter.connection is None:
                self._waiters.remove(waiter)
                raise self._why_none_came(generation)
            self._handed -= 1
        return self._current(waiter.connection)

    def _why_none_came(self, generation: int) -> Exception:
        """(Under the lock) what a borrower that waited in vain is told, the pool's generation having been `generation`."""
        # Redis answers when no connection was lost meanwhile and, of the
        # connections (all lent), one waits to be taken by the borrower it
        # was handed to, or holds its answer unread: the borrowers are
        # waiting for this process's CPU. One still being opened is given
        # the same benefit of the doubt: under a burst its connect waits
        # for the CPU too, and if Redis is the trouble its opener says so.
        busy = self._handed or self._opening or any(c.readable() for c in self._opened)
        if generation == self._generation and busy:
            return StoreBusy(
                f"every Redis connection of this process stayed in use for {self._wait} s, "
                "Redis answering: the process is behind"
            )
        return RedisConnectionError(f"no Redis connection came free within {self._wait} s")

    def _open(self) -> _Connection:
        """A new connection, in the place reserved for it (_opening)."""
        generation = self._generation
        try:
            # Connects here, outside the lock, bounded by the connect timeout.
            connection = _Connection(self._connect(), generation)
        except BaseException:
            # The place is free again. A borrower that queued meanwhile
            # waits out its `wait`: with Redis refusing connections it
            # would get a 503 anyway.
            with self._lock:
                self._opening -= 1
            raise
        with self._lock:
            self._opening -= 1
            self._opened.append(connection)
        return connection

    def _give_back(self, connection: _Connection) -> None:
        self._idle.append(connection)
        if self._waiters:
            with self._lock:
                while self._waiters and self._idle:
                    waiter = self._waiters.popleft()
                    waiter.connection = self._idle.pop()
                    self._handed += 1
                    waiter.handed.set()

    def _lost(self, connection: _Connection) -> None:
        """A command failed for its connection: the connections made before it are suspect."""
        with self._lock:
            self._generation += 1
            # redis-py closed this one's socket: its next is new.
            connection.generation = self._generation

    def command(self, *args: Any) -> Any:
        """Send one command on a free connection and return its answer."""
        connection = self._borrow()
        try:
            return connection.command(*args)
        except _CONNECTION_LOST:
            self._lost(connection)
            raise
        finally:
            self._give_back(connection)

    def _lending(self, name: str) -> Callable[..., Any]:
        def run(keys: list[str], args: Sequence[object] = ()) -> Any:
            connection = self._borrow()
            try:
                return getattr(connection, name)(keys, args)
            except _CONNECTION_LOST:
                self._lost(connection)
                raise
            finally:
                self._give_back(connection)

        return run

    def close(self) -> None:
        opened, self._opened, self._idle = self._opened, [], []
        for connection in opened:
            connection.close()


class RedisGameStore(GameStore):
    """Games in Redis under `<prefix>{<game_id>}:...` keys, expiring `ttl_seconds` after the last move."""

    def __init__(
        self,
        connect: Callable[[], _Commands],
        *,
        prefix: str,
        ttl_seconds: int,
        subscribe: Callable[[], Any] | None = None,
    ):
        """`connect` makes what commands go through (a cluster client, or a pool), on first use;
        `subscribe` opens a pub/sub connection for the event wake-ups (wakeups.py)."""
        if ttl_seconds <= 0:
            raise ValueError(f"ttl_seconds must be positive, not {ttl_seconds}")
        self._connect = connect
        self._prefix = check_prefix(prefix)
        self._ttl_ms = int(ttl_seconds * 1000)  # PEXPIRE takes whole milliseconds
        self._lock = threading.Lock()
        self._connection: _Commands | None = None
        self.events_channel = f"{self._prefix}events"
        self.wakeups = Wakeups(subscribe, self.events_channel) if subscribe is not None else None

    def _redis(self) -> _Commands:
        # Made on first use: a cluster client must reach a node to learn the
        # slot map, and the app should start (and say 503) while Redis is down.
        connection = self._connection
        if connection is None:
            with self._lock:
                if self._connection is None:
                    self._connection = self._connect()
                connection = self._connection
        return connection

    def _keys(self, game_id: str) -> GameKeys:
        return GameKeys(self._prefix, game_id)

    def create_game(self, game_id: str, state: str, view: str) -> None:
        """Store a new game at version 1 and start the TTL of its keys."""
        keys = self._keys(game_id)
        with _StoreCall("create_game"):
            redis = self._redis()
            created = redis.create_game(
                keys=[keys.game, keys.moves, keys.events],
                args=[state, view, self._ttl_ms, _new_revision()],
            )
        if not created:
            raise ValueError(f"a game with id {game_id!r} already exists")

    def load_game(self, game_id: str) -> StoredGame | None:
        """The stored game, or None when there is none (one round trip)."""
        keys = self._keys(game_id)
        with _StoreCall("load_game"):
            version, revision, state = self._redis().command(
                "HMGET", keys.game, "version", "revision", "state"
            )
        if version is None:
            return None
        return StoredGame(int(version), state, revision or "")

    def load_view(self, game_id: str) -> tuple[int, str] | None:
        """(version, view) for the read path, or None (one round trip)."""
        keys = self._keys(game_id)
        with _StoreCall("load_view"):
            version, view = self._redis().command("HMGET", keys.game, "version", "view")
        if version is None:
            return None
        return int(version), view

    def load_for_move(
        self, game_id: str, idempotency_key: str | None, fingerprint: str | None
    ) -> tuple[StoredGame | None, IdempotencyRecord | None]:
        """Load the game and claim the idempotency key, atomically, in one round trip."""
        if idempotency_key is None:
            return self.load_game(game_id), None
        if fingerprint is None or "\n" in fingerprint:
            raise ValueError("claiming an idempotency key needs a one-line fingerprint")
        keys = self._keys(game_id)
        with _StoreCall("load_for_move"):
            redis = self._redis()
            found = redis.load_for_move(
                keys=[keys.game, keys.idempotency(idempotency_key)],
                args=[fingerprint, MARKER_TTL_MS],
            )
        if found is None:
            return None, None
        game = StoredGame(int(found[0]), found[2], found[1])
        if len(found) == 3:
            return game, None
        return game, _parse_record(found[3])

    def commit_move(
        self,
        game_id: str,
        expected_version: int,
        state: str,
        view: str,
        move: str,
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
        answer: str | None = None,
        *,
        expected_revision: str | None = None,
        event: NewEvent | None = None,
    ) -> CommitResult:
        """Compare-and-set on version (and revision): store the move and its event, or say what is stored now."""
        keys = self._keys(game_id)
        script_keys = [keys.game, keys.moves, keys.events]
        revision = _new_revision()
        args: list[Any] = [
            expected_version,
            # '*': any revision; '' is the revision of a game stored before they existed.
            "*" if expected_revision is None else expected_revision,
            revision,
            state,
            view,
            move,
            self._ttl_ms,
            event.data if event else "",
            (event.end or "") if event else "",
            FINISHED_EVENTS_TTL_MS if event and event.end else self._ttl_ms,
            self.events_channel,
            f"{game_id} {expected_version + 1}",
            EVENTS_MAXLEN,
        ]
        if idempotency_key is not None:
            if fingerprint is None or answer is None:
                raise ValueError("recording under an idempotency key needs fingerprint and answer")
            script_keys.append(keys.idempotency(idempotency_key))
            args += [RECORD_TTL_MS, _record(fingerprint, answer)]
        with _StoreCall("commit_move"):
            found = self._redis().commit_move(keys=script_keys, args=args)
        if found is None:
            return CommitResult()
        if found[0] == "moved":
            return CommitResult(current=StoredGame(int(found[1]), found[3], found[2]))
        return CommitResult(revision=revision)

    def renew_revision(self, game_id: str, version: int, revision: str) -> bool:
        """Give the game a new revision if it is still at `version` and `revision`; whether it did."""
        keys = self._keys(game_id)
        with _StoreCall("renew_revision"):
            renewed = self._redis().renew_revision(
                keys=[keys.game], args=[version, revision, _new_revision()]
            )
        return bool(renewed)

    def record_answer(self, game_id: str, idempotency_key: str, fingerprint: str, answer: str) -> None:
        """Record a refusal under the key for 24 h; nothing when the game is gone."""
        keys = self._keys(game_id)
        with _StoreCall("record_answer"):
            redis = self._redis()
            redis.record_answer(
                keys=[keys.game, keys.idempotency(idempotency_key)],
                args=[_record(fingerprint, answer), RECORD_TTL_MS],
            )

    def release_key(self, game_id: str, idempotency_key: str) -> None:
        """Drop the in-progress marker of a request that ended without a recorded answer."""
        keys = self._keys(game_id)
        with _StoreCall("release_key"):
            redis = self._redis()
            redis.release_key(keys=[keys.idempotency(idempotency_key)])

    def load_moves(self, game_id: str, start: int = 0, stop: int = -1) -> tuple[int, list[str]] | None:
        """(version, history slice as LRANGE gives it), consistent with each other, or None."""
        keys = self._keys(game_id)
        with _StoreCall("load_moves"):
            redis = self._redis()
            found = redis.load_moves(
                keys=[keys.game, keys.moves], args=[_list_index(start), _list_index(stop)]
            )
        if found is None:
            return None
        return int(found[0]), list(found[1])

    def load_events(self, game_id: str, after: int, count: int) -> EventSlice | None:
        """Up to `count` events after version `after`, with the game's version; None: no game."""
        keys = self._keys(game_id)
        with _StoreCall("load_events"):
            found = self._redis().load_events(keys=[keys.game, keys.events], args=[max(after, 0), count])
        if found is None:
            return None
        version, oldest, entries = found
        events = []
        for entry_id, fields in entries:
            values = dict(zip(fields[::2], fields[1::2]))
            events.append(StoredEvent(_entry_version(entry_id), values["data"], values.get("end")))
        return EventSlice(int(version), _entry_version(oldest) if oldest else None, events)

    def watch_events(self, game_id: str) -> EventWatch:
        """A watch woken by each commit on the game, in any process (wakeups.py)."""
        if self.wakeups is None:
            raise RuntimeError("this store was opened without event wake-ups")
        return self.wakeups.watch(game_id)

    def count_request(self, name: str, window_seconds: int) -> tuple[int, int]:
        """Count one request in the shared fixed window `name`: (count, ms left)."""
        with _StoreCall("count_request"):
            count, left = self._redis().count_request(
                keys=[f"{self._prefix}ratelimit:{name}"], args=[int(window_seconds * 1000)]
            )
        return int(count), int(left)

    def command(self, *args: Any) -> Any:
        """Send one command on the store's connections (StorageError when Redis does not answer)."""
        # By the command's name (BLPOP, ZREM ...): the bot queue's calls, from a fixed set.
        with _StoreCall(str(args[0]).lower()):
            return self._redis().command(*args)

    def script(self, name: str, keys: list[str], args: Sequence[object]) -> Any:
        """Run the store's script `name` (one of _SCRIPTS) on `keys` (StorageError when Redis does not answer)."""
        with _StoreCall(name):
            return getattr(self._redis(), name)(keys, args)

    def bot_jobs(self) -> BotJobs:
        """The bot job queue on this store's connections and key prefix (bot_jobs.py)."""
        return BotJobs(self.command, self.script, self._prefix)

    def ping(self) -> None:
        """Raise StorageError when the store does not answer."""
        with _StoreCall("ping"):
            self._redis().command("PING")

    def close(self) -> None:
        """Release the connections."""
        with self._lock:
            connection, self._connection = self._connection, None
        if self.wakeups is not None:
            self.wakeups.close()
        if connection is not None:
            with _StoreCall("close"):
                connection.close()


def open_store(
    url: str,
    *,
    cluster: bool = False,
    prefix: str = "patchwork:",
    ttl_seconds: int = 30 * 24 * 3600,
    timeout: float = 1.0,
    max_connections: int = 32,
) -> GameStore:
    """A store on the Redis at `url` (`redis://`, `rediss://`, `unix://`); `cluster`: one node of a Redis Cluster."""
    options: dict[str, Any] = {
        "decode_responses": True,
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        # No retries: a retry after a timeout would double the wait past 2 s.
        "retry": Retry(NoBackoff(), 0),
    }
    # The wake-up listener's connection waits for as long as nothing is
    # published: no socket timeout on its reads (it PINGs instead, wakeups.py).
    listening = dict(options, socket_timeout=None)
    if cluster:

        def connect_cluster() -> _ClusterConnection:
            # Each node's pool refuses (503) past max_connections rather than waiting.
            client = RedisCluster.from_url(url, max_connections=max_connections, **options)
            # Refusals are sent again for half the timeout, as a borrower waits
            # for a pooled connection: a request still ends well inside 2 s.
            return _ClusterConnection(client, patience=timeout / 2)

        def subscribe_cluster() -> Any:
            # Classic PUBLISH reaches every node of a cluster: subscribe on any
            # one that answers, learned afresh each time (the last may be gone).
            cluster_client = RedisCluster.from_url(url, **options)
            try:
                node = secrets.choice(cluster_client.get_primaries())
            finally:
                cluster_client.close()
            return Redis(host=node.host, port=node.port, **listening).pubsub()

        return RedisGameStore(
            connect_cluster, prefix=prefix, ttl_seconds=ttl_seconds, subscribe=subscribe_cluster
        )
    # from_url connects lazily, so building the pool up front cannot fail on a down Redis.
    redis_pool = ConnectionPool.from_url(url, **options)

    def connect_one() -> Redis:
        return Redis(connection_pool=redis_pool, single_connection_client=True)

    def connect_pool() -> _ConnectionPool:
        # Waiting for a free connection takes at most half the timeout, so a
        # request that then meets a hung Redis still ends well inside 2 s.
        return _ConnectionPool(connect_one, max_connections, wait=timeout / 2)

    def subscribe() -> Any:
        return Redis.from_url(url, **listening).pubsub()

    return RedisGameStore(connect_pool, prefix=prefix, ttl_seconds=ttl_seconds, subscribe=subscribe)


def store_from_settings(
    settings: Settings, *, max_connections: int | None = None, needed_by: str
) -> GameStore:
    """The store the settings name (REDIS_URL and the rest); ConfigError, naming `needed_by`, without one."""
    if not settings.redis_url:
        raise ConfigError(
            f"REDIS_URL is not set: {needed_by} needs a Redis (patchwork-service starts an "
            "embedded one and sets REDIS_URL for what it runs)"
        )
    return open_store(
        settings.redis_url,
        cluster=settings.redis_cluster,
        prefix=settings.key_prefix,
        ttl_seconds=settings.game_ttl_seconds,
        timeout=settings.redis_timeout,
        max_connections=settings.redis_max_connections if max_connections is None else max_connections,
    )
