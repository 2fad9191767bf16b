"""The analysis queue and the analyses stored, beside the game store on the same Redis link.

`POST /games/{id}/analysis` asks for one (`request`: one job per game,
however often it is asked for); a bot worker takes a job only when no bot
move waits (`take`, with a lease on Redis's clock that the worker renews
as it goes: a worker killed -9 leaves its job to come back to the queue
when the lease ends), computes it
and stores it once (`store`: SET NX, so a job computed twice after a
takeover is still stored once). Every key carries the `{analysis}` hash
tag, so each script's keys share a slot on a Redis Cluster.
"""

from __future__ import annotations

from typing import Any

from .connections import RedisLink

# How long a taken analysis is its worker's without news: the worker renews
# the lease before each move it analyses (two searches of a bot move's
# budget), so a worker killed mid-analysis gives it up within this.
LEASE_MS = 10_000
# The answers of request().
DONE, PENDING, QUEUED = "done", "pending", "queued"


def _text(value: Any) -> str | None:
    return (
        None
        if value is None or value is False
        else value.decode()
        if isinstance(value, bytes)
        else str(value)
    )


class Analyses:
    """The queue of analyses to compute and the analyses computed, under the link's key prefix."""

    def __init__(self, link: RedisLink, ttl_seconds: int):
        self._link = link
        self.ttl_seconds = ttl_seconds
        base = f"{link.prefix}{{analysis}}:"
        self.queue_key = base + "queue"
        self.pending_key = base + "pending"
        self.taken_key = base + "taken"
        self.result_prefix = base + "result:"
        # Tests shorten it to see a takeover.
        self.lease_ms = LEASE_MS

    def _command(self, *args: Any) -> Any:
        # Timed by the command's name (GET, SREM ...), as bot_jobs.py's.
        return self._link.command(str(args[0]).lower(), *args)

    def request(self, game_id: str) -> str:
        """Queue the analysis of a game unless it is stored or queued: DONE, PENDING or QUEUED."""
        keys = [self.result_prefix + game_id, self.pending_key, self.queue_key]
        return str(_text(self._link.script("analysis_request", keys, [game_id])))

    def result(self, game_id: str) -> str | None:
        """The stored analysis (JSON), or None."""
        return _text(self._command("GET", self.result_prefix + game_id))

    def pending(self, game_id: str) -> bool:
        """Whether the game's analysis is queued or being computed."""
        return bool(self._command("SISMEMBER", self.pending_key, game_id))

    def take(self) -> str | None:
        """The game id of the next analysis to compute, leased to the caller; None when none waits."""
        return _text(self._link.script("analysis_take", [self.queue_key, self.taken_key], [self.lease_ms]))

    def renew(self, game_id: str) -> None:
        """Extend the caller's lease of a taken analysis (while it is still taken)."""
        self._link.script("analysis_renew", [self.taken_key], [game_id, self.lease_ms])

    def store(self, game_id: str, analysis: str) -> bool:
        """Store a computed analysis unless one is there, and end its job; whether this call stored it."""
        keys = [self.result_prefix + game_id, self.pending_key, self.taken_key]
        return bool(self._link.script("analysis_store", keys, [game_id, analysis, self.ttl_seconds]))

    def drop(self, game_id: str) -> None:
        """End a job that has nothing to compute (its game is gone)."""
        self._command("SREM", self.pending_key, game_id)
        self._command("ZREM", self.taken_key, game_id)
