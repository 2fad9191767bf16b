"""Who may read GET /metrics, and on which port.

/metrics is for the operator's network (docs/operations.md#metrics): it shows what the
instance does and costs a scrape's work. Two settings keep it there:

- METRICS_PORT: gunicorn listens on it too (service/run/gunicorn_conf.py), and
  /metrics is answered there only; the service port answers it 404, and the
  metrics port answers nothing else. The port a request came in on is read
  from its socket, never from its Host header, which any client writes.
- METRICS_TOKEN: /metrics needs `Authorization: Bearer <token>`.

A refused scrape is the 404 not_found of a path no route matches: what the
nginx example answers, and nothing that tells a stranger it is there.
"""

from __future__ import annotations

import hmac

from flask import Flask, request

from service.api.problems import no_such_resource
from service.config import Settings

METRICS_PATH = "/metrics"
# The server's socket for this request, as gunicorn hands it to the app.
_SOCKET_KEY = "gunicorn.socket"


def _arrival_port() -> int | None:
    """The local TCP port the request came in on (None off gunicorn, or on a Unix socket)."""
    sock = request.environ.get(_SOCKET_KEY)
    if sock is None:
        return None
    local = sock.getsockname()
    return local[1] if isinstance(local, tuple) else None


def _token_sent(expected: str) -> bool:
    scheme, _, sent = request.headers.get("Authorization", "").partition(" ")
    # Constant time: how much of a guess matched must not show in the answer's timing.
    return scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), expected.encode())


def install_metrics_access(app: Flask, settings: Settings) -> None:
    """Refuse /metrics off its port or without its token, and everything but /metrics on its port."""
    if settings.metrics_port is None and settings.metrics_token is None:
        return
    metrics_port = settings.metrics_port

    @app.before_request
    def _metrics_only_where_allowed() -> None:
        scrape = request.path == METRICS_PATH
        if metrics_port is not None and (_arrival_port() == metrics_port) != scrape:
            raise no_such_resource()
        if scrape and settings.metrics_token is not None and not _token_sent(settings.metrics_token):
            raise no_such_resource()
