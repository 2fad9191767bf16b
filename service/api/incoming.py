"""Reading a request: its JSON body, its headers and query, checked against the spec.

The checks run in the order of docs/api-guide.md#order-of-checks for the request's form: 413 (size), 415
(content type), then 400 (unparsable JSON, then anything the spec refuses).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, overload

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from service.languages import N_, Text

from .context import services
from .problems import ApiProblem, invalid_request

MAX_BODY_BYTES = 64 * 1024
# A \u escape of a UTF-16 surrogate (D800-DFFF), paired or not.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _NotJsonConstant(ValueError):
    """NaN, Infinity or -Infinity: Python's json reads them, JSON has no such value."""

    def __init__(self, name: str):
        super().__init__(f"{name} is not valid JSON")
        self.name = name


def _reject_constant(name: str) -> Any:
    raise _NotJsonConstant(name)


# What Python's json parser says is wrong (JSONDecodeError.msg), said as a message of the
# catalogues: its own English would stand inside a detail in any language.
_JSON_FAULTS = {
    "Expecting value": N_("a value was expected"),
    "Expecting property name enclosed in double quotes": N_("a member name in double quotes was expected"),
    "Expecting ':' delimiter": N_("a colon was expected"),
    "Expecting ',' delimiter": N_("a comma was expected"),
    "Unterminated string starting at": N_("a string left open"),
    "Invalid control character at": N_("a control character unescaped in a string"),
    "Invalid \\escape": N_("a backslash escape JSON does not have"),
    "Invalid \\uXXXX escape": N_("a \\u escape without four hexadecimal digits"),
    "Extra data": N_("more after the JSON value"),
}


def _json_type(doc: Any) -> str:
    """The JSON type of a parsed value, as JSON Schema names it (not Python's: "list", "NoneType")."""
    if doc is None:
        return "null"
    if isinstance(doc, bool):
        return "boolean"
    if isinstance(doc, (int, float)):
        return "number"
    return "string" if isinstance(doc, str) else "array"


def _json_fault(err: ValueError) -> Text:
    """Why the body is not JSON, in words of the catalogues (where in the body, when the parser said)."""
    if isinstance(err, UnicodeDecodeError):
        return Text("The body is not valid JSON: byte {position} is not UTF-8 text.", {"position": err.start})
    if isinstance(err, _NotJsonConstant):
        return Text("The body is not valid JSON: {name} is not a JSON value.", {"name": err.name})
    if isinstance(err, json.JSONDecodeError):
        fault = _JSON_FAULTS.get(err.msg, N_("something that is not JSON"))
        return Text(
            "The body is not valid JSON: {fault} at line {line}, column {column}.",
            {"fault": Text(fault), "line": err.lineno, "column": err.colno},
        )
    return Text("The body is not valid JSON.")


# Made once: json.loads with any option builds a new decoder on every call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _lone_surrogate(text: str, doc: Any) -> int | None:
    """The code point of a \\u escape in `text`, parsed as `doc`, that is an unpaired surrogate, else None.

    Python's json decodes "\\ud800" to a string that no UTF-8 encoder takes:
    stored as a player's name, or quoted in a 400's pointer, it would fail
    every answer that shows it. Text decoded as strict UTF-8 holds
    surrogates only as such escapes, so only a body with one is searched.
    """
    if _SURROGATE_ESCAPE.search(text) is None:
        return None
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as err:
        return ord(err.object[err.start])
    return None


def _is_json_mimetype(mimetype: str) -> bool:
    return mimetype == "application/json" or (
        mimetype.startswith("application/") and mimetype.endswith("+json")
    )


def _body() -> bytes:
    """The whole body; 413 past MAX_BODY_BYTES, however it was framed."""
    length = request.content_length
    if length is not None:
        if length > MAX_BODY_BYTES:
            raise RequestEntityTooLarge()
        # Straight from the server's stream, which holds the whole body in
        # memory (service/run/gunicorn_worker.py): werkzeug's get_data wraps
        # it in a limiting stream read in 64 KiB pieces, 2.5 times the Python
        # of this read (benchmarks/README.md). Only this function reads
        # bodies, so nothing needs werkzeug's cached copy.
        return request.environ["wsgi.input"].read(length)
    if "wsgi.input_terminated" not in request.environ:
        return request.get_data(cache=True)  # no length and no framing: werkzeug reads none
    # Chunked: werkzeug reads up to MAX_CONTENT_LENGTH and returns that much
    # as if it were all, so a longer body would pass cut short. One byte
    # more says whether there is more.
    raw = request.environ["wsgi.input"].read(MAX_BODY_BYTES + 1)
    if len(raw) > MAX_BODY_BYTES:
        raise RequestEntityTooLarge()
    return raw


@overload
def read_json_object(*, required: Literal[True]) -> dict: ...
@overload
def read_json_object(*, required: bool) -> dict | None: ...
def read_json_object(*, required: bool) -> dict | None:
    """The request body as a JSON object; None when optional and absent."""
    raw = _body()
    if not raw and not required:
        return None
    if not _is_json_mimetype(request.mimetype):
        sent = request.mimetype or "no Content-Type"
        raise ApiProblem.of(
            "unsupported_media_type",
            Text("Send the body as application/json (got {sent}).", {"sent": sent}),
        )
    try:
        # UTF-8 as docs/api-guide.md#content-types says (json.loads would take UTF-16 and -32 bytes too); a BOM is let pass.
        text = raw.decode("utf-8-sig")
        doc = _DECODER.decode(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise ApiProblem.of("invalid_json", _json_fault(err)) from None
    except RecursionError:
        raise ApiProblem.of(
            "invalid_json", Text("The body is not valid JSON here: it is nested too deeply.")
        ) from None
    surrogate = _lone_surrogate(text, doc)
    if surrogate is not None:
        raise ApiProblem.of(
            "invalid_json",
            Text(
                "The body is not valid JSON here: {escape} is half of a UTF-16 surrogate "
                "pair, with no other half: no character (RFC 8259 section 8.2).",
                {"escape": f"\\u{surrogate:04x}"},
            ),
        )
    if not isinstance(doc, dict):
        raise invalid_request(
            Text("The body must be a JSON object."),
            [
                {
                    "pointer": "",
                    "message": Text("expected an object, got {type}", {"type": repr(_json_type(doc))}),
                }
            ],
        )
    return doc


def read_text_body(media_types: tuple[str, ...]) -> bytes:
    """The body of an operation that takes text, as sent: 413 past MAX_BODY_BYTES, 415 for another type.

    Its bytes, not text: what they say (UTF-8 or not) is the operation's to judge.
    """
    raw = _body()
    if request.mimetype not in media_types:
        raise ApiProblem.of(
            "unsupported_media_type",
            Text(
                "Send the body as {wanted} (got {sent}).",
                {"wanted": " or ".join(media_types), "sent": request.mimetype or "no Content-Type"},
            ),
        )
    return raw


def check_body(operation_id: str, body: dict) -> None:
    """400 with pointers when `body` breaks the spec."""
    errors = services().validator.body_errors(operation_id, body)
    if errors:
        raise invalid_request(Text("The body does not match the API: see errors."), errors)


def check_headers(operation_id: str) -> None:
    """400 when a declared header (If-Match, Idempotency-Key, ...) is malformed."""
    errors = services().validator.header_errors(operation_id, request.headers)
    if errors:
        raise invalid_request(Text("A header does not match the API: see errors."), errors)


def read_optional_body(operation_id: str) -> dict | None:
    """The body of an operation whose body may be left out (None then), its headers and body checked in
    the API's order: the body's JSON, then the headers, then the body against the spec."""
    body = read_json_object(required=False)
    check_headers(operation_id)
    if body is not None:
        check_body(operation_id, body)
    return body


def read_query(operation_id: str) -> dict:
    """The declared query parameters, converted to their types; 400 when malformed."""
    values, errors = services().validator.query_errors(operation_id, request.args.to_dict(flat=False))
    if errors:
        raise invalid_request(Text("A query parameter does not match the API: see errors."), errors)
    return values


def read_path(operation_id: str) -> dict:
    """The route's path parameters, converted to their declared types; 400 when malformed."""
    values, errors = services().validator.path_errors(operation_id, request.view_args or {})
    if errors:
        raise invalid_request(Text("A path parameter does not match the API: see errors."), errors)
    return values


def bearer_token() -> str | None:
    """The bearer token of the Authorization header, or None if there is none."""
    # Not werkzeug's request.authorization: it reads a token containing "="
    # as auth-params and drops it, turning a wrong token (401 invalid_token)
    # into a missing one.
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token
