"""Tournaments: POST /tournaments, the lists, GET /tournaments/{id}, join, withdraw, start, cancel and the
tournament's event stream (site/tournaments.py)."""

from __future__ import annotations

from flask import Blueprint, Response, request
from marshmallow import ValidationError

from service.api.context import client_address, services
from service.api.incoming import (
    bearer_token,
    check_body,
    check_headers,
    read_json_object,
    read_optional_body,
    read_query,
)
from service.api.problems import invalid_request
from service.api.responses import json_response
from service.api.schemas import load_tournament
from service.games.jsontext import compact
from service.languages import Text
from service.site.stream_feed import event_id_or_none
from service.site.tournament_feed import TournamentFeed
from service.site.tournament_records import TournamentNotFound
from service.site.tournaments import check_request

from .events import event_stream

bp = Blueprint("tournaments", __name__)


def _body(tournament: dict) -> str:
    return compact({"tournament": tournament})


@bp.post("/tournaments")
def create_tournament():
    """Organise a tournament: the upcoming tournament."""
    body = read_json_object(required=True)
    check_headers("createTournament")
    check_body("createTournament", body)
    player = services().players.authenticate(bearer_token())
    try:
        wanted = load_tournament(body)
    except ValidationError:  # the one field the schema's `format` leaves unchecked
        raise invalid_request(
            Text("A field does not match the API: see errors."),
            [{"pointer": "/starts_at", "message": Text("expected an RFC 3339 time with an offset")}],
        ) from None
    tournaments = services().tournaments
    check_request(wanted, tournaments.play.now_ms())
    tournament = tournaments.create(player, wanted)
    return json_response(_body(tournament), 201, location=f"/tournaments/{tournament['id']}")


@bp.get("/tournaments")
def list_tournaments():
    """A page of the listed tournaments of a status."""
    check_headers("listTournaments")
    query = read_query("listTournaments")
    page = services().tournaments.page(query["status"], query.get("cursor"))
    return json_response(compact({"tournaments": page.games, "next": page.next}))


@bp.get("/tournaments/<tournament_id>")
def get_tournament(tournament_id: str):
    check_headers("getTournament")
    return json_response(_body(services().tournaments.get(tournament_id)))


@bp.post("/tournaments/<tournament_id>/join")
def join_tournament(tournament_id: str):
    read_optional_body("joinTournament")
    player = services().players.authenticate(bearer_token())
    return json_response(_body(services().tournaments.join(tournament_id, player)))


@bp.post("/tournaments/<tournament_id>/withdraw")
def withdraw_from_tournament(tournament_id: str):
    read_optional_body("withdrawFromTournament")
    player = services().players.authenticate(bearer_token())
    return json_response(_body(services().tournaments.withdraw(tournament_id, player)))


@bp.post("/tournaments/<tournament_id>/start")
def start_tournament(tournament_id: str):
    read_optional_body("startTournament")
    player = services().players.authenticate(bearer_token())
    return json_response(_body(services().tournaments.start(tournament_id, player)))


@bp.post("/tournaments/<tournament_id>/cancel")
def cancel_tournament(tournament_id: str):
    read_optional_body("cancelTournament")
    player = services().players.authenticate(bearer_token())
    return json_response(_body(services().tournaments.cancel(tournament_id, player)))


@bp.get("/tournaments/<tournament_id>/events")
def tournament_events(tournament_id: str):
    """The tournament's events as Server-Sent Events, resumable with Last-Event-ID."""
    check_headers("streamTournamentEvents")
    query = read_query("streamTournamentEvents")
    after = event_id_or_none(request.headers.get("Last-Event-ID") or query.get("last_event_id"))
    tournaments = services().tournaments
    tournaments.load(tournament_id)  # 404 before a place is taken among the client's streams
    client = client_address()
    open_streams = services().open_streams
    open_streams.open(client)  # 429 past the client's limit
    try:
        feed = TournamentFeed.open(
            tournaments.book, tournament_id, after, services().settings.events_keepalive
        )
        if feed is None:
            raise TournamentNotFound()
    except BaseException:
        open_streams.close(client)
        raise
    if feed.nothing_left:
        # As for a finished game: EventSource stops on a 204, where an empty stream has it reconnect for ever.
        feed.close()
        open_streams.close(client)
        return Response(status=204)
    return event_stream(feed, lambda: open_streams.close(client))
