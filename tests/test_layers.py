"""The import graph: engine and storage at the bottom, the game-play core and the bots above them, the API and the bot workers on top.

Read from the source with `ast`, so the test sees every import, including
ones inside functions, whether or not a test run happens to execute them.
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "service"

# What each package of the service may import, of the project and of the web stack.
ALLOWED = {
    "engine": {"engine"},
    # The store times its calls (service/metrics.py, which imports no web code).
    "storage": {"storage", "config", "metrics"},
    "games": {"games", "engine", "storage"},
    "bots": {"bots", "engine"},
    # The bot worker plays through the game-play core, and must stay out of the web stack.
    "botworker": {"botworker", "bots", "games", "engine", "storage", "config", "metrics", "metrics_dir"},
}
WEB = {"flask", "werkzeug", "marshmallow", "gunicorn"}


def imports_of(path: Path, package: str) -> set[str]:
    """Absolute module names `path` imports (relative ones resolved from `package`)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                names.add(f"{base}.{node.module}" if node.module else base)
            else:
                names.add(node.module or "")
    return names


def project_layers(names: set[str]) -> set[str]:
    return {name.split(".")[1] for name in names if name.startswith("service.") and name.count(".")}


def violations(layer: str, path: Path, package: str) -> list[str]:
    """What `path`, a module of `layer`, imports that its layer may not."""
    names = imports_of(path, package)
    above = project_layers(names) - ALLOWED[layer]
    web = {name.split(".")[0] for name in names} & WEB
    return sorted(above | web)


def test_each_layer_imports_only_the_layers_below_it():
    wrong = {}
    for layer in ALLOWED:
        for path in sorted((SERVICE / layer).rglob("*.py")):
            package = ".".join(path.relative_to(SERVICE.parent).parts[:-1])
            found = violations(layer, path, package)
            if found:
                wrong[str(path.relative_to(SERVICE.parent))] = found
    assert wrong == {}


def test_the_check_sees_imports_from_above_absolute_relative_and_inside_functions(tmp_path):
    module = tmp_path / "module.py"
    module.write_text(
        "from ..api import problems\n"
        "def later():\n"
        "    import flask\n"
        "    from service.api.app import create_app\n"
    )
    assert violations("games", module, "service.games") == ["api", "flask"]
    assert violations("engine", module, "service.engine") == ["api", "flask"]


def test_the_metrics_modules_import_no_web_code_and_nothing_above_them():
    # The store and the bot workers record metrics: what they import must stay below them.
    for name in ("metrics.py", "metrics_dir.py"):
        names = imports_of(SERVICE / name, "service")
        assert project_layers(names) <= {"metrics_dir"}, name
        assert not {n.split(".")[0] for n in names} & WEB, name
