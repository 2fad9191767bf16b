"""`patchwork-timekeeper`: one process that applies the timeouts due, and does nothing else.

Apart from the bot workers on purpose: they think at a lowered priority and
a search holds their GIL, so a timekeeper beside them let timeouts wait
seconds behind the thinking (issue 36). This one runs at the priority it is
started with, measures nothing before it starts (it ticks at once), and
shares its CPU with no search. Run any number, on any machines that reach
the Redis REDIS_URL names: the deadline index's leases share the work out,
and each expiry is applied once (timekeeper.py). `patchwork-service` starts
TIMEKEEPERS of them; with two or more, one killed has its deadlines taken
over by another as its leases end (about a second). SIGTERM or Ctrl-C: it
ends the tick in hand and exits 0.
"""

from __future__ import annotations

import logging
import signal
import sys

from service.config import ConfigError, Settings
from service.games import KeptCopies
from service.site.core import site_core
from service.site.tournament_runner import TournamentRunner
from service.storage import storage_from_settings
from service.telemetry.metrics import scrape_registry

from .process import serve_metrics
from .timekeeper import Timekeeper

PROGRAM = "patchwork-timekeeper"
log = logging.getLogger("patchwork.timekeeper")


def main() -> None:
    """Entry point of `patchwork-timekeeper` and `python -m service.botworker.timekeeper_main`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        settings = Settings.from_env()
        # The loop sends one command at a time; its metrics ask Redis nothing.
        storage = storage_from_settings(settings, max_connections=1, needed_by=PROGRAM)
    except ConfigError as err:
        sys.exit(f"{PROGRAM}: {err}")
    if settings.metrics_port is not None:
        serve_metrics(PROGRAM, settings.host, settings.metrics_port, scrape_registry())
    # No kept copies: each expiry reads its game, to see its version.
    core = site_core(storage, KeptCopies(0))
    keeper = Timekeeper(core.play, storage.deadlines, tournaments=TournamentRunner(core.tournaments))
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: keeper.stop())
    log.info("keeping time")
    try:
        keeper.run()
    finally:
        storage.close()


if __name__ == "__main__":
    main()
