"""Idempotency-Key: the key and fingerprint out of a request, and recorded answers back into responses.

A key belongs to one game and one seat token, so the store key is scoped by a
hash of the token (never the token itself). The core records the answers
(service/games/answers.py) and says when a retry gets one back; a replay is
byte-for-byte the first answer, because the first answer is made by the same
function from the same record: a refusal in the language its record names,
whatever the retry's Accept-Language.
"""

from __future__ import annotations

import hashlib
import json

from flask import Response

from service.games import IdempotencyKey, token_hash
from service.games.answers import AcceptedAnswer, RecordedAnswer

from .problems import ApiProblem
from .responses import etag, json_response

# docs/api-guide.md#idempotency: 201, 409, 412 and 422 answers are recorded (the core does, at the commit
# and on a refusal of the move); 400/401/404/413/415/5xx never are. A join records its 201 alone.


def scoped_key(token: str, key: str) -> str:
    """The store's name for `key` as used by the holder of `token`."""
    return f"{token_hash(token)[:32]}:{key}"


def join_key(token: str | None, key: str, body: dict, client: str) -> tuple[IdempotencyKey, str]:
    """A join's key as the store names it, and the secret that seals the seat token it records (answers.py).

    It belongs to one game and the joiner: its player token, or without one
    the client address (an anonymous joiner has no other name). The store's
    name holds only digests, so the key and the token, the secret, stay
    out of it.
    """
    scope = token_hash(token)[:32] if token is not None else "client:" + _digest(client)
    secret = key if token is None else f"{key}\0{token}"
    return IdempotencyKey(f"join:{scope}:{_digest(key)}", fingerprint(body)), secret


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def fingerprint(body: dict) -> str:
    """A digest that is equal for equal JSON bodies, whatever their key order."""
    # The standard library's form, not jsontext's: fingerprints recorded by
    # an instance must match the ones the next version computes.
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def refusal_problem(problem: ApiProblem, version: int) -> ApiProblem:
    """The refusal as answered and replayed: the problem with the ETag of the game it was judged on."""
    refusal = ApiProblem(
        problem.status, problem.code, problem.text_of_detail, headers={"ETag": etag(version)}
    )
    refusal.language = problem.language
    return refusal


def move_location(game_id: str, number: int) -> str:
    """Where move `number` of the game's history is read."""
    return f"/games/{game_id}/moves/{number}"


def answer_response(game_id: str, answer: RecordedAnswer) -> Response:
    """The response a recorded answer stands for (the first answer, when it was just recorded)."""
    if isinstance(answer, AcceptedAnswer):
        return json_response(
            answer.view, 201, version=answer.version, location=move_location(game_id, answer.number)
        )
    problem = ApiProblem(answer.status, answer.code, answer.detail)
    problem.language = answer.language
    return refusal_problem(problem, answer.version).response()
