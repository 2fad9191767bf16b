"""Cross-origin access for browser frontends (docs/api-guide.md#browsers-and-cors).

Small enough to own rather than configure flask-cors: every response carries
the allow-origin headers, and a preflight is answered before routing, for any
path (before the rate limit and the spec checks), so that even a 404 is
readable by a script (flask-cors relies on a route's automatic OPTIONS). The
methods it allows are the ones the path's route accepts (issue 38: a fixed
list left out DELETE /seeks/{id}).
"""

from __future__ import annotations

from flask import Flask, Response, request

from service.api.vary import add_vary

ALLOWED_HEADERS = (
    "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID, X-Request-ID"
)
EXPOSED_HEADERS = (
    "ETag, Location, Retry-After, Allow, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-ID"
)
# Chromium caps the preflight cache at 2 hours, Firefox at 24: ask for the
# most both honour, so a browser preflights a game's moves once per 2 hours.
PREFLIGHT_MAX_AGE = "7200"


def allowed_methods(app: Flask) -> str:
    """The methods a preflight of the request's path allows: those its route accepts, from the routes
    themselves (a DELETE route is reachable cross-origin as soon as it exists); for a path no route
    matches, every method of any route, so that the 404 a script gets is readable."""
    methods = set(app.url_map.bind_to_environ(request.environ).allowed_methods())
    if not methods:
        methods = {method for rule in app.url_map.iter_rules() for method in rule.methods or ()}
    return ", ".join(sorted(methods | {"OPTIONS"}))


def install_cors(app: Flask, origins: tuple[str, ...]) -> None:
    """Answer preflights and add CORS headers to every response."""
    allow_any = "*" in origins
    allowed = frozenset(origins)

    def allow_origin(origin: str | None) -> str | None:
        if allow_any:
            return "*"
        return origin if origin in allowed else None

    @app.before_request
    def _preflight():
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        resp = Response(status=204)
        resp.headers["Access-Control-Allow-Methods"] = allowed_methods(app)
        resp.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
        resp.headers["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
        return resp

    @app.after_request
    def _cors_headers(resp: Response) -> Response:
        origin = allow_origin(request.headers.get("Origin"))
        if not allow_any:
            add_vary(resp, "Origin")
        if origin is not None:
            resp.headers["Access-Control-Allow-Origin"] = origin
            resp.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        return resp
