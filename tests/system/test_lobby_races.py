"""Races of the lobby on two real instances, on a single Redis and on a Cluster (issue 20).

Join storms: ten joiners, on two gunicorn processes, for one open seat. One
wins, the nine others get `409 seat_taken`; the game shows the winner, the
winner's tokens play its seat, and the lobby no longer lists the game.
"""

from __future__ import annotations

from tests.support.concurrency import run_together
from tests.support.live_service import LiveService
from tests.support.service_client import ServiceClient

JOINERS = 10
GAMES = 3


def _env(backend) -> dict[str, str]:
    return {"REDIS_CLUSTER": "1"} if backend.cluster else {}


def test_ten_joiners_for_one_seat_on_two_instances_one_wins(backend, tmp_path):
    with (
        LiveService(backend.url, tmp_path / "a.log", env=_env(backend)) as first,
        LiveService(backend.url, tmp_path / "b.log", env=_env(backend)) as second,
    ):
        urls = [first.url, second.url]
        with ServiceClient(urls[0]) as setup:
            host = setup.post("/players", json={"name": "Host"}).json()
            tokens = [setup.post("/players", json={"name": f"J{n}"}).json()["token"] for n in range(JOINERS)]
            for _game in range(GAMES):
                resp = setup.post(
                    "/games",
                    json={"players": [{"name": "Host"}, {"open": True}]},
                    headers={"Authorization": f"Bearer {host['token']}"},
                )
                assert resp.status_code == 201, resp.text
                game_id = resp.json()["game"]["id"]

                def joiner(n: int, game_id=game_id):
                    with ServiceClient(urls[n % 2]) as mine:
                        # Half join as players, half by name alone.
                        if n % 2:
                            return n, mine.post(
                                f"/games/{game_id}/join", headers={"Authorization": f"Bearer {tokens[n]}"}
                            )
                        return n, mine.post(f"/games/{game_id}/join", json={"name": f"J{n}"})

                answers = run_together(JOINERS, joiner)
                won = [(n, resp) for n, resp in answers if resp.status_code == 201]
                assert len(won) == 1, [(n, resp.status_code, resp.text) for n, resp in answers]
                for _n, resp in answers:
                    if resp.status_code != 201:
                        assert resp.status_code == 409 and resp.json()["code"] == "seat_taken", resp.text
                winner, body = won[0][0], won[0][1].json()
                for url in urls:  # both instances see the one winner
                    with ServiceClient(url) as reader:
                        game = reader.game(game_id)
                        assert game["players"][1]["name"] == f"J{winner}"
                        assert game["players"][1]["open"] is False
                        seat = reader.get(
                            f"/games/{game_id}/seat", headers={"Authorization": f"Bearer {body['token']}"}
                        )
                        assert seat.json() == {"seat": 1}
                        lobby = reader.get("/games", params={"status": "open"}).json()
                        assert game_id not in [entry["id"] for entry in lobby["games"]]
                if winner % 2:
                    with ServiceClient(urls[0]) as reader:
                        seat = reader.get(
                            f"/games/{game_id}/seat", headers={"Authorization": f"Bearer {tokens[winner]}"}
                        )
                        assert seat.json() == {"seat": 1}


SEEKERS = 12


def test_a_seek_storm_on_two_instances_pairs_each_seek_exactly_once(backend, tmp_path):
    """Twelve players seek the same clock at once through two instances: six games, each seek in one."""
    with (
        LiveService(backend.url, tmp_path / "a.log", env=_env(backend)) as first,
        LiveService(backend.url, tmp_path / "b.log", env=_env(backend)) as second,
    ):
        urls = [first.url, second.url]
        with ServiceClient(urls[0]) as setup:
            players = [setup.post("/players", json={"name": f"S{n}"}).json() for n in range(SEEKERS)]

        def seeker(n: int):
            auth = {"Authorization": f"Bearer {players[n]['token']}"}
            with ServiceClient(urls[n % 2]) as mine:
                resp = mine.post("/seeks", json={"clock": {"initial_s": 180, "increment_s": 2}}, headers=auth)
                assert resp.status_code == 201, resp.text
                return resp.json()["seek"]

        posted = run_together(SEEKERS, seeker)
        # Every seek, read back, is paired: none is left waiting with a partner in the pool.
        seen = []
        for n, seek in enumerate(posted):
            auth = {"Authorization": f"Bearer {players[n]['token']}"}
            with ServiceClient(urls[(n + 1) % 2]) as reader:
                seen.append(reader.get(f"/seeks/{seek['id']}", headers=auth).json()["seek"])
        assert [s["status"] for s in seen] == ["paired"] * SEEKERS, seen
        games: dict[str, list[str]] = {}
        for n, seek in enumerate(seen):
            games.setdefault(seek["game"], []).append(players[n]["player"]["id"])
        assert len(games) == SEEKERS // 2 and all(len(ids) == 2 for ids in games.values())
        with ServiceClient(urls[0]) as reader:
            for game_id, ids in games.items():
                game = reader.game(game_id)
                assert sorted(p["player_id"] for p in game["players"]) == sorted(ids)
