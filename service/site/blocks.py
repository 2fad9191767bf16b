"""Blocks: a player keeps another from challenging it, and from meeting it in the lobby or by a seek.

A block is one-sided and silent: the blocked player's challenges to the
blocker are refused (`403 blocked`), its open games are left out of the
blocker's lobby listing, and no seek of either is paired with the other's
(lua/seek_post.lua reads both players' blocks in its atomic step: they live
in the seeks' slot, storage/challenges.py).
"""

from __future__ import annotations

from service.games.refusals import Refusal
from service.languages import Text
from service.storage.challenges import Blocks

from .lobby import Players
from .players import PlayerRecord


class TargetsSelf(Refusal):
    """A player named itself where another player is meant: a challenge, a block, its own open challenge."""

    code = "cannot_target_self"


class PlayerBlocks:
    """Blocking and unblocking players, and asking who blocks whom."""

    def __init__(self, blocks: Blocks, players: Players):
        self.store = blocks
        self.players = players

    def block(self, player: PlayerRecord, other_id: str) -> None:
        """`player` blocks the player `other_id` (PlayerNotFound when there is none); blocking twice is once."""
        if other_id == player.id:
            raise TargetsSelf(Text("You cannot block yourself."))
        self.players.get(other_id)
        self.store.block(player.id, other_id)

    def unblock(self, player: PlayerRecord, other_id: str) -> None:
        """`player` no longer blocks `other_id` (nothing to do when it did not)."""
        self.store.unblock(player.id, other_id)

    def blocked(self, player: PlayerRecord) -> list[str]:
        """The ids of the players `player` blocks, sorted."""
        return sorted(self.store.blocked(player.id))

    def blocks(self, player_id: str, other_id: str) -> bool:
        """Whether the player `player_id` blocks the player `other_id`."""
        return bool(player_id) and self.store.blocks(player_id, other_id)
