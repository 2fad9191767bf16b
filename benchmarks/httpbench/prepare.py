"""Making the games the benchmark reads and plays, over the service's own API."""

from __future__ import annotations

import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor

from .plans import CREATE_BODY, Game, ScriptedMove

JSON_HEADERS = {"Content-Type": "application/json"}


class ApiClient:
    """JSON calls to the service, one keep-alive connection per thread."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.local = threading.local()

    def call(self, method: str, path: str, body: str | None = None, headers=None) -> dict:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
        conn.request(method, path, body=body, headers={**JSON_HEADERS, **(headers or {})})
        resp = conn.getresponse()
        text = resp.read()
        if resp.status not in (200, 201):
            raise RuntimeError(f"{method} {path}: {resp.status} {text[:300]!r}")
        return json.loads(text)


def create_games(host: str, port: int, count: int, workers: int = 8, body: str = CREATE_BODY) -> list[Game]:
    """`count` fresh games made from the benchmark's patch order (`body`: the POST /games to make each)."""
    client = ApiClient(host, port)

    def create(_index: int) -> Game:
        answer = client.call("POST", "/games", body)
        return Game(answer["game"]["id"], tuple(answer["tokens"]))

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(create, range(count)))


def play(
    host: str, port: int, games: list[Game], script: list[ScriptedMove], moves: int, workers: int = 8
) -> None:
    """Play the first `moves` moves of the script on each game (for mid-game reads)."""
    client = ApiClient(host, port)

    def advance(game: Game) -> None:
        for step in script[:moves]:
            client.call(
                "POST",
                f"/games/{game.id}/moves",
                step.body,
                {"Authorization": f"Bearer {game.tokens[step.seat]}"},
            )

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(advance, games))
