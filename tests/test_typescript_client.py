"""openapi.yaml generates types that take the docs' examples, and the TypeScript client compiles.

openapi-typescript runs with its default options, as a frontend developer
runs it, and tsc --strict checks clients/typescript/ against what it
generated: the client, its tests, its example, and examples/docs.ts, the
bodies and answers of README.md and docs/api-guide.md written as a client
writes them. (tests/system/test_typescript_client.py runs the client
against a live service.)
"""

from __future__ import annotations

from tests.support.typescript_client import build_client


def test_the_generated_types_take_the_docs_examples_and_the_client_compiles(tmp_path):
    package = build_client(tmp_path)
    assert (package / "dist" / "examples" / "docs.js").exists()
    assert (package / "dist" / "src" / "index.js").exists()
