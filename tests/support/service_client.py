"""A plain HTTP client of the running service, as a frontend would use it.

System tests drive gunicorn processes through this, from many threads (one
client per thread: a requests.Session is not meant to be shared), and keep
every move the service acknowledged with 201 to check against the history
later.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import requests

# Bounds every call, so a test thread can never hang on a stuck service.
REQUEST_TIMEOUT = 10.0


@dataclass(frozen=True)
class Choice:
    """A legal move picked at one version of a game, and the body to post for it."""

    game_id: str
    version: int
    seat: int
    move: dict  # as legal-moves lists it: how the history will show it
    body: dict  # as the client posts it


@dataclass(frozen=True)
class Ack:
    """A move the service acknowledged: 201, its ETag version and the Game it returned."""

    game_id: str
    seat: int
    move: dict  # as legal-moves listed it
    version: int  # from the ETag
    game: dict  # the Game body of the 201

    @classmethod
    def of(cls, choice: Choice, resp: requests.Response) -> Ack:
        assert resp.status_code == 201, resp.text
        return cls(choice.game_id, choice.seat, choice.move, version_of(resp), resp.json())


def version_of(resp: requests.Response) -> int:
    """The game version named by a response's strong ETag ("7" -> 7)."""
    return int(resp.headers["ETag"].strip('"'))


def as_request(move: dict, rng: random.Random) -> dict:
    """A listed legal move as a client sends it: a buy keeps one placement form, either one."""
    if move["action"] != "buy":
        return dict(move)
    placement = move["placement"]
    if rng.random() < 0.5:
        form = {"cells": placement["cells"]}
    else:
        form = {k: placement[k] for k in ("row", "col", "rotation", "flipped")}
    return {"action": "buy", "patch_id": move["patch_id"], "placement": form}


def choose_move(client: ServiceClient, game_id: str, rng: random.Random) -> tuple[int, Choice | None]:
    """(status of the legal-moves read, a random legal move of the seat in turn or None).

    None when the read failed or the game is over.
    """
    resp = client.get(f"/games/{game_id}/legal-moves")
    if resp.status_code != 200:
        return resp.status_code, None
    legal = resp.json()
    if not legal["moves"]:
        return resp.status_code, None
    move = rng.choice(legal["moves"])
    return resp.status_code, Choice(game_id, legal["version"], legal["turn"], move, as_request(move, rng))


class ServiceClient:
    """One keep-alive connection's worth of calls to the service at `base_url`."""

    def __init__(self, base_url: str):
        self.base_url = base_url.rstrip("/")
        self.session = requests.Session()

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> ServiceClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def get(self, path: str, **kwargs) -> requests.Response:
        return self.session.get(self.base_url + path, timeout=REQUEST_TIMEOUT, **kwargs)

    def post(self, path: str, **kwargs) -> requests.Response:
        return self.session.post(self.base_url + path, timeout=REQUEST_TIMEOUT, **kwargs)

    def create_game(self, seed: int) -> tuple[str, list[str]]:
        """A new game with this seed: (id, seat tokens)."""
        resp = self.post("/games", json={"seed": seed})
        assert resp.status_code == 201, resp.text
        created = resp.json()
        return created["game"]["id"], created["tokens"]

    def game(self, game_id: str) -> dict:
        resp = self.get(f"/games/{game_id}")
        assert resp.status_code == 200, resp.text
        return resp.json()

    def history(self, game_id: str) -> list[dict]:
        resp = self.get(f"/games/{game_id}/moves")
        assert resp.status_code == 200, resp.text
        return resp.json()["moves"]

    def move(
        self, choice: Choice, token: str, *, if_match: int | None = None, key: str | None = None
    ) -> requests.Response:
        """POST the chosen move with a seat token, optionally If-Match a version and an Idempotency-Key."""
        headers = {"Authorization": f"Bearer {token}"}
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        if key is not None:
            headers["Idempotency-Key"] = key
        return self.post(f"/games/{choice.game_id}/moves", json=choice.body, headers=headers)


def wait_until_ready(url: str, timeout: float = 10.0) -> None:
    """Poll /readyz until 200: the running service reaches its store (again)."""
    deadline = time.monotonic() + timeout
    with ServiceClient(url) as client:
        while client.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, f"not ready within {timeout} s"
            time.sleep(0.05)
