"""openapi.yaml generates types that take the docs' examples, and the TypeScript client compiles.

openapi-typescript runs with its default options, as a frontend developer
runs it, and tsc --strict checks clients/typescript/ against what it
generated: the client, its tests, its example, and examples/docs.ts, the
bodies and answers of README.md and docs/api-guide.md written as a client
writes them. (tests/system/test_typescript_client.py runs the client
against a live service.)
"""

from __future__ import annotations

import json
import re

from tests.support.typescript_client import PACKAGE, ROOT, build_client


def test_the_generated_types_take_the_docs_examples_and_the_client_compiles(tmp_path):
    package = build_client(tmp_path)
    assert (package / "dist" / "examples" / "docs.js").exists()
    assert (package / "dist" / "src" / "index.js").exists()


def test_the_client_pins_its_own_build_tools_as_the_root_does_and_needs_nothing_at_run_time():
    root = json.loads((ROOT / "package.json").read_text())["devDependencies"]
    client = json.loads((PACKAGE / "package.json").read_text())
    lock = json.loads((PACKAGE / "package-lock.json").read_text())["packages"]
    assert set(client["devDependencies"]) == {"openapi-typescript", "typescript", "@types/node"}
    for name, version in client["devDependencies"].items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} {version} is no exact pin"
        assert version == root[name], f"{name}: {version} here, {root[name]} at the root"
        assert lock[f"node_modules/{name}"]["version"] == version, f"package-lock.json holds another {name}"
    # What `npm install` of the packed tarball fetches: nothing.
    assert not client.get("dependencies") and not client.get("peerDependencies")
    assert lock[""]["devDependencies"] == client["devDependencies"]
