"""Player identities and what each player follows: POST /players, GET /players/{id}, GET /players/me, the player's games and its event stream."""

from __future__ import annotations

from flask import Blueprint, request

from service.api.context import client_address, services
from service.api.incoming import bearer_token, check_body, check_headers, read_json_object, read_query
from service.api.responses import json_response
from service.api.schemas import load_new_player
from service.games.clock import rfc3339_ms
from service.games.jsontext import compact
from service.site.stream_feed import event_id_or_none
from service.storage.players import TICKET_TTL_SECONDS

from .events import event_stream
from .leaderboard import repair_ratings

bp = Blueprint("players", __name__)


@bp.post("/players")
def create_player():
    """A new identity (a person's, or a bot account's): its profile and its token, shown this once."""
    body = read_json_object(required=True)
    check_body("createPlayer", body)
    wanted = load_new_player(body)
    player, token = services().players.create(wanted.name, wanted.bot)
    return json_response(
        compact({"player": player.profile(), "token": token}), 201, location=f"/players/{player.id}"
    )


@bp.get("/players/me")
def get_me():
    """The profile of the bearer token's player."""
    check_headers("getMe")
    player = services().players.authenticate(bearer_token())
    repair_ratings()
    # The player's own: its vacation bank and the vacation running (never on the public profile).
    days_left, until_ms = services().vacations.days_left(player)
    profile = services().players.get(player.id).profile()
    profile["vacation_days_left"] = days_left
    profile["vacation_until"] = None if until_ms is None else rfc3339_ms(until_ms)
    return json_response(compact(profile))


@bp.post("/players/me/vacation")
def start_vacation():
    """Pause the player's correspondence clocks for `days` from its yearly bank (site/vacations.py)."""
    body = read_json_object(required=True)
    check_headers("startVacation")
    check_body("startVacation", body)
    player = services().players.authenticate(bearer_token())
    return json_response(compact(services().vacations.start(player, body["days"]).to_json()))


@bp.delete("/players/me/vacation")
def end_vacation():
    """End the player's vacation now: the whole days not begun go back to its bank."""
    check_headers("endVacation")
    player = services().players.authenticate(bearer_token())
    return json_response(compact(services().vacations.end(player).to_json()))


@bp.get("/players/<player_id>")
def get_player(player_id: str):
    """A player's public profile."""
    check_headers("getPlayer")
    repair_ratings()
    return json_response(compact(services().players.get(player_id).profile()))


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
