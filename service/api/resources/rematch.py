"""POST /games/{id}/rematch: the next game of a finished one, seats swapped (site/rematch.py)."""

from __future__ import annotations

from flask import Blueprint

from service.api.context import services
from service.api.incoming import bearer_token, read_optional_body
from service.api.responses import json_response
from service.games.jsontext import Fragment, compact

bp = Blueprint("rematch", __name__)


@bp.post("/games/<game_id>/rematch")
def rematch_game(game_id: str):
    """The next game of a finished one, seats swapped: created by the first seat to ask, the same for the other."""
    read_optional_body("rematchGame")
    token = bearer_token()
    rematched = services().rematches.rematch(game_id, token)
    # The token the caller sent acts for its seat of the next game too (rematch.py): it is its own.
    text = compact({"game": Fragment(rematched.view), "seat": rematched.seat, "token": token})
    return json_response(text, 201 if rematched.created else 200, location=f"/games/{rematched.game_id}")
