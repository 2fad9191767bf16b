"""The modules of service/api import one another without a cycle.

tests/test_layers.py keeps the packages apart; inside the API a cycle is
as bad (neither module can be loaded, read or tested without the other),
and Python hides it until an import order breaks. Imports under
`if TYPE_CHECKING:` count: they are how a cycle gets papered over.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.imports import a_cycle, imports_of, project_modules

API = Path(__file__).resolve().parents[2] / "service" / "api"


def api_module_graph(root: Path = API) -> dict[str, set[str]]:
    """Each module under `root` (a service/api directory) and the ones of them it imports.

    `from x import name` counts as importing x.name too, which may be a module.
    """
    base = root.parents[1]
    modules = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(base).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        named = imports_of(path, package) | project_modules(path, package)
        graph[name] = {other for other in named if other in modules and other != name}
    return graph


def test_no_two_modules_of_the_api_import_each_other_even_by_a_detour():
    assert a_cycle(api_module_graph()) is None


def test_the_check_sees_a_cycle_through_a_type_checking_import(tmp_path):
    root = tmp_path / "service" / "api"
    (root / "streams").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "streams" / "__init__.py").write_text("")
    (root / "problems.py").write_text("from .context import KEY\n")
    (root / "context.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from service.api.streams.limits import Open\n"
    )
    (root / "streams" / "limits.py").write_text("from service.api.problems import ApiProblem\n")
    assert a_cycle(api_module_graph(root)) == [
        "service.api.context",
        "service.api.streams.limits",
        "service.api.problems",
        "service.api.context",
    ]
