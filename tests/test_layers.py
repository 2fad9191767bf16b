"""The import graph: engine and storage at the bottom, the game-play core and the bots above them, the API and the bot workers on top.

Read from the source with `ast`, so the test sees every import, including
ones inside functions, whether or not a test run happens to execute them.
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "service"

# What each package of the service may import of the project.
ALLOWED = {
    "engine": {"engine"},
    "bots": {"bots", "engine"},
    "pictures": {"pictures", "engine"},
    # The store times its calls (service/telemetry/metrics.py, which imports no web code);
    # it knows nothing of the processes that run it (run/) or of HTTP (api/).
    "storage": {"storage", "config", "telemetry"},
    "games": {"games", "engine", "storage"},
    # The bot worker plays through the game-play core, and must stay out of the web stack.
    "botworker": {"botworker", "bots", "games", "engine", "storage", "config", "telemetry"},
    # Metrics, their directory and the log formats: below everything that records or logs.
    "telemetry": {"telemetry", "config"},
    # The processes on top: the supervisor, gunicorn's settings (which make the kept copies'
    # table before forking) and its worker class (which answers problem+json itself and closes
    # the event streams' wakeups on shutdown).
    "run": {"run", "config", "telemetry", "api", "games", "storage", "stream_counts"},
}
WEB = {"flask", "werkzeug", "marshmallow", "gunicorn"}
# The layers that import no web code: telemetry's log formats are gunicorn's logger, and
# run/ is gunicorn's settings and worker.
WITHOUT_WEB = {"engine", "bots", "pictures", "storage", "games", "botworker"}


def imports_of(path: Path, package: str) -> set[str]:
    """Absolute module names `path` imports (relative ones resolved from `package`)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names.update(imports_of_node(node, package))
    return names


def imports_of_node(node: ast.AST, package: str) -> set[str]:
    """The absolute module names one import statement names (none for any other node)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            return {f"{base}.{node.module}" if node.module else base}
        return {node.module or ""}
    return set()


def project_layers(names: set[str]) -> set[str]:
    return {name.split(".")[1] for name in names if name.startswith("service.") and name.count(".")}


def violations(layer: str, path: Path, package: str) -> list[str]:
    """What `path`, a module of `layer`, imports that its layer may not."""
    names = imports_of(path, package)
    # `from service import bots` names the package `service`: its layer is in what it imports.
    above = (project_layers(names) | project_layers(project_modules(path, package))) - ALLOWED[layer]
    web = {name.split(".")[0] for name in names} & WEB if layer in WITHOUT_WEB else set()
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
    module.write_text("from service import bots\n")
    assert violations("storage", module, "service.storage") == ["bots"]


def test_the_metrics_modules_import_no_web_code_and_nothing_above_them():
    # The store and the bot workers record metrics: what they import must stay below them.
    # Within telemetry/ too: logs.py is gunicorn's logger, so the module, not the layer, is checked.
    for name in ("metrics.py", "metrics_dir.py"):
        path = SERVICE / "telemetry" / name
        names = imports_of(path, "service.telemetry")
        assert project_modules(path, "service.telemetry") <= {"service.telemetry.metrics_dir"}, name
        assert not {n.split(".")[0] for n in names} & WEB, name


def project_modules(path: Path, package: str) -> set[str]:
    """The modules of the service `path` imports: `from service.x import y` counts as service.x.y."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = next(iter(imports_of_node(node, package)))
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("service.")}


API = SERVICE / "api"


def api_violations(part: str, path: Path, package: str) -> list[str]:
    """What `path`, a module of service/api/ in `part` (contract, middleware, resources, or a
    module's own name at the top), imports that its part may not.

    The contract is pure validation: nothing else of the API and no web code. Middleware
    wraps every request whatever its route: no blueprint. Resources may import the rest of
    the API. Only the factory (app.py) knows the blueprints.
    """
    names = imports_of(path, package)
    of_api = {name for name in names | project_modules(path, package) if name.startswith("service.api.")}
    if part == "contract":
        outside = {name for name in of_api if not name.startswith("service.api.contract")}
        return sorted(outside | ({name.split(".")[0] for name in names} & WEB))
    if part == "resources" or part == "app.py":
        return []
    return sorted(name for name in of_api if name.startswith("service.api.resources"))


def test_the_api_contract_stands_alone_and_only_the_factory_knows_the_blueprints():
    wrong = {}
    for path in sorted(API.rglob("*.py")):
        package = ".".join(path.relative_to(SERVICE.parent).parts[:-1])
        found = api_violations(path.relative_to(API).parts[0], path, package)
        if found:
            wrong[str(path.relative_to(SERVICE.parent))] = found
    assert wrong == {}


def test_the_api_check_sees_a_blueprint_or_flask_where_they_do_not_belong(tmp_path):
    module = tmp_path / "module.py"
    module.write_text("from ..resources import games\ndef later():\n    from ..problems import ApiProblem\n")
    assert api_violations("middleware", module, "service.api.middleware") == [
        "service.api.resources",
        "service.api.resources.games",
    ]
    module.write_text(
        "from flask import request\nfrom ..problems import ApiProblem\nfrom .spec import load_spec\n"
    )
    assert api_violations("contract", module, "service.api.contract") == [
        "flask",
        "service.api.problems",
        "service.api.problems.ApiProblem",
    ]
    module.write_text("from .resources import games\n")
    assert api_violations("incoming.py", module, "service.api") == [
        "service.api.resources",
        "service.api.resources.games",
    ]
    assert api_violations("app.py", module, "service.api") == []
    assert api_violations("resources", module, "service.api.resources") == []
