"""`patchwork-worker`: one bot worker process on the Redis that REDIS_URL names.

Run as many as the bots need, on any machines: they share the job queue.
`patchwork-service` starts BOT_WORKERS of them itself. A worker runs at a
lower CPU priority (nice `NICENESS`) than the web workers, so a machine busy
with bots still answers requests. SIGTERM or Ctrl-C: the worker finishes the
job in hand (at most a bot's think time and a commit) and exits 0.

Timeouts are not kept here: `patchwork-timekeeper` (timekeeper_main.py)
applies them, in processes a search cannot hold up.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import sys

from service.bots.calibration import measure_nodes_per_ms
from service.config import ConfigError, Settings
from service.games.analysis import GameAnalyses
from service.storage import storage_from_settings
from service.telemetry.metrics import BotJobsQueued, scrape_registry

from .process import game_play, serve_metrics
from .spent import SpentTimes
from .worker import BotWorker

NICENESS = 10
log = logging.getLogger("patchwork.botworker")


def worker_name() -> str:
    """A consumer name no other worker has: host, pid and a random part (pids repeat across restarts)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def calibrate(settings: Settings) -> SpentTimes:
    """The search nodes per ms this worker's levels plan with: BOT_NODES_PER_MS, or measured now (after the nice)."""
    if settings.bot_nodes_per_ms is not None:
        log.info("search levels plan with %d nodes per ms (BOT_NODES_PER_MS)", settings.bot_nodes_per_ms)
        return SpentTimes(settings.bot_nodes_per_ms, "configured")
    nodes_per_ms = measure_nodes_per_ms()
    log.info("calibrated: search levels plan with %d nodes per CPU ms on this machine", nodes_per_ms)
    return SpentTimes(nodes_per_ms, "measured")


def main() -> None:
    """Entry point of `patchwork-worker` and `python -m service.botworker`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        settings = Settings.from_env()
        # The bot loop sends one command at a time: a connection, and one
        # more for the scrapes of the metrics, which come from another thread.
        connections = 1 if settings.metrics_port is None else 2
        storage = storage_from_settings(settings, max_connections=connections, needed_by="patchwork-worker")
    except ConfigError as err:
        sys.exit(f"patchwork-worker: {err}")
    os.nice(NICENESS)
    play = game_play(storage)
    if settings.metrics_port is not None:
        registry = scrape_registry([BotJobsQueued(play.bot_jobs.queued)])
        serve_metrics("patchwork-worker", settings.host, settings.metrics_port, registry)
    # A blocking read must return within the Redis timeout, or it would count as Redis hanging.
    block_ms = max(1, int(settings.redis_timeout * 1000 / 2))
    worker = BotWorker(
        play,
        play.bot_jobs,
        name=worker_name(),
        think_ms=settings.bot_think_ms,
        block_ms=block_ms,
        spent=calibrate(settings),
        analyses=GameAnalyses(play, storage.analyses),
    )
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: worker.stop())
    try:
        worker.run()
    finally:
        storage.close()
