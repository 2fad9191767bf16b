"""GET /bots: the computer players on offer (their brains are service/bots, their moves made by bot workers)."""

from __future__ import annotations

import json

from flask import Blueprint

from service.api.context import services
from service.api.responses import json_response
from service.bots import LEVELS
from service.games.jsontext import compact
from service.storage import StorageError

bp = Blueprint("bots", __name__)

_LEVELS = [level.public() for level in LEVELS]


@bp.get("/bots")
def list_bots():
    """The bot levels, weakest first, and what a live bot worker measured (null without one)."""
    try:
        report = services().play.bot_jobs.last_report()
    except StorageError:
        # The levels need no store: only the measurement is missing then.
        report = None
    measured = None if report is None else json.loads(report)
    return json_response(compact({"bots": _LEVELS, "measured": measured}))
