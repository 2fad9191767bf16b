"""GET /bots: the computer players on offer (their brains are service/bots, their moves made by bot workers)."""

from __future__ import annotations

import json

from flask import Blueprint

from service.api.context import services
from service.api.languages import request_language, speaks
from service.api.responses import json_response
from service.bots import LEVELS
from service.games.jsontext import compact
from service.languages import LANGUAGES, translate
from service.storage import StorageError

bp = Blueprint("bots", __name__)

# Each language's list, made once: a level's description is a message of the catalogues
# (tools/messages.py reads them off LEVELS; the bots import nothing of the languages).
_LEVELS = {
    language: [{**level.public(), "description": translate(language, level.description)} for level in LEVELS]
    for language in LANGUAGES
}


@bp.get("/bots")
def list_bots():
    """The bot levels, weakest first, described in the request's language, and what a live bot worker measured (null without one)."""
    try:
        report = services().play.bot_jobs.last_report()
    except StorageError:
        # The levels need no store: only the measurement is missing then.
        report = None
    measured = None if report is None else json.loads(report)
    language = request_language()
    return speaks(json_response(compact({"bots": _LEVELS[language], "measured": measured})), language)
