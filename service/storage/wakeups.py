"""Wake-ups for event readers: one Redis subscription per process, fanned out to its readers.

A game's events live in its own Redis Stream, written by the commit itself
(lua/commit_move.lua), which also PUBLISHes `<game id> <version>` on one
classic channel. Each process subscribes to that channel once, on one
connection of its own, and wakes the readers watching the game named;
readers then read the stream with short calls through the store, so a
waiting reader holds no store connection and no thread (under gevent a
waiting reader is a parked greenlet).

One classic channel rather than a channel per game: on a Redis Cluster
classic messages reach every node, so one subscription on any node hears
every game, where sharded channels would need a subscription per slot
owner. The messages may be lost (a reconnect, a node failing over): every
time the subscription is (re)made, and every time it is lost, every reader
is woken to re-read its stream from the last version it sent, so a lost
message delays nothing past the resubscription and loses nothing. A reader
woken while the store is down fails its read and ends (its client resumes
with Last-Event-ID).

The listener runs in a daemon thread started by the first watch in each
process: under gunicorn's gevent workers (threading monkey-patched) that is
a greenlet of the worker, never of the master, and never at import time.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .store import EventWatch

log = logging.getLogger(__name__)

# The listener PINGs its connection after this long without a message, and
# counts it lost when no answer came within as long again: a Redis that
# hangs (rather than refusing) is noticed within about twice this.
PING_SECONDS = 5.0
# Between attempts to subscribe again while Redis is down.
RESUBSCRIBE_SECONDS = 0.5
# After the messages that woke it, the listener waits this long before it
# waits on the connection again, so that under load the messages of many
# moves are read in one wake-up rather than one each (an event reaches its
# readers up to this much later).
GATHER_SECONDS = 0.005


# Every Wakeups of this process, for close_all_wakeups.
_ALL: weakref.WeakSet[Wakeups] = weakref.WeakSet()


def close_all_wakeups() -> None:
    """Wake every watch of this process for good (its readers end): the process is stopping.

    Called by the gunicorn worker when told to stop, so that open event
    streams end at once instead of holding the worker for its graceful timeout.
    """
    for wakeups in list(_ALL):
        wakeups.close()


class _Watch(EventWatch):
    __slots__ = ("_wakeups", "_woken", "game_id")

    def __init__(self, wakeups: Wakeups, game_id: str):
        self._wakeups = wakeups
        self.game_id = game_id
        self._woken = threading.Event()

    def wake(self) -> None:
        self._woken.set()

    def wait(self, timeout: float) -> bool:
        woken = self._woken.wait(timeout)
        # Cleared before the caller reads: a wake-up that comes during the
        # read sets it again, and the next wait returns at once.
        self._woken.clear()
        return woken

    @property
    def closing(self) -> bool:
        return self._wakeups.closing

    def close(self) -> None:
        self._wakeups.forget(self)


class Wakeups:
    """The process's subscription to the wake-up channel and the watches it wakes.

    `subscribe` opens a new pub/sub connection (redis-py PubSub) each time it
    is called; it must not time out reads (the listener waits on it for as
    long as nothing happens), and is checked with PINGs instead.
    """

    def __init__(self, subscribe: Callable[[], Any], channel: str, *, ping_seconds: float = PING_SECONDS):
        self._subscribe = subscribe
        self.channel = channel
        self._ping_seconds = ping_seconds
        self._lock = threading.Lock()
        self._watches: dict[str, set[_Watch]] = {}
        self._pid: int | None = None
        self.closing = False
        self.subscriptions = 0  # subscriptions made so far in this process (tests, logs)
        _ALL.add(self)

    def watch(self, game_id: str) -> _Watch:
        """A watch on `game_id`, woken on its wake-up messages; starts the listener if needed."""
        watch = _Watch(self, game_id)
        with self._lock:
            if self._pid != os.getpid():
                # First watch in this process (or in a child forked with a copy):
                # the listener thread of a parent does not exist here.
                self._pid = os.getpid()
                self._watches = {}
                threading.Thread(target=self._listen, name="event-wakeups", daemon=True).start()
            self._watches.setdefault(game_id, set()).add(watch)
        if self.closing:
            watch.wake()
        return watch

    def forget(self, watch: _Watch) -> None:
        with self._lock:
            watches = self._watches.get(watch.game_id)
            if watches is not None:
                watches.discard(watch)
                if not watches:
                    del self._watches[watch.game_id]

    @property
    def watching(self) -> int:
        """How many watches are open in this process."""
        with self._lock:
            return sum(len(watches) for watches in self._watches.values())

    def close(self) -> None:
        """Wake every watch for good: readers see `closing` and end (process shutdown)."""
        self.closing = True
        self._wake_all()

    def _wake_game(self, game_id: str) -> None:
        for watch in tuple(self._watches.get(game_id, ())):
            watch.wake()

    def _wake_all(self) -> None:
        with self._lock:
            watches = [watch for group in self._watches.values() for watch in group]
        for watch in watches:
            watch.wake()

    def _listen(self) -> None:
        while not self.closing:
            pubsub = None
            try:
                pubsub = self._subscribe()
                self._listen_on(pubsub)
            except (RedisError, OSError) as error:
                log.warning("event wake-ups lost (%s: %s); subscribing again", type(error).__name__, error)
            finally:
                if pubsub is not None:
                    try:
                        pubsub.close()
                    except (RedisError, OSError):
                        pass
            # Readers re-read now: those whose store is down end, the rest miss nothing.
            self._wake_all()
            time.sleep(RESUBSCRIBE_SECONDS)

    def _listen_on(self, pubsub: Any) -> None:
        pubsub.subscribe(self.channel)
        # Replies are read straight off the subscription's connection (RESP2:
        # [kind, channel, data]), each read waiting at most ping_seconds.
        # redis-py's get_message polled the socket before every read: that
        # cost each worker ~270 us of CPU per wake-up message, and every
        # worker of every instance hears every move (benchmarks/README.md).
        # After a wake-up, what else has arrived is read without waiting,
        # and the listener pauses GATHER_SECONDS so that under load its next
        # wake-up finds the messages of several moves.
        connection = pubsub.connection
        pinged = False
        while not self.closing:
            try:
                reply = connection.read_response(
                    timeout=self._ping_seconds, disconnect_on_error=False, push_request=True
                )
            except RedisTimeoutError:
                if pinged:
                    raise ConnectionError(f"no answer to PING within {self._ping_seconds:g} s") from None
                connection.send_command("PING")
                pinged = True
                continue
            pinged = False
            while reply is not None:
                self._heard(reply)
                try:
                    # What else has arrived, read without waiting (timeout=0:
                    # under gevent, without a switch either).
                    reply = connection.read_response(timeout=0, disconnect_on_error=False, push_request=True)
                except RedisTimeoutError:
                    reply = None
            time.sleep(GATHER_SECONDS)

    def _heard(self, reply: Any) -> None:
        kind = reply[0]
        if kind == "message":
            game_id, _, _version = reply[2].partition(" ")
            self._wake_game(game_id)
        elif kind == "subscribe":
            self.subscriptions += 1
            # Anything published while this process was not subscribed is
            # in the streams: every reader reads on from where it is.
            self._wake_all()
