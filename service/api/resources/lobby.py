"""The lobby: GET /games lists the games with an open seat, POST /games/{id}/join takes one (site/lobby.py)."""

from __future__ import annotations

from flask import Blueprint, request

from service.api.context import client_address, services
from service.api.idempotency import join_key
from service.api.incoming import bearer_token, check_body, check_headers, read_json_object, read_query
from service.api.responses import json_response
from service.api.schemas import load_join
from service.games.jsontext import Fragment, compact

from .watching import list_watched

bp = Blueprint("lobby", __name__)


@bp.get("/games")
def list_games():
    """The lobby: listed games with an open seat, newest first, a page at a time (games played: watching.py)."""
    check_headers("listGames")
    query = read_query("listGames")
    if query["status"] != "open":
        return list_watched(query)
    # With a player token, the games of the players it blocks are left out.
    token = bearer_token()
    hidden = (
        frozenset(services().blocks.blocked(services().players.authenticate(token))) if token else frozenset()
    )
    page = services().lobby.open_games(
        query.get("cursor"), query.get("player"), bool(query.get("rated", False)), hidden
    )
    return json_response(compact({"games": page.games, "next": page.next}))


@bp.post("/games/<game_id>/join")
def join_game(game_id: str):
    """Take the game's open seat: 201 with the game, the seat and its token (replayed for its Idempotency-Key), or 409 seat_taken."""
    body = read_json_object(required=False) or {}
    check_headers("joinGame")
    check_body("joinGame", body)
    token, key, name = bearer_token(), request.headers.get("Idempotency-Key"), load_join(body)
    lobby = services().lobby
    if key is None:
        joined = lobby.join(game_id, token, name, client=client_address())
    else:
        # A retry with the same key gets this answer again, the seat's token included.
        keyed, secret = join_key(token, key, body, client_address())
        joined = lobby.join_keyed(game_id, token, name, keyed, secret, client=client_address())
    version = compact({"game": Fragment(joined.view), "seat": joined.seat, "token": joined.token})
    return json_response(version, 201, location=f"/games/{game_id}")
