"""Quick pairing: POST /seeks, GET /seeks/{id}, DELETE /seeks/{id} (site/seeks.py pairs them)."""

from __future__ import annotations

from flask import Blueprint

from service.api.context import services
from service.api.incoming import bearer_token, check_body, check_headers, read_json_object
from service.api.responses import json_response
from service.api.schemas import load_seek
from service.games.jsontext import compact

bp = Blueprint("seeks", __name__)


@bp.post("/seeks")
def create_seek():
    """Seek a game with a clock: paired at once with a compatible seek, or waiting for one."""
    body = read_json_object(required=True)
    check_headers("createSeek")
    check_body("createSeek", body)
    player = services().players.authenticate(bearer_token())
    wanted = load_seek(body)
    seek = services().seeks.post(player, wanted.clock, wanted.rated, wanted.rating_range)
    return json_response(compact({"seek": seek}), 201, location=f"/seeks/{seek['id']}")


@bp.get("/seeks/<seek_id>")
def get_seek(seek_id: str):
    """The player's seek: waiting, paired (with its game), cancelled or expired."""
    check_headers("getSeek")
    player = services().players.authenticate(bearer_token())
    return json_response(compact({"seek": services().seeks.get(player, seek_id)}))


@bp.delete("/seeks/<seek_id>")
def cancel_seek(seek_id: str):
    """Cancel the player's seek if it still waits; the seek as it is after."""
    check_headers("cancelSeek")
    player = services().players.authenticate(bearer_token())
    return json_response(compact({"seek": services().seeks.cancel(player, seek_id)}))
