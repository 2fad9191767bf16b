"""`patchwork-worker`: one bot worker process on the Redis that REDIS_URL names.

Run as many as the bots need, on any machines: they share the job queue.
`patchwork-service` starts BOT_WORKERS of them itself. A worker runs at a
lower CPU priority (nice `NICENESS`) than the web workers, so a machine busy
with bots still answers requests. SIGTERM or Ctrl-C: the worker finishes the
job in hand (at most a bot's think time and a commit) and exits 0.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import sys

from service.config import ConfigError, Settings
from service.games import GamePlay, KeptCopies
from service.storage import store_from_settings

from .worker import BotWorker

NICENESS = 10


def worker_name() -> str:
    """A consumer name no other worker has: host, pid and a random part (pids repeat across restarts)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def main() -> None:
    """Entry point of `patchwork-worker` and `python -m service.botworker`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        settings = Settings.from_env()
        # A worker sends one command at a time: it needs one connection.
        store = store_from_settings(settings, max_connections=1, needed_by="patchwork-worker")
    except ConfigError as err:
        sys.exit(f"patchwork-worker: {err}")
    os.nice(NICENESS)
    # No kept copies: each job reads its game, to see its version.
    play = GamePlay(store, KeptCopies(0))
    # A blocking read must return within the Redis timeout, or it would count as Redis hanging.
    block_ms = max(1, int(settings.redis_timeout * 1000 / 2))
    worker = BotWorker(
        play, play.bot_jobs, name=worker_name(), think_ms=settings.bot_think_ms, block_ms=block_ms
    )
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: worker.stop())
    try:
        worker.run()
    finally:
        store.close()
