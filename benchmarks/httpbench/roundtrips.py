"""Counting the Redis round trips of a move with MONITOR.

MONITOR shows every command Redis runs; commands a Lua script issues are
marked as coming from "lua", so the others are the app's own round trips.
"""

from __future__ import annotations

import threading
import uuid

from redis import Redis

from .plans import Game, ScriptedMove
from .prepare import ApiClient


def round_trips_per_move(redis_url: str, host: str, port: int, games: list[Game],
                         script: list[ScriptedMove]) -> float:
    """App-issued Redis commands per move, over one script move on each game (sequential)."""
    marker = f"bench-end-{uuid.uuid4().hex}"
    counted: list[int] = []
    client = Redis.from_url(redis_url, decode_responses=True)
    monitor = client.monitor()
    listening = threading.Event()

    def listen() -> None:
        # MONITOR sends nothing until the first command after it starts; the
        # first PING comes from us, so counting starts after it.
        app_commands = 0
        listening.set()
        while True:
            command = monitor.next_command()
            if marker in command["command"]:
                counted.append(app_commands)
                return
            if command.get("client_type") != "lua" and not command["command"].startswith("PING"):
                app_commands += 1

    with monitor:
        reader = threading.Thread(target=listen, daemon=True)
        reader.start()
        listening.wait()
        http = ApiClient(host, port)
        step = script[0]
        for game in games:
            http.call("POST", f"/games/{game.id}/moves", step.body,
                      {"Authorization": f"Bearer {game.tokens[step.seat]}"})
        client.echo(marker)
        reader.join(timeout=10)
    client.close()
    if not counted:
        raise RuntimeError("MONITOR did not see the end marker")
    return counted[0] / len(games)
