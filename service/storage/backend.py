"""Opening a Redis backend: the game store, the bot queue and the request counters on one set of connections.

`open_storage` is what the web app and the bot workers use; `open_store`,
the game store alone, is for tools and tests that need only games.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from redis import ConnectionPool, Redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry

from service.config import ConfigError, Settings

from .analyses import Analyses
from .bot_jobs import BotJobs
from .challenges import Blocks, ChallengeBook
from .connections import ClusterCommands, LendingPool, RedisLink
from .deadlines import Deadlines
from .game_lists import GameLists
from .lobby import LobbyIndex
from .memory import StoreMemory
from .players import PlayerStore
from .ratings import RatingBook
from .redis_store import RedisGameStore
from .request_counter import RequestCounter
from .seeks import SeekPool
from .store import GameStore
from .tournaments import TournamentBook
from .watchers import StreamWatchers
from .webhooks import WebhookBook


@dataclass(frozen=True, slots=True)
class Storage:
    """One backend's parts, sharing its connections: the games, the bot queue, the request counters,
    the deadline index, the players, the lobby's index, the lists of games, the seeks and the ratings' book."""

    games: GameStore
    bot_jobs: BotJobs
    requests: RequestCounter
    deadlines: Deadlines
    players: PlayerStore
    lobby: LobbyIndex
    # The games being played and each player's finished ones (site/watching.py).
    game_lists: GameLists
    # The event streams open on each game, on every instance (GET /games/{id}/events' watchers).
    watchers: StreamWatchers
    seeks: SeekPool
    ratings: RatingBook
    analyses: Analyses
    # How full the Redis is, for the store reserve (memory.py).
    memory: StoreMemory
    # Challenges and the players' lists of them; who blocks whom (challenges.py).
    challenges: ChallengeBook
    blocks: Blocks
    # Tournaments, their streams, lists and due index (tournaments.py).
    tournaments: TournamentBook
    # Players' webhooks and the queue of their deliveries (webhooks.py).
    webhooks: WebhookBook

    def close(self) -> None:
        """Release the connections (the game store's close releases the shared ones)."""
        self.games.close()


def open_storage(
    url: str,
    *,
    cluster: bool = False,
    prefix: str = "patchwork:",
    ttl_seconds: int = 30 * 24 * 3600,
    timeout: float = 1.0,
    max_connections: int = 32,
) -> Storage:
    """The backend on the Redis at `url` (`redis://`, `rediss://`, `unix://`); `cluster`: one node of a Redis Cluster."""
    options: dict[str, Any] = {
        "decode_responses": True,
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        # No retries: a retry after a timeout would double the wait past 2 s.
        "retry": Retry(NoBackoff(), 0),
    }
    # The wake-up listener's connection waits for as long as nothing is
    # published: no socket timeout on its reads (it PINGs instead, wakeups.py).
    listening = dict(options, socket_timeout=None)
    if cluster:

        def connect_cluster() -> ClusterCommands:
            # Each node's pool refuses (503) past max_connections rather than waiting.
            client = RedisCluster.from_url(url, max_connections=max_connections, **options)
            # Refusals are sent again for half the timeout, as a borrower waits
            # for a pooled connection: a request still ends well inside 2 s.
            return ClusterCommands(client, patience=timeout / 2)

        def subscribe_cluster() -> Any:
            # Classic PUBLISH reaches every node of a cluster: subscribe on any
            # one that answers, learned afresh each time (the last may be gone).
            cluster_client = RedisCluster.from_url(url, **options)
            try:
                node = secrets.choice(cluster_client.get_primaries())
            finally:
                cluster_client.close()
            return Redis(host=node.host, port=node.port, **listening).pubsub()

        return _parts(RedisLink(connect_cluster, prefix), ttl_seconds, subscribe_cluster, cluster=True)
    # from_url connects lazily, so building the pool up front cannot fail on a down Redis.
    redis_pool = ConnectionPool.from_url(url, **options)

    def connect_one() -> Redis:
        return Redis(connection_pool=redis_pool, single_connection_client=True)

    def connect_pool() -> LendingPool:
        # Waiting for a free connection takes at most half the timeout, so a
        # request that then meets a hung Redis still ends well inside 2 s.
        return LendingPool(connect_one, max_connections, wait=timeout / 2)

    def subscribe() -> Any:
        return Redis.from_url(url, **listening).pubsub()

    return _parts(RedisLink(connect_pool, prefix), ttl_seconds, subscribe)


def _parts(link: RedisLink, ttl_seconds: int, subscribe: Any, *, cluster: bool = False) -> Storage:
    deadlines = Deadlines(link)
    games = RedisGameStore(
        link, ttl_seconds=ttl_seconds, deadlines=deadlines, cluster=cluster, subscribe=subscribe
    )
    # The players' wake-ups ride on the games' (one subscription per process).
    players = PlayerStore(link, games.wakeups, games_ttl_ms=ttl_seconds * 1000)
    return Storage(
        games,
        BotJobs(link),
        RequestCounter(link),
        deadlines,
        players,
        LobbyIndex(link),
        GameLists(link, ttl_seconds * 1000),
        StreamWatchers(link),
        SeekPool(link),
        RatingBook(link),
        Analyses(link, ttl_seconds),
        StoreMemory(link),
        ChallengeBook(link),
        Blocks(link),
        TournamentBook(link, games.wakeups),
        WebhookBook(link, players),
    )


def open_store(url: str, **options: Any) -> GameStore:
    """The game store alone on the Redis at `url` (options as open_storage takes them)."""
    return open_storage(url, **options).games


def storage_from_settings(
    settings: Settings, *, max_connections: int | None = None, needed_by: str
) -> Storage:
    """The backend the settings name (REDIS_URL and the rest); ConfigError, naming `needed_by`, without one."""
    if not settings.redis_url:
        raise ConfigError(
            f"REDIS_URL is not set: {needed_by} needs a Redis (patchwork-service starts an "
            "embedded one and sets REDIS_URL for what it runs)"
        )
    return open_storage(
        settings.redis_url,
        cluster=settings.redis_cluster,
        prefix=settings.key_prefix,
        ttl_seconds=settings.game_ttl_seconds,
        timeout=settings.redis_timeout,
        max_connections=settings.redis_max_connections if max_connections is None else max_connections,
    )
