"""The connections to Redis that the game store, the bot queue and the request counter share.

Every call is one command or one Lua script (scripts.py), timed for its
operation's histogram, with what redis-py raises made a StorageError
(RedisLink). redis-py retries nothing here: one attempt bounded by the
connect and socket timeouts keeps every call well inside the API's 2 s
promise even when Redis hangs instead of refusing, and a connection that
failed reconnects by itself once Redis is back.

On a standalone Redis each command takes a connection from a small bounded
pool of the store's own (LendingPool) and hands it back as soon as the
answer is read. Under gunicorn's gevent workers every request is a
greenlet, so a connection per thread would become a connect per request
and as many connections as open requests; the pool keeps a worker to a
fixed number. It is not redis-py's pool, whose checkout (a lock, and
polling the socket for stray data) cost about a fifth of each call: redis-py
drops a connection on any error in the middle of a command, so no stray
answer can be left on one for the next user. What it keeps of that poll is
one zero-timeout select per command, which finds the sockets a restarted
Redis closed before they fail a request (see LendingPool).

On a Redis Cluster each command goes to the node serving its key's slot
(ClusterCommands), and one refused before it ran is sent again.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Sequence
from time import perf_counter
from typing import Any

import hiredis
from gevent.monkey import get_original
from redis import Redis
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

from service.storage import scripts
from service.telemetry.metrics import store_duration, store_errors

from .keys import check_prefix
from .store import StorageError, StoreBusy

# The system's select, never gevent's: gevent's yields to other greenlets
# when a socket is ready, and a look at a socket must not wait for the CPU.
_select = get_original("select", "select")
# What a connection that Redis stopped answering or closed raises (redis-py
# has then closed its socket).
_CONNECTION_LOST = (RedisConnectionError, RedisTimeoutError, OSError)


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


class Commands(ABC):
    """What the store sends commands through: a ClusterCommands, or a LendingPool lending Connections."""

    @abstractmethod
    def command(self, *args: Any) -> Any:
        """Send one command and return its answer."""

    @abstractmethod
    def script(self, name: str, keys: list[str], args: Sequence[object]) -> Any:
        """Run the store's script lua/<name>.lua (scripts.py) on `keys` with `args`; what it returns."""

    @abstractmethod
    def close(self) -> None:
        """Close the connections."""


class Connection(Commands):
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
            raise ValueError("a Connection needs a single-connection client")
        self.client = client
        self._own: AbstractConnection = client.connection
        # The pool's generation (LendingPool) when this connection's socket was last known new.
        self.generation = generation

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

    def script(self, name: str, keys: list[str], args: Sequence[object]) -> Any:
        """Run the store's script `name` by its SHA, loading it first when this Redis lacks it."""
        source = scripts.script(name)
        try:
            return self.command("EVALSHA", source.sha, len(keys), *keys, *args)
        except NoScriptError:  # Redis restarted or was flushed: load it again
            self.command("SCRIPT", "LOAD", source.text)
            return self.command("EVALSHA", source.sha, len(keys), *keys, *args)

    def close(self) -> None:
        self.client.close()
        # A single-connection client only hands its connection back to redis-py's pool.
        self.client.connection_pool.disconnect()


# What a Redis Cluster answers when it refused a command before running it,
# as redis-py raises it: TRYAGAIN, MOVED and ASK past the redirects redis-py
# follows by itself ("TTL exhausted"), CLUSTERDOWN and MASTERDOWN (a
# failover), and a slot missing from the client's map. Each is safe to send
# again: nothing ran.
_REFUSED_UNRUN = (ClusterError, SlotNotCoveredError)
# The first pause before sending a refused command again, doubling up to the last.
_FIRST_PAUSE, _LAST_PAUSE = 0.005, 0.1


class ClusterCommands(Commands):
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

    def command(self, *args: Any) -> Any:
        """Send one command to the node serving its key and return its answer."""
        return self._until_run(self.client.execute_command, *args)

    def script(self, name: str, keys: list[str], args: Sequence[object]) -> Any:
        """Run the store's script `name` on the node serving its keys' slot, sent again while refused unrun."""
        return self._until_run(self._evalsha, scripts.script(name), keys, args)

    def _evalsha(self, source: scripts.Script, keys: list[str], args: Sequence[object]) -> Any:
        try:
            return self.client.execute_command("EVALSHA", source.sha, len(keys), *keys, *args)
        except NoScriptError:
            # The node serving the slot never loaded it: a replica just
            # promoted (Redis 7 does not replicate the script cache), a
            # master added, a node restarted. Load it on every master.
            self.client.script_load(source.text)
            return self.client.execute_command("EVALSHA", source.sha, len(keys), *keys, *args)

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
        self.connection: Connection | None = None
        self.handed = threading.Event()


class LendingPool(Commands):
    """At most `size` single-connection clients, each lent out for one command.

    The same interface as Connection (command, the scripts), so the store
    cannot tell them apart. While nobody waits, lending an idle connection
    is a list pop and giving it back an append, both atomic without a lock:
    a semaphore (a Python-level Condition under gevent's monkey-patching)
    would cost more than the command's own client work. A borrower that finds none idle takes the
    lock to open one more or, at `size`, queues up; connections given back
    then go to the queue in order, so nobody starves. The most recently
    returned connection goes out first, so a quiet worker keeps using one or two.

    A borrower that waited `wait` seconds in vain is told why: when a
    connection came back meanwhile (it had to wait behind other borrowers),
    a lent connection has its answer waiting unread, or one waits to be taken
    by the borrower it was handed to (or is still being opened), Redis
    answers and the borrowers are waiting for this process (overload:
    StoreBusy, `503 overloaded`); when no connection came back and every lent
    one waits for Redis, or one was lost meanwhile, Redis is not answering (a
    ConnectionError: a store error, `503 storage_unavailable`).

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
        self._idle: list[Connection] = []
        self._opened: list[Connection] = []
        self._opening = 0
        self._generation = 0
        # Commands that ended, so a borrower can tell whether Redis answered
        # anyone while it waited (a count, not a lock: only "did it change" matters).
        self._returned = 0
        # Connections handed to waiting borrowers that have not taken them yet.
        self._handed = 0
        self._lock = threading.Lock()
        self._waiters: deque[_Waiter] = deque()

    def _borrow(self) -> Connection:
        if not self._waiters:
            try:
                return self._current(self._idle.pop())
            except IndexError:
                pass
        return self._borrow_slowly()

    def _current(self, connection: Connection) -> Connection:
        """The connection, reconnected first if its socket may be one its Redis no longer answers."""
        if connection.generation != self._generation or connection.readable():
            # Readable while idle: no answer is pending on a connection given
            # back (redis-py drops it on any error mid-command), so it is the
            # server's close.
            connection.disconnect()
            connection.generation = self._generation
        return connection

    def _borrow_slowly(self) -> Connection:
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
        generation, returned = self._generation, self._returned
        waiter.handed.wait(self._wait)
        with self._lock:
            if waiter.connection is None:
                self._waiters.remove(waiter)
                raise self._why_none_came(generation, answered=self._returned != returned)
            self._handed -= 1
        return self._current(waiter.connection)

    def _why_none_came(self, generation: int, answered: bool) -> Exception:
        """(Under the lock) what a borrower that waited in vain is told.

        The pool's generation was `generation` when it began to wait, and
        `answered` says whether a command ended meanwhile.
        """
        # Redis answers when no connection was lost meanwhile and a command
        # ended while the borrower waited (it waited its turn behind other
        # borrowers: on a loaded machine Redis is slower, not gone), or, of
        # the connections (all lent), one waits to be taken by the borrower
        # it was handed to, or holds its answer unread: the borrowers are
        # waiting for this process's CPU. One still being opened is given
        # the same benefit of the doubt: under a burst its connect waits
        # for the CPU too, and if Redis is the trouble its opener says so.
        busy = answered or self._handed or self._opening or any(c.readable() for c in self._opened)
        if generation == self._generation and busy:
            return StoreBusy(
                f"every Redis connection of this process stayed in use for {self._wait} s, "
                "Redis answering: the process is behind"
            )
        return RedisConnectionError(f"no Redis connection came free within {self._wait} s")

    def _open(self) -> Connection:
        """A new connection, in the place reserved for it (_opening)."""
        generation = self._generation
        try:
            # Connects here, outside the lock, bounded by the connect timeout.
            connection = Connection(self._connect(), generation)
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

    def _give_back(self, connection: Connection) -> None:
        self._returned += 1
        self._idle.append(connection)
        if self._waiters:
            with self._lock:
                while self._waiters and self._idle:
                    waiter = self._waiters.popleft()
                    waiter.connection = self._idle.pop()
                    self._handed += 1
                    waiter.handed.set()

    def _lost(self, connection: Connection) -> None:
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

    def script(self, name: str, keys: list[str], args: Sequence[object]) -> Any:
        """Run the store's script `name` on a free connection and return its answer."""
        connection = self._borrow()
        try:
            return connection.script(name, keys, args)
        except _CONNECTION_LOST:
            self._lost(connection)
            raise
        finally:
            self._give_back(connection)

    def close(self) -> None:
        opened, self._opened, self._idle = self._opened, [], []
        for connection in opened:
            connection.close()


class RedisLink:
    """One Redis (or Cluster) under a key prefix, as the store, the bot queue and the counters call it.

    The connections are made on first use: a cluster client must reach a
    node to learn the slot map, and the app should start (and say 503)
    while Redis is down. Each call is timed under its operation's name and
    raises StorageError (StoreBusy) when Redis does not answer (_StoreCall).
    """

    def __init__(self, connect: Callable[[], Commands], prefix: str):
        """`connect` makes what commands go through (a cluster client, or a pool)."""
        self._connect = connect
        self.prefix = check_prefix(prefix)
        self._lock = threading.Lock()
        self._commands: Commands | None = None

    def _redis(self) -> Commands:
        commands = self._commands
        if commands is None:
            with self._lock:
                if self._commands is None:
                    self._commands = self._connect()
                commands = self._commands
        return commands

    def command(self, operation: str, *args: Any) -> Any:
        """Send one command, timed as `operation`, and return its answer."""
        with _StoreCall(operation):
            return self._redis().command(*args)

    def script(self, name: str, keys: list[str], args: Sequence[object] = ()) -> Any:
        """Run the script lua/<name>.lua on `keys` with `args`, timed under its name; what it returns."""
        with _StoreCall(name):
            return self._redis().script(name, keys, args)

    def close(self) -> None:
        """Close the connections (a later call opens new ones)."""
        with self._lock:
            commands, self._commands = self._commands, None
        if commands is not None:
            with _StoreCall("close"):
                commands.close()
