"""Why a request breaks the spec, in words for people who write JSON.

jsonschema finds the faults; this module turns them into the `errors` items
of a 400 problem ({"pointer", "message"}), picks the branch of a oneOf the
client meant, and keeps the cost of explaining a refusal bounded: a 64 KiB
body can break a rule thousands of times, and no refusal may cost more for
more garbage.

Each message is a `Text` of the catalogues (service/languages), shown in the
request's language when the problem is written: the values it quotes (the
client's own JSON, the schema's numbers and names) stay as sent. The spec's
own `x-error-messages` are catalogue messages too (tools/messages.py
extracts them from openapi.yaml).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, cast

from jsonschema.protocols import Validator

from service.languages import Plural, Text

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
    found: list[tuple[str, Text, str]] = []
    try:
        # Stop early: past a few times MAX_ERRORS, more faults only cost time.
        faults = cast("Iterator[_Fault]", validator.iter_errors(instance))
        _explain(itertools.islice(faults, 4 * MAX_ERRORS), found)
    except RecursionError:
        return [{"pointer": "", "message": Text("nested too deeply")}]
    # A value of the wrong type breaks its other keywords too; its type error says it all.
    mistyped = {pointer for pointer, _, keyword in found if keyword == "type"}
    # The same fault found twice (by two branches) is one, told apart by its English words.
    unique = {
        (pointer, str(message)): message
        for pointer, message, keyword in found
        if keyword == "type" or pointer not in mistyped
    }
    return [{"pointer": pointer, "message": message} for (pointer, _), message in unique.items()][:MAX_ERRORS]


def _explain(errors: Iterable[_Fault], found: list[tuple[str, Text, str]]) -> None:
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
                found.append(
                    (
                        child_pointer(pointer, name),
                        Text("unknown field {name}", {"name": show(name)}),
                        keyword,
                    )
                )
        elif keyword == "required":
            for name in error.validator_value:
                if name not in error.instance:
                    found.append((child_pointer(pointer, name), _missing(name), keyword))
        else:
            found.append((pointer, describe(error), keyword))


def _missing(name: str) -> Text:
    return Text("missing required field {name}", {"name": show(name)})


def choose_branch(schema: Mapping[str, Any], instance: dict) -> int | tuple[str, Text]:
    """The index of the oneOf branch `instance` is meant for, or (field, message) saying why none is."""
    branches = schema["oneOf"]
    discriminator = schema.get("discriminator")
    if discriminator is not None:
        name = discriminator["propertyName"]
        values = [branch.get("properties", {}).get(name, {}).get("const") for branch in branches]
        if name not in instance:
            return name, _missing(name)
        value = instance[name]
        if isinstance(value, str) and value in values:
            return values.index(value)
        return name, _not_one_of(value, values)
    # Without a discriminator the branch is the form that owns every field the
    # instance gives (unknown ones aside), the narrowest such form when forms
    # share fields (a placement's orientation may carry its cells too).
    owned = [_own_fields(branch) for branch in branches]
    given = {key for key, value in instance.items() if value is not None} & set().union(*owned)
    fitting = [index for index, fields in enumerate(owned) if given and given <= fields]
    if fitting:
        return min(fitting, key=lambda index: len(owned[index]))
    # The forms an object may take (a branch that allows only null is none of them).
    forms = _either([_all_of(branch["required"]) for branch in branches if branch.get("required")])
    if given:
        return "", Text("give either {forms}, not both", {"forms": forms})
    return "", Text("give either {forms}", {"forms": forms})


def _all_of(names: Sequence[str]) -> Text | str:
    """The fields of one form, "'row' and 'col'", its joining word in the reader's language."""
    shown = [show(name) for name in names]
    if len(shown) == 1:
        return shown[0]
    return Text("{first} and {last}", {"first": ", ".join(shown[:-1]), "last": shown[-1]})


def _either(forms: Sequence[Text | str]) -> Text | str:
    """The forms an object may take, "A, or B", each "or" in the reader's language."""
    chosen = forms[0]
    for form in forms[1:]:
        chosen = Text("{first}, or {second}", {"first": chosen, "second": form})
    return chosen


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


def _item_count(error: _Fault) -> Text:
    size, low, high = len(error.instance), error.schema.get("minItems"), error.schema.get("maxItems")
    values = {"size": size, "wanted": low if error.validator == "minItems" else high}
    # Each language words its own plural of the count (French: "0 élément").
    if low is not None and low == high:
        return Plural(
            "has {size} item, expected exactly {wanted}",
            "has {size} items, expected exactly {wanted}",
            "size",
            values,
        )
    if error.validator == "minItems":
        return Plural(
            "has {size} item, expected at least {wanted}",
            "has {size} items, expected at least {wanted}",
            "size",
            values,
        )
    return Plural(
        "has {size} item, expected at most {wanted}",
        "has {size} items, expected at most {wanted}",
        "size",
        values,
    )


def _length(error: _Fault) -> Text:
    values = _bounded(error)
    if error.validator == "minLength":
        return Plural(
            "{value} is too short (at least {limit} character)",
            "{value} is too short (at least {limit} characters)",
            "limit",
            values,
        )
    return Plural(
        "{value} is too long (at most {limit} character)",
        "{value} is too long (at most {limit} characters)",
        "limit",
        values,
    )


def _types(declared: str | list[str]) -> Text | str:
    """The JSON types a value may have, "'string' or 'null'", the "or" in the reader's language."""
    names = [repr(name) for name in ([declared] if isinstance(declared, str) else declared)]
    chosen: Text | str = names[0]
    for name in names[1:]:
        chosen = Text("{first} or {second}", {"first": chosen, "second": name})
    return chosen


def _not_one_of(value: Any, allowed: Iterable[Any]) -> Text:
    return Text(
        "{value} is not one of {allowed}",
        {"value": show(value), "allowed": ", ".join(show(v) for v in allowed)},
    )


def _bounded(e: _Fault) -> dict[str, Any]:
    return {"value": show(e.instance), "limit": e.validator_value}


# Messages by keyword, for people who write JSON rather than read jsonschema's Python reprs.
_MESSAGES: dict[str, Callable[[_Fault], Text]] = {
    "type": lambda e: Text(
        "{value} is not of type {types}", {"value": show(e.instance), "types": _types(e.validator_value)}
    ),
    "enum": lambda e: _not_one_of(e.instance, e.validator_value),
    "const": lambda e: Text(
        "{value} is not {wanted}", {"value": show(e.instance), "wanted": show(e.validator_value)}
    ),
    "minimum": lambda e: Text("{value} is less than the minimum of {limit}", _bounded(e)),
    "maximum": lambda e: Text("{value} is greater than the maximum of {limit}", _bounded(e)),
    "minLength": _length,
    "maxLength": _length,
    "minItems": _item_count,
    "maxItems": _item_count,
    "uniqueItems": lambda e: Text("has repeated items"),
    "pattern": lambda e: Text(
        "{value} does not match {pattern}", {"value": show(e.instance), "pattern": repr(e.validator_value)}
    ),
    "not": lambda e: Text("is not allowed here"),
}


def describe(error: _Fault) -> Text:
    """The message for one jsonschema error: the schema's own (x-error-messages), else one for people."""
    custom = error.schema.get("x-error-messages", {}) if isinstance(error.schema, dict) else {}
    if error.validator in custom:
        return Text(custom[error.validator])
    message = _MESSAGES.get(error.validator)
    # A keyword the spec does not use today: jsonschema's English, as it words it.
    return message(error) if message is not None else Text(error.message)
