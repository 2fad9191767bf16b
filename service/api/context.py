"""The per-app services (settings, store, game play, validator) that views reach."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, request
from prometheus_client import CollectorRegistry

from service.api.bodies import StaticBody
from service.api.contract.request_validator import RequestValidator
from service.api.streams.limits import OpenStreams
from service.api.streams.watchers import GameWatchers
from service.config import Settings
from service.games import GamePlay
from service.games.analysis import GameAnalyses
from service.site.blocks import PlayerBlocks
from service.site.challenges import Challenges
from service.site.lobby import Lobby, Players
from service.site.offers import Offers
from service.site.rated_games import RatedGames
from service.site.seat_names import SeatNames
from service.site.seeks import Seeks
from service.site.tournaments import Tournaments
from service.site.vacations import Vacations
from service.site.watching import Watching
from service.site.webhooks import Webhooks
from service.storage import GameStore, RequestCounter

EXTENSION_KEY = "patchwork"


@dataclass(frozen=True)
class Services:
    settings: Settings
    store: GameStore
    # What the rate limits count with, shared by every instance.
    requests: RequestCounter
    validator: RequestValidator
    # openapi.yaml as GET /openapi.yaml answers it.
    spec_file: StaticBody
    play: GamePlay
    # Finished games' analyses, asked for and read (the bot workers compute them).
    analyses: GameAnalyses
    # Rated games' settlements and the leaderboard (site/rated_games.py); the core's listener settles them.
    ratings: RatedGames
    # Players, the lobby and joining (site/lobby.py).
    players: Players
    lobby: Lobby
    seeks: Seeks
    # The games being played and a player's finished ones (site/watching.py).
    watching: Watching
    # Rematch and takeback offers (site/offers.py).
    offers: Offers
    # A seat's holder naming it (the guest of an invite link).
    seat_names: SeatNames
    # Who blocks whom, and challenges (site/blocks.py, site/challenges.py).
    blocks: PlayerBlocks
    challenges: Challenges
    # Tournaments (site/tournaments.py), the ones the core's listener tells of their games' ends.
    tournaments: Tournaments
    # Correspondence vacations (site/vacations.py).
    vacations: Vacations
    # What GET /metrics reads (service/telemetry/metrics.py).
    metrics: CollectorRegistry
    # This worker's open event streams by client address (STREAMS_PER_CLIENT).
    open_streams: OpenStreams
    # This process's game streams, counted with every instance's (`event: watchers`).
    watchers: GameWatchers
    # Players' webhooks (site/webhooks.py): the sender processes deliver them.
    webhooks: Webhooks


def services() -> Services:
    """The services of the app handling the current request."""
    return current_app.extensions[EXTENSION_KEY]


def client_address() -> str:
    """The address of the request's client: what rate limits count by and bot capacity is shared by.

    Behind TRUSTED_PROXIES proxies, ProxyFix (app.py) has made it the one
    the nearest trusted proxy saw in X-Forwarded-For.
    """
    return request.remote_addr or "unknown"
