"""Challenges: POST /challenges, GET /challenges/{id}, accept, decline, DELETE (withdraw), and the player's
pending ones (site/challenges.py)."""

from __future__ import annotations

from flask import Blueprint

from service.api.context import services
from service.api.incoming import bearer_token, check_body, check_headers, read_json_object, read_optional_body
from service.api.responses import json_response
from service.api.schemas import load_challenge, load_decline, load_join
from service.games.jsontext import Fragment, compact

bp = Blueprint("challenges", __name__)


@bp.post("/challenges")
def create_challenge():
    """Challenge a player (or whoever has the link): the pending challenge."""
    body = read_json_object(required=True)
    check_headers("createChallenge")
    check_body("createChallenge", body)
    player = services().players.authenticate(bearer_token())
    wanted = load_challenge(body)
    challenge = services().challenges.create(player, wanted.to, wanted.clock, wanted.rated, wanted.seat)
    return json_response(compact({"challenge": challenge}), 201, location=f"/challenges/{challenge['id']}")


@bp.get("/challenges/<challenge_id>")
def get_challenge(challenge_id: str):
    """A challenge as it stands: public, like the link that carries its id."""
    check_headers("getChallenge")
    return json_response(compact({"challenge": services().challenges.get(challenge_id)}))


@bp.post("/challenges/<challenge_id>/accept")
def accept_challenge(challenge_id: str):
    """Accept: the game it makes, the acceptor's seat and a token for it."""
    body = read_optional_body("acceptChallenge") or {}
    token = bearer_token()
    player = services().players.authenticate(token) if token is not None else None
    accepted = services().challenges.accept(challenge_id, player, load_join(body))
    # Asked again by its acceptor: the player token it sent acts for the seat.
    seat_token = accepted.token if accepted.token is not None else token
    text = compact({"game": Fragment(accepted.view), "seat": accepted.seat, "token": seat_token})
    return json_response(text, 201, location=f"/games/{accepted.game_id}")


@bp.post("/challenges/<challenge_id>/decline")
def decline_challenge(challenge_id: str):
    """Decline, with a reason the challenger is told."""
    body = read_optional_body("declineChallenge") or {}
    player = services().players.authenticate(bearer_token())
    challenge = services().challenges.decline(challenge_id, player, load_decline(body))
    return json_response(compact({"challenge": challenge}))


@bp.delete("/challenges/<challenge_id>")
def withdraw_challenge(challenge_id: str):
    """The challenger withdraws its challenge."""
    check_headers("withdrawChallenge")
    player = services().players.authenticate(bearer_token())
    return json_response(compact({"challenge": services().challenges.withdraw(challenge_id, player)}))


@bp.get("/players/me/challenges")
def my_challenges():
    """The player's pending challenges, incoming and outgoing."""
    check_headers("listMyChallenges")
    player = services().players.authenticate(bearer_token())
    return json_response(compact(services().challenges.pending(player)))
