"""The dependency locks: `./dev lock` writes them from pyproject.toml, and
`python3 tools/lock.py check` tells, offline and at once, when they are stale.

- requirements/runtime.txt: what serving needs (the Docker image, `./dev serve`).
- requirements/dev.txt: that and every extra (test, bench): `./dev test`, CI.

Both pin every package to one version with its hashes (uv's resolver), and
start with the fingerprint of the pyproject.toml lists they were written from,
so the check needs neither the network nor any installed package: only the
standard library of Python 3.11. Editing a comment in pyproject.toml leaves
the fingerprint alone; adding, dropping or re-specifying a dependency does not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = Path("requirements/runtime.txt")
DEV = Path("requirements/dev.txt")
FINGERPRINT_PREFIX = "# pyproject-dependencies-sha256: "
REGENERATE = "./dev lock"
# The image's interpreter (python:3.11); the locks also hold for every newer one.
PYTHON_VERSION = "3.11"

# A pinned line: `name==version`, an optional `; marker`, then the hashes' continuation.
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]*?))?\s*\\?\s*$")


def fingerprint(pyproject: Path) -> str:
    """sha256 of the dependency lists a lock is written from, whatever their formatting."""
    data = tomllib.loads(pyproject.read_text())
    project = data.get("project", {})
    lists = {
        # setuptools builds the project itself inside the locked venv (no build isolation).
        "build-system": data.get("build-system", {}).get("requires", []),
        "requires-python": project.get("requires-python"),
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
    }
    canonical = json.dumps(lists, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def recorded_fingerprint(lock: Path) -> str | None:
    """The fingerprint line a lock starts with, or None if it has none."""
    for line in lock.read_text().splitlines():
        if line.startswith(FINGERPRINT_PREFIX):
            return line[len(FINGERPRINT_PREFIX) :].strip()
    return None


def stamp(lock: Path, fingerprint: str) -> None:
    """Make `fingerprint` the lock's recorded one (its first line)."""
    kept = [
        line for line in lock.read_text().splitlines(keepends=True) if not line.startswith(FINGERPRINT_PREFIX)
    ]
    lock.write_text(FINGERPRINT_PREFIX + fingerprint + "\n" + "".join(kept))


def pins(lock: Path) -> dict[str, tuple[str, str | None]]:
    """{normalized name: (version, environment marker or None)} of a lock's pinned lines."""
    found = {}
    for line in lock.read_text().splitlines():
        match = _PIN.match(line)
        if match:
            name, version, marker = match.groups()
            found[normalize(name)] = (version, marker or None)
    return found


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them (Flask, flask and FLASK are one)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def stale_locks(root: Path) -> list[str]:
    """Why each lock under `root` cannot be trusted; empty when both are current."""
    want = fingerprint(root / "pyproject.toml")
    problems = []
    for lock in (RUNTIME, DEV):
        path = root / lock
        if not path.is_file():
            problems.append(f"{lock} is missing")
        elif recorded_fingerprint(path) != want:
            problems.append(f"{lock} was written from other pyproject.toml dependencies")
    return problems


def check(root: Path) -> int:
    problems = stale_locks(root)
    for problem in problems:
        print(f"lock is stale: {problem}; run {REGENERATE}", file=sys.stderr)
    return 1 if problems else 0


def write(root: Path, uv: str, upgrade: bool) -> int:
    """Resolve both locks with uv, keeping existing pins where they still fit unless `upgrade`."""
    build_requires = "\n".join(
        tomllib.loads((root / "pyproject.toml").read_text()).get("build-system", {}).get("requires", [])
    )
    common = [
        "--universal",
        "--python-version",
        PYTHON_VERSION,
        "--generate-hashes",
        "--custom-compile-command",
        REGENERATE,
        "--quiet",
    ] + (["--upgrade"] if upgrade else [])
    (root / RUNTIME).parent.mkdir(exist_ok=True)
    # dev first: runtime is then resolved within dev's pins, so a package
    # both need has the same version under `./dev serve` as under the tests.
    # "-" reads the build requirements from stdin.
    steps = [
        (DEV, ["pyproject.toml", "-", "--all-extras"]),
        (RUNTIME, ["pyproject.toml", "-", "--constraints", str(DEV)]),
    ]
    for lock, sources in steps:
        print(f"lock: resolving {lock} ...", file=sys.stderr)
        resolved = subprocess.run(
            [uv, "pip", "compile", *sources, *common, "--output-file", str(lock)],
            cwd=root,
            input=build_requires,
            text=True,
        )
        if resolved.returncode != 0:
            print(f"lock: uv could not resolve {lock} (above); the locks stay stale", file=sys.stderr)
            return resolved.returncode
    # Only once both resolved: a half-written pair stays stale for the check.
    for lock in (DEV, RUNTIME):
        path = root / lock
        stamp(path, fingerprint(root / "pyproject.toml"))
        print(f"lock: wrote {lock} ({len(pins(path))} pinned packages)", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the project directory (default: this one)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="fail if a lock is missing or older than pyproject.toml's dependencies")
    writer = commands.add_parser("write", help="resolve and write both locks")
    writer.add_argument("--uv", required=True, help="the uv executable")
    writer.add_argument(
        "--upgrade", action="store_true", help="move every pin to the newest version that fits"
    )
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.root)
    return write(args.root, args.uv, args.upgrade)


if __name__ == "__main__":
    sys.exit(main())
