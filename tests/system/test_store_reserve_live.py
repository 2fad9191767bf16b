"""Issue 36's finding 4 with real processes: near maxmemory, gunicorn refuses creations first; play goes on.

A client filled a 16 MB Redis with games and then every write of everyone
was `503 storage_unavailable`. Here the service runs as operators run it
(gunicorn, two workers) on a Redis given 4 MB of room and filled to 88 %
of it at once; games are created until one is refused, which must be
`503 store_nearly_full`, never `storage_unavailable`; then a game begun
before is played to its end.
"""

from __future__ import annotations

import requests

from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis
from tests.support.store_fill import play_out, squeeze


def test_a_nearly_full_store_refuses_new_games_first_and_plays_the_games_in_progress_to_their_end(tmp_path):
    with ThrowawayRedis(tmp_path / "redis") as redis:
        # Memory read on each creation rather than once a second: the first one inside the reserve is refused.
        env = {"STORE_RESERVE_CHECK_SECONDS": "0.001"}
        with LiveService(redis.url, tmp_path / "service.log", env=env) as service, redis.client() as node:
            created = requests.post(f"{service.url}/games", json={"seed": 1}, timeout=10).json()
            game_id, tokens = created["game"]["id"], created["tokens"]
            squeeze(node, 0.88)
            answers = []
            for _ in range(1000):  # 2 % of 5 MB at about 3 KB a game: a few dozen
                answers.append(requests.post(f"{service.url}/games", json={}, timeout=10))
                if answers[-1].status_code != 201:
                    break
            refused = answers[-1]
            assert len(answers) > 1 and all(r.status_code == 201 for r in answers[:-1])
            assert refused.status_code == 503 and refused.json()["code"] == "store_nearly_full"
            assert refused.headers["Retry-After"] == "60"

            def move(body: dict, seat: int) -> dict:
                resp = requests.post(
                    f"{service.url}/games/{game_id}/moves",
                    json=body,
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                    timeout=10,
                )
                assert resp.status_code == 201, resp.text
                return resp.json()

            first = requests.get(f"{service.url}/games/{game_id}", timeout=10).json()
            finished = play_out(first, move)
            assert finished["status"] == "finished" and finished["moves_played"] == 59
