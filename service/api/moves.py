"""Making a move, and reading a game's history.

A move is judged in API.md's order (form, game, token, idempotent replay,
If-Match, game state, the move itself) and committed with one atomic
compare-and-set. Losing the race to another instance is not an error for the
client: without If-Match the move is judged again against the new state,
which the refused compare-and-set returns.

When this process stored the game's previous move, the move is judged on
the copy it kept (recent_games.py) and committed without reading the game
first: one Redis round trip instead of two. The compare-and-set on version
and revision is what makes that safe; refusals are given only against a
game just read from the store.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from service.engine import (
    Buy,
    GameState,
    RuleError,
    apply_move,
    canonical_placement,
    resolve_placement,
)
from service.storage import GameStore, IdempotencyRecord, StorageError, StoredGame

from .conditions import etag, if_match_holds
from .context import services
from .games import check_game_id, game_not_found
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
from .recent_games import LoadedGame, RecentGames
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

    def __init__(self, game_id: str, body: dict, store: GameStore, recent: RecentGames):
        self.game_id = game_id
        self.store = store
        self.recent = recent
        self.move = load_move(body)
        self.token = bearer_token()
        key = request.headers.get("Idempotency-Key")
        # Without a token the request ends in 401, which is never recorded.
        self.key = scoped_key(self.token, key) if key is not None and self.token else None
        self.fingerprint = fingerprint(body) if self.key else None
        self.if_match = request.headers.get("If-Match")

    def answer(self) -> Response:
        if self.key is None:
            kept = self.recent.get(self.game_id)
            if kept is not None:
                return self._play(kept, fresh=False)
            return self._play(self._load(), fresh=True)
        # The key is claimed in the same round trip as the game is read.
        stored, existing = self.store.load_for_move(self.game_id, self.key, self.fingerprint)
        if stored is None:
            raise game_not_found(self.game_id)
        game = _decoded(stored)
        if existing is not None:
            self._seat(game.record)  # 401 comes before any replay
            return self._replay(existing)
        try:
            return self._play(game, fresh=True)
        except StorageError:
            # Another call to a store that just failed would only add a second
            # timeout; the in-progress marker expires on its own.
            raise
        except BaseException:
            self._release()
            raise

    def _load(self) -> LoadedGame:
        stored = self.store.load_game(self.game_id)
        if stored is None:
            self.recent.drop(self.game_id)
            raise game_not_found(self.game_id)
        return _decoded(stored)

    def _release(self) -> None:
        try:
            self.store.release_key(self.game_id, self.key)
        except StorageError:
            pass  # the in-progress marker expires on its own

    def _replay(self, existing: IdempotencyRecord) -> Response:
        if existing.fingerprint != self.fingerprint:
            raise ApiProblem(422, "idempotency_key_reused",
                             "This Idempotency-Key was used with a different body.")
        if existing.in_progress:
            raise ApiProblem(409, "idempotency_key_in_use",
                             "The first request with this Idempotency-Key is still running.",
                             headers={"Retry-After": "1"})
        return answer_response(existing.answer)

    def _play(self, game: LoadedGame, fresh: bool) -> Response:
        """Judge the move on `game` and commit it; judge again on the stored game when that moved.

        `fresh`: `game` was just read from the store. A kept copy (not
        fresh) may be out of date, so a refusal on it is never given: the
        game is read again and the move judged on that.
        """
        for _attempt in range(MAX_COMMIT_ATTEMPTS):
            try:
                seat, state = self._judge(game)
            except (ApiProblem, RuleError) as refusal:
                if not fresh:
                    game, fresh = self._load(), True
                    continue
                if isinstance(refusal, RuleError):
                    return self._refuse(from_rule_error(refusal), game.version)
                if refusal.status == 412:
                    return self._refuse(refusal, game.version)
                raise
            committed = self._commit(game, game.record.advanced(state), seat)
            if isinstance(committed, Response):
                return committed
            game, fresh = committed, True
        raise ApiProblem(503, "storage_unavailable", "The game is changing too fast; try again.",
                         headers={"Retry-After": "1"})

    def _judge(self, game: LoadedGame) -> tuple[int, GameState]:
        """(seat, state after the move), in API.md's order: token, If-Match, the move."""
        seat = self._seat(game.record)
        if self.if_match is not None and not if_match_holds(self.if_match, game.version):
            raise ApiProblem(412, "version_mismatch",
                             f"The game is at version {game.version}, not {self.if_match}.")
        return seat, apply_move(game.record.state, self.move, seat)

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

    def _commit(self, game: LoadedGame, record: GameRecord, seat: int) -> Response | LoadedGame:
        """Store the new state: the 201, or the game as stored now when it had moved on."""
        version = game.version + 1
        number = record.state.moves_played
        view = compact(game_view(record, version))
        location = f"/games/{self.game_id}/moves/{number}"
        answer = None
        if self.key is not None:
            answer = encode_answer(201, view, {"ETag": etag(version), "Location": location})
        result = self.store.commit_move(self.game_id, game.version, record.encode(), view,
                                        _history_entry(number, seat, self.move),
                                        self.key, self.fingerprint, answer,
                                        expected_revision=game.revision)
        if result.committed:
            self.recent.put(self.game_id, LoadedGame(version, result.revision, record))
            return json_response(view, 201, version=version, location=location)
        if result.current is None:
            self.recent.drop(self.game_id)
            raise game_not_found(self.game_id)
        return _decoded(result.current)


def _decoded(stored: StoredGame) -> LoadedGame:
    return LoadedGame(stored.version, stored.revision, GameRecord.decode(stored.state))


@bp.post("/games/<game_id>/moves")
def make_move(game_id: str):
    body = read_json_object(required=True)
    check_headers("makeMove")
    check_body("makeMove", body)
    check_game_id(game_id)
    context = services()
    return MoveRequest(game_id, body, context.store, context.recent_games).answer()


@bp.get("/games/<game_id>/moves")
def list_moves(game_id: str):
    check_headers("listMoves")
    since = read_query("listMoves").get("since") or 0
    check_game_id(game_id)
    found = services().store.load_moves(game_id, since, -1)
    if found is None:
        raise game_not_found(game_id)
    version, entries = found
    return not_modified(version) or json_response(f'{{"moves":[{",".join(entries)}]}}', version=version)


@bp.get("/games/<game_id>/moves/<number>")
def get_move(game_id: str, number: str):
    check_headers("getMove")
    n = read_path("getMove")["number"]
    check_game_id(game_id)
    found = services().store.load_moves(game_id, n - 1, n - 1)
    if found is None:
        raise game_not_found(game_id)
    version, entries = found
    if not entries:
        raise ApiProblem(404, "not_found", f"The game has {version - 1} moves; there is no move {n}.")
    return not_modified(version) or json_response(entries[0], version=version)
