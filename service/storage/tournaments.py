"""Tournaments beside the game store on the same Redis link: records, their event streams, their lists and due index.

A tournament's keys share one hash tag, `{t:<id>}`, so on a Redis Cluster
they live in one slot, apart from its games and players:
- `<prefix>tournament:{t:<id>}`: a hash, `version`, `text` (the site's JSON
  of it, site/tournaments.py), `status` and `last_event` (the id of its
  newest event);
- `<prefix>tournament:{t:<id>}:events`: its event stream (GET
  /tournaments/{id}/events), about MAX_EVENTS kept.

Every change is one compare-and-set on the hash (lua/tournament_swap.lua):
the version the caller judged on must still be the stored one, and the
change's events are appended to the stream in the same step, so a reader
never sees a change without its events, nor events of a change that lost.
An append PUBLISHes `t.<id>` on the game events' wake-up channel
(wakeups.py; a game id never holds a `.`).

The lists (`GET /tournaments?status=`) are sorted sets in a slot of their
own, `{tournaments}:<status>`, scored by the time they are read in; and the
due index, which tells the timekeepers when to look at a tournament (its
start, its next round, a check on a round being played), is a leased index
like the games' deadlines (deadlines.py), `{tournaments:due:<n>}`. Both are
hints kept beside the records, in other slots: the site checks each entry
against its tournament, and every change puts the entries it needs in place
before it writes (a crash in between leaves an entry too many, which is
dropped when read, never one missing).
"""

from __future__ import annotations

from dataclasses import dataclass

from .connections import RedisLink
from .deadlines import Deadlines
from .event_streams import StreamEvent, events_after
from .store import EventWatch
from .wakeups import Wakeups

# Events kept per tournament: a 512-player Swiss round's game ends, and some more.
MAX_EVENTS = 2000
# Finished (and cancelled) tournaments listed, the newest.
MAX_FINISHED = 1000
# Shards of the due index: tournaments are few next to games.
DUE_SHARDS = 2


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """One tournament as stored: its version (1 when made, one more each change), the site's text of it,
    and the id of its newest event ('': none yet)."""

    version: int
    text: str
    last_event: str = ""


@dataclass(frozen=True, slots=True)
class Swapped:
    """What a compare-and-set did: `done` when it wrote; `stored`: the tournament now (None: no such one)."""

    done: bool
    stored: StoredTournament | None


def _wake_name(tournament_id: str) -> str:
    return f"t.{tournament_id}"


class TournamentBook:
    """The tournaments, their streams, lists and due index under the link's key prefix."""

    def __init__(self, link: RedisLink, wakeups: Wakeups | None = None):
        self._link = link
        self._base = f"{link.prefix}tournament:"
        self._lists = f"{link.prefix}{{tournaments}}:"
        self._wakeups = wakeups
        self.due = Deadlines(link, name="tournaments:due", shards=DUE_SHARDS)

    def _key(self, tournament_id: str) -> str:
        return f"{self._base}{{t:{tournament_id}}}"

    def load(self, tournament_id: str) -> StoredTournament | None:
        found = self._link.command(
            "tournament_load", "HMGET", self._key(tournament_id), "version", "text", "last_event"
        )
        if not found or found[0] is None:
            return None
        return StoredTournament(int(found[0]), found[1], found[2] or "")

    def swap(
        self,
        tournament_id: str,
        expected_version: int,
        text: str,
        status: str,
        events: list[tuple[str, str]],
        *,
        keep_until_ms: int = 0,
    ) -> Swapped:
        """Write `text` as the next version if the tournament is still at `expected_version` (0: it must not
        exist yet), appending `events` ((kind, JSON text), in order) to its stream; kept until `keep_until_ms`
        (0: for good)."""
        key = self._key(tournament_id)
        channel = "" if self._wakeups is None else self._wakeups.channel
        args: list[object] = [
            expected_version,
            text,
            status,
            keep_until_ms,
            MAX_EVENTS,
            channel,
            f"{_wake_name(tournament_id)} 0",
        ]
        for kind, data in events:
            args += [kind, data]
        found = self._link.script("tournament_swap", [key, key + ":events"], args)
        kind = found[0]
        if kind == "ok":
            return Swapped(True, StoredTournament(int(found[1]), text, found[2] or ""))
        if kind == "absent":
            return Swapped(False, None)
        return Swapped(False, StoredTournament(int(found[1]), found[2]))

    def events_after(self, tournament_id: str, after: str | None, count: int) -> list[StreamEvent]:
        """Up to `count` events after the one with id `after` (None: the oldest kept on), oldest first."""
        return events_after(
            self._link, "tournament_events", self._key(tournament_id) + ":events", after, count
        )

    def oldest_event_id(self, tournament_id: str) -> str | None:
        """The id of the oldest event kept, or None when none is."""
        found = self._link.command(
            "tournament_oldest", "XRANGE", self._key(tournament_id) + ":events", "-", "+", "COUNT", 1
        )
        return found[0][0] if found else None

    def watch(self, tournament_id: str) -> EventWatch:
        """A watch woken by every event appended to the tournament's stream, in any process."""
        if self._wakeups is None:
            raise RuntimeError("this store was opened without event wake-ups")
        return self._wakeups.watch(_wake_name(tournament_id))

    # --- the lists ---------------------------------------------------------

    def list_key(self, status: str) -> str:
        return f"{self._lists}{status}"

    def index(self, tournament_id: str, status: str, score_ms: int) -> None:
        """List the tournament under `status`, scored `score_ms` (hints: a listing checks each); the
        finished list keeps its newest MAX_FINISHED."""
        key = self.list_key(status)
        self._link.command("tournaments_index", "ZADD", key, score_ms, tournament_id)
        if status == "finished":
            self._link.command("tournaments_trim", "ZREMRANGEBYRANK", key, 0, -MAX_FINISHED - 1)

    def unindex(self, tournament_id: str, status: str) -> None:
        self._link.command("tournaments_unindex", "ZREM", self.list_key(status), tournament_id)

    def newest(self, status: str, before_ms: int | None, count: int) -> list[tuple[str, int]]:
        """(id, score) of up to `count` entries of a list, highest score first, at or below `before_ms`."""
        top = "+inf" if before_ms is None else before_ms
        found = self._link.command(
            "tournaments_newest",
            "ZREVRANGEBYSCORE",
            self.list_key(status),
            top,
            "-inf",
            "WITHSCORES",
            "LIMIT",
            0,
            count,
        )
        return [(member, int(float(score))) for member, score in found]
