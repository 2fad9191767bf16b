"""Ratings as players read them: GET /leaderboard, and the repair every read of a rating runs first."""

from __future__ import annotations

from flask import Blueprint

from service.api.context import services
from service.api.incoming import check_headers
from service.api.responses import json_response
from service.games import GameNotFound, GameRecord
from service.games.jsontext import compact

bp = Blueprint("leaderboard", __name__)


def repair_ratings() -> None:
    """Apply the rated games' settlements whose appliers died (site/rated_games.py) before ratings are read."""
    play = services().play

    def record_of(game_id: str) -> GameRecord | None:
        try:
            return play.load(game_id).record
        except GameNotFound:
            return None

    services().ratings.repair(record_of)


@bp.get("/leaderboard")
def get_leaderboard():
    """The top 100 players by rating with at least 5 rated games."""
    check_headers("getLeaderboard")
    repair_ratings()
    players = services().ratings.leaderboard()
    return json_response(compact({"players": [player.profile() for player in players]}))
