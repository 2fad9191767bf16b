"""X-Request-ID: the client's when it is 1 to 64 visible ASCII characters, else one made here.

WSGI middleware around the whole app, so every answer carries it, whatever
answered (a view, an error handler, a preflight, werkzeug's routing), and
every log line written while the request is served names it
(service/telemetry/logs.py).
"""

from __future__ import annotations

import re
import uuid

from service.telemetry.logs import current_request_id

HEADER = "X-Request-ID"
_ENVIRON_KEY = "HTTP_X_REQUEST_ID"
# Visible ASCII: no spaces or control characters that could forge a log line.
_ACCEPTED = re.compile(r"[\x21-\x7e]{1,64}\Z")


def new_request_id() -> str:
    """A fresh id: 32 hex digits, unique enough to find one request among all the logs."""
    return uuid.uuid4().hex


def request_id_from(sent: str | None) -> str:
    """The id to use for a request that sent `sent` in X-Request-ID."""
    if sent is not None and _ACCEPTED.match(sent):
        return sent
    return new_request_id()


class RequestIds:
    """Gives each request its id before the app runs, and puts it on the answer."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        request_id = request_id_from(environ.get(_ENVIRON_KEY))
        # Left set after the call: gunicorn's access line and a stream's body
        # come after it; the next request on this greenlet sets its own.
        current_request_id.set(request_id)

        def start_with_id(status, headers, exc_info=None):
            headers = [(name, value) for name, value in headers if name.lower() != "x-request-id"]
            headers.append((HEADER, request_id))
            return start_response(status, headers, exc_info)

        return self.app(environ, start_with_id)
