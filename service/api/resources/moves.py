"""Making a move, resigning, and reading a game's history.

The game-play core (service/games) judges and commits the move; this module
reads the HTTP request (body, token, If-Match, Idempotency-Key), replays
recorded answers to retries, records refusals, and shapes the answers.
Resigning is a move like the others (the engine's Resign): it takes the
same path, with the same headers, checks and recorded answers.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from service.api.context import client_address, services
from service.api.idempotency import answer_response, fingerprint, refusal_problem, scoped_key
from service.api.incoming import (
    bearer_token,
    check_body,
    check_headers,
    read_json_object,
    read_optional_body,
    read_path,
    read_query,
)
from service.api.languages import request_language
from service.api.problems import ApiProblem, from_refusal, from_storage_error
from service.api.responses import if_match_versions, json_response, not_modified
from service.api.schemas import load_move
from service.engine import Move, Resign
from service.games import (
    AcceptedAnswer,
    Committed,
    IdempotencyKey,
    Refusal,
    VersionCondition,
)
from service.games.jsontext import Fragment, compact
from service.languages import Plural
from service.storage import StorageError
from service.telemetry import metrics

bp = Blueprint("moves", __name__)

# Results of a move besides the refusals' codes (service/telemetry/metrics.py MOVES).
ACCEPTED = "accepted"
REPLAYED = "replayed"


def _version_condition() -> VersionCondition | None:
    if "If-Match" not in request.headers:
        return None
    return VersionCondition(if_match_versions(), "If-Match")


# What an Idempotency-Key's fingerprint is taken of for a resignation (it has
# no body): unlike `{}`, no move body can look like it, so a key used for a
# move and then for resigning is "reused with a different body".
RESIGN_FINGERPRINT_BODY = {"action": "resign"}


@bp.post("/games/<game_id>/moves")
def make_move(game_id: str):
    """Judge the move and commit it: 201 with the new game, or the refusal."""
    body = read_json_object(required=True)
    check_headers("makeMove")
    check_body("makeMove", body)
    return _play(game_id, load_move(body), body)


@bp.post("/games/<game_id>/resign")
def resign_game(game_id: str):
    """The holder of the token gives the game up: 201 with the finished game, or the refusal."""
    read_optional_body("resignGame")
    return _play(game_id, Resign(), RESIGN_FINGERPRINT_BODY)


def _play(game_id: str, move: Move, body: dict) -> Response:
    """Commit `move` for the request's token, If-Match and Idempotency-Key (`body` fingerprints the key).

    Counted in `patchwork_moves_total` by result: accepted, replayed, or the
    code of the refusal (a request refused for its form never gets here).
    """
    try:
        response, result = _answer(game_id, move, body)
    except (ApiProblem, Refusal) as refused:
        metrics.moves(refused.code).inc()
        raise
    except StorageError as error:
        metrics.moves(from_storage_error(error).code).inc()
        raise
    metrics.moves(result).inc()
    return response


def _answer(game_id: str, move: Move, body: dict) -> tuple[Response, str]:
    """The answer to the move, and the result it counts as."""
    token = bearer_token()
    key = request.headers.get("Idempotency-Key")
    play = services().play
    condition = _version_condition()
    try:
        # Without a token the request ends in 401, which is never recorded.
        if key is not None and token:
            keyed = IdempotencyKey(scoped_key(token, key), fingerprint(body))
            outcome = play.play_keyed(
                game_id,
                move,
                token,
                keyed,
                condition=condition,
                client=client_address(),
                language=request_language(),
            )
            if not isinstance(outcome, Committed):
                return answer_response(game_id, outcome), REPLAYED
        else:
            outcome = play.play(game_id, move, token, condition=condition, client=client_address())
    except Refusal as refusal:
        problem = from_refusal(refusal)
        if refusal.recorded and refusal.version is not None:
            # As recorded for a retry, and so without a key too: the ETag of the game it was judged on.
            problem = refusal_problem(problem, refusal.version)
        raise problem from None
    accepted = AcceptedAnswer(outcome.version, outcome.number, outcome.view)
    return answer_response(game_id, accepted), ACCEPTED


@bp.get("/games/<game_id>/moves")
def list_moves(game_id: str):
    """The history, oldest first, from `since` on."""
    check_headers("listMoves")
    since = read_query("listMoves").get("since") or 0
    version, entries = services().play.history(game_id, since, -1)
    return not_modified(version) or json_response(
        compact({"moves": [Fragment(entry) for entry in entries]}), version=version
    )


@bp.get("/games/<game_id>/moves/<number>")
def get_move(game_id: str, number: str):
    """Move `number` of the history."""
    check_headers("getMove")
    n = read_path("getMove")["number"]
    version, entries = services().play.history(game_id, n - 1, n - 1)
    if not entries:
        raise ApiProblem.of(
            "not_found",
            Plural(
                "The game has {moves} move; there is no move {number}.",
                "The game has {moves} moves; there is no move {number}.",
                "moves",
                {"moves": version - 1, "number": n},
            ),
        )
    return not_modified(version) or json_response(entries[0], version=version)
