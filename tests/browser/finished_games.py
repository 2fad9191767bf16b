"""Finished games for the browser tests to open: played over HTTP with random legal moves first, as a player coming back to one would find it."""

from __future__ import annotations

import random

from tests.support.service_client import ServiceClient, choose_move

# The worker analyses a whole game at 20 ms a search in seconds; a loaded machine gets room.
ANALYSIS_BOUND = 120
MOVES_BOUND = 300


def finished_game(base: str, seed: int, moves: int | None = None) -> tuple[str, list[str]]:
    """A game between Ann and Bob played with random legal moves: to its end, or `moves` of them and a resignation."""
    rng = random.Random(seed)
    with ServiceClient(base) as client:
        resp = client.post("/games", json={"seed": seed, "players": [{"name": "Ann"}, {"name": "Bob"}]})
        assert resp.status_code == 201, resp.text
        game_id, tokens = resp.json()["game"]["id"], resp.json()["tokens"]
        for _ in range(MOVES_BOUND if moves is None else moves):
            _, choice = choose_move(client, game_id, rng)
            if choice is None:
                break
            assert client.move(choice, tokens[choice.seat]).status_code == 201
        if moves is not None:
            resp = client.post(
                f"/games/{game_id}/resign", json={}, headers={"Authorization": f"Bearer {tokens[0]}"}
            )
            assert resp.status_code == 201, resp.text
        assert client.game(game_id)["status"] == "finished"
    return game_id, tokens
