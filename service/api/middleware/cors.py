"""Cross-origin access for browser frontends (docs/api-guide.md#browsers-and-cors).

Small enough to own rather than configure flask-cors: every response carries
the allow-origin headers, and a preflight is answered before routing, for any
path (before the rate limit and the spec checks), so that even a 404 or 405 is
readable by a script (flask-cors relies on a route's automatic OPTIONS).
"""

from __future__ import annotations

from flask import Flask, Response, request

from service.api.vary import add_vary

ALLOWED_HEADERS = (
    "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID, X-Request-ID"
)
ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS"
EXPOSED_HEADERS = (
    "ETag, Location, Retry-After, Allow, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-ID"
)
# Chromium caps the preflight cache at 2 hours, Firefox at 24: ask for the
# most both honour, so a browser preflights a game's moves once per 2 hours.
PREFLIGHT_MAX_AGE = "7200"


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
        resp.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
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
