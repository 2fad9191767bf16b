"""Seeks for quick pairing, beside the game store on the same Redis link (not part of its interface).

Every key is in one hash-tag slot, `<prefix>{seeks}:`, so that a pairing is
one script (lua/seek_post.lua) on one node, atomic on a Redis Cluster too:

- `{seeks}:pool:<pool>` and `{seeks}:expiry:<pool>`: sorted sets of the
  waiting seeks' ids by rating and by expiry (epoch ms, the store's clock),
  and `{seeks}:notes:<pool>`, a hash of each waiting seek's player, range
  and creation time, one of each per pool (the same clock and `rated`): a
  pairing reads only the notes of the seeks rated within the new one's
  range, and finds the oldest compatible however many wait;
- `{seeks}:player:<player id>`: sorted set of the player's waiting seeks'
  ids by expiry, across every pool, so that a player keeps at most so many
  waiting at once (SEEKS_PER_PLAYER, issue 36);
- `{seeks}:blocks:<player id>`: set of the players it blocks (written by
  challenges.Blocks): a pairing passes over a seek of a player either of
  the two blocks;
- `{seeks}:seek:<id>`: hash of one seek: player, rating, range, status
  (waiting, paired, cancelled, expired), the caller's text of it, and once
  paired the game id, its seat and the opponent. It stays readable KEEP_MS
  after the seek ends (GET /seeks/{id} then names the game).

Expired seeks leave the pool whenever a seek is posted to it, before any
pairing, so an expired seek is never paired; a cancelled one leaves it at
once (lua/seek_cancel.lua). The game a pairing names is created after it, in
the game's own slot, by the poster (site/seeks.py says how a crash between
the two is repaired).
"""

from __future__ import annotations

from dataclasses import dataclass

from .arguments import SeekArgs
from .connections import RedisLink

# How long a seek's hash stays readable after it ends.
KEEP_MS = 3600 * 1000


@dataclass(frozen=True, slots=True)
class StoredSeek:
    """One seek as stored."""

    id: str
    player: str
    rating: int
    range: int
    status: str
    created_ms: int
    expires_ms: int
    spec: str  # the caller's text: its clock and rated
    game: str | None = None
    seat: int | None = None
    opponent: str | None = None

    @classmethod
    def of(cls, fields: dict[str, str]) -> StoredSeek:
        return cls(
            id=fields["id"],
            player=fields["player"],
            rating=int(fields["rating"]),
            range=int(fields["range"]),
            status=fields["status"],
            created_ms=int(fields["created_ms"]),
            expires_ms=int(fields["expires_ms"]),
            spec=fields["spec"],
            game=fields.get("game"),
            seat=int(fields["seat"]) if "seat" in fields else None,
            opponent=fields.get("opponent"),
        )


@dataclass(frozen=True, slots=True)
class Pairing:
    """What posting a seek did: paired with `partner` (its id and player) into `game_id`, waiting until
    `expires_ms`, or refused (`refused_waiting`)."""

    partner: str | None = None
    partner_player: str | None = None
    expires_ms: int | None = None
    # Not made: the player already has this many seeks waiting, as many as it may.
    refused_waiting: int | None = None


class SeekPool:
    """The seeks under the link's key prefix."""

    def __init__(self, link: RedisLink):
        self._link = link
        self._base = f"{link.prefix}{{seeks}}:"

    def _seek(self, seek_id: str) -> str:
        return f"{self._base}seek:{seek_id}"

    def _player(self, player_id: str) -> str:
        return f"{self._base}player:{player_id}"

    def _blocks(self, player_id: str) -> str:
        """The set of the players `player_id` blocks (challenges.Blocks writes it, in this slot)."""
        return f"{self._base}blocks:{player_id}"

    def _pools(self, pool: str) -> list[str]:
        return [f"{self._base}pool:{pool}", f"{self._base}expiry:{pool}", f"{self._base}notes:{pool}"]

    def post(
        self,
        *,
        seek_id: str,
        pool: str,
        player_id: str,
        rating: int,
        rating_range: int,
        ttl_ms: int,
        game_id: str,
        spec: str,
        most_waiting: int,
    ) -> Pairing:
        """Pair the seek with the oldest compatible waiting one in `pool` (into `game_id`), or leave it waiting,
        unless the player already has `most_waiting` seeks waiting."""
        found = self._link.script(
            "seek_post",
            [*self._pools(pool), self._seek(seek_id), self._player(player_id), self._blocks(player_id)],
            list(
                SeekArgs(
                    seek_id=seek_id,
                    player_id=player_id,
                    seek_rating=rating,
                    seek_range=rating_range,
                    ttl_ms=ttl_ms,
                    game_id=game_id,
                    keep_ms=KEEP_MS,
                    seek_prefix=self._base + "seek:",
                    spec=spec,
                    most_waiting=most_waiting,
                    player_prefix=self._base + "player:",
                    blocks_prefix=self._base + "blocks:",
                )
            ),
        )
        if found[0] == "paired":
            return Pairing(partner=found[1], partner_player=found[2])
        if found[0] == "too_many":
            return Pairing(refused_waiting=int(found[1]))
        return Pairing(expires_ms=int(found[1]))

    def load(self, seek_id: str) -> StoredSeek | None:
        fields = self._link.command("seek_load", "HGETALL", self._seek(seek_id))
        return StoredSeek.of(fields) if fields else None

    def cancel(self, seek_id: str, pool: str, player_id: str) -> StoredSeek | None:
        """Cancel the player's seek if it still waits; the seek as it is after (None: there is none)."""
        found = self._link.script(
            "seek_cancel", [*self._pools(pool), self._seek(seek_id), self._player(player_id)], []
        )
        if not found:
            return None
        return StoredSeek.of(dict(zip(found[::2], found[1::2])))

    def waiting(self, pool: str) -> int:
        """How many seeks wait in `pool` (expired ones not yet dropped included)."""
        return int(self._link.command("seek_waiting", "ZCARD", self._pools(pool)[0]))
