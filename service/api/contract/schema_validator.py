"""jsonschema's Draft 2020-12 validator, changed so that a refusal costs no more for more garbage.

A 64 KiB body can break a rule thousands of times; these keywords stop
jsonschema from quoting the whole instance in every message, checking each
item of an array already over its maxItems, or naming every unknown field.
faults.py explains what they find.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError


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

    jsonschema puts repr(instance) into every error's message, for each
    keyword it breaks (the oneOf above it quotes it again): the cost of a
    refusal would grow with the garbage sent. Our messages come from the instance itself (describe, show), so
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

    Sorting and quoting thousands of names is wasted: faults.py lists
    them itself, up to its MAX_ERRORS.
    """

    def run(validator, allowed, instance, schema):
        if allowed is not False or not isinstance(instance, dict):
            return check(validator, allowed, instance, schema)
        if next(unknown_fields(instance, schema), None) is None:
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


def unknown_fields(instance: dict, schema: Mapping[str, Any]) -> Iterator[str]:
    """The names of `instance` that `schema` neither lists nor matches by pattern."""
    known = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return (name for name in instance if name not in known and not any(re.search(p, name) for p in patterns))
