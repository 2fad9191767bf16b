"""RED metrics of every request the app answers: counted by route template, method and status, and timed.

WSGI middleware right around Flask, so it sees the route Flask matched
(`/games/<game_id>/moves`: never the game id, nor a raw path) and times the
app alone. A request no route matched (a 404, a 405) is counted under the
route `unmatched`, and a method outside the standard ones as `other`, so no
client can add series. The time runs until the status line is sent: for an
event stream, until the stream starts.
"""

from __future__ import annotations

import re
from functools import cache
from time import perf_counter

from service.telemetry.metrics import http_duration, http_requests

UNMATCHED = "unmatched"
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# `<game:game_id>` is labelled `<game_id>`: the converter is how the route matches, not what it is.
_CONVERTER = re.compile(r"<[^:<>]+:([^<>]+)>")


def _route(environ) -> str:
    # Flask's request object, which werkzeug leaves in the environ while the app runs.
    request = environ.get("werkzeug.request")
    rule = request.url_rule if request is not None else None
    return _label(rule.rule) if rule is not None else UNMATCHED


@cache
def _label(rule: str) -> str:
    # Once per route, not per request: the routes are few and fixed.
    return _CONVERTER.sub(r"<\1>", rule)


class RequestMetrics:
    """Counts and times each request when the app starts its answer."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        started = perf_counter()

        def start_counted(status, headers, exc_info=None):
            elapsed = perf_counter() - started
            route = _route(environ)
            method = environ.get("REQUEST_METHOD", "")
            if method not in _METHODS:
                method = "other"
            http_requests(route, method, status[:3]).inc()
            http_duration(route, method).observe(elapsed)
            return start_response(status, headers, exc_info)

        return self.app(environ, start_counted)
