"""Pictures over HTTP: a game's board as SVG or text, one patch as SVG.

The drawing is service.pictures' (pure functions of a Game view); this
module adds what HTTP needs: the game's ETag and 304, the content types,
and a Content-Security-Policy under which an SVG opened on its own can run
nothing and load nothing. A board's labels are in the request's language,
so its ETag names the language too ("12-es"; English keeps "12"): a cache
or a client's If-None-Match never takes one language's picture for
another's, compressed or not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from flask import Blueprint, Response

from service.api.context import services
from service.api.incoming import check_headers, read_query
from service.api.languages import language_tag, request_language, speaks
from service.api.problems import ApiProblem
from service.api.responses import copy_is_current
from service.engine import PATCHES
from service.games.jsontext import parse
from service.languages import DEFAULT_LANGUAGE, Text
from service.pictures import board_svg, board_text, patch_svg

bp = Blueprint("pictures", __name__)

SVG_MIMETYPE = "image/svg+xml"
TEXT_CONTENT_TYPE = "text/plain; charset=utf-8"
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"
# A patch's picture depends on nothing but its URL: cached for a day
# (not for ever: a new release may draw it better).
PATCH_CACHE_CONTROL = "public, max-age=86400"
# A patch id as its URL spells it: digits with no sign, leading zero or fraction.
_PATCH_ID = re.compile(r"[1-9][0-9]{0,2}")


def picture_response(body: str, content_type: str) -> Response:
    """A picture's answer: nosniff, and an SVG's CSP under which it runs and loads nothing."""
    resp = Response(body, content_type=content_type)
    resp.headers["X-Content-Type-Options"] = "nosniff"
    if content_type == SVG_MIMETYPE:
        resp.headers["Content-Security-Policy"] = SVG_CSP
    return resp


def _game_picture(game_id: str, operation_id: str, draw: Callable[[Mapping, str], str], content_type: str):
    check_headers(operation_id)
    found = services().play.view(game_id)
    language = request_language()
    tag = language_tag(found.version, language)
    # Drawn from the Game body: a copy is current as long as that body is.
    if copy_is_current(tag, changed_in_place=found.changed_in_place):
        resp = Response(status=304)
    else:
        resp = picture_response(draw(parse(found.view), language), content_type)
    resp.headers["ETag"] = f'"{tag}"'
    return speaks(resp, language)


@bp.get("/games/<game_id>/board.svg")
def board_picture(game_id: str):
    """The whole game as a standalone SVG document."""
    return _game_picture(game_id, "getBoardSvg", board_svg, SVG_MIMETYPE)


@bp.get("/games/<game_id>/board.txt")
def board_as_text(game_id: str):
    """The game as plain text for a terminal."""
    return _game_picture(game_id, "getBoardText", board_text, TEXT_CONTENT_TYPE)


@bp.get("/patches/<patch_id>.svg")
def patch_picture(patch_id: str):
    """One patch, turned and flipped as the query asks."""
    query = read_query("getPatchSvg")
    if _PATCH_ID.fullmatch(patch_id) is None or int(patch_id) not in PATCHES:
        raise ApiProblem.of(
            "not_found",
            Text("There is no patch {patch}: regular patches are 1 to 33.", {"patch": repr(patch_id)}),
        )
    # The language comes from the URL, not Accept-Language: the picture depends on its URL alone.
    language = query.get("lang", DEFAULT_LANGUAGE)
    drawn = patch_svg(int(patch_id), query.get("rotation", 0), query.get("flipped", False), language)
    resp = picture_response(drawn, SVG_MIMETYPE)
    resp.headers["Cache-Control"] = PATCH_CACHE_CONTROL
    resp.headers["Content-Language"] = language
    return resp
