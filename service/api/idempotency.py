"""Idempotency-Key: recording a move's answer and replaying it to retries.

A key belongs to one game and one seat token, so the store key is scoped by a
hash of the token (never the token itself). A replay is byte-for-byte the
first answer. A 201 is recorded whole (status, body, headers). A refusal is
recorded as only what varies (status, code, detail, version) and rebuilt
from it: any client can have one kept for 24 h with each fresh key, so it
must stay small (about a fifth of the whole answer).
"""

from __future__ import annotations

import hashlib
import json

from flask import Response

from service.games import token_hash
from service.games.jsontext import compact, parse

from .problems import ApiProblem, problem_response
from .responses import etag, json_response

# docs/api-guide.md#idempotency: 201, 409, 412 and 422 answers are recorded (moves.py does, at the commit
# and on a refusal); 400/401/404/413/415/5xx never are.


def scoped_key(token: str, key: str) -> str:
    """The store's name for `key` as used by the holder of `token`."""
    return f"{token_hash(token)[:32]}:{key}"


def fingerprint(body: dict) -> str:
    """A digest that is equal for equal JSON bodies, whatever their key order."""
    # The standard library's form, not jsontext's: fingerprints recorded by
    # an instance must match the ones the next version computes.
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def encode_answer(status: int, body: str, headers: dict[str, str]) -> str:
    """The recorded form of a whole answer."""
    return compact({"status": status, "body": body, "headers": headers})


def encode_refusal(problem: ApiProblem, version: int) -> str:
    """The recorded form of a refusal (no headers but the ETag of `version`)."""
    return compact([problem.status, problem.code, problem.detail, version])


def refusal_problem(problem: ApiProblem, version: int) -> ApiProblem:
    """The refusal as answered and replayed: the problem with the game's ETag."""
    return ApiProblem(problem.status, problem.code, problem.detail, headers={"ETag": etag(version)})


def answer_response(answer: str) -> Response:
    """The response a recorded answer stands for."""
    doc = parse(answer)
    if isinstance(doc, list):
        status, code, detail, version = doc
        return refusal_problem(ApiProblem(status, code, detail), version).response()
    status = doc["status"]
    if status >= 400:
        return problem_response(status, doc["body"], doc["headers"])
    resp = json_response(doc["body"], status)
    for name, value in doc["headers"].items():
        resp.headers[name] = value
    return resp
