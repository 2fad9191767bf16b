"""schemathesis hooks for fuzzing the live service: real seat tokens, one known false positive dropped.

Loaded by schemathesis itself, through `hooks = "tests.fuzz.hooks"` in
tests/fuzz/schemathesis.toml, into every `schemathesis --config-file
tests/fuzz/schemathesis.toml run ...` (the tests run that command too), so
the command must run from the repository's top directory.

Seat tokens. `makeMove` needs the bearer token of a seat, which only the
`createGame` response carries. The spec's links `MakeMoveAsSeat0/1` copy
`tokens[0]`/`tokens[1]` into the `Authorization` header, and schemathesis
follows them; but its `ignored_auth` check takes any Authorization header it
did not set itself for a generated (invalid) one, and calls the `201` that a
real token earns a failure. So the tokens also go through an auth provider:
`after_call` records every game's tokens and seat in turn from the answers,
and `SeatToken` sends, for a game it knows, the token a link put there or
else the token of the seat in turn (so fuzzing a move on a game taken from
an earlier answer can succeed too). Auth from a provider counts as
real for schemathesis, so `ignored_auth` then does its actual job: it repeats
an accepted move without a token and with a wrong one and expects `401`.

Placements in both forms. The spec lets a placement give an orientation and
its cells together but cannot say that they must name the same cells; when
they do not, the move is wrong for the rules (`422 does_not_fit`, as a move
that does not fit is: issue 38, where it was a `400` schemathesis called
"valid data rejected"). Two forms drawn at random almost never agree, so
`before_call` gives such a placement, when the body is otherwise valid, the
cells its orientation covers (or drops them, when the orientation leaves the
board), as a client copying a shown placement sends it, and the moves reach
the rest of the rules; tests/api/test_moves.py tests the `422`.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass

import schemathesis
from jsonschema import Draft202012Validator
from schemathesis import AuthContext, Case, HookContext, Response
from schemathesis.core.failures import Failure
from schemathesis.openapi.checks import MissingHeaderNotRejected, RejectedPositiveData

from service.api.contract.request_validator import RequestValidator
from service.api.contract.spec import load_spec
from service.engine import BOARD_SIZE, Placement, orientation_cells

BEARER = "Bearer "


@dataclass
class Seats:
    """What a test run knows about one game it created."""

    tokens: tuple[str, str]
    turn: int | None


class SeatRegistry:
    """Tokens and turn per game id, as learnt from the service's answers (thread-safe: CLI workers)."""

    def __init__(self) -> None:
        self._games: dict[str, Seats] = {}
        self._lock = threading.Lock()

    def learn_game(self, game_id: str, tokens: list[str], turn: int | None) -> None:
        with self._lock:
            self._games[game_id] = Seats((tokens[0], tokens[1]), turn)

    def learn_turn(self, game_id: str, turn: int | None) -> None:
        with self._lock:
            seats = self._games.get(game_id)
            if seats is not None:
                seats.turn = turn

    def get(self, game_id: str) -> Seats | None:
        with self._lock:
            return self._games.get(game_id)


SEATS = SeatRegistry()


@schemathesis.hook
def after_call(context: HookContext, case: Case, response: Response) -> None:
    """Learn tokens from createGame's 201 and the seat in turn from every Game body."""
    operation_id = case.operation.definition.raw.get("operationId")
    if operation_id not in ("createGame", "makeMove", "getGame") or not 200 <= response.status_code < 300:
        return
    if case.method.upper() != case.operation.method.upper():
        return  # the coverage phase also sends other methods (OPTIONS: a CORS answer)
    body = json.loads(response.content)
    if operation_id == "createGame":
        game = body["game"]
        SEATS.learn_game(game["id"], body["tokens"], game["turn"])
    else:
        SEATS.learn_turn(body["id"], body["turn"])


def _sent_token(case: Case) -> str | None:
    header = case.headers.get("Authorization") if case.headers else None
    if isinstance(header, str) and header.startswith(BEARER):
        return header[len(BEARER) :]
    return None


@schemathesis.auth(refresh_interval=None).apply_to(operation_id="makeMove")
class SeatToken:
    """The bearer token of a seat of the game the move is for, when this run created that game."""

    def get(self, case: Case, context: AuthContext) -> str | None:
        seats = SEATS.get(str((case.path_parameters or {}).get("game_id")))
        if seats is None:
            return None  # a game this run never created: whatever was generated is sent, and refused
        sent = _sent_token(case)
        if sent in seats.tokens:
            return sent  # a link chose the seat: keep its choice (the other seat's is a 409)
        return seats.tokens[seats.turn or 0]

    def set(self, case: Case, token: str, context: AuthContext) -> None:
        case.headers = {**(case.headers or {}), "Authorization": BEARER + token}


REQUESTS = RequestValidator(load_spec())


@schemathesis.hook
def before_call(context: HookContext, case: Case, kwargs: dict) -> None:
    """A valid move body with a placement in both forms: make its cells the orientation's."""
    body = case.body
    if case.operation.definition.raw.get("operationId") != "makeMove" or not isinstance(body, dict):
        return
    placement = body.get("placement")
    if not isinstance(placement, dict) or placement.get("cells") is None or placement.get("row") is None:
        return
    if REQUESTS.body_errors("makeMove", body):
        return  # an invalid body stays as it was generated, to be refused
    orientation = Placement(
        int(placement["row"]),
        int(placement["col"]),
        int(placement.get("rotation") or 0),
        bool(placement.get("flipped")),
    )
    cells = orientation_cells(int(body["patch_id"]), orientation)
    if all(row < BOARD_SIZE and col < BOARD_SIZE for row, col in cells):
        agreed = {**placement, "cells": [list(cell) for cell in cells]}
    else:
        agreed = {name: value for name, value in placement.items() if name != "cells"}
    case.body = {**body, "placement": agreed}


def _broken_headers(case: Case) -> list[str]:
    """Declared headers the case sends with a value their own schema refuses."""
    broken = []
    for parameter in case.operation.headers:
        value = (case.headers or {}).get(parameter.name)
        schema = parameter.definition.get("schema")
        if value is not None and schema and not Draft202012Validator(schema).is_valid(str(value)):
            broken.append(parameter.name)
    return broken


# Failures that hold only if the rest of the request was valid.
_ASSUME_VALID_REST = (RejectedPositiveData, MissingHeaderNotRejected)


@schemathesis.hook
def filter_failure(context: HookContext, failure: Failure, case: Case, response: Response) -> bool:
    """Drop failures that assume a valid request when a header of it broke the spec.

    schemathesis's coverage phase makes positive header values from letters
    and digits only, so for a header whose pattern needs a `"` (If-Match,
    If-None-Match) it has no valid value and puts an invalid one (`If-Match:
    0`) into cases it still treats as valid: "valid data rejected" when the
    answer is 400, and "missing Authorization not answered 401" when the 400
    for the bad header comes first, as docs/api-guide.md#order-of-checks orders them. Judged here by the
    spec's own parameter schemas, not by the service's validator.
    """
    return not (isinstance(failure, _ASSUME_VALID_REST) and _broken_headers(case))
