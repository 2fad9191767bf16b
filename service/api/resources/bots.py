"""GET /bots: the computer players on offer (their brains are service/bots, their moves made by bot workers)."""

from __future__ import annotations

from flask import Blueprint

from service.bots import LEVELS
from service.games.jsontext import compact

from ..responses import json_response

bp = Blueprint("bots", __name__)

_BOTS_TEXT = compact({"bots": [level.public() for level in LEVELS]})


@bp.get("/bots")
def list_bots():
    """The bot levels, weakest first."""
    return json_response(_BOTS_TEXT)
