"""Player identities (POST /players, GET /players/{id}, GET /players/me), and the lobby: listing open games and joining one."""

from __future__ import annotations

from flask import Blueprint

from service.games.jsontext import Fragment, compact

from ..context import services
from ..incoming import bearer_token, check_body, check_headers, read_json_object, read_query
from ..responses import json_response

bp = Blueprint("players", __name__)


@bp.post("/players")
def create_player():
    """A new identity: its profile and its token, shown this once."""
    body = read_json_object(required=True)
    check_body("createPlayer", body)
    player, token = services().players.create(body["name"])
    return json_response(
        compact({"player": player.profile(), "token": token}), 201, location=f"/players/{player.id}"
    )


@bp.get("/players/me")
def get_me():
    """The profile of the bearer token's player."""
    check_headers("getMe")
    return json_response(compact(services().players.authenticate(bearer_token()).profile()))


@bp.get("/players/<player_id>")
def get_player(player_id: str):
    """A player's public profile."""
    check_headers("getPlayer")
    return json_response(compact(services().players.get(player_id).profile()))


@bp.get("/games")
def list_games():
    """The lobby: listed games with an open seat, newest first, a page at a time."""
    check_headers("listGames")
    query = read_query("listGames")
    page = services().lobby.open_games(query.get("cursor"))
    return json_response(compact({"games": page.games, "next": page.next}))


@bp.post("/games/<game_id>/join")
def join_game(game_id: str):
    """Take the game's open seat: 201 with the game, the seat and its token, or 409 seat_taken."""
    body = read_json_object(required=False) or {}
    check_headers("joinGame")
    check_body("joinGame", body)
    joined = services().lobby.join(game_id, bearer_token(), body.get("name"))
    version = compact({"game": Fragment(joined.view), "seat": joined.seat, "token": joined.token})
    return json_response(version, 201, location=f"/games/{game_id}")
