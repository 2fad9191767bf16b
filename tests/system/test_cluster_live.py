"""The service under gunicorn with REDIS_CLUSTER=1 on a 3-master Redis Cluster.

Games are played over HTTP by concurrent clients; each game's keys all sit
on one master (its id is the hash tag), the games spread over more than one
master, and every game replays from its history to its stored state with no
acknowledged move lost.
"""

from __future__ import annotations

import re

from tests.support.history_check import assert_acks_in_history, assert_history_replays
from tests.support.live_service import LiveService
from tests.support.players import EXPECTED_STATUSES, BackgroundPlay
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.service_client import ServiceClient, wait_until_ready

GAMES = 12  # all on one master by chance: 3 * (1/3)**12, about 1 in 180,000
# A game's keys are tagged with its id (22 url-safe base64 characters); the
# others are the site's (its lists of games, under `{games}`) and the clients'
# (every POST /games counts against its creator's hourly limit).
GAME_KEY = re.compile(r"^patchwork:\{([A-Za-z0-9_-]{22})\}:")


def test_games_on_a_cluster_spread_over_masters_and_replay(tmp_path):
    with (
        ThrowawayCluster(tmp_path / "cluster") as cluster,
        LiveService(cluster.url, tmp_path / "service.log", env={"REDIS_CLUSTER": "1"}) as service,
    ):
        wait_until_ready(service.url)
        with ServiceClient(service.url) as setup:
            games = dict(setup.create_game(seed) for seed in range(300, 300 + GAMES))
        with BackgroundPlay(service.url, games, clients=3) as play:
            play.wait_until(lambda: play.ack_count() >= 24, "moves accepted on the cluster")
        assert set(play.statuses) <= EXPECTED_STATUSES - {503}, play.statuses
        with ServiceClient(service.url) as reader:
            stored = {game_id: assert_history_replays(reader, game_id) for game_id in games}
        assert_acks_in_history(play.acks, stored)

        masters_of: dict[str, set[int]] = {}
        for node in cluster.nodes:
            with node.client() as client:
                assert client.execute_command("ROLE")[0] == "master"
                for key in client.scan_iter("patchwork:*"):
                    if game_key := GAME_KEY.match(key):
                        masters_of.setdefault(game_key.group(1), set()).add(node.port)
        assert set(masters_of) == set(games)
        assert all(len(ports) == 1 for ports in masters_of.values()), "a game's keys on two masters"
        used = set().union(*masters_of.values())
        assert len(used) > 1, "every game landed on one master"
