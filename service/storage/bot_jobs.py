"""The queue of bot moves to make: two Redis Streams read by one consumer group of bot workers.

Why streams and not RQ or a list: a job read is not a job done. A worker
reads a job (XREADGROUP), and only after the bot's move is committed does it
acknowledge it (XACK, then XDEL: the stream holds only jobs not yet done).
A job whose worker died stays pending in the group, and any live worker
takes it over (XAUTOCLAIM) once it has been idle for `RECLAIM_IDLE_MS`. RQ
was considered: its keys span hash slots, which Redis Cluster refuses.

Every key here carries the hash tag `{bots}`, so the two streams and the
heartbeat live in one slot: one XREADGROUP reads both streams, on a cluster
too. (`bots` cannot be a game id: those are 22 characters.)

A job names a game and the version at which a bot will be in turn. It is
added *before* the commit that hands the bot its turn (service/games/play.py),
so no crash between the two can leave a bot's turn without a job; a job
whose commit then failed names a version the game never reaches, and the
worker drops it. A late or repeated job is harmless: the bot's move is
committed with the same compare-and-set on the version as any other move.

Games with a person in them go to their own stream, which a worker reads
ahead of the bot-vs-bot one: a person waits behind at most one bot-vs-bot
move per worker.

Workers refresh one heartbeat key (SET with a TTL) while their loop turns;
the web refuses bot games (503 bots_unavailable) while it is absent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .store import StorageError

GROUP = "bot-workers"
# A pending job idle this long belongs to a worker presumed dead: a live one
# finishes a job within think_ms (at most about a second) plus the short wait
# for its version, well inside this.
RECLAIM_IDLE_MS = 5_000
# How long the heartbeat key outlives the last beat.
HEARTBEAT_TTL_MS = 10_000


@dataclass(frozen=True, slots=True)
class BotJob:
    """A bot's move to make: in game `game_id` at `version` (None: an entry that was deleted)."""

    stream: str
    entry_id: str
    game_id: str | None
    version: int | None


def _job(stream: str, entry_id: str, fields: Any) -> BotJob:
    """A job from a stream entry, whichever shape the client gave its fields in."""
    if fields is None:  # XAUTOCLAIM on Redis 6.2 gives deleted entries as nil
        return BotJob(stream, entry_id, None, None)
    if not isinstance(fields, dict):  # a flat [field, value, ...] list
        fields = dict(zip(fields[::2], fields[1::2]))
    try:
        return BotJob(stream, entry_id, str(fields["game"]), int(fields["version"]))
    except (KeyError, ValueError):
        return BotJob(stream, entry_id, None, None)


class BotJobs:
    """The bot job streams and the workers' heartbeat under a key prefix.

    `command` sends one Redis command and returns its answer, raising
    StorageError when Redis does not answer (RedisGameStore.command).
    """

    def __init__(self, command: Callable[..., Any], prefix: str):
        self._command = command
        base = f"{prefix}{{bots}}:"
        # The stream read first: games with a person waiting.
        self.person_stream = base + "jobs:person"
        self.bots_stream = base + "jobs:bots"
        self.heartbeat_key = base + "alive"

    @property
    def streams(self) -> tuple[str, str]:
        """Both streams, the one read first first."""
        return self.person_stream, self.bots_stream

    # --- the web's side ---------------------------------------------------

    def enqueue(self, game_id: str, version: int, *, person_waiting: bool) -> None:
        """Add the job of the bot in turn at `version` (XADD: refused, like a move, when Redis is full)."""
        stream = self.person_stream if person_waiting else self.bots_stream
        self._command("XADD", stream, "*", "game", game_id, "version", version)

    def queued(self) -> int:
        """Jobs not done yet, in both streams (taken ones included: a done job is deleted)."""
        return sum(int(self._command("XLEN", stream)) for stream in self.streams)

    def workers_seen(self) -> bool:
        """Whether some bot worker's loop turned within the heartbeat's TTL."""
        return bool(self._command("EXISTS", self.heartbeat_key))

    # --- the workers' side ------------------------------------------------

    def beat(self, worker: str, ttl_ms: int = HEARTBEAT_TTL_MS) -> None:
        """Say a worker is alive for the next ttl_ms."""
        self._command("SET", self.heartbeat_key, worker, "PX", ttl_ms)

    def ensure_group(self) -> None:
        """Create the consumer group on both streams (and the streams), if not there yet.

        From id 0: jobs added before the group existed (a fresh Redis) are
        read too.
        """
        for stream in self.streams:
            try:
                self._command("XGROUP", "CREATE", stream, GROUP, "0", "MKSTREAM")
            except StorageError as err:
                if "BUSYGROUP" not in str(err):
                    raise

    def take(self, consumer: str, block_ms: int) -> list[BotJob]:
        """New jobs for `consumer`: at most one of each stream, the person stream's first.

        Waits up to block_ms when there are none. StorageError naming
        NOGROUP when the group is gone (Redis lost its data): ensure_group().
        """
        found = self._command(
            "XREADGROUP",
            "GROUP",
            GROUP,
            consumer,
            "COUNT",
            1,
            "BLOCK",
            block_ms,
            "STREAMS",
            *self.streams,
            ">",
            ">",
        )
        jobs = []
        for stream, entries in _by_stream(found):
            jobs += [_job(stream, entry_id, fields) for entry_id, fields in entries]
        jobs.sort(key=lambda job: self.streams.index(job.stream))
        return jobs

    def reclaim(self, consumer: str, min_idle_ms: int = RECLAIM_IDLE_MS, count: int = 10) -> list[BotJob]:
        """Jobs pending with another worker for at least min_idle_ms, now `consumer`'s; person jobs first."""
        jobs = []
        for stream in self.streams:
            found = self._command("XAUTOCLAIM", stream, GROUP, consumer, min_idle_ms, "0", "COUNT", count)
            jobs += [_job(stream, entry_id, fields) for entry_id, fields in found[1]]
        return jobs

    def done(self, job: BotJob) -> None:
        """Acknowledge the job and delete its entry: the streams keep only jobs not done."""
        self._command("XACK", job.stream, GROUP, job.entry_id)
        self._command("XDEL", job.stream, job.entry_id)


def _by_stream(found: Any) -> list[tuple[str, list]]:
    """XREADGROUP's answer as (stream, entries) pairs: a map under RESP3, pairs under RESP2, nil for none."""
    if isinstance(found, dict):
        return list(found.items())
    return [(stream, entries) for stream, entries in found or ()]
