"""Making a move, resigning, and reading a game's history.

The game-play core (service/games) judges and commits the move; this module
reads the HTTP request (body, token, If-Match, Idempotency-Key), replays
recorded answers to retries, records refusals, and shapes the answers.
Resigning is a move like the others (the engine's Resign): it takes the
same path, with the same headers, checks and recorded answers.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from service.engine import Resign
from service.games import (
    Committed,
    GameCopy,
    GamePlay,
    IdempotencyClaim,
    InvalidToken,
    Refusal,
    VersionCondition,
)
from service.games.jsontext import Fragment, compact
from service.storage import IdempotencyRecord, StorageError
from service.telemetry import metrics

from ..context import client_address, services
from ..idempotency import (
    answer_response,
    encode_answer,
    encode_refusal,
    fingerprint,
    refusal_problem,
    scoped_key,
)
from ..incoming import (
    bearer_token,
    check_body,
    check_headers,
    read_json_object,
    read_path,
    read_query,
)
from ..problems import ApiProblem, from_refusal, from_storage_error
from ..responses import etag, if_match_holds, json_response, not_modified
from ..schemas import load_move

bp = Blueprint("moves", __name__)

# Refusals an Idempotency-Key records, so a retry gets the same answer.
RECORDED_REFUSALS = frozenset({409, 412, 422})
# Results of a move besides the refusals' codes (service/telemetry/metrics.py MOVES).
ACCEPTED = "accepted"
REPLAYED = "replayed"


def _location(committed: Committed) -> str:
    return f"/games/{committed.game_id}/moves/{committed.number}"


def _created(committed: Committed) -> Response:
    return json_response(committed.view, 201, version=committed.version, location=_location(committed))


def _recorded_created(committed: Committed) -> str:
    """The 201 as an Idempotency-Key records it, stored with the commit itself."""
    return encode_answer(
        201, committed.view, {"ETag": etag(committed.version), "Location": _location(committed)}
    )


class MoveRequest:
    """One POST /games/{id}/moves with an Idempotency-Key, from the key's claim to the answer."""

    def __init__(
        self,
        play: GamePlay,
        game_id: str,
        move,
        body: dict,
        token: str,
        key: str,
        condition: VersionCondition | None,
    ):
        self.play = play
        self.game_id = game_id
        self.move = move
        self.token = token
        self.condition = condition
        self.claim = IdempotencyClaim(scoped_key(token, key), fingerprint(body), _recorded_created)

    def answer(self) -> tuple[Response, str]:
        """The answer, and the result it counts as (see `_play`)."""
        # The key is claimed in the same round trip as the game is read.
        game, existing = self.play.claim(self.game_id, self.claim.key, self.claim.fingerprint)
        if existing is not None:
            if game.record.seat_of(self.token) is None:
                raise InvalidToken()  # 401 comes before any replay
            return self._replay(existing), REPLAYED
        try:
            return self._play(game)
        except StorageError:
            # Another call to a store that just failed would only add a second
            # timeout; the in-progress marker expires on its own.
            raise
        except BaseException:
            self._release()
            raise

    def _play(self, game: GameCopy) -> tuple[Response, str]:
        try:
            committed = self.play.play(
                self.game_id,
                self.move,
                self.token,
                condition=self.condition,
                claim=self.claim,
                start=game,
                client=client_address(),
            )
        except Refusal as refusal:
            problem = from_refusal(refusal)
            if problem.status not in RECORDED_REFUSALS:
                raise
            # These statuses come from judging the move on `game`, which sets the version.
            assert refusal.version is not None
            self.play.record_refusal(
                self.game_id, self.claim.key, self.claim.fingerprint, encode_refusal(problem, refusal.version)
            )
            return refusal_problem(problem, refusal.version).response(), problem.code
        return _created(committed), ACCEPTED

    def _release(self) -> None:
        try:
            self.play.release(self.game_id, self.claim.key)
        except StorageError:
            pass  # the in-progress marker expires on its own

    def _replay(self, existing: IdempotencyRecord) -> Response:
        if existing.fingerprint != self.claim.fingerprint:
            raise ApiProblem(
                422, "idempotency_key_reused", "This Idempotency-Key was used with a different body."
            )
        if existing.in_progress:
            raise ApiProblem(
                409,
                "idempotency_key_in_use",
                "The first request with this Idempotency-Key is still running.",
                headers={"Retry-After": "1"},
            )
        assert existing.answer is not None  # a record no longer in progress holds its answer
        return answer_response(existing.answer)


def _version_condition() -> VersionCondition | None:
    if "If-Match" not in request.headers:
        return None
    return VersionCondition(if_match_holds, "If-Match")


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
    body = read_json_object(required=False)
    check_headers("resignGame")
    if body is not None:
        check_body("resignGame", body)
    return _play(game_id, Resign(), RESIGN_FINGERPRINT_BODY)


def _play(game_id: str, move, body: dict) -> Response:
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


def _answer(game_id: str, move, body: dict) -> tuple[Response, str]:
    token = bearer_token()
    key = request.headers.get("Idempotency-Key")
    play = services().play
    condition = _version_condition()
    # Without a token the request ends in 401, which is never recorded.
    if key is not None and token:
        return MoveRequest(play, game_id, move, body, token, key, condition).answer()
    try:
        committed = play.play(game_id, move, token, condition=condition, client=client_address())
        return _created(committed), ACCEPTED
    except Refusal as refusal:
        problem = from_refusal(refusal)
        if refusal.version is not None and problem.status in RECORDED_REFUSALS:
            problem.headers["ETag"] = etag(refusal.version)
        raise problem from None


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
        raise ApiProblem(404, "not_found", f"The game has {version - 1} moves; there is no move {n}.")
    return not_modified(version) or json_response(entries[0], version=version)
