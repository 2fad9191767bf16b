"""Challenges and players' blocks, beside the game store on the same Redis link (not part of its interface).

A challenge is one hash, `<prefix>challenge:{<id>}` (a slot of its own):
`version`, `text` (the site's JSON of it, site/challenges.py) and `status`.
Every change to it (accepted, declined, withdrawn) is one compare-and-set
on that key (lua/challenge_swap.lua): the version the caller judged on must
still be the stored one, and the store's clock must still be before the
challenge's expiry. So accept, decline, withdraw and expiry race to exactly
one outcome on any instance, on a Redis Cluster too; the loser reads the
challenge again and is judged on what won.

Each player's pending challenges are listed from two sorted sets in the
player's own slot, scored by expiry: `challenges:{<player>}:out` (the ones
it made) and `challenges:{<player>}:in` (the ones made to it). They are
hints, like the lobby's index: the site checks each entry against its
challenge and drops the ones no longer pending. The outgoing set is also
what CHALLENGES_PER_PLAYER counts: a place is taken in it (one script,
lua/challenge_list.lua) before the challenge is written, so racing
requests of one player cannot pass the limit together.

A player's blocks are a set, `{seeks}:blocks:<player>` of the ids it
blocks, in the seeks' slot: the seek pairing (lua/seek_post.lua) reads
both players' sets inside its own atomic step, on a Cluster too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .connections import RedisLink


@dataclass(frozen=True, slots=True)
class StoredChallenge:
    """One challenge as stored: its version (1 when made, one more each change) and the site's text of it."""

    version: int
    text: str


@dataclass(frozen=True, slots=True)
class Swapped:
    """What a compare-and-set did: `stored` now (None: no such challenge); `done` when it wrote the new text;
    `late` when the store's clock had passed the deadline the change had to meet."""

    done: bool
    late: bool
    stored: StoredChallenge | None


class ChallengeBook:
    """The challenges and the players' lists of pending ones, under the link's key prefix."""

    def __init__(self, link: RedisLink):
        self._link = link
        self._base = f"{link.prefix}challenge:"
        self._lists = f"{link.prefix}challenges:"

    def _key(self, challenge_id: str) -> str:
        return f"{self._base}{{{challenge_id}}}"

    def _list(self, player_id: str, side: str) -> str:
        return f"{self._lists}{{{player_id}}}:{side}"

    def load(self, challenge_id: str) -> StoredChallenge | None:
        found = self._link.command("challenge_load", "HMGET", self._key(challenge_id), "version", "text")
        if not found or found[0] is None:
            return None
        return StoredChallenge(int(found[0]), found[1])

    def swap(
        self,
        challenge_id: str,
        expected_version: int,
        text: str,
        status: str,
        *,
        before_ms: int | None,
        keep_until_ms: int,
    ) -> Swapped:
        """Write `text` as the challenge's next version if it is still at `expected_version` (0: it must not
        exist yet) and, when `before_ms` is given, the store's clock is before it; kept until `keep_until_ms`."""
        found = self._link.script(
            "challenge_swap",
            [self._key(challenge_id)],
            [expected_version, text, status, "-" if before_ms is None else before_ms, keep_until_ms],
        )
        kind = found[0]
        if kind == "ok":
            return Swapped(True, False, StoredChallenge(int(found[1]), text))
        if kind == "absent":
            return Swapped(False, False, None)
        return Swapped(False, kind == "late", StoredChallenge(int(found[1]), found[2]))

    def reserve(self, player_id: str, challenge_id: str, until_ms: int, most: int) -> int | None:
        """Take a place among the player's pending outgoing challenges until `until_ms`: None when taken,
        else how many it holds already (as many as `most`: the challenge is not to be made)."""
        found = self._link.script(
            "challenge_list", [self._list(player_id, "out")], [challenge_id, until_ms, most]
        )
        return None if found == -1 else int(found)

    def listed(self, player_id: str, side: str, now_ms: int) -> list[str]:
        """The ids on the player's `side` list ("out" or "in") not yet expired at `now_ms` (the others are dropped)."""
        key = self._list(player_id, side)
        self._link.command("challenges_expire", "ZREMRANGEBYSCORE", key, "-inf", now_ms)
        return list(self._link.command("challenges_listed", "ZRANGE", key, 0, -1))

    def list_incoming(self, player_id: str, challenge_id: str, until_ms: int) -> None:
        """Put the challenge on the challenged player's list until `until_ms`; the set goes after its last."""
        self._link.script("challenge_list", [self._list(player_id, "in")], [challenge_id, until_ms, 0])

    def unlist(self, player_id: str, side: str, *challenge_ids: str) -> None:
        if challenge_ids:
            self._link.command("challenges_unlist", "ZREM", self._list(player_id, side), *challenge_ids)


class Blocks:
    """Which players each player blocks, in the seeks' slot (the module docstring says why)."""

    def __init__(self, link: RedisLink):
        self._link = link
        self.prefix = f"{link.prefix}{{seeks}}:blocks:"

    def key(self, player_id: str) -> str:
        return self.prefix + player_id

    def block(self, player_id: str, blocked_id: str) -> None:
        self._link.command("block_add", "SADD", self.key(player_id), blocked_id)

    def unblock(self, player_id: str, blocked_id: str) -> None:
        self._link.command("block_remove", "SREM", self.key(player_id), blocked_id)

    def blocked(self, player_id: str) -> set[str]:
        """The ids the player blocks."""
        return set(self._link.command("block_list", "SMEMBERS", self.key(player_id)))

    def blocks(self, player_id: str, other_id: str) -> bool:
        """Whether `player_id` blocks `other_id`."""
        return bool(self._link.command("block_check", "SISMEMBER", self.key(player_id), other_id))
