"""The response half of the contract: every response a test sees must be one openapi.yaml declares.

ResponseContract(spec).check(...) finds the operation a concrete request went
to (/games/abc/moves/3 -> getMove), then asserts that the status is declared
for it, the content type is the declared one, the body validates against the
declared schema (a JSON body ending with a newline; a response declared
without content has an empty body; an event stream's each event validates
against its `itemSchema`) and every required header is there with a valid
value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree

import yaml

from service.api.contract.faults import compile_schema, schema_errors
from service.api.contract.request_validator import coerce_parameter
from service.api.contract.spec import HTTP_METHODS, inline_refs
from tests.support.sse import compile_stream_item, event_faults, parse_blocks

# Answers of the framework and the error module that no single operation declares.
_UNROUTED = "#/components/responses/GameNotFound"  # 404 not_found for a path no route matches
_WRONG_METHOD = "#/components/responses/MethodNotAllowed"  # 405 for a route's undeclared method
# What ends a line of an event stream (str.splitlines would break a line at U+2028 too).
_SSE_LINE_END = re.compile(r"\r\n|\r|\n")
# Newline-delimited JSON (GET /players/{id}/games.ndjson): its body is a JSON text a line.
NDJSON = "application/x-ndjson"


@dataclass
class _Header:
    required: bool
    types: tuple[str, ...]
    validator: Any


@dataclass
class _Response:
    content: dict[str, Any] = field(default_factory=dict)  # media type -> body validator
    # Sequential media types (OpenAPI 3.2 itemSchema: the event stream) -> each item's validator.
    items: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, _Header] = field(default_factory=dict)  # lower-case name -> its rules


@dataclass
class _Operation:
    operation_id: str
    responses: dict[str, _Response]  # "200", "4XX", "default" -> rules


class ResponseContract:
    """The responses openapi.yaml declares, compiled once; check() asserts one response is among them."""

    def __init__(self, spec: dict):
        self._routes: list[tuple[re.Pattern, str, dict[str, _Operation]]] = []
        for template, path_item in spec["paths"].items():
            operations = {
                method: _Operation(op["operationId"], _compile_responses(spec, op.get("responses", {})))
                for method, op in path_item.items()
                if method in HTTP_METHODS
            }
            self._routes.append((_template_pattern(template), template, operations))
        # Literal segments win over a template parameter, as in any router.
        self._routes.sort(key=lambda route: route[1].count("{"))
        self._unrouted = _compile_response(spec, {"$ref": _UNROUTED})
        self._wrong_method = _compile_response(spec, {"$ref": _WRONG_METHOD})

    def check(
        self, method: str, path: str, status: int, headers: Mapping[str, str], body_bytes: bytes
    ) -> str | None:
        """Assert the response conforms; return the operationId it answered (None for 404/405 of no operation)."""
        where = f"{method.upper()} {path} -> {status}"
        method = method.lower()
        route_path = path.split("?", 1)[0]
        lowered = {name.lower(): value for name, value in headers.items()}
        if method == "options":  # CORS preflight: answered by the framework, described in prose only
            assert 200 <= status < 300, f"{where}: a preflight must succeed"
            return None
        route = next(
            ((template, ops) for pattern, template, ops in self._routes if pattern.fullmatch(route_path)),
            None,
        )
        read_body = method != "head"  # a HEAD answer has the headers of a GET's and no body
        if route is None:
            assert status == 404, f"{where}: no path of the spec matches {route_path!r}, so it must be 404"
            _check_response(where, self._unrouted, lowered, body_bytes, read_body)
            if read_body:
                _assert_code(where, body_bytes, "not_found")
            return None
        template, operations = route
        operation = operations.get("get" if method == "head" else method)
        if operation is None:
            assert status == 405, f"{where}: {template} declares no {method.upper()}, so it must be 405"
            _check_response(where, self._wrong_method, lowered, body_bytes, read_body)
            return None
        response = _find_response(operation.responses, status)
        assert response is not None, (
            f"{where}: {operation.operation_id} declares no {status} (declared: {sorted(operation.responses)})"
        )
        _check_response(f"{where} ({operation.operation_id})", response, lowered, body_bytes, read_body)
        return operation.operation_id


def _template_pattern(template: str) -> re.Pattern:
    parts = re.split(r"\{([^}]+)\}", template)
    # Even parts are literal text, odd ones parameter names; a parameter is one path segment.
    return re.compile("".join(re.escape(part) if i % 2 == 0 else "[^/]+" for i, part in enumerate(parts)))


def _compile_responses(spec: dict, responses: dict) -> dict[str, _Response]:
    return {str(status): _compile_response(spec, response) for status, response in responses.items()}


def _compile_response(spec: dict, response: dict) -> _Response:
    response = inline_refs(spec, response)
    compiled = _Response()
    for media_type, media in response.get("content", {}).items():
        compiled.content[media_type] = compile_schema(spec, media.get("schema", {}))
        if media_type == NDJSON:
            # A sequence of JSON texts, one a line: each is checked against the itemSchema.
            compiled.content[media_type] = compile_schema(
                spec, {"type": "array", "items": media["itemSchema"]}
            )
        elif "itemSchema" in media:
            compiled.items[media_type] = compile_stream_item(spec, media["itemSchema"])
    for name, header in response.get("headers", {}).items():
        schema = header.get("schema", {})
        types = schema.get("type", "string")
        compiled.headers[name.lower()] = _Header(
            required=bool(header.get("required", False)),
            types=(types,) if isinstance(types, str) else tuple(types),
            validator=compile_schema(spec, schema),
        )
    return compiled


def _find_response(responses: dict[str, _Response], status: int) -> _Response | None:
    for key in (str(status), f"{status // 100}XX", "default"):
        if key in responses:
            return responses[key]
    return None


def _check_response(
    where: str, response: _Response, headers: dict[str, str], body: bytes, read_body: bool
) -> None:
    for name, rules in response.headers.items():
        if name not in headers:
            assert not rules.required, f"{where}: required header {name!r} is missing"
            continue
        faults = schema_errors(rules.validator, coerce_parameter(headers[name], rules.types))
        messages = "; ".join(str(fault["message"]) for fault in faults)
        assert not faults, f"{where}: header {name}: {headers[name]!r}: {messages}"
    if not read_body:
        return
    if not response.content:
        assert body == b"", f"{where}: declared without a body, got {body[:200]!r}"
        return
    content_type = headers.get("content-type", "")
    media_type = content_type.split(";", 1)[0].strip().lower()
    assert media_type in response.content, (
        f"{where}: Content-Type {content_type!r}, declared {sorted(response.content)}"
    )
    document = _parse(where, media_type, body)
    faults = schema_errors(response.content[media_type], document)
    assert not faults, f"{where}: the body breaks its schema:\n{_listed(faults)}\nbody: {body[:600]!r}"
    if media_type in response.items:
        for event in parse_blocks(_SSE_LINE_END.split(document)):
            if event.kind is None:
                continue  # the retry: block, a keep-alive comment: no event is dispatched
            faults = event_faults(response.items[media_type], event)
            assert not faults, (
                f"{where}: a {event.kind!r} event breaks the itemSchema:\n{_listed(faults)}\n"
                f"data: {event.data[:600]!r}"
            )


def _parse(where: str, media_type: str, body: bytes) -> Any:
    try:
        if media_type == NDJSON:
            # Every line a JSON text, the last one ended like the others.
            assert body == b"" or body.endswith(b"\n"), f"{where}: NDJSON ends with a newline: {body[-80:]!r}"
            return [json.loads(line) for line in body.decode("utf-8").splitlines()]
        if media_type.endswith("json"):
            # Ended like a line of text, so a terminal's next line does not start glued to it.
            assert body.endswith(b"\n"), f"{where}: a JSON body ends with a newline: {body[-80:]!r}"
            return json.loads(body.decode("utf-8"))
        if media_type.endswith("yaml"):
            return yaml.safe_load(body.decode("utf-8"))
        if media_type.endswith("xml"):
            ElementTree.fromstring(body)  # well-formed, or ParseError
            return body.decode("utf-8")
        if media_type.startswith("text/"):
            return body.decode("utf-8")
    except (UnicodeDecodeError, ValueError, yaml.YAMLError, ElementTree.ParseError) as error:
        raise AssertionError(
            f"{where}: the {media_type} body does not parse ({error}): {body[:200]!r}"
        ) from None
    raise AssertionError(f"{where}: no parser for {media_type}")


def _assert_code(where: str, body: bytes, code: str) -> None:
    actual = json.loads(body)["code"]
    assert actual == code, f"{where}: expected code {code!r}, got {actual!r}"


def _listed(faults: list[dict]) -> str:
    return "\n".join(f"  {fault['pointer'] or '(the whole body)'}: {fault['message']}" for fault in faults)
