"""GET /games/{id}/hint: the move a bot level would play for the seat in turn now.

Only levels whose catalogue entry says `hint` run inside a request: they
answer in milliseconds, where a searching level would hold a request for
its whole think time. A bot's move is a pure function of the position, the
level and the seed `service.bots.seed_for(game id, version)` gives, so the
hint is exactly the move that level would play here, and the answer for one
(game, version, level) never changes: each worker keeps the answers it gave
in a bounded LRU and asks the bot only once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import Blueprint

from service import bots
from service.api.context import services
from service.api.incoming import check_headers, read_query
from service.api.problems import from_refusal, invalid_request
from service.api.responses import json_response, not_modified
from service.engine import GameFinished, canonical_move
from service.games.jsontext import compact
from service.languages import Text

bp = Blueprint("hints", __name__)

DEFAULT_LEVEL = "greedy"
# Hint answers each worker keeps: a few hundred bytes each, so about 1 MB.
HINT_CACHE_SIZE = 4096


class HintCache:
    """The last `size` hint answers given, by (game id, version, level id)."""

    def __init__(self, size: int):
        self.size = size
        self._answers: OrderedDict[tuple[str, int, str], str] = OrderedDict()
        # Under a threaded worker another request could evict a key between
        # the lookup and the reordering; under gevent it costs nothing.
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, str]) -> str | None:
        with self._lock:
            answer = self._answers.get(key)
            if answer is not None:
                self._answers.move_to_end(key)
            return answer

    def put(self, key: tuple[str, int, str], answer: str) -> None:
        with self._lock:
            self._answers[key] = answer
            self._answers.move_to_end(key)
            while len(self._answers) > self.size:
                self._answers.popitem(last=False)


_HINTS = HintCache(HINT_CACHE_SIZE)


def _hint_level(level_id: str) -> bots.Level:
    """The level asked for, if it gives hints; else 400 naming the `level` parameter."""
    hint_levels = ", ".join(level.id for level in bots.LEVELS if level.hint)
    values = {"level": repr(level_id), "levels": hint_levels}
    try:
        level = bots.level(level_id)
    except bots.UnknownLevel:
        reason = Text("no bot level {level}; levels that give hints: {levels}", values)
    else:
        if level.hint:
            return level
        reason = Text(
            "level {level} thinks too long to answer inside a request; levels that give hints: {levels}",
            values,
        )
    raise invalid_request(
        Text("The query parameter level is not a hint level: {reason}.", {"reason": reason}),
        [{"parameter": "level", "message": reason}],
    )


@bp.get("/games/<game_id>/hint")
def get_hint(game_id: str):
    """The move `level` would play for the seat in turn, and the version it is for."""
    check_headers("getHint")
    level = _hint_level(read_query("getHint").get("level") or DEFAULT_LEVEL)
    game = services().play.load(game_id)
    state = game.record.state
    if state.finished:
        raise from_refusal(GameFinished("the game is finished: there is nothing to hint"))
    cached = not_modified(game.version)
    if cached is not None:
        return cached
    key = (game_id, game.version, level.id)
    answer = _HINTS.get(key)
    if answer is None:
        move = bots.choose_move(state, level.id, bots.seed_for(game_id, game.version))
        answer = compact({"move": canonical_move(move).to_json(), "version": game.version})
        _HINTS.put(key, answer)
    return json_response(answer, version=game.version)
