"""openapi.yaml, the contract: loaded once, its local $refs inlined for validators.

The spec is the one truth for requests and responses: RequestValidator
(request_validator.py) compiles its parameters and bodies, the tests check every
response against it, and GET /openapi.yaml serves the same file.
"""

from __future__ import annotations

import functools
import importlib.resources
from pathlib import Path
from typing import Any

import yaml

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# Keywords that may sit beside a $ref without changing what it validates.
_ANNOTATIONS = frozenset({"description", "title", "summary", "examples", "default", "$comment"})


def spec_bytes() -> bytes:
    """openapi.yaml as this installation has it: the package's copy (setup.py puts it in the wheel),
    or in a checkout the repository's own file."""
    packaged = importlib.resources.files("service").joinpath("openapi.yaml")
    if packaged.is_file():
        return packaged.read_bytes()
    return (Path(__file__).resolve().parents[3] / "openapi.yaml").read_bytes()


@functools.cache
def load_spec() -> dict:
    """The parsed openapi.yaml, read once (the same dict every call: do not mutate)."""
    return yaml.load(spec_bytes().decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


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
