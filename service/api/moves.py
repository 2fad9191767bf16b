"""Making a move, and reading a game's history.

A move is judged in API.md's order (form, game, token, idempotent replay,
If-Match, game state, the move itself) and committed with one atomic
compare-and-set. Losing the race to another instance is not an error for the
client: without If-Match the move is judged again against the new state.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from service.engine import (
    Buy,
    RuleError,
    apply_move,
    canonical_placement,
    resolve_placement,
)
from service.storage import GameStore, StorageError, StoredGame

from .conditions import etag, if_match_holds
from .context import services
from .games import game_not_found
from .idempotency import answer_response, encode_answer, fingerprint, scoped_key
from .incoming import (
    bearer_token,
    check_body,
    check_headers,
    read_json_object,
    read_path,
    read_query,
)
from .jsontext import compact
from .legal_moves_view import move_fragment
from .problems import ApiProblem, from_rule_error, problem_response
from .records import GameRecord
from .responses import json_response, not_modified
from .schemas import game_view, load_move

bp = Blueprint("moves", __name__)

# Two seats, one of them in turn: losing the compare-and-set more than a few
# times in a row means something is hammering the game.
MAX_COMMIT_ATTEMPTS = 8


def _history_entry(number: int, seat: int, move) -> str:
    """The stored Move body: the move as accepted, placements completed."""
    if isinstance(move, Buy):
        mask = resolve_placement(move.patch_id, move.placement)
        move = Buy(move.patch_id, canonical_placement(move.patch_id, mask))
    # The move's own fields, encoded once per process (as for legal moves).
    return f'{{"number":{number},"seat":{seat},{move_fragment(move)[1:]}'


class MoveRequest:
    """One POST /games/{id}/moves, from parsed body to answer."""

    def __init__(self, game_id: str, body: dict, store: GameStore):
        self.game_id = game_id
        self.store = store
        self.move = load_move(body)
        self.token = bearer_token()
        key = request.headers.get("Idempotency-Key")
        # Without a token the request ends in 401, which is never recorded.
        self.key = scoped_key(self.token, key) if key is not None and self.token else None
        self.fingerprint = fingerprint(body) if self.key else None
        self.if_match = request.headers.get("If-Match")

    def answer(self) -> Response:
        stored, existing = self.store.load_for_move(self.game_id, self.key, self.fingerprint)
        if stored is None:
            raise game_not_found(self.game_id)
        claimed = self.key is not None and existing is None
        try:
            return self._judge(stored, existing)
        except StorageError:
            # Another call to a store that just failed would only add a second
            # timeout; the in-progress marker expires on its own.
            raise
        except BaseException:
            if claimed:
                self._release()
            raise

    def _release(self) -> None:
        try:
            self.store.release_key(self.game_id, self.key)
        except StorageError:
            pass  # the in-progress marker expires on its own

    def _judge(self, stored: StoredGame, existing) -> Response:
        record = GameRecord.decode(stored.state)
        seat = self._seat(record)
        if existing is not None:
            if existing.fingerprint != self.fingerprint:
                raise ApiProblem(422, "idempotency_key_reused",
                                 "This Idempotency-Key was used with a different body.")
            if existing.in_progress:
                raise ApiProblem(409, "idempotency_key_in_use",
                                 "The first request with this Idempotency-Key is still running.",
                                 headers={"Retry-After": "1"})
            return answer_response(existing.answer)
        for _attempt in range(MAX_COMMIT_ATTEMPTS):
            try:
                if self.if_match is not None and not if_match_holds(self.if_match, stored.version):
                    raise ApiProblem(412, "version_mismatch",
                                     f"The game is at version {stored.version}, not {self.if_match}.")
                state = apply_move(record.state, self.move, seat)
            except RuleError as err:
                return self._refuse(from_rule_error(err), stored.version)
            except ApiProblem as problem:
                return self._refuse(problem, stored.version)
            committed = self._commit(stored, record.advanced(state), seat)
            if committed is not None:
                return committed
            stored = self.store.load_game(self.game_id)
            if stored is None:
                raise game_not_found(self.game_id)
            record = GameRecord.decode(stored.state)
        raise ApiProblem(503, "storage_unavailable", "The game is changing too fast; try again.",
                         headers={"Retry-After": "1"})

    def _seat(self, record: GameRecord) -> int:
        if self.token is None:
            raise ApiProblem(401, "missing_token", "Send Authorization: Bearer <seat token>.",
                             headers={"WWW-Authenticate": "Bearer"})
        seat = record.seat_of(self.token)
        if seat is None:
            raise ApiProblem(401, "invalid_token", "This token is not a seat token of this game.",
                             headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return seat

    def _refuse(self, problem: ApiProblem, version: int) -> Response:
        """A recorded refusal (409, 412, 422) carrying the current ETag."""
        problem.headers["ETag"] = etag(version)
        text = compact(problem.body())
        if self.key is not None:
            self.store.record_answer(self.game_id, self.key, self.fingerprint,
                                     encode_answer(problem.status, text, problem.headers))
        return problem_response(problem.status, text, problem.headers)

    def _commit(self, stored: StoredGame, record: GameRecord, seat: int) -> Response | None:
        """Store the new state; None when another request moved the game first."""
        version = stored.version + 1
        number = record.state.moves_played
        view = compact(game_view(record, version))
        location = f"/games/{self.game_id}/moves/{number}"
        answer = None
        if self.key is not None:
            answer = encode_answer(201, view, {"ETag": etag(version), "Location": location})
        if not self.store.commit_move(self.game_id, stored.version, record.encode(), view,
                                      _history_entry(number, seat, self.move),
                                      self.key, self.fingerprint, answer):
            return None
        return json_response(view, 201, version=version, location=location)


@bp.post("/games/<game_id>/moves")
def make_move(game_id: str):
    body = read_json_object(required=True)
    check_headers("makeMove")
    check_body("makeMove", body)
    return MoveRequest(game_id, body, services().store).answer()


@bp.get("/games/<game_id>/moves")
def list_moves(game_id: str):
    check_headers("listMoves")
    since = read_query("listMoves").get("since") or 0
    found = services().store.load_moves(game_id, since, -1)
    if found is None:
        raise game_not_found(game_id)
    version, entries = found
    return not_modified(version) or json_response(f'{{"moves":[{",".join(entries)}]}}', version=version)


@bp.get("/games/<game_id>/moves/<number>")
def get_move(game_id: str, number: str):
    check_headers("getMove")
    n = read_path("getMove")["number"]
    found = services().store.load_moves(game_id, n - 1, n - 1)
    if found is None:
        raise game_not_found(game_id)
    version, entries = found
    if not entries:
        raise ApiProblem(404, "not_found", f"The game has {version - 1} moves; there is no move {n}.")
    return not_modified(version) or json_response(entries[0], version=version)
