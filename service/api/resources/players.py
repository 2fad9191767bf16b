"""Player identities (POST /players, GET /players/{id}, GET /players/me), and the lobby: listing open games and joining one."""

from __future__ import annotations

from flask import Blueprint, request

from service.api.context import client_address, services
from service.api.idempotency import join_key
from service.api.incoming import bearer_token, check_body, check_headers, read_json_object, read_query
from service.api.responses import json_response
from service.games import GameNotFound, GameRecord
from service.games.jsontext import Fragment, compact
from service.site.player_feed import event_id_or_none
from service.storage.players import TICKET_TTL_SECONDS

from .events import event_stream

bp = Blueprint("players", __name__)


@bp.post("/players")
def create_player():
    """A new identity: its profile and its token, shown this once."""
    body = read_json_object(required=True)
    check_body("createPlayer", body)
    player, token = services().players.create(body["name"])
    return json_response(
        compact({"player": player.profile(), "token": token}), 201, location=f"/players/{player.id}"
    )


def _repair_ratings() -> None:
    """Apply the rated games' settlements whose appliers died (site/rated_games.py) before ratings are read."""
    play = services().play

    def record_of(game_id: str) -> GameRecord | None:
        try:
            return play.load(game_id).record
        except GameNotFound:
            return None

    services().ratings.repair(record_of)


@bp.get("/players/me")
def get_me():
    """The profile of the bearer token's player."""
    check_headers("getMe")
    player = services().players.authenticate(bearer_token())
    _repair_ratings()
    return json_response(compact(services().players.get(player.id).profile()))


@bp.get("/players/<player_id>")
def get_player(player_id: str):
    """A player's public profile."""
    check_headers("getPlayer")
    _repair_ratings()
    return json_response(compact(services().players.get(player_id).profile()))


@bp.get("/leaderboard")
def get_leaderboard():
    """The top 100 players by rating with at least 5 rated games."""
    check_headers("getLeaderboard")
    _repair_ratings()
    players = services().ratings.leaderboard()
    return json_response(compact({"players": [player.profile() for player in players]}))


@bp.get("/games")
def list_games():
    """The lobby: listed games with an open seat, newest first, a page at a time."""
    check_headers("listGames")
    query = read_query("listGames")
    page = services().lobby.open_games(query.get("cursor"))
    return json_response(compact({"games": page.games, "next": page.next}))


@bp.post("/games/<game_id>/join")
def join_game(game_id: str):
    """Take the game's open seat: 201 with the game, the seat and its token (replayed for its Idempotency-Key), or 409 seat_taken."""
    body = read_json_object(required=False) or {}
    check_headers("joinGame")
    check_body("joinGame", body)
    token, key, name = bearer_token(), request.headers.get("Idempotency-Key"), body.get("name")
    lobby = services().lobby
    if key is None:
        joined = lobby.join(game_id, token, name, client=client_address())
    else:
        # A retry with the same key gets this answer again, the seat's token included.
        keyed, secret = join_key(token, key, body, client_address())
        joined = lobby.join_keyed(game_id, token, name, keyed, secret, client=client_address())
    version = compact({"game": Fragment(joined.view), "seat": joined.seat, "token": joined.token})
    return json_response(version, 201, location=f"/games/{game_id}")


@bp.get("/players/me/games")
def my_games():
    """The player's games: those awaiting its move first, then by least time left."""
    check_headers("listMyGames")
    status = read_query("listMyGames").get("status")
    player = services().players.authenticate(bearer_token())
    games = services().players.games(player, services().play, status)
    return json_response(compact({"games": games}))


@bp.post("/players/me/stream-tickets")
def issue_stream_ticket():
    """A one-use ticket for GET /players/me/events?ticket= (EventSource cannot send headers)."""
    check_headers("issueStreamTicket")
    player = services().players.authenticate(bearer_token())
    ticket = services().players.issue_ticket(player)
    return json_response(compact({"ticket": ticket, "expires_in": TICKET_TTL_SECONDS}), 201)


@bp.get("/players/me/events")
def player_events():
    """The player's events (game_start, your_turn, game_end, rematch) as Server-Sent Events, resumable."""
    players = services().players
    # Every ticket the request names is used up before anything can refuse the request (issue 36):
    # a ticket left valid by a 400 would open the stream to whoever reads the URL in a log.
    used = players.use_tickets(request.args.getlist("ticket"))
    check_headers("streamPlayerEvents")
    query = read_query("streamPlayerEvents")
    ticket = query.get("ticket")
    token = bearer_token()
    player = (
        players.ticket_holder(used.get(ticket)) if ticket and token is None else players.authenticate(token)
    )
    after = event_id_or_none(request.headers.get("Last-Event-ID") or query.get("last_event_id"))
    client = client_address()
    open_streams = services().open_streams
    open_streams.open(client)  # 429 past the client's limit, before any store call
    try:
        feed = players.follow(player, after, services().settings.events_keepalive)
    except BaseException:
        open_streams.close(client)
        raise
    return event_stream(feed, lambda: open_streams.close(client))


@bp.post("/games/<game_id>/rematch")
def rematch_game(game_id: str):
    """The next game of a finished one, seats swapped: created by the first seat to ask, the same for the other."""
    body = read_json_object(required=False)
    check_headers("rematchGame")
    if body is not None:
        check_body("rematchGame", body)
    token = bearer_token()
    rematched = services().rematches.rematch(game_id, token)
    # The token the caller sent acts for its seat of the next game too (rematch.py): it is its own.
    text = compact({"game": Fragment(rematched.view), "seat": rematched.seat, "token": token})
    return json_response(text, 201 if rematched.created else 200, location=f"/games/{rematched.game_id}")
