"""Tests, their harness and the benchmarks keep apart: no test imports a benchmark, benchmarks
import of tests only the harness (tests/support/), nothing imports a test module, and a helper
that another directory imports lives in the harness.

A test module is pytest's to collect: a helper kept in one is found only by reading tests, and
a benchmark that reads one breaks when a test is renamed or moved. Read with `ast`, as
tests/test_layers.py reads the service.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.imports import imports_of_node

ROOT = Path(__file__).resolve().parents[1]


def project_files() -> list[Path]:
    """Every module of tests/ and benchmarks/."""
    return sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")])


def names_imported(path: Path) -> set[str]:
    """Every module `path` imports, and for `from M import N` also M.N (N may be a module)."""
    package = ".".join(path.relative_to(ROOT).parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        found = imports_of_node(node, package)
        names |= found
        if isinstance(node, ast.ImportFrom):
            names |= {f"{module}.{alias.name}" for module in found for alias in node.names}
    return names


def faults(path: Path) -> list[str]:
    """What `path` (a file of tests/ or benchmarks/) imports that it may not."""
    names = names_imported(path)
    wrong = {name for name in names if any(part.startswith("test_") for part in name.split("."))}
    if path.relative_to(ROOT).parts[0] == "tests":
        wrong |= {name for name in names if name.split(".")[0] == "benchmarks"}
    else:
        wrong |= {
            name
            for name in names
            if name.split(".")[0] == "tests"
            and name.split(".")[:2] != ["tests", "support"]
            and name != "tests"
        }
    return sorted(wrong)


def test_no_test_imports_a_benchmark_and_benchmarks_import_only_the_harness_of_tests():
    wrong = {}
    for path in project_files():
        found = faults(path)
        if found:
            wrong[str(path.relative_to(ROOT))] = found
    assert wrong == {}


def helpers_used_elsewhere(files: list[Path]) -> dict[str, list[str]]:
    """Helper modules outside tests/support (neither tests nor conftest) and the files of other
    directories that import them."""
    helpers = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts): path.parent
        for path in files
        if path.relative_to(ROOT).parts[:2] != ("tests", "support")
        and path.relative_to(ROOT).parts[0] == "tests"
        and not path.name.startswith("test_")
        and path.name not in ("conftest.py", "__init__.py")
    }
    found: dict[str, list[str]] = {}
    for path in files:
        for name in names_imported(path):
            if name in helpers and helpers[name] != path.parent:
                found.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return found


def test_a_helper_that_another_directory_imports_is_in_the_harness():
    assert helpers_used_elsewhere(project_files()) == {}


def test_the_check_sees_each_kind_of_import_that_crosses(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "tests" / "api").mkdir(parents=True)
    (tmp_path / "benchmarks").mkdir()
    test = tmp_path / "tests" / "api" / "test_one.py"
    test.write_text(
        "from .test_other import helper\n"
        "from tests.support.sse import EventStream\n"
        "def later():\n"
        "    from benchmarks.engine import random_game\n"
    )
    assert faults(test) == [
        "benchmarks.engine",
        "benchmarks.engine.random_game",
        "tests.api.test_other",
        "tests.api.test_other.helper",
    ]
    bench = tmp_path / "benchmarks" / "one.py"
    bench.write_text(
        "from tests.system import players\nfrom tests import test_layers\nfrom tests.support import burst\n"
    )
    assert faults(bench) == ["tests.system", "tests.system.players", "tests.test_layers"]
    helper = tmp_path / "tests" / "api" / "tables.py"
    helper.write_text("")
    neighbour = tmp_path / "tests" / "api" / "test_two.py"
    neighbour.write_text("from .tables import x\n")
    outsider = tmp_path / "benchmarks" / "two.py"
    outsider.write_text("from tests.api import tables\n")
    files = [helper, neighbour, outsider]
    assert helpers_used_elsewhere(files) == {"tests.api.tables": ["benchmarks/two.py"]}
