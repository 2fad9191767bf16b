"""Games played on a live Redis Cluster while an operator changes it: slots resharded, a master failed over.

Two service instances (REDIS_CLUSTER=1) on one cluster, clients playing
through both, and the games they play all on the master the operator
touches. `reshard` moves every slot holding one of those games to another
master with the standard procedure (tests/support/redis_cluster.py); `fail_over`
makes that master's replica take over. Both report what the clients saw
and what the cluster answered, then check every acknowledged move against
the stored histories. The system tests assert on the report; `./dev bench
reshard` prints it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from redis.crc import key_slot

from tests.support.live_service import LiveService
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.redis_servers import Throwaway, ThrowawayRedis

from .history_check import acknowledged_in_history, assert_history_replays
from .players import BackgroundPlay
from .service_client import Ack, ServiceClient, wait_until_ready

# Errors a node answers while slots move or masters change (INFO errorstats).
REDIRECTS = ("ASK", "TRYAGAIN", "MOVED", "NOSCRIPT", "CLUSTERDOWN")


@dataclass
class Played:
    """What the clients saw and what the cluster answered while the operator worked."""

    change: str  # what the operator did
    seconds: float = 0.0  # how long it took
    slots: int = 0
    keys: int = 0
    games: int = 0  # played, all on the master that was changed
    moves_before: int = 0
    moves_during: int = 0  # acknowledged while the operator worked
    moves_after: int = 0
    statuses: Counter[int] = field(default_factory=Counter)  # every answer, reads too
    move_statuses: Counter[int] = field(default_factory=Counter)
    unavailable_without_retry_after: int = 0
    lost: list[Ack] = field(default_factory=list)  # acknowledged but not in the history as acknowledged
    unacknowledged: int = 0  # moves in the histories nobody got a 201 for
    redirects: Counter[str] = field(default_factory=Counter)  # answered by the nodes, by kind

    def lines(self) -> list[str]:
        """The figures, one per line, as `./dev bench reshard` prints them."""
        return [
            f"{self.change}: {self.seconds:.2f} s, {self.slots} slots, {self.keys} keys moved",
            f"  games played on the changed master: {self.games}",
            f"  moves acknowledged: {self.moves_before} before, {self.moves_during} during, "
            f"{self.moves_after} after",
            f"  move answers: {dict(sorted(self.move_statuses.items()))}",
            f"  all answers: {dict(sorted(self.statuses.items()))}",
            f"  503 without Retry-After: {self.unavailable_without_retry_after}",
            f"  acknowledged moves lost: {len(self.lost)}",
            f"  moves stored without a 201: {self.unacknowledged}",
            f"  redirects answered by the nodes: {dict(sorted(self.redirects.items()))}",
        ]


class ClusterPlay(Throwaway):
    """A cluster, two instances on it, and `games` games made through them."""

    def __init__(self, work_dir: Path, *, replicas: int = 0, games: int = 300):
        self._stack = ExitStack()
        self.cluster = ThrowawayCluster(work_dir / "cluster", replicas=replicas)
        self.services = [
            LiveService(self.cluster.url, work_dir / f"service-{name}.log", env={"REDIS_CLUSTER": "1"})
            for name in ("a", "b")
        ]
        self._game_count = games
        self.games: dict[str, list[str]] = {}

    def start(self) -> None:
        for part in (self.cluster, *self.services):
            self._stack.enter_context(part)
        for service in self.services:
            wait_until_ready(service.url)
        self.games = self._create(self._game_count)

    def close(self) -> None:
        self._stack.close()

    def _create(self, count: int) -> dict[str, list[str]]:
        def create(seed: int) -> tuple[str, list[str]]:
            with ServiceClient(self.services[seed % 2].url) as client:
                return client.create_game(seed)

        with ThreadPoolExecutor(max_workers=8) as pool:
            return dict(pool.map(create, range(count)))

    def busiest_master(self) -> tuple[ThrowawayRedis, dict[int, list[str]]]:
        """The master holding the most games, and its games by slot."""
        by_master: dict[int, dict[int, list[str]]] = {}
        for game_id in self.games:
            slot = key_slot(game_id.encode())  # the hash tag {<game id>} of every key of the game
            by_master.setdefault(self.cluster.owner_of(slot).port, {}).setdefault(slot, []).append(game_id)
        port = max(by_master, key=lambda port: sum(map(len, by_master[port].values())))
        return next(node for node in self.cluster.nodes if node.port == port), by_master[port]

    def redirect_counts(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for node in self.cluster.nodes:
            found = self.cluster.error_counts(node)
            counts.update({kind: found[kind] for kind in REDIRECTS if kind in found})
        return counts

    def play_while(
        self,
        games: list[str],
        change: Callable[[], tuple[str, int, int]],
        *,
        clients: int = 3,
        moves: int = 30,
    ) -> Played:
        """Clients play `games` through both instances: `moves` acknowledged, then `change()`, then `moves` more.

        `change` returns (what it did, slots, keys). The histories are then checked.
        """
        played = Played("", games=len(games))
        playing = {game_id: self.games[game_id] for game_id in games}
        redirects_before = self.redirect_counts()
        with ExitStack() as stack:
            plays = [
                stack.enter_context(
                    BackgroundPlay(service.url, playing, clients=clients, first=index * clients)
                )
                for index, service in enumerate(self.services)
            ]

            def acked() -> int:
                return sum(play.ack_count() for play in plays)

            plays[0].wait_until(lambda: acked() >= moves, "moves before the change", timeout=60)
            played.moves_before = acked()
            started = time.monotonic()
            played.change, played.slots, played.keys = change()
            played.seconds = time.monotonic() - started
            played.moves_during = acked() - played.moves_before
            after = acked()
            plays[0].wait_until(lambda: acked() >= after + moves, "moves after the change", timeout=60)
            for play in plays:
                play.stop()
        played.moves_after = acked() - after
        played.redirects = self.redirect_counts() - redirects_before
        for play in plays:
            played.statuses.update(play.statuses)
            played.move_statuses.update(play.move_statuses)
            played.unavailable_without_retry_after += play.unavailable_without_retry_after
        acks = [ack for play in plays for ack in play.acks]
        with ServiceClient(self.services[1].url) as reader:
            stored = {game_id: assert_history_replays(reader, game_id) for game_id in games}
        played.lost = [ack for ack in acks if not acknowledged_in_history(ack, stored[ack.game_id][1])]
        played.unacknowledged = sum(len(history) for _game, history in stored.values()) - len(acks)
        return played


def reshard(
    work_dir: Path, *, games: int = 300, at_once: int = 10, keys_per_batch: int = 2, pause: float = 0.005
) -> Played:
    """Every slot holding a game of the busiest master moved to another master while those games are played."""
    with ClusterPlay(work_dir, games=games) as setup:
        source, slots = setup.busiest_master()
        target = next(node for node in setup.cluster.masters() if node is not source)

        def move() -> tuple[str, int, int]:
            done = setup.cluster.move_slots(
                sorted(slots), source, target, at_once=at_once, keys_per_batch=keys_per_batch, pause=pause
            )
            return "resharding", done.slots, done.keys

        played = setup.play_while([game for games in slots.values() for game in games], move)
        for slot in slots:
            assert setup.cluster.owner_of(slot) is target, f"slot {slot} still served by the source"
        return played


def fail_over(work_dir: Path, *, games: int = 60) -> Played:
    """The busiest master failed over to its replica (CLUSTER FAILOVER) while its games are played."""
    with ClusterPlay(work_dir, replicas=1, games=games) as setup:
        master, slots = setup.busiest_master()
        replica = setup.cluster.replica_of(master)

        def change() -> tuple[str, int, int]:
            setup.cluster.fail_over(replica)
            return "CLUSTER FAILOVER", 0, 0

        played = setup.play_while([game for games in slots.values() for game in games], change)
        assert replica in setup.cluster.masters() and master not in setup.cluster.masters()
        return played
