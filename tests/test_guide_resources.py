"""The API guide's resources table names every operation of openapi.yaml (issue 38: it had left out the
lobby, players, seeks, rematch, analysis, events and pictures), and nothing the spec does not have."""

from __future__ import annotations

import re
from pathlib import Path

from service.api.contract.spec import load_spec

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "api-guide.md"
METHODS = ("get", "post", "put", "patch", "delete")
# A request in the table's first column: `METHOD /path`, perhaps with a query.
REQUEST = re.compile(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`?\s]*)(?:\?[^`]*)?`")


def _shape(path: str) -> str:
    """A path with each parameter's name dropped: the table says {id} where the spec says {game_id}."""
    return re.sub(r"\{[^}]+\}", "{}", path)


def resources_table(text: str) -> list[str]:
    """The first cells of the rows of the guide's `## Resources` table."""
    section = text.split("\n## Resources\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [row.removeprefix("| ").split(" | ", 1)[0] for row in rows]


def test_the_resources_table_names_every_operation_of_the_spec_and_no_other():
    in_table = {
        (method, _shape(path))
        for cell in resources_table(GUIDE.read_text())
        for method, path in REQUEST.findall(cell)
    }
    in_spec = {
        (method.upper(), _shape(path))
        for path, operations in load_spec()["paths"].items()
        for method in operations
        if method in METHODS
    }
    assert sorted(in_spec - in_table) == [], "operations the guide's resources table leaves out"
    assert sorted(in_table - in_spec) == [], "requests in the table that the spec does not have"


def test_the_table_is_read_as_written():
    """The reader above finds rows and requests (a table it could not read would pass the test above vacuously
    only if the spec were empty)."""
    cells = resources_table(GUIDE.read_text())
    assert "`GET /patches`" in cells
    assert REQUEST.findall("`GET /games?status=active`, `DELETE /seeks/{id}`") == [
        ("GET", "/games"),
        ("DELETE", "/seeks/{id}"),
    ]
