"""Creating a game, reading it, its seats (which a token holds, naming one), and listing its legal moves."""

from __future__ import annotations

from flask import Blueprint

from service.api.context import client_address, services
from service.api.incoming import bearer_token, check_body, check_headers, read_json_object, read_query
from service.api.middleware.ratelimit import count_bot_game
from service.api.problems import invalid_request
from service.api.responses import json_response, not_modified
from service.api.schemas import load_create_game, load_name
from service.engine import InvalidSetup, legal_moves
from service.games.jsontext import Fragment, compact
from service.games.refusals import explained
from service.games.views import legal_moves_text

bp = Blueprint("games", __name__)


@bp.post("/games")
def create_game():
    """Set up a game from the body's options (all optional) and hand out the seat tokens."""
    body = read_json_object(required=False) or {}
    # Only the body says whether the game has a bot seat: counted here, not before the request.
    count_bot_game(body)
    check_body("createGame", body)
    params = load_create_game(body)
    token = bearer_token()
    # With a token, it is a player's (the creator's seat is tied to it): 401 if not.
    owner = services().players.authenticate(token) if token is not None else None
    try:
        created = services().lobby.create(
            params["names"],
            params["bots"],
            owner=owner,
            open_seats=params["open_seats"],
            listed=params["listed"],
            rated=params["rated"],
            client=client_address(),
            clock=params["clock"],
            **params["setup"],
        )
    except InvalidSetup as err:
        detail = explained(err)
        raise invalid_request(detail, [{"pointer": "/patch_order", "message": detail}]) from None
    text = compact({"game": Fragment(created.view), "tokens": created.tokens})
    return json_response(text, 201, version=1, location=f"/games/{created.game_id}")


@bp.get("/games/<game:game_id>")
def get_game(game_id: str):
    """The game as stored, or 304 while the client's copy is current."""
    check_headers("getGame")
    wanted = read_query("getGame").get("version")
    if wanted is not None:
        return _game_at(game_id, wanted)
    found = services().play.view(game_id)
    return not_modified(found.version, changed_in_place=found.changed_in_place) or json_response(
        found.view, version=found.version
    )


# A past version never changes: caches may keep it for good.
IMMUTABLE = "public, max-age=31536000, immutable"


def _game_at(game_id: str, version: int):
    """The game at `version` (GET /games/{id}?version=N), replayed when past."""
    current, found = services().play.view_at(game_id, version)
    resp = not_modified(version, changed_in_place=found.changed_in_place) or json_response(
        found.view, version=version
    )
    if version < current:
        resp.headers["Cache-Control"] = IMMUTABLE
    return resp


@bp.get("/games/<game_id>/seat")
def get_seat(game_id: str):
    """The seat the bearer token plays (for a page opened from an invite link)."""
    check_headers("getSeat")
    seat = services().play.seat_of(game_id, bearer_token())
    return json_response(compact({"seat": seat}))


@bp.post("/games/<game_id>/seat")
def name_seat(game_id: str):
    """Name the bearer token's seat (the guest of an invite link chooses its own name): the seat and the game."""
    body = read_json_object(required=True)
    check_headers("nameSeat")
    check_body("nameSeat", body)
    named = services().seat_names.name(game_id, bearer_token(), load_name(body))
    return json_response(compact({"seat": named.seat, "game": Fragment(named.view)}))


@bp.get("/games/<game_id>/legal-moves")
def list_legal_moves(game_id: str):
    """Every legal move of the seat in turn, optionally of one patch."""
    check_headers("listLegalMoves")
    query = read_query("listLegalMoves")
    game = services().play.load(game_id)
    cached = not_modified(game.version)
    if cached is not None:
        return cached
    state = game.record.state
    moves = legal_moves(state, query.get("patch_id"))
    return json_response(legal_moves_text(game.version, state.turn, state.phase, moves), version=game.version)
