"""Kept copies under real gunicorn: random games whose every request may reach any worker.

Two instances with two workers each, and every move on a new connection to
a random instance: a game's moves land on workers whose kept copy of it
(service/games/kept.py) is current or out of date at random. Every
answer must be the one the rules give on the game as stored: the same state
after a legal move, the same refusal for a move by the seat not in turn or
of a patch not in the market, never what an out-of-date copy would say.
"""

from __future__ import annotations

import os
import random
import signal
from collections import Counter

import requests
from prometheus_client.parser import text_string_to_metric_families

from service.engine import Buy, PlaceLeather, Placement, RuleError, apply_move, legal_moves, new_game
from tests.support.anu import anu_games, create_body, tokens
from tests.support.anu import request_body as anu_request_body
from tests.support.bot_workers import wait_for
from tests.support.history_check import assert_history_replays, assert_view_is_state
from tests.support.live_service import LiveService
from tests.support.patchwork_service import children
from tests.support.service_client import ServiceClient

GAMES = 3
# Problem status per rule error code, as docs/api-guide.md#errors gives them.
REFUSAL_STATUS = {
    "game_finished": 409,
    "not_your_turn": 409,
    "wrong_phase": 409,
    "patch_not_available": 422,
    "cannot_afford": 422,
    "does_not_fit": 422,
    "cell_occupied": 422,
}


def request_body(move) -> dict:
    if isinstance(move, Buy):
        p = move.placement
        return {
            "action": "buy",
            "patch_id": move.patch_id,
            "placement": {"row": p.row, "col": p.col, "rotation": p.rotation, "flipped": p.flipped},
        }
    if isinstance(move, PlaceLeather):
        return {"action": "place_leather", "row": move.row, "col": move.col}
    return {"action": "advance"}


def attempt(state, rng: random.Random) -> tuple[int, object]:
    """(seat, move): mostly a legal move, sometimes one by the wrong seat or of a patch not on offer."""
    legal = legal_moves(state)
    roll = rng.random()
    if roll < 0.15:
        return 1 - state.turn, rng.choice(legal)
    unavailable = [pid for pid in state.circle if pid not in state.market]
    if roll < 0.3 and unavailable:
        return state.turn, Buy(rng.choice(unavailable), Placement(0, 0, 0, False))
    return state.turn, rng.choice(legal)


def test_every_answer_is_the_stored_games_whichever_worker_kept_what(redis_url, tmp_path):
    rng = random.Random(2026)
    statuses: Counter[int] = Counter()
    with (
        LiveService(redis_url, tmp_path / "a.log") as first,
        LiveService(redis_url, tmp_path / "b.log") as second,
    ):
        urls = [first.url, second.url]
        for seed in range(GAMES):
            with ServiceClient(urls[0]) as setup:
                game_id, tokens = setup.create_game(seed)
            state = new_game(seed=seed)
            while not state.finished:
                seat, move = attempt(state, rng)
                with ServiceClient(rng.choice(urls)) as client:  # a new connection: any worker
                    resp = client.post(
                        f"/games/{game_id}/moves",
                        json=request_body(move),
                        headers={"Authorization": f"Bearer {tokens[seat]}"},
                    )
                statuses[resp.status_code] += 1
                try:
                    after = apply_move(state, move, seat)
                except RuleError as refused:
                    assert resp.status_code == REFUSAL_STATUS[refused.code], resp.text
                    assert resp.json()["code"] == refused.code
                    assert resp.headers["ETag"] == f'"{state.moves_played + 1}"'
                    continue
                assert resp.status_code == 201, resp.text
                state = after
                assert_view_is_state(resp.json(), state)
            with ServiceClient(urls[1]) as reader:
                assert_history_replays(reader, game_id)
    assert statuses[201] > 100 and statuses[409] > 10 and statuses[422] > 10, statuses


def _store_calls(url: str) -> Counter[str]:
    """Store calls the instance has made so far, by operation (its /metrics)."""
    text = requests.get(f"{url}/metrics", timeout=10).text
    return Counter(
        {
            sample.labels["operation"]: int(sample.value)
            for family in text_string_to_metric_families(text)
            for sample in family.samples
            if sample.name == "patchwork_store_call_duration_seconds_count"
        }
    )


def _client_of_worker(service: LiveService, stopped: int) -> ServiceClient:
    """A keep-alive connection that the worker other than `stopped` accepted (`stopped` held with SIGSTOP)."""
    client = ServiceClient(service.url)
    os.kill(stopped, signal.SIGSTOP)
    try:
        assert client.get("/healthz").status_code == 200
    finally:
        os.kill(stopped, signal.SIGCONT)
    return client


def test_the_workers_of_an_instance_share_their_copies_so_a_move_reads_no_game(redis_url, tmp_path):
    """Every move goes to the other worker than the last, and finds the copy that one stored."""
    game = anu_games()[3]
    moves = tokens(game["moves"])
    with LiveService(redis_url, tmp_path / "web.log", workers=2) as service:
        first, second = wait_for(
            lambda: len(found := children(service.process.pid)) == 2 and found, 10, "no two workers"
        )
        # Which worker accepts a connection is up to the kernel, and one may
        # take them all: each of these two is accepted while the other worker is stopped.
        clients = [_client_of_worker(service, second), _client_of_worker(service, first)]
        created = clients[0].post("/games", json=create_body(game)).json()
        game_id, seats, turn = created["game"]["id"], created["tokens"], created["game"]["turn"]
        before = _store_calls(service.url)
        for number, token in enumerate(moves):
            resp = clients[number % 2].post(
                f"/games/{game_id}/moves",
                json=anu_request_body(token),
                headers={"Authorization": f"Bearer {seats[turn]}"},
            )
            assert resp.status_code == 201, resp.text
            turn = resp.json()["turn"]
        calls = _store_calls(service.url) - before
        for client in clients:
            client.close()
    assert resp.json()["result"]["scores"] == game["final_scores"]
    # Only the first move reads the game (no worker had a copy yet); a copy
    # a move behind would cost a read, or a refused commit, at every move.
    assert calls["load_game"] == 1, calls
    assert calls["commit_move"] == len(moves), calls
