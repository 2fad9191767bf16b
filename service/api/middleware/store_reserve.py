"""The store reserve: new games, rematches, players, seeks and challenges are refused while Redis is nearly full.

Issue 36: one client filled a 16 MB Redis with open games in 13 s, and then
every write of everyone, the moves of games in progress included, was
`503 storage_unavailable`. Past `100 - STORE_RESERVE_PERCENT` % of
`maxmemory` (on any master of a Cluster: service/storage/memory.py), the
requests that make something new answer `503 store_nearly_full` before
they write anything; moves, resignations, joins and the timekeeper's
timeouts go on in the room left, until Redis is really full. With
`maxmemory 0` (no limit) the reserve never applies; STORE_RESERVE_PERCENT=0
turns it off.
"""

from __future__ import annotations

from flask import Flask, request

from service.api.problems import ApiProblem
from service.config import Settings
from service.languages import Text
from service.storage.memory import StoreMemory

# The requests that make something new for the store to keep.
CREATING_ENDPOINTS = frozenset(
    {
        "games.create_game",
        "records.import_game",
        "rematch.rematch_game",
        "players.create_player",
        "seeks.create_seek",
        "challenges.create_challenge",
        # An accepted challenge makes a game.
        "challenges.accept_challenge",
        # A tournament, and its early start, which makes its first round's games.
        "tournaments.create_tournament",
        "tournaments.start_tournament",
    }
)
CODE = "store_nearly_full"


def install_store_reserve(app: Flask, settings: Settings, memory: StoreMemory) -> None:
    """Refuse the creating requests with 503 store_nearly_full while the store is inside its reserve."""
    if settings.store_reserve_percent <= 0:
        return
    memory.max_age = settings.store_reserve_check_seconds
    threshold = 1 - settings.store_reserve_percent / 100

    @app.before_request
    def _check_store_reserve():
        creating = request.endpoint in CREATING_ENDPOINTS and request.method == "POST"
        if creating and memory.fullness() >= threshold:
            raise ApiProblem.of(
                CODE,
                Text(
                    "The store is nearly full: it keeps its last room for the games in progress, so "
                    "nothing new is made now."
                ),
            )
