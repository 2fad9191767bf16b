"""What the processes of this package share: the game-play core they commit through, and their metrics port."""

from __future__ import annotations

import logging
import sys

from prometheus_client import start_http_server
from prometheus_client.registry import CollectorRegistry

from service.games import GamePlay, KeptCopies
from service.site import core
from service.storage import Storage

log = logging.getLogger("patchwork.botworker")


def game_play(storage: Storage) -> GamePlay:
    """The core as a bot worker or a timekeeper commits through it."""
    # No kept copies: each job or expiry reads its game, to see its version.
    # With the site's listeners: a bot's move hands a person the turn (your_turn) or ends
    # the game, and a timeout ends a rated game here too.
    return core.game_play(storage, KeptCopies(0))


def serve_metrics(program: str, host: str, port: int, registry: CollectorRegistry) -> None:
    """Serve the process's metrics on METRICS_PORT (a standalone one: no instance's /metrics shows them)."""
    try:
        start_http_server(port, addr=host, registry=registry)
    except OSError as err:
        sys.exit(f"{program}: cannot serve metrics on {host}:{port}: {err}")
    log.info("metrics on http://%s:%d/metrics", host, port)
