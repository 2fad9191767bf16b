"""Per-client rate limits: games created, moves, games per hour, bot games, hints, analyses, players, seeks and joins.

Nine families, each with its own limit and counters: `create` (POST /games
per RATE_LIMIT_WINDOW_SECONDS) and `moves` (POST /games/{id}/moves and
/resign) are off by default (RATE_LIMIT_CREATE / RATE_LIMIT_MOVES = 0);
`games` (POST /games per hour, every game: open, bot, neither or imported by
POST /games/import) is on by
default, because each game stays in Redis for a month (issue 36: one client
filled a 16 MB Redis with open games in 13 s); `bot_games` (POST /games with a
bot seat), `hints` (GET /games/{id}/hint) and `analyses` (POST
/games/{id}/analysis) are on by default and generous, because each of those
costs the service CPU; so are `players` (POST /players), `seeks` (POST
/seeks) and `joins` (POST /games/{id}/join), because each leaves something
in Redis (a player for good). Counters live in the shared
store, so a limit holds across every app instance; a counted request costs
one extra Redis round trip, only when its family is enabled.

Most families are counted before anything else in the request, because the
point is to spend as little as possible on a client that is over its limit.
A bot game is known only from the body, so `count_bot_game` is called by the
create view once the body is read (after the 413/415/invalid-JSON checks,
before the body is validated: a refused bot game counts as well).

Headers follow the IETF RateLimit fields draft (RateLimit-Limit, -Remaining,
-Reset in seconds); when one request counts in two families the headers
show the one with the least left. Not the `limits` library: its Redis
storage opens its own connections, outside the store's key prefix, timeouts
and StorageError (503) handling.
"""

from __future__ import annotations

import math

from flask import Flask, Response, g, request

from service.api.context import client_address, services
from service.api.problems import ApiProblem
from service.config import RateLimit, Settings
from service.languages import NP_, Plural

CREATE, MOVES, BOT_GAMES, HINTS, ANALYSES = "create", "moves", "bot_games", "hints", "analyses"
PLAYERS, SEEKS, JOINS, GAMES = "players", "seeks", "joins", "games"
# The 429's detail for each family: how many of what in how long.
# (Its singular and plural: a limit is a setting, and may be 1.)
_TOO_MANY = {
    CREATE: NP_(
        "More than {limit} request in {window} s; retry in {reset} s.",
        "More than {limit} requests in {window} s; retry in {reset} s.",
    ),
    MOVES: NP_(
        "More than {limit} request in {window} s; retry in {reset} s.",
        "More than {limit} requests in {window} s; retry in {reset} s.",
    ),
    BOT_GAMES: NP_(
        "More than {limit} game with a bot in {window} s; retry in {reset} s.",
        "More than {limit} games with a bot in {window} s; retry in {reset} s.",
    ),
    HINTS: NP_(
        "More than {limit} hint in {window} s; retry in {reset} s.",
        "More than {limit} hints in {window} s; retry in {reset} s.",
    ),
    PLAYERS: NP_(
        "More than {limit} player created in {window} s; retry in {reset} s.",
        "More than {limit} players created in {window} s; retry in {reset} s.",
    ),
    SEEKS: NP_(
        "More than {limit} seek in {window} s; retry in {reset} s.",
        "More than {limit} seeks in {window} s; retry in {reset} s.",
    ),
    JOINS: NP_(
        "More than {limit} join in {window} s; retry in {reset} s.",
        "More than {limit} joins in {window} s; retry in {reset} s.",
    ),
    ANALYSES: NP_(
        "More than {limit} analysis request in {window} s; retry in {reset} s.",
        "More than {limit} analysis requests in {window} s; retry in {reset} s.",
    ),
    GAMES: NP_(
        "More than {limit} game created in {window} s; retry in {reset} s.",
        "More than {limit} games created in {window} s; retry in {reset} s.",
    ),
}

# endpoint -> the families every request to it counts in.
_ENDPOINT_FAMILIES = {
    "games.create_game": (CREATE, GAMES),
    # An imported game stays in Redis as a created one does.
    "records.import_game": (CREATE, GAMES),
    "moves.make_move": (MOVES,),
    "moves.resign_game": (MOVES,),
    "hints.get_hint": (HINTS,),
    "players.create_player": (PLAYERS,),
    "seeks.create_seek": (SEEKS,),
    "lobby.join_game": (JOINS,),
    "analysis.request_analysis": (ANALYSES,),
    # A challenge waits for its game as an open lobby game does: counted among the games a client
    # makes an hour (issue 38); its acceptance fills the game as a join does.
    "challenges.create_challenge": (GAMES,),
    "challenges.accept_challenge": (JOINS,),
    # A tournament stays in Redis as a game does, and makes games of its own: counted among the games
    # a client makes an hour (issue 39); joining one counts as a join.
    "tournaments.create_tournament": (GAMES,),
    "tournaments.join_tournament": (JOINS,),
}


def _limits(settings: Settings) -> dict[str, RateLimit]:
    return {
        CREATE: settings.rate_limit_create,
        MOVES: settings.rate_limit_moves,
        BOT_GAMES: settings.rate_limit_bot_games,
        HINTS: settings.rate_limit_hints,
        PLAYERS: settings.rate_limit_players,
        SEEKS: settings.rate_limit_seeks,
        JOINS: settings.rate_limit_joins,
        ANALYSES: settings.rate_limit_analyses,
        GAMES: settings.rate_limit_games,
    }


def install_rate_limits(app: Flask, settings: Settings) -> None:
    """Count requests to the limited endpoints and answer 429 past the limit."""
    limits = _limits(settings)
    if not any(limit.enabled for limit in limits.values()):
        return
    counted_by_endpoint = {
        endpoint: [family for family in families if limits[family].enabled]
        for endpoint, families in _ENDPOINT_FAMILIES.items()
    }

    @app.before_request
    def _check_rate_limit():
        if request.method != "OPTIONS":
            for family in counted_by_endpoint.get(request.endpoint or "", ()):
                _count(family, limits[family])

    @app.after_request
    def _rate_limit_headers(resp: Response) -> Response:
        for name, value in g.get("rate_limit_headers", {}).items():
            resp.headers[name] = value
        return resp


def has_bot_player(body: dict | None) -> bool:
    """Whether a POST /games body asks for a bot seat (a player with a non-null `bot`)."""
    players = (body or {}).get("players")
    if not isinstance(players, list):
        return False
    return any(isinstance(player, dict) and player.get("bot") is not None for player in players)


def count_bot_game(body: dict | None) -> None:
    """Count a POST /games whose body has a bot seat against the bot-game limit; 429 past it."""
    limit = services().settings.rate_limit_bot_games
    if limit.enabled and has_bot_player(body):
        _count(BOT_GAMES, limit)


def _count(family: str, limit: RateLimit) -> None:
    """Count this request in `family` for its client: set the headers, 429 past the limit."""
    client = client_address()
    count, left_ms = services().requests.count(f"{family}:{client}", limit.window_seconds)
    reset = max(1, math.ceil(left_ms / 1000))
    remaining = max(0, limit.limit - count)
    shown = g.get("rate_limit_headers")
    if shown is None or remaining <= int(shown["RateLimit-Remaining"]):
        g.rate_limit_headers = {
            "RateLimit-Limit": str(limit.limit),
            "RateLimit-Remaining": str(remaining),
            "RateLimit-Reset": str(reset),
        }
    if count > limit.limit:
        raise ApiProblem.of(
            "rate_limited",
            Plural(
                *_TOO_MANY[family],
                "limit",
                {"limit": limit.limit, "window": limit.window_seconds, "reset": reset},
            ),
            headers={"Retry-After": str(reset)},
        )
