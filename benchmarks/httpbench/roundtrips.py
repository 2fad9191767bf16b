"""Counting the Redis round trips of a move with MONITOR (tests/redis_monitor.py)."""

from __future__ import annotations

from tests.redis_monitor import ClientCommands

from .plans import Game, ScriptedMove
from .prepare import ApiClient


def round_trips_per_move(
    redis_url: str, host: str, port: int, games: list[Game], script: list[ScriptedMove]
) -> tuple[float, float]:
    """App-issued Redis commands per move: (first move of a game, the rest).

    Each game is played whole, in order, on one keep-alive connection, so
    one worker makes all its moves: the first move reads the game and
    commits it; the others commit against the copy the worker kept. (A move
    whose previous one another worker made reads the game back from its
    refused commit: two round trips, as a first move.)
    """
    http = ApiClient(host, port)
    first = rest = 0
    with ClientCommands(redis_url) as commands:
        for game in games:
            for number, step in enumerate(script):
                http.call(
                    "POST",
                    f"/games/{game.id}/moves",
                    step.body,
                    {"Authorization": f"Bearer {game.tokens[step.seat]}"},
                )
                if number == 0:
                    first += commands.take()
            rest += commands.take()
    return first / len(games), rest / (len(games) * (len(script) - 1))
