"""Copy the /docs renderer (Swagger UI) from its pinned npm package into the service package.

    python3 tools/vendor_docs.py          # after `npm ci`: copy and record (./dev vendor-docs does both)
    python3 tools/vendor_docs.py check    # the copy is the recorded one and the one package-lock.json pins

Why vendored rather than installed at run time: the service (its wheel, the
Docker image, `./dev serve`) needs only Python, and /docs must work on a
machine with no internet, so the few built files ship inside the package.
`package-lock.json` pins the package with its integrity hash; VENDORED.json
records that version and integrity and the sha256 of each copied file, so a
test can tell a hand edit or a copy from another version.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
PACKAGE = "swagger-ui-dist"
INSTALLED = TOP / "node_modules" / PACKAGE
DESTINATION = TOP / "service" / "static" / "docs"
RECORD = DESTINATION / "VENDORED.json"
# The built bundle and its stylesheet (the page needs nothing else), and the licence that must go with them.
FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def locked_entry() -> dict:
    """The package's entry in package-lock.json: version, resolved, integrity."""
    lock = json.loads((TOP / "package-lock.json").read_text(encoding="utf-8"))
    return lock["packages"][f"node_modules/{PACKAGE}"]


def record_of(source: Path) -> dict:
    """What VENDORED.json says about a copy of the files in `source`."""
    entry = locked_entry()
    return {
        "package": PACKAGE,
        "version": entry["version"],
        "integrity": entry["integrity"],
        "files": {name: sha256(source / name) for name in FILES},
    }


def vendor() -> None:
    installed_version = json.loads((INSTALLED / "package.json").read_text(encoding="utf-8"))["version"]
    if installed_version != locked_entry()["version"]:
        sys.exit(
            f"node_modules holds {PACKAGE} {installed_version}, package-lock.json pins another: run npm ci"
        )
    for name in FILES:
        shutil.copyfile(INSTALLED / name, DESTINATION / name)
    RECORD.write_text(json.dumps(record_of(DESTINATION), indent=2) + "\n", encoding="utf-8")
    print(f"vendored {PACKAGE} {installed_version} into {DESTINATION.relative_to(TOP)}")


def check() -> list[str]:
    """What is wrong with the vendored copy (empty: nothing)."""
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    faults = []
    entry = locked_entry()
    for key in ("version", "integrity"):
        if recorded[key] != entry[key]:
            faults.append(
                f"VENDORED.json's {key} {recorded[key]!r} is not package-lock.json's {entry[key]!r}"
            )
    for name, digest in recorded["files"].items():
        if sha256(DESTINATION / name) != digest:
            faults.append(f"{name} is not the file vendored from {PACKAGE} {recorded['version']}")
    return faults


if __name__ == "__main__":
    if sys.argv[1:] == ["check"]:
        problems = check()
        print("\n".join(problems) or "vendored docs assets match package-lock.json")
        sys.exit(1 if problems else 0)
    vendor()
