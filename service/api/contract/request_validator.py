"""Request validation against openapi.yaml, compiled once when the app starts.

RequestValidator turns the spec's request bodies and its query, header and
path parameters into validators with every $ref inlined, so a request costs
only the checks themselves: a compiled (Rust) check passes valid requests,
and only what it refuses is explained (faults.py). Faults come out as
plain dicts ({"pointer"|"parameter"|"header": ..., "message": ...}) for the
`errors` list of a 400 problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

# A compiled Draft 2020-12 validator (Rust): only says valid or not, fast.
import jsonschema_rs

from service.languages import Text

from .faults import child_pointer, choose_branch, schema_errors
from .schema_validator import SchemaValidator
from .spec import HTTP_METHODS, inline_refs

# OpenAPI ignores header parameters by these names; a bad token is the code's 401, not a 400.
_UNCHECKED_HEADERS = frozenset({"accept", "content-type", "authorization"})
# JSON's number grammar (leading zeros allowed, as int() allows them).
_NUMBER_TEXT = re.compile(r"-?([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?\Z")
# int()'s own limit on the digits it reads from text: beyond it a number stays text.
_MAX_INTEGER_DIGITS = 4300
# Parameter types whose text coerce_parameter knows how to read.
_PARAMETER_TYPES = frozenset({"string", "integer", "boolean"})


class HeaderLookup(Protocol):
    """Headers by name: werkzeug's Headers (case-insensitive, no Mapping) or a plain dict."""

    def get(self, key: str) -> str | None: ...


def coerce_parameter(text: str, types: tuple[str, ...]) -> Any:
    """Parameter text as an integer when declared and spelt as a whole number (a boolean: `true`
    or `false`); else the text, to fail as such.

    "7" -> 7, and like a body's 7.0, "7.0" or "7e0" -> 7: JSON Schema's
    integers are the numbers with no fraction, whatever their spelling.
    Read from the digits rather than through Decimal, which refuses an
    exponent past 10**18 ("1e99999999999999999999") with an exception.
    """
    if "boolean" in types and text in ("true", "false"):
        return text == "true"
    match = _NUMBER_TEXT.match(text) if "integer" in types else None
    if match is None:
        return text
    whole, fraction, exponent = match.group(1), match.group(2) or "", match.group(3) or "0"
    digits = (whole + fraction).lstrip("0")
    if not digits:
        return 0  # zero, whatever its exponent
    if len(exponent.lstrip("+-").lstrip("0")) > len(str(_MAX_INTEGER_DIGITS)):
        return text  # far too large, or a fraction: the digits are not all zero
    significant = digits.rstrip("0")
    # The number is significant * 10**scale.
    scale = int(exponent) - len(fraction) + (len(digits) - len(significant))
    if scale < 0 or len(significant) + scale > _MAX_INTEGER_DIGITS:
        return text  # a fraction, or more digits than int() reads from text
    magnitude = int(significant) * 10**scale
    return -magnitude if text.startswith("-") else magnitude


def _quick_check(schema: dict) -> Callable[[Any], bool]:
    """A compiled (jsonschema_rs) test that an instance is valid.

    Most requests are valid, and jsonschema takes as long to say so as the
    rest of a move's own work; the compiled test is tens of times faster. Only
    what it refuses goes on to jsonschema, which decides and says what is
    wrong, so answers do not change: where the two differ (a pattern's `$`
    matches before a final newline in Python, not in Rust) the compiled
    test is the stricter one.
    """
    validator = jsonschema_rs.Draft202012Validator(schema)

    def is_valid(instance: Any) -> bool:
        try:
            return validator.is_valid(instance)
        except (ValueError, TypeError, OverflowError):  # e.g. a lone surrogate: let jsonschema judge
            return False

    return is_valid


@dataclass(frozen=True, slots=True)
class _Parameter:
    name: str
    required: bool
    types: tuple[str, ...]
    validator: SchemaValidator
    quick: Callable[[Any], bool]

    def messages(self, value: Any) -> list[Text]:
        if self.quick(value):
            return []
        return [error["message"] for error in schema_errors(self.validator, value)]


class _Body:
    """A request body's validator; a discriminated oneOf at the top is dispatched to its one branch."""

    def __init__(self, schema: dict):
        self._schema = schema
        self._validator = SchemaValidator(schema)
        self._quick = _quick_check(schema)
        discriminated = "oneOf" in schema and "discriminator" in schema
        self._branches = [SchemaValidator(b) for b in schema["oneOf"]] if discriminated else None

    def errors(self, body: Any) -> list[dict]:
        if self._quick(body):
            return []
        if self._branches is None or not isinstance(body, dict):
            return schema_errors(self._validator, body)
        chosen = choose_branch(self._schema, body)
        if isinstance(chosen, int):
            return schema_errors(self._branches[chosen], body)
        field, message = chosen
        return [{"pointer": child_pointer("", field), "message": message}]


@dataclass(slots=True)
class _Operation:
    body: _Body | None
    query: list[_Parameter]
    headers: list[_Parameter]
    path: list[_Parameter]


class RequestValidator:
    """Checks requests against the spec; build it once (at start-up) from load_spec()."""

    def __init__(self, spec: dict):
        self._operations: dict[str, _Operation] = {}
        for path_item in spec["paths"].values():
            shared = path_item.get("parameters", [])
            for method in HTTP_METHODS:
                operation = path_item.get(method)
                if operation is not None:
                    self._operations[operation["operationId"]] = _compile_operation(spec, shared, operation)

    def body_errors(self, operation_id: str, body: Any) -> list[dict]:
        """How a parsed JSON body breaks the operation's schema: [{"pointer", "message"}], empty when valid."""
        check = self._operations[operation_id].body
        if check is None:
            raise LookupError(f"{operation_id} takes no request body")
        return check.errors(body)

    def query_errors(self, operation_id: str, args: Mapping[str, Any]) -> tuple[dict, list[dict]]:
        """The declared query parameters, coerced, and [{"parameter", "message"}] faults; others are ignored.

        `args` maps a name to its list of values (werkzeug's MultiDict, or its to_dict(flat=False)).
        """
        return _check_texts(self._operations[operation_id].query, _value_lists(args), "parameter")

    def path_errors(self, operation_id: str, values: Mapping[str, str]) -> tuple[dict, list[dict]]:
        """The path parameters, coerced, and [{"parameter", "message"}] faults."""
        lists = {name: [text] for name, text in values.items()}
        return _check_texts(self._operations[operation_id].path, lists.get, "parameter")

    def header_errors(self, operation_id: str, headers: HeaderLookup) -> list[dict]:
        """[{"header", "message"}] faults of the declared headers (not Authorization: that is a 401).

        `headers` is case-insensitive (werkzeug's Headers) or keyed by the spec's spelling.
        """
        return _check_texts(self._operations[operation_id].headers, _single_values(headers), "header")[1]


def _compile_operation(spec: dict, shared: list, operation: dict) -> _Operation:
    declared = {}
    for parameter in (*shared, *operation.get("parameters", [])):
        parameter = inline_refs(spec, parameter)
        declared[(parameter["in"], parameter["name"])] = parameter  # the operation's own win
    by_location: dict[str, list[_Parameter]] = {"query": [], "header": [], "path": [], "cookie": []}
    for (location, name), parameter in declared.items():
        if location == "header" and name.lower() in _UNCHECKED_HEADERS:
            continue
        schema = parameter.get("schema", {})
        types = schema.get("type", "string")
        types = (types,) if isinstance(types, str) else tuple(types)
        if not set(types) <= _PARAMETER_TYPES:
            raise ValueError(f"parameter {name!r}: only {sorted(_PARAMETER_TYPES)} parameters are supported")
        compiled = _Parameter(
            name, bool(parameter.get("required", False)), types, SchemaValidator(schema), _quick_check(schema)
        )
        by_location[location].append(compiled)
    body = None
    request_body = operation.get("requestBody")
    if request_body is not None:
        content = inline_refs(spec, request_body)["content"]
        # An operation that takes text (a game record) reads and judges its body itself.
        if "application/json" in content:
            body = _Body(content["application/json"]["schema"])
    return _Operation(body, by_location["query"], by_location["header"], by_location["path"])


def _value_lists(args: Mapping[str, Any]):
    getlist = getattr(args, "getlist", None)
    return getlist if getlist is not None else (lambda name: args.get(name))


def _single_values(headers: HeaderLookup):
    return lambda name: None if (value := headers.get(name)) is None else [value]


def _check_texts(parameters: list[_Parameter], lookup, key: str) -> tuple[dict, list[dict]]:
    values: dict[str, Any] = {}
    errors: list[dict] = []
    for parameter in parameters:
        texts = lookup(parameter.name)
        if not texts:
            if parameter.required:
                errors.append({key: parameter.name, "message": Text("is required")})
            continue
        if len(texts) > 1:
            errors.append({key: parameter.name, "message": Text("must be given at most once")})
            continue
        value = coerce_parameter(texts[0], parameter.types)
        messages = parameter.messages(value)
        errors.extend({key: parameter.name, "message": message} for message in messages)
        if not messages:
            values[parameter.name] = value
    return values, errors
