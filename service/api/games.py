"""Creating a game, reading it, and listing its legal moves."""

from __future__ import annotations

import secrets

from flask import Blueprint

from service.engine import InvalidSetup, legal_moves, new_game

from .context import services
from .incoming import check_body, check_headers, read_json_object, read_query
from .jsontext import compact
from .legal_moves_view import legal_moves_text
from .problems import ApiProblem, invalid_request
from .records import GameRecord, could_be_game_id, create_record
from .responses import json_response, not_modified
from .schemas import game_view, load_create_game

bp = Blueprint("games", __name__)

MAX_SEED = 2**53 - 1


def game_not_found(game_id: str) -> ApiProblem:
    """404 for an id that names no game (unknown, or expired)."""
    return ApiProblem(404, "game_not_found", f"No game with id {game_id!r}.")


def check_game_id(game_id: str) -> None:
    """404 for an id the service never issues, before the store is asked.

    Such an id names no game, and could only trouble the store: a `}` in it
    would end the key's Redis Cluster hash tag early (CROSSSLOT). Its text
    is not repeated in the answer: it could be anything a client put there.
    """
    if not could_be_game_id(game_id):
        raise ApiProblem(404, "game_not_found",
                         "No game has this id: game ids are 22 characters from A-Z, a-z, 0-9, - and _.")


def load_record(game_id: str):
    """(stored version, GameRecord), or 404."""
    check_game_id(game_id)
    stored = services().store.load_game(game_id)
    if stored is None:
        raise game_not_found(game_id)
    return stored.version, GameRecord.decode(stored.state)


@bp.post("/games")
def create_game():
    body = read_json_object(required=False) or {}
    check_body("createGame", body)
    params = load_create_game(body)
    setup = params["setup"]
    if setup["seed"] is None and setup["patch_order"] is None:
        # Chosen here and reported in the game, so every game can be replayed.
        setup["seed"] = secrets.randbelow(MAX_SEED + 1)
    try:
        state = new_game(**setup)
    except InvalidSetup as err:
        raise invalid_request(str(err), [{"pointer": "/patch_order", "message": str(err)}]) from None
    record, tokens = create_record(state, params["names"])
    view = compact(game_view(record, 1))
    services().store.create_game(record.id, record.encode(), view)
    text = f'{{"game":{view},"tokens":{compact(tokens)}}}'
    return json_response(text, 201, version=1, location=f"/games/{record.id}")


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    check_headers("getGame")
    check_game_id(game_id)
    found = services().store.load_view(game_id)
    if found is None:
        raise game_not_found(game_id)
    version, view = found
    return not_modified(version) or json_response(view, version=version)


@bp.get("/games/<game_id>/legal-moves")
def list_legal_moves(game_id: str):
    check_headers("listLegalMoves")
    query = read_query("listLegalMoves")
    version, record = load_record(game_id)
    cached = not_modified(version)
    if cached is not None:
        return cached
    state = record.state
    moves = legal_moves(state, query.get("patch_id"))
    return json_response(legal_moves_text(version, state.turn, state.phase, moves), version=version)
