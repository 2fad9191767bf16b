"""A game's offers: `/games/{id}/rematch` and `/games/{id}/takeback`, asked, accepted, declined (site/offers.py)."""

from __future__ import annotations

from flask import Blueprint

from service.api.context import client_address, services
from service.api.idempotency import move_location
from service.api.incoming import bearer_token, check_headers, read_optional_body
from service.api.responses import json_response
from service.games.jsontext import Fragment, compact
from service.site.offers import REMATCH, TAKEBACK, Offered

bp = Blueprint("rematch", __name__)


def _offered(offered: Offered):
    """`202`: the offer that stands, for the other seat to answer."""
    return json_response(compact(offered.body()), 202)


@bp.post("/games/<game_id>/rematch")
def rematch_game(game_id: str):
    """Offer a rematch of a finished game, or accept the other seat's: the next game, seats swapped."""
    read_optional_body("rematchGame")
    token = bearer_token()
    answer = services().offers.rematch(game_id, token)
    if isinstance(answer, Offered):
        return _offered(answer)
    # The token the caller sent acts for its seat of the next game too (rematch.py): it is its own.
    text = compact({"game": Fragment(answer.view), "seat": answer.seat, "token": token})
    return json_response(text, 201 if answer.created else 200, location=f"/games/{answer.game_id}")


@bp.delete("/games/<game_id>/rematch")
def dismiss_rematch(game_id: str):
    """Withdraw one's rematch offer, or decline the other seat's."""
    check_headers("dismissRematch")
    return json_response(compact({"offer": services().offers.dismiss(game_id, bearer_token(), REMATCH)}))


@bp.post("/games/<game_id>/takeback")
def takeback_game(game_id: str):
    """Ask to take one's last turn back, or accept the other seat's asking: the game before that turn."""
    read_optional_body("takebackGame")
    answer = services().offers.takeback(game_id, bearer_token(), client_address())
    if isinstance(answer, Offered):
        return _offered(answer)
    return json_response(
        answer.view, 201, version=answer.version, location=move_location(game_id, answer.number)
    )


@bp.delete("/games/<game_id>/takeback")
def dismiss_takeback(game_id: str):
    """Withdraw one's takeback offer, or decline the other seat's."""
    check_headers("dismissTakeback")
    return json_response(compact({"offer": services().offers.dismiss(game_id, bearer_token(), TAKEBACK)}))
