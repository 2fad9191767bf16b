"""The application factory."""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from service.api.bodies import StaticBody
from service.api.contract.request_validator import RequestValidator
from service.api.contract.spec import load_spec, spec_bytes
from service.api.middleware.admission import install_admission
from service.api.middleware.compression import install_compression
from service.api.middleware.cors import install_cors
from service.api.middleware.metrics_access import install_metrics_access
from service.api.middleware.ratelimit import install_rate_limits
from service.api.middleware.request_ids import RequestIds
from service.api.middleware.request_metrics import RequestMetrics
from service.api.middleware.store_reserve import install_store_reserve
from service.api.streams.limits import OpenStreams
from service.api.streams.watchers import GameWatchers
from service.config import Settings
from service.games import KeptCopies
from service.games.analysis import GameAnalyses
from service.instance import shared_copies, stream_counts
from service.site.blocks import PlayerBlocks
from service.site.bot_accounts import BotGameCap
from service.site.challenges import CHALLENGES_PER_PLAYER, Challenges
from service.site.core import site_core
from service.site.lobby import Lobby, Players
from service.site.offers import Offers
from service.site.seat_names import SeatNames
from service.site.seeks import Seeks
from service.site.vacations import Vacations
from service.site.watching import Watching
from service.site.webhook_addresses import AddressGuard
from service.site.webhooks import WebhookLimits, Webhooks
from service.storage import Storage, storage_from_settings
from service.telemetry.metrics import BotJobsQueued, scrape_registry

from .context import EXTENSION_KEY, Services
from .incoming import MAX_BODY_BYTES
from .problems import PUBLIC_URL_CONFIG, register_error_handlers


class GameIdConverter(BaseConverter):
    """A game's id in `/games/<game:game_id>`: any one segment but `import`, the fixed route beside it.

    Without it `/games/import` would match the game's own route too, and its
    `Allow` (an OPTIONS answer, a 405) would list the game's GET, which that
    path does not serve.
    """

    regex = r"(?!import$)[^/]+"


def create_app(settings: Settings | None = None, *, storage: Storage | None = None) -> Flask:
    """Build the app: settings from the environment unless given, storage from REDIS_URL."""
    settings = settings or Settings.from_env()
    if storage is None:
        storage = storage_from_settings(settings, needed_by="the web app")

    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config[PUBLIC_URL_CONFIG] = settings.public_url
    # werkzeug answers "/games//moves" with an HTML 308 to "/games/moves" (which
    # the error handlers never see): an empty or doubled segment is a 404 like
    # any other path no route matches. No route ends in "/", so strict_slashes
    # redirects none; tests/api/test_hostile_input.py checks both.
    app.url_map.merge_slashes = False
    app.url_map.converters["game"] = GameIdConverter
    storage.bot_jobs.clocked_games_per_worker = settings.bot_clocked_games_per_worker
    # The web app also calls two of the listeners the core tells (a rematch's notice,
    # the ratings shown): the ones registered, so each is built in one place.
    core = site_core(
        storage, KeptCopies(settings.recent_games, shared_copies.for_this_worker()), settings.webhook_pending
    )
    play = core.play
    players = Players(storage.players)
    blocks = PlayerBlocks(storage.blocks, players)
    bot_games = BotGameCap(storage.players, settings.bot_games_per_day)
    app.extensions[EXTENSION_KEY] = Services(
        settings=settings,
        store=storage.games,
        requests=storage.requests,
        validator=RequestValidator(load_spec()),
        spec_file=StaticBody(spec_bytes(), "application/yaml"),
        play=play,
        analyses=GameAnalyses(play, storage.analyses),
        ratings=core.ratings,
        players=players,
        lobby=Lobby(play, players, storage.lobby, settings.lobby_ttl_seconds, settings.open_games_per_player),
        seeks=Seeks(storage.seeks, players, play, settings.seek_ttl_seconds, settings.seeks_per_player),
        watching=Watching(play, players, core.lists),
        offers=Offers(play, core.notices, settings.offer_ttl_seconds, bot_games),
        blocks=blocks,
        challenges=Challenges(
            storage.challenges,
            blocks,
            players,
            play,
            core.notices,
            bot_games,
            ttl_seconds=settings.challenge_ttl_seconds,
            most_pending=CHALLENGES_PER_PLAYER,
        ),
        tournaments=core.tournaments,
        vacations=Vacations(storage.players, play, settings.vacation_days),
        seat_names=SeatNames(play),
        metrics=scrape_registry([BotJobsQueued(storage.bot_jobs.queued)]),
        open_streams=OpenStreams(settings.streams_per_client, stream_counts.for_this_worker()),
        watchers=GameWatchers(storage.watchers),
        webhooks=Webhooks(
            storage.webhooks,
            AddressGuard(
                allow_http=settings.webhook_allow_http, allow_private=settings.webhook_allow_private
            ),
            WebhookLimits(settings.webhooks_per_player, settings.webhook_pending),
            storage.games.now_ms,
        ),
    )

    # Blueprints import the app's modules: keep them inside the factory.
    from .resources import (
        analysis,
        bots,
        challenges,
        events,
        games,
        hints,
        leaderboard,
        lobby,
        meta,
        moves,
        pages,
        pictures,
        records,
        rematch,
        rules,
        seeks,
        tournaments,
    )
    from .resources import (
        blocks as block_routes,
    )
    from .resources import players as player_routes
    from .resources import webhooks as webhook_routes

    app.register_blueprint(meta.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(bots.bp)
    app.register_blueprint(moves.bp)
    app.register_blueprint(hints.bp)
    app.register_blueprint(pictures.bp)
    app.register_blueprint(analysis.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(player_routes.bp)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(seeks.bp)
    app.register_blueprint(rematch.bp)
    app.register_blueprint(leaderboard.bp)
    app.register_blueprint(challenges.bp)
    app.register_blueprint(block_routes.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(webhook_routes.bp)
    app.register_blueprint(records.bp)
    # First of the before_request hooks: a request refused for load costs nothing more.
    install_admission(app, settings)
    install_metrics_access(app, settings)
    # Before the rate limits: a creation refused for the store's room writes no counter.
    install_store_reserve(app, settings, storage.memory)
    install_rate_limits(app, settings)
    install_cors(app, settings.cors_origins)
    register_error_handlers(app)
    install_compression(app)
    # Innermost: it reads the route Flask matched, and times the app alone.
    app.wsgi_app = RequestMetrics(app.wsgi_app)  # type: ignore[method-assign]
    if settings.trust_proxy_headers:
        # Behind N trusted proxies the client is the Nth address from the
        # right of X-Forwarded-For (what the rate limit counts by).
        # Ignored: replacing wsgi_app is Flask's documented way to add WSGI middleware.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app,
            x_for=settings.trust_proxy_headers,
            x_proto=settings.trust_proxy_headers,
        )
    # Outermost, so that every answer carries its request id, whatever produced it.
    app.wsgi_app = RequestIds(app.wsgi_app)  # type: ignore[method-assign]
    return app
