"""A finished game's analysis: asked for with POST, computed by the bot workers, read back as JSON or a chart.

The core (games/analysis.py) queues it once per game and
reads it; bot workers compute it only when no bot move waits
(service/botworker/analyst.py). The chart is drawn by service.pictures,
served like board.svg (nosniff, a CSP under which it runs nothing) and,
like board.svg, labelled in the request's language (Accept-Language,
declared by Content-Language and Vary).
"""

from __future__ import annotations

from flask import Blueprint, Response

from service.api.context import services
from service.api.incoming import check_headers
from service.api.languages import request_language, speaks
from service.api.responses import json_response
from service.games.jsontext import compact, parse
from service.pictures import analysis_svg

from .pictures import SVG_MIMETYPE, picture_response

bp = Blueprint("analysis", __name__)

# How soon a client polling a pending analysis should look again.
RETRY_AFTER_SECONDS = 2


def _location(game_id: str) -> str:
    return f"/games/{game_id}/analysis"


def _pending(game_id: str) -> Response:
    resp = json_response(compact({"status": "pending"}), 202, location=_location(game_id))
    resp.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return resp


@bp.post("/games/<game_id>/analysis")
def request_analysis(game_id: str):
    """Queue the analysis of a finished game (once per game): 202 and where to read it."""
    check_headers("requestAnalysis")
    services().analyses.request(game_id)
    return _pending(game_id)


@bp.get("/games/<game_id>/analysis")
def get_analysis(game_id: str):
    """The analysis: 200 once computed, 202 while it is."""
    check_headers("getAnalysis")
    found = services().analyses.result(game_id)
    return _pending(game_id) if found is None else json_response(found)


@bp.get("/games/<game_id>/analysis.svg")
def analysis_picture(game_id: str):
    """The analysis as a chart of the margin over the game: 200 once computed, 202 while it is."""
    check_headers("getAnalysisSvg")
    found = services().analyses.result(game_id)
    if found is None:
        return _pending(game_id)
    names = [player["name"] for player in parse(services().play.view(game_id).view)["players"]]
    language = request_language()
    return speaks(picture_response(analysis_svg(parse(found), names, language), SVG_MIMETYPE), language)
