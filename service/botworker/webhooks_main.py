"""`patchwork-webhooks`: a process that sends the players' webhook deliveries, and does nothing else.

Apart from the web (no request ever waits on an endpoint), the bot workers
(whose searches hold the GIL at a lowered priority) and the timekeepers
(whose timeouts must not wait behind a slow endpoint): a sender's work is
waiting on sockets, which threads do well in one process of its own. Run any
number, on any machines that reach the Redis REDIS_URL names: the queue's
leases share the deliveries out (webhook_sender.py). `patchwork-service`
starts WEBHOOK_SENDERS of them (default 1). SIGTERM or Ctrl-C: it finishes
the deliveries in hand and exits 0.
"""

from __future__ import annotations

import logging
import signal
import sys

from service.config import ConfigError, Settings
from service.site.webhook_addresses import AddressGuard
from service.storage import storage_from_settings
from service.telemetry.metrics import scrape_registry, webhook_attempts

from .process import serve_metrics
from .webhook_sender import SenderSettings, WebhookSender

PROGRAM = "patchwork-webhooks"
log = logging.getLogger("patchwork.webhooks")


def main() -> None:
    """Entry point of `patchwork-webhooks` and `python -m service.botworker.webhooks_main`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        settings = Settings.from_env()
        # A connection per sending thread, and the loop's own.
        storage = storage_from_settings(
            settings, max_connections=settings.webhook_concurrency + 2, needed_by=PROGRAM
        )
    except ConfigError as err:
        sys.exit(f"{PROGRAM}: {err}")
    if settings.metrics_port is not None:
        serve_metrics(PROGRAM, settings.host, settings.metrics_port, scrape_registry())
    guard = AddressGuard(allow_http=settings.webhook_allow_http, allow_private=settings.webhook_allow_private)
    sender = WebhookSender(
        storage.webhooks,
        guard,
        SenderSettings.of(settings),
        storage.games.now_ms,
        sent=lambda status: webhook_attempts(status).inc(),
    )
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: sender.stop())
    log.info("sending webhooks")
    try:
        sender.run()
    finally:
        storage.close()


if __name__ == "__main__":
    main()
