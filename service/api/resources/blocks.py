"""A player's blocks: POST and DELETE /players/me/blocks/{id}, GET /players/me/blocks (site/blocks.py)."""

from __future__ import annotations

from flask import Blueprint

from service.api.context import services
from service.api.incoming import bearer_token, check_headers
from service.api.responses import json_response
from service.games.jsontext import compact

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
    check_headers("blockPlayer")
    player = services().players.authenticate(bearer_token())
    blocks = services().blocks
    blocks.block(player, player_id)
    return json_response(compact({"players": blocks.blocked(player)}))


@bp.delete("/players/me/blocks/<player_id>")
def unblock_player(player_id: str):
    """Unblock a player."""
    check_headers("unblockPlayer")
    player = services().players.authenticate(bearer_token())
    blocks = services().blocks
    blocks.unblock(player, player_id)
    return json_response(compact({"players": blocks.blocked(player)}))
