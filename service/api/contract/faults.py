"""Why a request breaks the spec, in words for people who write JSON.

jsonschema finds the faults; this module turns them into the `errors` items
of a 400 problem ({"pointer", "message"}), picks the branch of a oneOf the
client meant, and keeps the cost of explaining a refusal bounded: a 64 KiB
body can break a rule thousands of times, and no refusal may cost more for
more garbage.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, cast

from jsonschema.protocols import Validator

from .schema_validator import SchemaValidator, unknown_fields
from .spec import inline_refs

# Faults reported per request at most: a 64 KiB body can break a rule thousands of times.
MAX_ERRORS = 50


class _Fault(Protocol):
    """A ValidationError as a validator yields it, every field set.

    (types-jsonschema types the fields as possibly unset, as they are while
    an error is being built.) Each fault is of a keyword, so its schema is
    the object schema holding that keyword.
    """

    message: str
    validator: str
    validator_value: Any
    instance: Any
    schema: Mapping[str, Any]
    relative_schema_path: deque[str | int]

    @property
    def absolute_path(self) -> Sequence[str | int]: ...

    @property
    def context(self) -> list[_Fault]: ...


def compile_schema(spec: dict, schema: dict) -> Validator:
    """A Draft 2020-12 validator for a schema of the spec, its $refs inlined."""
    return SchemaValidator(inline_refs(spec, schema))


def schema_errors(validator: Validator, instance: Any) -> list[dict]:
    """Each way `instance` breaks the validator's schema, as {"pointer", "message"} items."""
    found: list[tuple[str, str, str]] = []
    try:
        # Stop early: past a few times MAX_ERRORS, more faults only cost time.
        faults = cast("Iterator[_Fault]", validator.iter_errors(instance))
        _explain(itertools.islice(faults, 4 * MAX_ERRORS), found)
    except RecursionError:
        return [{"pointer": "", "message": "nested too deeply"}]
    # A value of the wrong type breaks its other keywords too; its type error says it all.
    mistyped = {pointer for pointer, _, keyword in found if keyword == "type"}
    unique = dict.fromkeys(
        (pointer, message)
        for pointer, message, keyword in found
        if keyword == "type" or pointer not in mistyped
    )
    return [{"pointer": pointer, "message": message} for pointer, message in unique][:MAX_ERRORS]


def _explain(errors: Iterable[_Fault], found: list[tuple[str, str, str]]) -> None:
    for error in errors:
        pointer = _pointer(error.absolute_path)
        keyword = error.validator
        if keyword == "oneOf" and error.context:
            per_branch: list[list[_Fault]] = [[] for _ in error.validator_value]
            for sub in error.context:
                branch = sub.relative_schema_path[0]
                assert isinstance(branch, int)  # a oneOf's faults start at their branch's index
                per_branch[branch].append(sub)
            if not isinstance(error.instance, dict):
                _explain(per_branch[0], found)  # every branch wants an object; one says so
                continue
            chosen = choose_branch(error.schema, error.instance)
            if isinstance(chosen, int):
                _explain(per_branch[chosen], found)
            else:
                field, message = chosen
                found.append((child_pointer(pointer, field) if field else pointer, message, keyword))
        elif keyword == "additionalProperties" and error.validator_value is False:
            for name in itertools.islice(unknown_fields(error.instance, error.schema), MAX_ERRORS):
                found.append((child_pointer(pointer, name), f"unknown field {show(name)}", keyword))
        elif keyword == "required":
            for name in error.validator_value:
                if name not in error.instance:
                    found.append(
                        (child_pointer(pointer, name), f"missing required field {show(name)}", keyword)
                    )
        else:
            found.append((pointer, describe(error), keyword))


def choose_branch(schema: Mapping[str, Any], instance: dict) -> int | tuple[str, str]:
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
    # Without a discriminator the branch is the form that owns every field the
    # instance gives (unknown ones aside), the narrowest such form when forms
    # share fields (a placement's orientation may carry its cells too).
    owned = [_own_fields(branch) for branch in branches]
    given = {key for key, value in instance.items() if value is not None} & set().union(*owned)
    fitting = [index for index, fields in enumerate(owned) if given and given <= fields]
    if fitting:
        return min(fitting, key=lambda index: len(owned[index]))
    # The forms an object may take (a branch that allows only null is none of them).
    forms = ", or ".join(
        " and ".join(show(name) for name in branch["required"])
        for branch in branches
        if branch.get("required")
    )
    if given:
        return "", f"give either {forms}, not both"
    return "", f"give either {forms}"


def _own_fields(branch: dict) -> set[str]:
    """Fields a branch gives a value to (those it allows only as null belong to another form)."""
    return {name for name, prop in branch.get("properties", {}).items() if prop.get("type") != "null"}


def _pointer(path: Iterable[Any]) -> str:
    return "".join(child_pointer("", part) for part in path)


def child_pointer(pointer: str, part: Any) -> str:
    """`pointer` extended by one step, escaped as JSON Pointer wants."""
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


def _item_count(error: _Fault) -> str:
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


def describe(error: _Fault) -> str:
    """The message for one jsonschema error: the schema's own (x-error-messages), else one for people."""
    custom = error.schema.get("x-error-messages", {}) if isinstance(error.schema, dict) else {}
    if error.validator in custom:
        return custom[error.validator]
    message = _MESSAGES.get(error.validator)
    return message(error) if message is not None else error.message
