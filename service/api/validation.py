"""Request validation against openapi.yaml, compiled once when the app starts.

RequestValidator turns the spec's request bodies and its query, header and
path parameters into jsonschema (Draft 2020-12) validators with every $ref
inlined, so a request costs only the checks themselves. Faults come out as
plain dicts ({"pointer"|"parameter"|"header": ..., "message": ...}) for the
`errors` list of a 400 problem.
"""

from __future__ import annotations

import functools
import importlib.resources
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import yaml
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

# A compiled Draft 2020-12 validator (Rust): only says valid or not, fast.
import jsonschema_rs

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# Keywords that may sit beside a $ref without changing what it validates.
_ANNOTATIONS = frozenset({"description", "title", "summary", "examples", "default", "$comment"})
# OpenAPI ignores header parameters by these names; a bad token is the code's 401, not a 400.
_UNCHECKED_HEADERS = frozenset({"accept", "content-type", "authorization"})
# JSON's number grammar (leading zeros allowed, as int() allows them).
_NUMBER_TEXT = re.compile(r"-?([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?\Z")
# int()'s own limit on the digits it reads from text: beyond it a number stays text.
_MAX_INTEGER_DIGITS = 4300
# Parameter types whose text coerce_parameter knows how to read.
_PARAMETER_TYPES = frozenset({"string", "integer", "boolean"})
# Faults reported per request at most: a 64 KiB body can break a rule thousands of times.
MAX_ERRORS = 50


class _UnquotedList(list):
    __slots__ = ()

    def __repr__(self) -> str:
        return "[...]"


class _UnquotedDict(dict):
    __slots__ = ()

    def __repr__(self) -> str:
        return "{...}"


def _unquoted(check):
    """jsonschema's keyword `check`, given a shallow copy of a container instance that repr()s as [...] or {...}.

    jsonschema puts repr(instance) into every error's message: 10 ms for 63
    KB of garbage, for each keyword it breaks (the oneOf above it quotes it
    again). Our messages come from the instance itself (describe, show), so
    jsonschema's are never read; the copy costs a memcpy of its references.
    """
    def run(validator, value, instance, schema):
        if type(instance) is list:
            instance = _UnquotedList(instance)
        elif type(instance) is dict:
            instance = _UnquotedDict(instance)
        return check(validator, value, instance, schema)
    return run


def _within_max_items(check):
    """An array keyword's `check`, skipped for an array over its maxItems.

    Such an array is refused by its length alone: checking each of its items
    (10,500 pairs fit in 64 KiB) would make the refusal cost grow with the
    garbage sent, and uniqueItems is quadratic on unsortable items.
    """
    def run(validator, value, instance, schema):
        if isinstance(instance, list) and len(instance) > schema.get("maxItems", len(instance)):
            return ()
        return check(validator, value, instance, schema)
    return run


def _no_additional_properties(check):
    """additionalProperties: false, without the message jsonschema builds from every unknown name.

    Sorting and quoting thousands of names is wasted: _explain lists them
    itself, up to MAX_ERRORS.
    """
    def run(validator, allowed, instance, schema):
        if allowed is not False or not isinstance(instance, dict):
            return check(validator, allowed, instance, schema)
        if next(_unknown_fields(instance, schema), None) is None:
            return ()
        return (ValidationError("has unknown fields"),)
    return run


def _bounded_keywords() -> dict[str, Callable]:
    """Draft 2020-12's keywords, changed so that explaining a refusal costs no more for more garbage."""
    keywords = {name: _unquoted(check) for name, check in Draft202012Validator.VALIDATORS.items()}
    for name in ("items", "prefixItems", "contains", "uniqueItems"):
        keywords[name] = _within_max_items(keywords[name])
    keywords["additionalProperties"] = _no_additional_properties(keywords["additionalProperties"])
    return keywords


SchemaValidator = validators.extend(Draft202012Validator, _bounded_keywords())


@functools.cache
def load_spec() -> dict:
    """The parsed openapi.yaml of the service package, read once (the same dict every call: do not mutate)."""
    text = importlib.resources.files("service").joinpath("openapi.yaml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def inline_refs(spec: dict, node: Any, _expanding: tuple[str, ...] = ()) -> Any:
    """A copy of `node` with every local $ref replaced by its target, so validation never resolves one."""
    if isinstance(node, list):
        return [inline_refs(spec, item, _expanding) for item in node]
    if not isinstance(node, dict):
        return node
    inlined = {key: inline_refs(spec, value, _expanding) for key, value in node.items() if key != "$ref"}
    ref = node.get("$ref")
    if ref is None:
        return inlined
    if ref in _expanding:
        raise ValueError(f"recursive $ref {ref!r} cannot be inlined")
    target = inline_refs(spec, resolve_pointer(spec, ref), (*_expanding, ref))
    clash = (target.keys() & inlined.keys()) - _ANNOTATIONS
    if clash:
        raise ValueError(f"keywords {sorted(clash)} beside $ref {ref!r} would override its target")
    return {**target, **inlined}


def resolve_pointer(spec: dict, ref: str) -> Any:
    """The part of the spec that a local reference such as '#/components/schemas/Game' names."""
    if not ref.startswith("#/"):
        raise ValueError(f"only local references are supported, not {ref!r}")
    node: Any = spec
    for token in ref[2:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def compile_schema(spec: dict, schema: dict) -> SchemaValidator:
    """A Draft 2020-12 validator for a schema of the spec, its $refs inlined."""
    return SchemaValidator(inline_refs(spec, schema))


def schema_errors(validator: SchemaValidator, instance: Any) -> list[dict]:
    """Each way `instance` breaks the validator's schema, as {"pointer", "message"} items."""
    found: list[tuple[str, str, str]] = []
    try:
        # Stop early: past a few times MAX_ERRORS, more faults only cost time.
        _explain(itertools.islice(validator.iter_errors(instance), 4 * MAX_ERRORS), found)
    except RecursionError:
        return [{"pointer": "", "message": "nested too deeply"}]
    # A value of the wrong type breaks its other keywords too; its type error says it all.
    mistyped = {pointer for pointer, _, keyword in found if keyword == "type"}
    unique = dict.fromkeys(
        (pointer, message) for pointer, message, keyword in found if keyword == "type" or pointer not in mistyped
    )
    return [{"pointer": pointer, "message": message} for pointer, message in unique][:MAX_ERRORS]


def _explain(errors: Iterable[ValidationError], found: list[tuple[str, str, str]]) -> None:
    for error in errors:
        pointer = _pointer(error.absolute_path)
        keyword = error.validator
        if keyword == "oneOf" and error.context:
            per_branch: list[list[ValidationError]] = [[] for _ in error.validator_value]
            for sub in error.context:
                per_branch[sub.relative_schema_path[0]].append(sub)
            if not isinstance(error.instance, dict):
                _explain(per_branch[0], found)  # every branch wants an object; one says so
                continue
            chosen = choose_branch(error.schema, error.instance)
            if isinstance(chosen, int):
                _explain(per_branch[chosen], found)
            else:
                field, message = chosen
                found.append((_child(pointer, field) if field else pointer, message, keyword))
        elif keyword == "additionalProperties" and error.validator_value is False:
            for name in itertools.islice(_unknown_fields(error.instance, error.schema), MAX_ERRORS):
                found.append((_child(pointer, name), f"unknown field {show(name)}", keyword))
        elif keyword == "required":
            for name in error.validator_value:
                if name not in error.instance:
                    found.append((_child(pointer, name), f"missing required field {show(name)}", keyword))
        else:
            found.append((pointer, describe(error), keyword))


def choose_branch(schema: dict, instance: dict) -> int | tuple[str, str]:
    """The index of the oneOf branch `instance` is meant for, or (field, message) saying why none is."""
    branches = schema["oneOf"]
    discriminator = schema.get("discriminator")
    if discriminator is not None:
        name = discriminator["propertyName"]
        values = [branch.get("properties", {}).get(name, {}).get("const") for branch in branches]
        if name not in instance:
            return name, f"missing required field {show(name)}"
        value = instance[name]
        if isinstance(value, str) and value in values:
            return values.index(value)
        return name, f"{show(value)} is not one of {', '.join(show(v) for v in values)}"
    # Without a discriminator the branch is the form whose own fields the instance uses.
    given = {key for key, value in instance.items() if value is not None}
    used = [index for index, branch in enumerate(branches) if given & _own_fields(branch)]
    if len(used) == 1:
        return used[0]
    forms = ", or ".join(" and ".join(show(name) for name in branch.get("required", ())) for branch in branches)
    if used:
        return "", f"give either {forms}, not both"
    return "", f"give either {forms}"


def _own_fields(branch: dict) -> set[str]:
    """Fields a branch gives a value to (those it allows only as null belong to another form)."""
    return {name for name, prop in branch.get("properties", {}).items() if prop.get("type") != "null"}


def _unknown_fields(instance: dict, schema: dict) -> Iterator[str]:
    known = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return (name for name in instance if name not in known and not any(re.search(p, name) for p in patterns))


def _pointer(path: Iterable[Any]) -> str:
    return "".join(_child("", part) for part in path)


def _child(pointer: str, part: Any) -> str:
    return f"{pointer}/{str(part).replace('~', '~0').replace('/', '~1')}"


def show(value: Any, nested: bool = False) -> str:
    """A short JSON-ish rendering of a value for messages: strings quoted, containers abridged."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, list):
        if not value or nested:
            return "[...]" if value else "[]"
        inner = [show(item, True) for item in value[:3]]
    elif isinstance(value, dict):
        if not value or nested:
            return "{...}" if value else "{}"
        inner = [f"{show(key)}: {show(item, True)}" for key, item in itertools.islice(value.items(), 3)]
    else:
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if len(value) > 3:
        inner.append("...")
    opening, closing = ("[", "]") if isinstance(value, list) else ("{", "}")
    return opening + ", ".join(inner) + closing


def _item_count(error: ValidationError) -> str:
    size, low, high = len(error.instance), error.schema.get("minItems"), error.schema.get("maxItems")
    if low is not None and low == high:
        wanted = f"exactly {low}"
    elif error.validator == "minItems":
        wanted = f"at least {low}"
    else:
        wanted = f"at most {high}"
    return f"has {size} item{'' if size == 1 else 's'}, expected {wanted}"


def _characters(count: int) -> str:
    return f"{count} character{'' if count == 1 else 's'}"


def _types(declared: str | list[str]) -> str:
    return " or ".join(repr(name) for name in ([declared] if isinstance(declared, str) else declared))


# Messages by keyword, for people who write JSON rather than read jsonschema's Python reprs.
_MESSAGES = {
    "type": lambda e: f"{show(e.instance)} is not of type {_types(e.validator_value)}",
    "enum": lambda e: f"{show(e.instance)} is not one of {', '.join(show(v) for v in e.validator_value)}",
    "const": lambda e: f"{show(e.instance)} is not {show(e.validator_value)}",
    "minimum": lambda e: f"{show(e.instance)} is less than the minimum of {e.validator_value}",
    "maximum": lambda e: f"{show(e.instance)} is greater than the maximum of {e.validator_value}",
    "minLength": lambda e: f"{show(e.instance)} is too short (at least {_characters(e.validator_value)})",
    "maxLength": lambda e: f"{show(e.instance)} is too long (at most {_characters(e.validator_value)})",
    "minItems": _item_count,
    "maxItems": _item_count,
    "uniqueItems": lambda e: "has repeated items",
    "pattern": lambda e: f"{show(e.instance)} does not match {e.validator_value!r}",
    "not": lambda e: "is not allowed here",
}


def describe(error: ValidationError) -> str:
    """The message for one jsonschema error: the schema's own (x-error-messages), else one for people."""
    custom = error.schema.get("x-error-messages", {}) if isinstance(error.schema, dict) else {}
    if error.validator in custom:
        return custom[error.validator]
    message = _MESSAGES.get(error.validator)
    return message(error) if message is not None else error.message


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

    Most requests are valid, and jsonschema takes 5-80 us to say so, as much
    as the rest of a move's own work; the compiled test takes 1-2 us. Only
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

    def messages(self, value: Any) -> list[str]:
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
        return [{"pointer": _child("", field), "message": message}]


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

    def header_errors(self, operation_id: str, headers: Mapping[str, str]) -> list[dict]:
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
        compiled = _Parameter(name, bool(parameter.get("required", False)), types, SchemaValidator(schema),
                              _quick_check(schema))
        by_location[location].append(compiled)
    body = None
    request_body = operation.get("requestBody")
    if request_body is not None:
        schema = inline_refs(spec, request_body)["content"]["application/json"]["schema"]
        body = _Body(schema)
    return _Operation(body, by_location["query"], by_location["header"], by_location["path"])


def _value_lists(args: Mapping[str, Any]):
    getlist = getattr(args, "getlist", None)
    return getlist if getlist is not None else (lambda name: args.get(name))


def _single_values(headers: Mapping[str, str]):
    return lambda name: None if (value := headers.get(name)) is None else [value]


def _check_texts(parameters: list[_Parameter], lookup, key: str) -> tuple[dict, list[dict]]:
    values: dict[str, Any] = {}
    errors: list[dict] = []
    for parameter in parameters:
        texts = lookup(parameter.name)
        if not texts:
            if parameter.required:
                errors.append({key: parameter.name, "message": "is required"})
            continue
        if len(texts) > 1:
            errors.append({key: parameter.name, "message": "must be given at most once"})
            continue
        value = coerce_parameter(texts[0], parameter.types)
        messages = parameter.messages(value)
        errors.extend({key: parameter.name, "message": message} for message in messages)
        if not messages:
            values[parameter.name] = value
    return values, errors
