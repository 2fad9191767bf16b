"""Game records over HTTP (docs/records.md): a game's record, importing one, and a player's finished games as NDJSON.

The text and the replay are the game-play core's (service/games/record_text.py,
record_games.py); this module adds what HTTP needs: the record's media
type and ETag, reading a text body, the refusal of a record as problem+json
naming its line and token, and the streamed answer of a player's games.
"""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, Response, stream_with_context

from service.api.context import services
from service.api.incoming import check_headers, read_query, read_text_body
from service.api.problems import ApiProblem, invalid_request
from service.api.responses import etag, json_response, not_modified
from service.engine.errors import ExplainedError
from service.games.record_games import game_record, imported, replay_record
from service.games.record_text import MEDIA_TYPE, RecordError
from service.games.refusals import explained, no_version
from service.languages import Text
from service.site.archive import ArchiveQuery, finished_lines

from .games import IMMUTABLE

bp = Blueprint("records", __name__)

RECORD_CONTENT_TYPE = f"{MEDIA_TYPE}; charset=utf-8"
# What POST /games/import takes: a record as served, or as any tool saves a text file.
IMPORT_MEDIA_TYPES = (MEDIA_TYPE, "text/plain")
NDJSON_MIMETYPE = "application/x-ndjson"


@bp.get("/games/<game_id>/record")
def get_record(game_id: str):
    """The game's record now, or at `?version=N`; 304 while the client's copy is current."""
    check_headers("getGameRecord")
    wanted = read_query("getGameRecord").get("version")
    play = services().play
    found = play.view(game_id)
    version = found.version if wanted is None else wanted
    if version > found.version:
        raise no_version(found.version, version)
    # A join or a seat's new name changes the names of the current version's record in place.
    cached = not_modified(version, changed_in_place=found.changed_in_place and version == found.version)
    if cached is not None:
        return cached
    resp = Response(game_record(play, game_id, version), content_type=RECORD_CONTENT_TYPE)
    resp.headers["ETag"] = etag(version)
    if version < found.version:
        resp.headers["Cache-Control"] = IMMUTABLE
    return resp


@bp.post("/games/import")
def import_game():
    """Replay a finished game's record and store it as a finished, unrated game: 201 with the Game."""
    raw = read_text_body(IMPORT_MEDIA_TYPES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise record_problem(
            RecordError(
                "line {line}: the record is not UTF-8 text ({reason})", line=1, token="", reason=error.reason
            )
        ) from None
    try:
        replayed = replay_record(text)
    except RecordError as error:
        raise record_problem(error) from None
    created = services().play.store_whole(imported(replayed), replayed.entries)
    return json_response(
        created.view, 201, version=len(replayed.entries) + 1, location=f"/games/{created.game_id}"
    )


def record_problem(error: RecordError) -> ApiProblem:
    """422 for a record refused: its detail, and one `errors` item naming the line and the token."""
    values = {
        name: explained(value) if isinstance(value, ExplainedError) else value
        for name, value in error.values.items()
    }
    detail = Text(error.message, values)
    return ApiProblem.of(
        error.code, detail, errors=[{"line": error.line, "token": error.token, "message": detail}]
    )


@bp.get("/players/<player_id>/games.ndjson")
def player_games_ndjson(player_id: str):
    """Every finished game of the player, newest first, one JSON object a line, streamed."""
    check_headers("exportPlayerGames")
    query = read_query("exportPlayerGames")
    wanted = ArchiveQuery(
        since_ms=_epoch_ms(query, "since"),
        until_ms=_epoch_ms(query, "until"),
        rated=query.get("rated"),
        most=query.get("max"),
    )
    lines = finished_lines(services().watching, player_id, wanted)
    return Response(stream_with_context(lines), mimetype=NDJSON_MIMETYPE)


def _epoch_ms(query: dict, name: str) -> int | None:
    """A time parameter (RFC 3339, its form checked by the spec) as epoch ms; 400 for a date that does not exist."""
    text = query.get(name)
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("z", "Z").replace("t", "T"))
    except ValueError:
        raise invalid_request(
            Text("A query parameter does not match the API: see errors."),
            [{"parameter": name, "message": Text("must be a time that exists, in RFC 3339 form")}],
        ) from None
    return int(moment.timestamp() * 1000)
