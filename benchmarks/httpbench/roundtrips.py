"""Counting the Redis round trips of a move: with MONITOR (tests/support/redis_monitor.py), and under load from /metrics."""

from __future__ import annotations

import urllib.request

from tests.support.redis_monitor import ClientCommands

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


STORE_CALLS = 'patchwork_store_call_duration_seconds_count{operation="'


def store_calls(host: str, port: int) -> dict[str, float]:
    """Store calls made so far by the service's workers, by operation (its own /metrics)."""
    with urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=10) as resp:
        text = resp.read().decode()
    calls: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith(STORE_CALLS):
            operation, _, count = line[len(STORE_CALLS) :].partition('"} ')
            calls[operation] = float(count)
    return calls


def calls_per_answer(before: dict[str, float], after: dict[str, float], answers: int) -> dict[str, float]:
    """Store calls per answer between two `store_calls` readings, by operation (those made at all)."""
    return {
        operation: (count - before.get(operation, 0.0)) / answers
        for operation, count in sorted(after.items())
        if count > before.get(operation, 0.0)
    }
