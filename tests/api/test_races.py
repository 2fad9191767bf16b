"""Many threads, two app instances, one game: one winner per version, history intact."""

import json
import threading

from service.api import create_app
from service.engine import Advance, replay
from service.games import GameRecord
from tests.support.backends import make_settings


def _instances(redis_url, count=2):
    return [create_app(make_settings(redis_url)) for _ in range(count)]


def _run_together(count, target):
    """Start `count` threads running target(n) at the same moment; wait for all."""
    start = threading.Barrier(count)

    def run(n):
        start.wait()
        target(n)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)


def test_racing_moves_never_both_apply(redis_url, redis_server):
    apps = _instances(redis_url)
    created = apps[0].test_client().post("/games", json={"seed": 5}).get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]

    results = []
    lock = threading.Lock()

    def contender(n):
        client = apps[n % 2].test_client()
        for _ in range(6):
            game = client.get(f"/games/{game_id}").get_json()
            if game["status"] != "active":
                return
            seat, version = game["turn"], game["version"]
            resp = client.post(
                f"/games/{game_id}/moves",
                data=json.dumps({"action": "advance"}),
                content_type="application/json",
                headers={"Authorization": f"Bearer {tokens[seat]}", "If-Match": f'"{version}"'},
            )
            with lock:
                results.append((version, resp.status_code))

    _run_together(8, contender)

    wins = [v for v, status in results if status == 201]
    assert len(wins) == len(set(wins)), "two requests applied against the same version"
    assert all(status in (201, 412, 409) for _, status in results)
    assert any(status == 412 for _, status in results), "the threads never actually raced"

    final = apps[1].test_client().get(f"/games/{game_id}").get_json()
    assert final["version"] == 1 + len(wins) == 1 + final["moves_played"]
    _assert_history_replays_to_stored_state(redis_server, apps[0], game_id)


def test_racing_without_if_match_are_judged_against_the_new_state(redis_url, redis_server):
    apps = _instances(redis_url)
    created = apps[0].test_client().post("/games", json={"seed": 9}).get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]
    statuses = []
    lock = threading.Lock()

    def contender(n):
        client = apps[n % 2].test_client()
        resp = client.post(
            f"/games/{game_id}/moves",
            data=json.dumps({"action": "advance"}),
            content_type="application/json",
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        with lock:
            statuses.append(resp.status_code)

    _run_together(6, contender)
    # Seat 0 advances once (to 1); then seat 1 is behind, so every other try is not its turn.
    assert sorted(statuses) == [201] + [409] * 5
    _assert_history_replays_to_stored_state(redis_server, apps[0], game_id)


def _assert_history_replays_to_stored_state(redis_server, app, game_id):
    client = app.test_client()
    game = client.get(f"/games/{game_id}").get_json()
    moves = client.get(f"/games/{game_id}/moves").get_json()["moves"]
    assert [m["number"] for m in moves] == list(range(1, len(moves) + 1))
    stored = app.extensions["patchwork"].store.load_game(game_id)
    record = GameRecord.decode(stored.state)
    assert all(m["action"] == "advance" for m in moves)
    replayed = replay(
        [Advance() for _ in moves],
        seed=game["seed"],
        time_board=game["time_board"],
        first_player=game["first_player"],
    )
    assert replayed == record.state
