"""A player's blocks: POST and DELETE /players/me/blocks/{id}, GET /players/me/blocks (site/blocks.py)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint

from service.api.context import services
from service.api.incoming import bearer_token, check_headers
from service.api.responses import json_response
from service.games.jsontext import compact
from service.site.blocks import PlayerBlocks
from service.site.players import PlayerRecord

bp = Blueprint("blocks", __name__)


@bp.get("/players/me/blocks")
def list_blocks():
    """The ids of the players the bearer's player blocks."""
    check_headers("listBlocks")
    player = services().players.authenticate(bearer_token())
    return json_response(compact({"players": services().blocks.blocked(player)}))


@bp.post("/players/me/blocks/<player_id>")
def block_player(player_id: str):
    """Block a player: its challenges refused, its seeks and open games kept away."""
    return _changed("blockPlayer", lambda blocks, player: blocks.block(player, player_id))


@bp.delete("/players/me/blocks/<player_id>")
def unblock_player(player_id: str):
    """Unblock a player."""
    return _changed("unblockPlayer", lambda blocks, player: blocks.unblock(player, player_id))


def _changed(operation_id: str, change: Callable[[PlayerBlocks, PlayerRecord], None]):
    """Apply `change` for the bearer's player: the ids it blocks after it."""
    check_headers(operation_id)
    player = services().players.authenticate(bearer_token())
    blocks = services().blocks
    change(blocks, player)
    return json_response(compact({"players": blocks.blocked(player)}))
