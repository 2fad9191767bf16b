"""Run the service under gunicorn, with a private Redis when REDIS_URL is unset.

The embedded Redis makes a fresh machine need nothing but Python: its data
lives in PATCHWORK_DATA_DIR, it listens only on a Unix socket there, and it
stops when the service stops. Workers learn its URL through REDIS_URL.
"""

from __future__ import annotations

import logging
import os
import sys

from gunicorn.app.base import BaseApplication

from service.config import ConfigError, Settings
from service.storage.embedded import EmbeddedRedis

log = logging.getLogger("patchwork.runner")


class _Gunicorn(BaseApplication):
    """gunicorn with our config module and the app from service.wsgi."""

    def load_config(self):
        from service import gunicorn_conf

        for name in dir(gunicorn_conf):
            if name in self.cfg.settings and not name.startswith("_"):
                self.cfg.set(name, getattr(gunicorn_conf, name))

    def load(self):
        from service.wsgi import app

        return app


def main() -> None:
    """Entry point of `patchwork-service` and `python -m service`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        settings = Settings.from_env()
    except ConfigError as err:
        sys.exit(f"patchwork-service: {err}")
    embedded = None
    arbiter_pid = os.getpid()
    if settings.redis_url is None:
        embedded = EmbeddedRedis(settings.data_dir, settings.embedded_redis_maxmemory)
        os.environ["REDIS_URL"] = embedded.start()
        log.info("embedded Redis for data in %s", settings.data_dir)
    try:
        log.info("serving on http://%s:%d", settings.host, settings.port)
        _Gunicorn().run()
    finally:
        # gunicorn's forked workers leave through this frame too: only the
        # arbiter that started the embedded Redis may stop it.
        if embedded is not None and os.getpid() == arbiter_pid:
            embedded.stop()
