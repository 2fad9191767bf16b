"""The deadline index: which games' clocks run out when, for the timekeepers that apply timeouts.

Beside the game store, on the same Redis link. On a Redis Cluster a game's
keys and its index entry live in different slots, so no script can change
both: the index is a set of hints kept no later than each game's deadline,
and a timekeeper checks every hint against the game itself (the game hash
holds its deadline; the commit that applies a timeout checks it against
the store's clock, service/games/play.py). So:
- before each commit of a clocked game, the game's entry is lowered
  (`ZADD LT`) to the earliest its new deadline can be; a crash after it
  costs a timekeeper one look too early, never a late timeout;
- a timekeeper takes the due entries of a shard with a lease (the entry's
  score moves to the lease's end), looks at each game, and then removes the
  entry (game over), moves it to the game's actual deadline, or applies the
  timeout; a timekeeper that dies leaves its leases to end, and another
  takes the entries over.

A game that ends otherwise (played out, resigned) keeps its entry until it
comes due: the timekeeper then finds the game over and removes it. So the
index holds about one entry (some 60 bytes) per clocked game not yet looked
at past its last deadline.

The index is spread over `SHARDS` sorted sets, each its own hash tag
(`{deadlines:<n>}`), so on a cluster the load falls on several nodes, not
one hot key; a game always lands in the same shard. Any number of
timekeepers may poll them: the leases keep them from doing the same work,
and the game's compare-and-set applies each expiry exactly once.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from .connections import RedisLink

SHARDS = 8
# How long a taken entry is its timekeeper's: past it another takes it over.
# Short, so a timekeeper killed mid-work delays a timeout by about this much.
LEASE_MS = 1_000


@dataclass(frozen=True, slots=True)
class DueGame:
    """A game whose indexed deadline has come, leased to the caller until `leased_ms`."""

    game_id: str
    leased_ms: int


class Deadlines:
    """The deadline index under the link's key prefix."""

    def __init__(self, link: RedisLink, *, name: str = "deadlines", shards: int = SHARDS):
        """`name` and `shards`: another index of the same kind (the tournaments' due index)."""
        self._link = link
        self.shards = [f"{link.prefix}{{{name}:{n}}}" for n in range(shards)]

    def shard_of(self, game_id: str) -> str:
        """The shard the game's entry lives in, always the same."""
        return self.shards[zlib.crc32(game_id.encode()) % len(self.shards)]

    def schedule(self, game_id: str, at_ms: int) -> None:
        """Make sure the game is looked at by `at_ms` (an earlier entry stays)."""
        self._link.command("deadline_schedule", "ZADD", self.shard_of(game_id), "LT", at_ms, game_id)

    def take_due(self, shard: str, limit: int = 100) -> tuple[int, list[DueGame]]:
        """(the store's time now, up to `limit` games of `shard` due by then, leased to the caller)."""
        found = self._link.script("deadline_take", [shard], [LEASE_MS, limit])
        now = int(found[0])
        return now, [DueGame(found[i], int(found[i + 1])) for i in range(1, len(found), 2)]

    def settle(self, due: DueGame, next_ms: int | None) -> bool:
        """End the lease: look at the game again at `next_ms`, or never (None). False if a move re-scheduled it."""
        next_text = "" if next_ms is None else str(next_ms)
        return bool(
            self._link.script(
                "deadline_settle", [self.shard_of(due.game_id)], [due.game_id, due.leased_ms, next_text]
            )
        )

    def pending(self) -> int:
        """Games in the index (some may have ended since: the index holds hints)."""
        return sum(int(self._link.command("deadline_count", "ZCARD", shard)) for shard in self.shards)

    def indexed(self, game_id: str) -> int | None:
        """When the index says to look at the game next (None: it is not in the index)."""
        score = self._link.command("deadline_score", "ZSCORE", self.shard_of(game_id), game_id)
        return None if score is None else int(float(score))
