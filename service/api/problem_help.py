"""What each problem `code` means and what to do about it: the text of the pages its `type` URL names.

One entry per code of problems.TITLES (tests/api/test_pages.py holds them to
each other). Text in `backticks` is shown as code.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProblemHelp:
    status: int
    when: str
    what_to_do: str


RETRY_LATER = (
    "Wait the `Retry-After` seconds and send the same request again (with the same `Idempotency-Key`)."
)
FIX_REQUEST = "Fix the request: `detail` (and `errors`, when present) say what is wrong. Sending it again unchanged gets the same answer."

HELP = {
    "invalid_json": ProblemHelp(
        400,
        "The body could not be read as JSON: a syntax error, text that is not UTF-8, `NaN`, "
        "nesting too deep, or half of a UTF-16 surrogate pair escaped alone.",
        FIX_REQUEST,
    ),
    "invalid_request": ProblemHelp(
        400,
        "The request is JSON (or has no body) but breaks the API document `openapi.yaml`: a missing "
        "or unknown field, a value of the wrong type or out of range, a malformed header such as an "
        "unquoted `If-Match`, a bad query or path parameter, or HTTP that could not be parsed at all. "
        "`errors` lists each fault with a `pointer` into the body, a `parameter` or a `header`.",
        FIX_REQUEST,
    ),
    "missing_token": ProblemHelp(
        401,
        "A move was sent without `Authorization: Bearer <token>`.",
        "Send the seat token that `POST /games` returned for the seat that acts.",
    ),
    "invalid_token": ProblemHelp(
        401,
        "The bearer token is not one of this game's two seat tokens.",
        "Use a token that `POST /games` returned when this game was created; tokens are never shown again.",
    ),
    "game_not_found": ProblemHelp(
        404,
        "No game has this id: it was never created, or it expired (games expire some time after "
        "their last move).",
        "Check the id, or create a new game with `POST /games`.",
    ),
    "not_found": ProblemHelp(
        404,
        "Nothing is served at this URL: an unknown path, a move number past the end of the "
        "history, a patch id outside 1 to 33, or a problem page that does not exist.",
        "See the paths of `GET /openapi.yaml` (or `/docs`).",
    ),
    "method_not_allowed": ProblemHelp(
        405,
        "The path exists, but not with this HTTP method.",
        "Use one of the methods the `Allow` header lists.",
    ),
    "game_finished": ProblemHelp(
        409,
        "A move was sent to a game that has ended.",
        "Nothing more can be played in this game; read its `result`.",
    ),
    "not_your_turn": ProblemHelp(
        409,
        "The token belongs to the seat that is not in `turn`.",
        "Wait for the other seat's move (read the game again, or follow `/games/{id}/events`).",
    ),
    "wrong_phase": ProblemHelp(
        409,
        "The move does not fit the game's `phase`: for example a `buy` or `advance` while a "
        "leather patch must be placed first, or `place_leather` when none is due.",
        "Read the game's `phase` (or its legal moves) and send a move of that phase.",
    ),
    "idempotency_key_in_use": ProblemHelp(
        409, "A request with this `Idempotency-Key` is still being processed.", RETRY_LATER
    ),
    "version_mismatch": ProblemHelp(
        412,
        "The move's `If-Match` does not name the game's current version: the game has moved on "
        "since the client read it. Nothing was changed.",
        "Read the game again, decide again, and send a new move (with a new `Idempotency-Key`).",
    ),
    "payload_too_large": ProblemHelp(
        413, "The request body is over 64 KiB.", "No valid request is that large: send a smaller body."
    ),
    "uri_too_long": ProblemHelp(
        414,
        "The request line (method, path and query) is over 4094 bytes.",
        "No valid request is that long: shorten the path or the query.",
    ),
    "unsupported_media_type": ProblemHelp(
        415,
        "A body was sent with a `Content-Type` other than `application/json`.",
        "Send the body as JSON with `Content-Type: application/json`.",
    ),
    "patch_not_available": ProblemHelp(
        422,
        "The patch bought is not one of the three in the game's `market`.",
        "Buy one of the patches listed in `market` (see the legal moves).",
    ),
    "cannot_afford": ProblemHelp(
        422,
        "The seat has fewer buttons than the patch costs.",
        "Buy a cheaper patch, or `advance` to collect buttons.",
    ),
    "does_not_fit": ProblemHelp(
        422,
        "The placement puts the patch off the 9x9 quilt, over cells already covered, or the "
        "cells given are not the patch's shape.",
        "Choose a placement among the patch's legal moves (`GET /games/{id}/legal-moves?patch_id=N`).",
    ),
    "cell_occupied": ProblemHelp(
        422,
        "The leather patch is placed on a cell that is already covered.",
        "Place it on an empty cell of the quilt.",
    ),
    "idempotency_key_reused": ProblemHelp(
        422,
        "This `Idempotency-Key` was already used on this game with a different body.",
        "Use a new key for a new move; a key names exactly one request.",
    ),
    "rate_limited": ProblemHelp(
        429,
        "This client sent more requests of this kind than the service allows in its window, "
        "or holds as many event streams open as it may.",
        "Wait the `Retry-After` seconds (the `RateLimit-*` headers say how the limit stands; "
        "for streams, close one) and send it again.",
    ),
    "headers_too_large": ProblemHelp(
        431,
        "The request has more than 50 header fields, or one over 8190 bytes.",
        "No valid request needs that many or that large headers: send fewer or shorter ones.",
    ),
    "request_timeout": ProblemHelp(
        408,
        "The request's body did not arrive within READ_TIMEOUT_SECONDS of its head.",
        "Send the body at once, with the headers; a slow or stalled upload is cut off.",
    ),
    "expectation_failed": ProblemHelp(
        417,
        "The request sent an `Expect` header other than `100-continue`.",
        "Leave `Expect` out, or send `Expect: 100-continue`.",
    ),
    "unsupported_transfer_coding": ProblemHelp(
        501,
        "The request's `Transfer-Encoding` is not `chunked` (gzip, deflate, ... are not read).",
        "Send the body as it is, with `Content-Length`, or chunked.",
    ),
    "storage_unavailable": ProblemHelp(
        503,
        "The game store (Redis) did not answer in time. Nothing that was not confirmed was changed.",
        RETRY_LATER,
    ),
    "bots_unavailable": ProblemHelp(
        503,
        "A game with a computer player was asked for, but no bot worker has been seen alive "
        "recently, so nobody would play the bot's seat. No game was created.",
        "Wait the `Retry-After` seconds and create the game again. Operators: run `patchwork-worker` "
        "(or `patchwork-service` with `BOT_WORKERS` of 1 or more) against the same Redis.",
    ),
    "internal_error": ProblemHelp(
        500,
        "The service failed in a way it did not expect; the error was logged.",
        "Try again later; if it persists, report it with the request that caused it.",
    ),
}
