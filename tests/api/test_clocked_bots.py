"""Bots on a real-time clock under load: their moves overtake other games' thinking, and no more games start than the workers can serve.

The app runs in this process, a real bot worker process beside it, on a
single Redis and on a 3-master cluster (the `backend` fixture).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.api import create_app
from tests.support.bot_workers import BotWorkerProcess, wait_for

from .conftest import Table, checked_client_class

# Every level thinks 2 s in this worker: a `deep` move in hand lasts 1.9 s (its clock cap).
DEEP_THINK_MS = "2000"
# What a clocked `greedy` bot's turn may cost it at most here: its own moves
# take milliseconds, and the question "does a clocked job wait?" is asked
# every 20 ms inside the deep searches. Waiting for a deep move in hand
# would cost up to 1.9 s.
CLOCKED_TURN_BOUND_MS = 600
BOT_MOVE_BOUND = 15.0


@pytest.fixture
def busy_worker(backend, app, tmp_path) -> Iterator[BotWorkerProcess]:
    jobs = app.extensions["patchwork"].play.bot_jobs
    with BotWorkerProcess(
        backend.url, tmp_path / "worker.log", cluster=backend.cluster, think_ms=DEEP_THINK_MS
    ) as process:
        wait_for(jobs.workers_seen, 20, f"no heartbeat from the worker; its log:\n{process.log()}")
        yield process


def a_move_for(table: Table, game: dict) -> dict:
    """Advance, or the first legal move where advancing is not one (placing leather)."""
    if game["phase"] != "place_leather":
        return {"action": "advance"}
    move = table.legal()["moves"][0]
    move.get("placement", {}).pop("cells", None)  # legal moves show both forms; a request sends one
    return move


def test_a_clocked_bots_moves_overtake_a_busy_workers_deep_thinking_for_another_client(app, busy_worker):
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "198.51.100.2"
    for seed in (1, 2):
        Table(other, {"players": [{"name": "D", "bot": "deep"}, {"name": "E", "bot": "deep"}], "seed": seed})
    jobs = app.extensions["patchwork"].play.bot_jobs
    wait_for(lambda: jobs.taken() > 0, BOT_MOVE_BOUND, "the worker took no deep move")

    table = Table(
        app.test_client(),
        {
            "players": [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}],
            "first_player": 0,
            "seed": 7,
            "clock": {"initial_s": 60},
        },
    )
    game = table.game
    for _turn in range(4):
        game = table.play(a_move_for(table, game), seat=0)
        if game["status"] == "finished":
            break
        assert game["turn"] == 1 and game["clock"]["running"] == 1
        bank_before = game["clock"]["remaining_ms"][1]
        game = wait_for(
            lambda: (state := table.state())["turn"] != 1 and state,
            BOT_MOVE_BOUND,
            f"the clocked bot did not move; the worker's log:\n{busy_worker.log()}",
        )
        # The bot's bank is charged from the commit that handed it the turn to its last move's.
        spent = bank_before - game["clock"]["remaining_ms"][1]
        assert spent < CLOCKED_TURN_BOUND_MS, f"the clocked bot's turn cost it {spent} ms"
    assert game["status"] != "finished" or game["result"].get("reason") != "timeout"


def test_one_clocked_bot_game_more_than_the_live_workers_serve_is_503_bots_busy(backend, contract):
    app = create_app(backend.settings(bot_clocked_games_per_worker=1))
    app.test_client_class = checked_client_class(contract)
    jobs = app.extensions["patchwork"].play.bot_jobs
    jobs.beat("a test standing in for a worker")
    try:
        client = app.test_client()
        players = [{"name": "Ann"}, {"name": "Bot", "bot": "search"}]
        clocked = {"players": players, "clock": {"initial_s": 10}}
        first = Table(client, clocked)
        resp = client.post("/games", json=clocked)
        assert resp.status_code == 503
        assert resp.get_json()["code"] == "bots_busy"
        assert int(resp.headers["Retry-After"]) > 0
        # Bots on no clock or a correspondence clock, and clocked games between people, are not counted;
        # nor is a game whose other seat waits in the lobby (it counts from its first bot job, once joined).
        lobby = {"players": [players[1], {"open": True}], "clock": {"initial_s": 10}, "first_player": 1}
        assert client.post("/games", json=lobby).status_code == 201
        assert client.post("/games", json={"players": players}).status_code == 201
        assert (
            client.post("/games", json={"players": players, "clock": {"days_per_move": 1}}).status_code == 201
        )
        assert client.post("/games", json={"clock": {"initial_s": 10}}).status_code == 201
        # A second live worker makes room for a second clocked bot game, and only one.
        jobs.beat("a second worker")
        assert client.post("/games", json=clocked).status_code == 201
        assert client.post("/games", json=clocked).status_code == 503
        # A game that ends gives its place back at once.
        assert client.post(f"/games/{first.id}/resign", headers=first.auth(0)).status_code == 201
        assert client.post("/games", json=clocked).status_code == 201
    finally:
        app.extensions["patchwork"].store.close()
