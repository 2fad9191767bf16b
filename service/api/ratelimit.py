"""Optional per-client rate limits on creating games and making moves.

Off by default (RATE_LIMIT_CREATE / RATE_LIMIT_MOVES = 0). Counters live in
the shared store, so a limit holds across every app instance. The check runs
before anything else in the request, because its point is to spend as little
as possible on a client that is over its limit; it costs one extra Redis
round trip on the limited endpoints, only when enabled. Headers follow the
IETF RateLimit fields draft (RateLimit-Limit, -Remaining, -Reset in seconds).
Not the `limits` library: its Redis storage opens its own connections,
outside the store's key prefix, timeouts and StorageError (503) handling.
"""

from __future__ import annotations

import math

from flask import Flask, Response, g, request

from service.config import RateLimit, Settings

from .context import services
from .problems import ApiProblem

# endpoint -> counter family; each family has its own limit and counters.
_FAMILIES = {"games.create_game": "create", "moves.make_move": "moves"}


def install_rate_limits(app: Flask, settings: Settings) -> None:
    """Count requests to the limited endpoints and answer 429 past the limit."""
    limits: dict[str, RateLimit] = {
        "create": settings.rate_limit_create,
        "moves": settings.rate_limit_moves,
    }
    if not any(limit.enabled for limit in limits.values()):
        return

    @app.before_request
    def _check_rate_limit():
        family = _FAMILIES.get(request.endpoint or "")
        if family is None or request.method == "OPTIONS" or not limits[family].enabled:
            return None
        limit = limits[family]
        client = request.remote_addr or "unknown"
        count, left_ms = services().store.count_request(f"{family}:{client}", limit.window_seconds)
        reset = max(1, math.ceil(left_ms / 1000))
        g.rate_limit_headers = {
            "RateLimit-Limit": str(limit.limit),
            "RateLimit-Remaining": str(max(0, limit.limit - count)),
            "RateLimit-Reset": str(reset),
        }
        if count > limit.limit:
            raise ApiProblem(429, "rate_limited",
                             f"More than {limit.limit} requests in {limit.window_seconds} s; "
                             f"retry in {reset} s.",
                             headers={"Retry-After": str(reset)})
        return None

    @app.after_request
    def _rate_limit_headers(resp: Response) -> Response:
        for name, value in g.get("rate_limit_headers", {}).items():
            resp.headers[name] = value
        return resp
