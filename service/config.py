"""Configuration from the environment, read in one place.

Every variable is listed in the README. Values are parsed once into a frozen
`Settings`, so a typo in a number fails at start-up with a clear message
instead of on the first request.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_GAME_TTL_SECONDS = 30 * 24 * 3600
# Games each worker keeps decoded after storing them (games/kept.py):
# about 4 KB each; and slots in the table the workers of one gunicorn share
# (instance/shared_copies.py): 8 KB each.
DEFAULT_RECENT_GAMES = 1000
# An open seat nobody takes within this long leaves the lobby (issue 20).
DEFAULT_LOBBY_TTL_SECONDS = 3600
# A seek not paired within this long expires (issue 20).
DEFAULT_SEEK_TTL_SECONDS = 600
# A challenge nobody answers within this long expires (issue 38); one on a
# correspondence clock waits 7 days whatever this says (site/challenges.py).
DEFAULT_CHALLENGE_TTL_SECONDS = 600
# A rematch or takeback offer not answered within this long lapses (issue 38).
DEFAULT_OFFER_TTL_SECONDS = 300
# The embedded Redis's memory limit (refusing writes past it, never evicting):
# about 35,000 finished games (7 KB each) or 700,000 recorded refusals, and
# no more than a small machine can spare next to the service.
DEFAULT_EMBEDDED_REDIS_MAXMEMORY = "256mb"
_REDIS_MEMORY = re.compile(r"\d+(b|k|kb|m|mb|g|gb)?", re.IGNORECASE)
# Connections one gunicorn worker holds open at once: idle keep-alive ones,
# slow clients and (later) event streams included. Each costs a greenlet and
# a file descriptor, a few KB; past it the worker stops accepting.
DEFAULT_WORKER_CONNECTIONS = 10_000
# Event streams one client address holds open at once on an instance
# (api/streams/limits.py): a page follows one game, a few tabs a few.
DEFAULT_STREAMS_PER_CLIENT = 32
# Redis connections one worker opens at most; requests beyond wait for one.
DEFAULT_REDIS_MAX_CONNECTIONS = 32
# Requests one worker works on at once (event streams and health probes
# aside); more are refused with 503 overloaded (service/api/middleware/admission.py).
# A worker runs one at a time, so each waits for the CPU behind the others:
# at a few ms each, 64 keep every answer far inside the API's 2 s.
DEFAULT_MAX_IN_FLIGHT = 64
# Bot games and hints per client per window, on by default: each costs the
# service CPU (a whole game of bot moves; a bot's decision inside the
# request), and no person starts a bot game a minute or asks ten hints a minute.
DEFAULT_RATE_LIMIT_BOT_GAMES = 60
DEFAULT_RATE_LIMIT_HINTS = 600
# Analysis requests per client per bot window: each may cost a worker tens of seconds.
DEFAULT_RATE_LIMIT_ANALYSES = 20
DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS = 3600
# Players, seeks and joins per client per hour (the bot window, issue 20): far
# beyond what a person does, well short of a script filling Redis with them.
DEFAULT_RATE_LIMIT_PLAYERS = 30
DEFAULT_RATE_LIMIT_SEEKS = 600
DEFAULT_RATE_LIMIT_JOINS = 600
# Timekeepers each patchwork-service runs: two, so that a killed one's
# deadlines are taken over by the other as its leases end (about a second,
# storage/deadlines.py), inside the 2 s a timeout may come after its deadline.
DEFAULT_TIMEKEEPERS = 2
# Games on a real-time clock with a bot seat that one live bot worker plays at
# once (storage/bot_jobs.py): past it, creating one more answers 503 bots_busy.
# With two, a clocked bot waits for at most one other clocked bot move per
# worker, a twentieth of that bot's bank at most (botworker/worker.py), so it
# keeps its time while the workers run (issue 36).
DEFAULT_BOT_CLOCKED_GAMES_PER_WORKER = 2
# Games created per client per hour (the bot window), open ones and bot ones
# included (issue 36: one client made 3,000 open games in 16 s and filled
# Redis): five an hour for a whole day's play is far beyond a person.
DEFAULT_RATE_LIMIT_GAMES = 300
# Open lobby games one player (or, without a token, one client address)
# holds at once, and seeks one player keeps waiting at once (issue 36).
DEFAULT_OPEN_GAMES_PER_PLAYER = 10
DEFAULT_SEEKS_PER_PLAYER = 3
# Games one bot account plays against other bot accounts in any 24 hours
# (issue 40): two engines left to challenge each other would otherwise play
# without end, at the cost of the store and of every person's share of it.
# Games against people are not counted.
DEFAULT_BOT_GAMES_PER_DAY = 100
# Days of correspondence vacation a player has each calendar year (UTC, the
# store's clock): OGS-like, two weeks (site/vacations.py).
DEFAULT_VACATION_DAYS = 14
# New games, players and seeks are refused (503 store_nearly_full) once Redis
# uses more than 100 - this percent of its maxmemory, so that the games in
# progress keep this much room to be played to their end (a game played
# through is about 7 KB): 10 % of the embedded 256 MB is about 3,600 games.
DEFAULT_STORE_RESERVE_PERCENT = 10
# Webhooks (issue 41): how many a player has at once, and how many deliveries
# wait per webhook before the oldest is dropped (a dead endpoint's backlog,
# about 500 bytes each, until the 24 h of failures disable it).
DEFAULT_WEBHOOKS_PER_PLAYER = 5
DEFAULT_WEBHOOK_PENDING = 1000
# When a failed delivery is tried again, seconds after its first attempt
# (the kind of schedule Standard Webhooks and Svix use), given up after the
# last; a webhook failing for as long as the last is disabled.
DEFAULT_WEBHOOK_RETRY_SCHEDULE = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 50400.0, 72000.0, 86400.0)


class ConfigError(ValueError):
    """An environment variable holds a value the service cannot use."""


def _int(env: dict[str, str], name: str, default: int, minimum: int = 0) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return value


def _float(env: dict[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None
    if value <= 0:
        raise ConfigError(f"{name} must be positive, got {raw}")
    return value


def _redis_memory(env: dict[str, str], name: str, default: str) -> str:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not _REDIS_MEMORY.fullmatch(raw):
        raise ConfigError(
            f"{name} must be a size as Redis takes it (e.g. 256mb, 2gb; 0 = no limit), got {raw!r}"
        )
    return raw.lower()


def _public_url(env: dict[str, str]) -> str:
    """PUBLIC_URL without its trailing slash; empty when unset."""
    raw = env.get("PUBLIC_URL", "").strip()
    if not raw:
        return ""
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ConfigError(
            "PUBLIC_URL must be the service's absolute http(s) address with no query or "
            f"fragment, such as https://patchwork.example.org, got {raw!r}"
        )
    return raw.rstrip("/")


def _schedule(env: dict[str, str], name: str, default: tuple[float, ...]) -> tuple[float, ...]:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        found = tuple(float(part) for part in raw.split(","))
    except ValueError:
        raise ConfigError(f"{name} must be seconds separated by commas (5,300,1800), got {raw!r}") from None
    if any(b < a for a, b in pairwise(found)) or found[0] < 0:
        raise ConfigError(f"{name} must be seconds that never go down, got {raw!r}")
    return found


def _flag(env: dict[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in ("1", "true", "yes", "on")


LOG_FORMATS = ("text", "json")


def _log_format(env: dict[str, str]) -> str:
    raw = env.get("LOG_FORMAT", "").strip().lower() or "text"
    if raw not in LOG_FORMATS:
        raise ConfigError(f"LOG_FORMAT must be text or json, got {raw!r}")
    return raw


def default_data_dir(env: dict[str, str]) -> Path:
    """Where the embedded Redis keeps its data: $XDG_DATA_HOME/patchwork-service."""
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "patchwork-service"


@dataclass(frozen=True)
class RateLimit:
    """At most `limit` requests per `window_seconds` per client (0 = off)."""

    limit: int = 0
    window_seconds: int = 60

    @property
    def enabled(self) -> bool:
        return self.limit > 0


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None
    redis_cluster: bool = False
    redis_timeout: float = 1.0
    key_prefix: str = "patchwork:"
    host: str = "127.0.0.1"
    port: int = 8000
    web_concurrency: int = 2
    game_ttl_seconds: int = DEFAULT_GAME_TTL_SECONDS
    cors_origins: tuple[str, ...] = ("*",)
    data_dir: Path = field(default_factory=lambda: default_data_dir(dict(os.environ)))
    rate_limit_create: RateLimit = RateLimit()
    rate_limit_moves: RateLimit = RateLimit()
    rate_limit_bot_games: RateLimit = RateLimit(
        DEFAULT_RATE_LIMIT_BOT_GAMES, DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS
    )
    rate_limit_hints: RateLimit = RateLimit(DEFAULT_RATE_LIMIT_HINTS, DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS)
    rate_limit_players: RateLimit = RateLimit(
        DEFAULT_RATE_LIMIT_PLAYERS, DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS
    )
    rate_limit_seeks: RateLimit = RateLimit(DEFAULT_RATE_LIMIT_SEEKS, DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS)
    rate_limit_joins: RateLimit = RateLimit(DEFAULT_RATE_LIMIT_JOINS, DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS)
    rate_limit_analyses: RateLimit = RateLimit(
        DEFAULT_RATE_LIMIT_ANALYSES, DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS
    )
    rate_limit_games: RateLimit = RateLimit(DEFAULT_RATE_LIMIT_GAMES, DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS)
    open_games_per_player: int = DEFAULT_OPEN_GAMES_PER_PLAYER
    seeks_per_player: int = DEFAULT_SEEKS_PER_PLAYER
    bot_games_per_day: int = DEFAULT_BOT_GAMES_PER_DAY
    vacation_days: int = DEFAULT_VACATION_DAYS
    store_reserve_percent: int = DEFAULT_STORE_RESERVE_PERCENT
    # How long a process trusts its last reading of Redis's memory (the store reserve's INFO).
    store_reserve_check_seconds: float = 1.0
    trust_proxy_headers: int = 0
    recent_games: int = DEFAULT_RECENT_GAMES
    lobby_ttl_seconds: int = DEFAULT_LOBBY_TTL_SECONDS
    seek_ttl_seconds: int = DEFAULT_SEEK_TTL_SECONDS
    challenge_ttl_seconds: int = DEFAULT_CHALLENGE_TTL_SECONDS
    offer_ttl_seconds: int = DEFAULT_OFFER_TTL_SECONDS
    embedded_redis_maxmemory: str = DEFAULT_EMBEDDED_REDIS_MAXMEMORY
    redis_max_connections: int = DEFAULT_REDIS_MAX_CONNECTIONS
    worker_connections: int = DEFAULT_WORKER_CONNECTIONS
    max_in_flight: int = DEFAULT_MAX_IN_FLIGHT
    streams_per_client: int = DEFAULT_STREAMS_PER_CLIENT
    # A client has this long to send a request's head (from connecting),
    # and as long again for its body; then the connection is closed.
    read_timeout: float = 10.0
    # An idle keep-alive connection is closed after this long without a new request.
    keepalive: int = 5
    # An idle event stream gets a comment line this often, so proxies and
    # clients see it is alive.
    events_keepalive: float = 15.0
    access_log: bool = False
    # "text" (gunicorn's line format) or "json" (one object per line): service/telemetry/logs.py.
    log_format: str = "text"
    # The service's public address (no trailing slash): problem type URLs are
    # absolute under it; empty: they are relative (/problems/<code>).
    public_url: str = ""
    # Bot worker processes patchwork-service starts beside gunicorn (0: none).
    bot_workers: int = 1
    # Timekeeper processes patchwork-service starts (0: none; run patchwork-timekeeper elsewhere).
    timekeepers: int = DEFAULT_TIMEKEEPERS
    # Overrides every bot level's think_ms (tests run whole games with a few ms); None: each level's own.
    bot_think_ms: int | None = None
    # Clocked bot games each live bot worker plays at once (503 bots_busy past it).
    bot_clocked_games_per_worker: int = DEFAULT_BOT_CLOCKED_GAMES_PER_WORKER
    # Search nodes per ms the bot levels plan with; None: each bot worker measures it when it starts.
    bot_nodes_per_ms: int | None = None
    # GET /metrics is served on this port (on HOST) instead of PORT: by gunicorn (the web of
    # patchwork-service too) and by a standalone patchwork-worker. None: on PORT (a worker: none).
    metrics_port: int | None = None
    # Set: GET /metrics needs `Authorization: Bearer <it>` (else 404); None: no token asked.
    metrics_token: str | None = None
    # Webhooks (site/webhooks.py, botworker/webhook_sender.py; README's table says each).
    webhook_senders: int = 1
    webhooks_per_player: int = DEFAULT_WEBHOOKS_PER_PLAYER
    webhook_pending: int = DEFAULT_WEBHOOK_PENDING
    webhook_allow_http: bool = False
    webhook_allow_private: bool = False
    webhook_retry_schedule: tuple[float, ...] = DEFAULT_WEBHOOK_RETRY_SCHEDULE
    webhook_concurrency: int = 16

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        """Read every setting from `env` (default: os.environ)."""
        env = dict(os.environ if env is None else env)
        origins = tuple(o.strip() for o in env.get("CORS_ORIGINS", "*").split(",") if o.strip())
        data_dir = env.get("PATCHWORK_DATA_DIR", "").strip()
        window = _int(env, "RATE_LIMIT_WINDOW_SECONDS", 60, minimum=1)
        bot_window = _int(
            env, "RATE_LIMIT_BOT_WINDOW_SECONDS", DEFAULT_RATE_LIMIT_BOT_WINDOW_SECONDS, minimum=1
        )
        return cls(
            redis_url=env.get("REDIS_URL", "").strip() or None,
            redis_cluster=_flag(env, "REDIS_CLUSTER"),
            redis_timeout=_float(env, "REDIS_TIMEOUT_SECONDS", 1.0),
            key_prefix=env.get("REDIS_KEY_PREFIX", "patchwork:"),
            host=env.get("HOST", "").strip() or "127.0.0.1",
            port=_int(env, "PORT", 8000),
            web_concurrency=_int(env, "WEB_CONCURRENCY", 2, minimum=1),
            game_ttl_seconds=_int(env, "GAME_TTL_SECONDS", DEFAULT_GAME_TTL_SECONDS, minimum=1),
            cors_origins=origins or ("*",),
            data_dir=Path(data_dir) if data_dir else default_data_dir(env),
            rate_limit_create=RateLimit(_int(env, "RATE_LIMIT_CREATE", 0), window),
            rate_limit_moves=RateLimit(_int(env, "RATE_LIMIT_MOVES", 0), window),
            rate_limit_bot_games=RateLimit(
                _int(env, "RATE_LIMIT_BOT_GAMES", DEFAULT_RATE_LIMIT_BOT_GAMES), bot_window
            ),
            rate_limit_hints=RateLimit(_int(env, "RATE_LIMIT_HINTS", DEFAULT_RATE_LIMIT_HINTS), bot_window),
            rate_limit_players=RateLimit(
                _int(env, "RATE_LIMIT_PLAYERS", DEFAULT_RATE_LIMIT_PLAYERS), bot_window
            ),
            rate_limit_seeks=RateLimit(_int(env, "RATE_LIMIT_SEEKS", DEFAULT_RATE_LIMIT_SEEKS), bot_window),
            rate_limit_joins=RateLimit(_int(env, "RATE_LIMIT_JOINS", DEFAULT_RATE_LIMIT_JOINS), bot_window),
            rate_limit_analyses=RateLimit(
                _int(env, "RATE_LIMIT_ANALYSES", DEFAULT_RATE_LIMIT_ANALYSES), bot_window
            ),
            rate_limit_games=RateLimit(_int(env, "RATE_LIMIT_GAMES", DEFAULT_RATE_LIMIT_GAMES), bot_window),
            open_games_per_player=_int(
                env, "OPEN_GAMES_PER_PLAYER", DEFAULT_OPEN_GAMES_PER_PLAYER, minimum=1
            ),
            seeks_per_player=_int(env, "SEEKS_PER_PLAYER", DEFAULT_SEEKS_PER_PLAYER, minimum=1),
            bot_games_per_day=_int(env, "BOT_GAMES_PER_DAY", DEFAULT_BOT_GAMES_PER_DAY, minimum=1),
            vacation_days=_int(env, "VACATION_DAYS", DEFAULT_VACATION_DAYS),
            store_reserve_percent=_int(env, "STORE_RESERVE_PERCENT", DEFAULT_STORE_RESERVE_PERCENT),
            store_reserve_check_seconds=_float(env, "STORE_RESERVE_CHECK_SECONDS", 1.0),
            trust_proxy_headers=_int(env, "TRUSTED_PROXIES", 0),
            recent_games=_int(env, "RECENT_GAMES", DEFAULT_RECENT_GAMES),
            lobby_ttl_seconds=_int(env, "LOBBY_TTL_SECONDS", DEFAULT_LOBBY_TTL_SECONDS, minimum=1),
            seek_ttl_seconds=_int(env, "SEEK_TTL_SECONDS", DEFAULT_SEEK_TTL_SECONDS, minimum=1),
            challenge_ttl_seconds=_int(
                env, "CHALLENGE_TTL_SECONDS", DEFAULT_CHALLENGE_TTL_SECONDS, minimum=1
            ),
            offer_ttl_seconds=_int(env, "OFFER_TTL_SECONDS", DEFAULT_OFFER_TTL_SECONDS, minimum=1),
            embedded_redis_maxmemory=_redis_memory(
                env, "EMBEDDED_REDIS_MAXMEMORY", DEFAULT_EMBEDDED_REDIS_MAXMEMORY
            ),
            redis_max_connections=_int(
                env, "REDIS_MAX_CONNECTIONS", DEFAULT_REDIS_MAX_CONNECTIONS, minimum=1
            ),
            worker_connections=_int(env, "WORKER_CONNECTIONS", DEFAULT_WORKER_CONNECTIONS, minimum=1),
            max_in_flight=_int(env, "MAX_IN_FLIGHT", DEFAULT_MAX_IN_FLIGHT, minimum=1),
            streams_per_client=_int(env, "STREAMS_PER_CLIENT", DEFAULT_STREAMS_PER_CLIENT, minimum=1),
            read_timeout=_float(env, "READ_TIMEOUT_SECONDS", 10.0),
            keepalive=_int(env, "KEEPALIVE_SECONDS", 5, minimum=1),
            events_keepalive=_float(env, "EVENTS_KEEPALIVE_SECONDS", 15.0),
            access_log=_flag(env, "ACCESS_LOG"),
            log_format=_log_format(env),
            public_url=_public_url(env),
            bot_workers=_int(env, "BOT_WORKERS", 1),
            timekeepers=_int(env, "TIMEKEEPERS", DEFAULT_TIMEKEEPERS),
            bot_think_ms=_int(env, "BOT_THINK_MS", 0, minimum=1) or None,
            bot_clocked_games_per_worker=_int(
                env, "BOT_CLOCKED_GAMES_PER_WORKER", DEFAULT_BOT_CLOCKED_GAMES_PER_WORKER, minimum=1
            ),
            bot_nodes_per_ms=_int(env, "BOT_NODES_PER_MS", 0, minimum=1) or None,
            metrics_port=_int(env, "METRICS_PORT", 0, minimum=1) or None,
            metrics_token=env.get("METRICS_TOKEN") or None,
            webhook_senders=_int(env, "WEBHOOK_SENDERS", 1),
            webhooks_per_player=_int(env, "WEBHOOKS_PER_PLAYER", DEFAULT_WEBHOOKS_PER_PLAYER, minimum=1),
            webhook_pending=_int(env, "WEBHOOK_PENDING", DEFAULT_WEBHOOK_PENDING, minimum=1),
            webhook_allow_http=_flag(env, "WEBHOOK_ALLOW_HTTP"),
            webhook_allow_private=_flag(env, "WEBHOOK_ALLOW_PRIVATE"),
            webhook_retry_schedule=_schedule(env, "WEBHOOK_RETRY_SCHEDULE", DEFAULT_WEBHOOK_RETRY_SCHEDULE),
            webhook_concurrency=_int(env, "WEBHOOK_CONCURRENCY", 16, minimum=1),
        )
