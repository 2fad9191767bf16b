"""Read a Dockerfile's instructions the way the builder does, for tests that check or run them."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


def instructions(path: Path = DOCKERFILE) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    result: list[tuple[str, str]] = []
    pending = ""
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue  # a comment inside a continued instruction
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        name, _, args = (pending + stripped).partition(" ")
        result.append((name.upper(), args.strip()))
        pending = ""
    return result


def arguments(name: str, path: Path = DOCKERFILE) -> list[str]:
    """The arguments of every `name` instruction, in order."""
    return [args for instruction, args in instructions(path) if instruction == name]


def exec_form(args: str) -> list[str]:
    """A JSON-array (exec form) argument list; fails on the shell form."""
    parsed = json.loads(args)
    assert isinstance(parsed, list) and all(isinstance(a, str) for a in parsed), args
    return parsed


def environment(path: Path = DOCKERFILE) -> dict[str, str]:
    """What the ENV instructions set (KEY=value form), later ones winning."""
    env: dict[str, str] = {}
    for args in arguments("ENV", path):
        for pair in shlex.split(args):
            key, _, value = pair.partition("=")
            env[key] = value
    return env


def healthcheck_command(path: Path = DOCKERFILE) -> list[str]:
    """The command of the (last) HEALTHCHECK, after its --options and CMD."""
    args = arguments("HEALTHCHECK", path)[-1]
    options, _, command = args.partition("CMD ")
    assert all(option.startswith("--") for option in options.split()), args
    return exec_form(command)
