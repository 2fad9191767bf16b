"""The import graph: engine and storage at the bottom, the game-play core and the bots above them, the API and the bot workers on top.

Read from the source with `ast`, so the test sees every import, including
ones inside functions, whether or not a test run happens to execute them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.support.imports import a_cycle, imports_of, project_modules

SERVICE = Path(__file__).resolve().parents[1] / "service"

# What each package of the service may import of the project.
ALLOWED = {
    "engine": {"engine"},
    # The catalogues and Accept-Language: below everything that writes text for people.
    "languages": {"languages"},
    "bots": {"bots", "engine"},
    # The engine protocol: a bot level as an engine process, and the host's side; no web, no store.
    "engine_protocol": {"engine_protocol", "bots", "engine"},
    # patchwork-bot: a client of the service's public HTTP API, never of its store or its app.
    "bridge": {"bridge", "engine_protocol", "engine"},
    "pictures": {"pictures", "engine", "languages"},
    # The store times its calls (service/telemetry/metrics.py, which imports no web code);
    # it knows nothing of the processes that run it (run/) or of HTTP (api/).
    "storage": {"storage", "config", "telemetry"},
    # Glicko-2 and the error catalogue: plain data and maths, importing nothing of the project's layers.
    "ratings": {"ratings"},
    # Swiss and round-robin pairing and standings: pure functions of ids and results.
    "pairing": {"pairing"},
    "problems": {"problems", "languages"},
    "games": {"games", "engine", "storage", "languages", "ratings", "problems", "instance"},
    # The site builds and amends games through the core; it knows nothing of HTTP.
    "site": {"site", "games", "engine", "storage", "languages", "ratings", "problems", "pairing"},
    # The bot worker plays through the game-play core, and must stay out of the web stack.
    "botworker": {
        "botworker",
        "bots",
        "games",
        "site",
        "ratings",
        "pairing",
        "problems",
        "engine",
        "storage",
        "config",
        "telemetry",
        "languages",
    },
    # Metrics and the log formats: below everything that records or logs.
    "telemetry": {"telemetry", "config", "instance"},
    # What an instance's processes share (the kept copies' and stream counts' tables, the
    # metrics directory): made by run/ before the fork, used by the core, the API and telemetry.
    "instance": {"instance"},
    # The processes on top: the supervisor, gunicorn's settings (which make the kept copies'
    # table before forking) and its worker class (which answers problem+json itself and closes
    # the event streams' wakeups on shutdown).
    "run": {"run", "config", "telemetry", "api", "games", "site", "storage", "languages", "instance"},
}
WEB = {"flask", "werkzeug", "marshmallow", "gunicorn"}
# The layers that import no web code: telemetry's log formats are gunicorn's logger, and
# run/ is gunicorn's settings and worker.
WITHOUT_WEB = {
    "engine",
    "bots",
    "engine_protocol",
    "bridge",
    "pictures",
    "storage",
    "games",
    "site",
    "ratings",
    "pairing",
    "problems",
    "botworker",
    "languages",
    "instance",
}


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
    for package, name in (("telemetry", "metrics.py"), ("instance", "metrics_dir.py")):
        path = SERVICE / package / name
        names = imports_of(path, f"service.{package}")
        assert project_modules(path, f"service.{package}") <= {"service.instance.metrics_dir"}, name
        assert not {n.split(".")[0] for n in names} & WEB, name


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


# --- the packages as a graph ---------------------------------------------------


def package_graph(root: Path = SERVICE) -> dict[str, set[str]]:
    """Each package (or loose module) of the service under `root`, and the others it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if parts == ("__init__.py",):
            continue
        node = parts[0].removesuffix(".py")
        package = ".".join(("service", *parts[:-1]))
        names = imports_of(path, package)
        graph.setdefault(node, set()).update(
            (project_layers(names) | project_layers(project_modules(path, package))) - {node}
        )
    return graph


def test_no_two_packages_of_the_service_import_each_other_even_by_a_detour():
    # A cycle makes the layers one tangle: neither side can be read, tested or moved alone.
    assert a_cycle(package_graph()) is None


def test_the_graph_sees_a_cycle_through_any_kind_of_import(tmp_path):
    for name in ("games", "api", "storage"):
        (tmp_path / name).mkdir()
    (tmp_path / "games" / "play.py").write_text("from service.storage import store\n")
    (tmp_path / "storage" / "store.py").write_text("def later():\n    from ..api import app\n")
    (tmp_path / "api" / "app.py").write_text("import service.games.play\n")
    (tmp_path / "config.py").write_text("")
    graph = package_graph(tmp_path)
    assert graph == {"games": {"storage"}, "storage": {"api"}, "api": {"games"}, "config": set()}
    assert a_cycle(graph) == ["api", "games", "storage", "api"]
    graph["storage"] = set()
    assert a_cycle(graph) is None


# --- purity ---------------------------------------------------------------------

PURE = ("engine", "bots", "pictures")


def outside_imports(path: Path, package: str) -> set[str]:
    """The top-level names of what `path` imports beyond the standard library and the service."""
    tops = {name.split(".")[0] for name in imports_of(path, package)}
    return {top for top in tops if top and top != "service" and top not in sys.stdlib_module_names}


def test_the_engine_the_bots_and_the_pictures_need_nothing_but_the_standard_library():
    # Pure code: no store, no web, no third-party package; within the project only what
    # ALLOWED lets them (test_each_layer_imports_only_the_layers_below_it).
    found = {}
    for layer in PURE:
        for path in sorted((SERVICE / layer).rglob("*.py")):
            package = ".".join(path.relative_to(SERVICE.parent).parts[:-1])
            outside = outside_imports(path, package)
            if outside:
                found[str(path.relative_to(SERVICE.parent))] = sorted(outside)
    assert found == {}


def module_file(name: str) -> Path | None:
    """The file of the service module `name` (service.a.b), or of the nearest package it names a member of."""
    parts = name.split(".")[1:]
    while parts:
        base = SERVICE.joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
        parts = parts[:-1]
    return None


def imported_with(start: Path) -> set[Path]:
    """Every service file that importing `start` runs: what it imports, their packages, and so on."""
    seen: set[Path] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        parts = path.relative_to(SERVICE.parent).parts
        package = ".".join(parts[:-1])
        # Importing a module runs each package's __init__ on the way to it.
        todo.extend(SERVICE.parent.joinpath(*parts[:depth], "__init__.py") for depth in range(2, len(parts)))
        names = imports_of(path, package) | project_modules(path, package)
        todo.extend(found for name in names if name.startswith("service.") and (found := module_file(name)))
    return seen


def test_the_game_play_core_runs_no_web_code_even_through_what_it_imports():
    # The core is driven without HTTP (tests/games, the bot workers): importing it must not
    # bring in Flask, werkzeug, marshmallow or gunicorn by way of storage, telemetry or config.
    web = {}
    for path in imported_with(SERVICE / "games" / "__init__.py"):
        package = ".".join(path.relative_to(SERVICE.parent).parts[:-1])
        found = {name.split(".")[0] for name in imports_of(path, package)} & WEB
        if found:
            web[str(path.relative_to(SERVICE.parent))] = sorted(found)
    assert web == {}


def test_the_closure_follows_packages_and_members():
    files = {str(path.relative_to(SERVICE)) for path in imported_with(SERVICE / "games" / "play.py")}
    # play.py imports `from service.storage import GameStore`: the package and what it imports.
    assert {"storage/__init__.py", "storage/redis_store.py", "engine/rules.py"} <= files
    assert not any(name.startswith(("api/", "run/")) for name in files)
