"""The dependency locks (requirements/*.txt): current with pyproject.toml, the
staleness check really catches a change, every requirement is pinned by a
version it allows, and this venv holds exactly the dev lock's pins.
"""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement

from tools import lock

ROOT = lock.ROOT
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
RUNTIME_PINS = lock.pins(ROOT / lock.RUNTIME)
DEV_PINS = lock.pins(ROOT / lock.DEV)


# What the served processes import at start: the web worker class and app, the
# supervisor, the bot worker. Run in a fresh interpreter: this one has loaded
# the test tools.
SERVED_IMPORTS = """
import json, sys
import gunicorn.workers.ggevent, service.run.gunicorn_worker, service.api.app, service.run.runner
import service.botworker.worker
print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))
"""


def run_check(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / "lock.py"), "--root", str(root), "check"],
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """pyproject.toml and the locks, copied and current: a test may edit them."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copytree(ROOT / "requirements", tmp_path / "requirements")
    # Stamped here, so each test below starts from current locks even if the real ones are not.
    for path in (lock.RUNTIME, lock.DEV):
        lock.stamp(tmp_path / path, lock.fingerprint(tmp_path / "pyproject.toml"))
    assert run_check(tmp_path).returncode == 0
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1))


def test_the_committed_locks_are_current():
    checked = run_check(ROOT)
    assert (checked.returncode, checked.stderr) == (0, "")


@pytest.mark.parametrize(
    "old, new",
    [
        ("dependencies = [\n", 'dependencies = [\n    "gevent>=24.2",\n'),  # a new runtime dependency
        ('"flask>=3.0"', '"flask>=3.1"'),  # a changed bound
        ('"pytest>=8.0",', '"pytest>=8.0",\n    "pytest-timeout>=2.3",'),  # a new test-only one
        ('bench = ["pyinstrument>=4.6"]', 'bench = ["pyinstrument>=4.6"]\nlint = ["ruff"]'),  # a new extra
        ('requires = ["setuptools>=68"]', 'requires = ["setuptools>=75"]'),  # the build backend
    ],
    ids=["runtime", "bound", "test-extra", "new-extra", "build-system"],
)
def test_a_change_of_dependencies_makes_both_locks_stale(project_copy, old, new):
    edit(project_copy / "pyproject.toml", old, new)
    checked = run_check(project_copy)
    assert checked.returncode == 1
    lines = checked.stderr.splitlines()
    assert len(lines) == 2
    for line, path in zip(lines, (lock.RUNTIME, lock.DEV)):
        assert line.startswith(f"lock is stale: {path} ") and line.endswith("run ./dev lock")


def test_comments_and_layout_leave_the_locks_current(project_copy):
    pyproject = project_copy / "pyproject.toml"
    edit(pyproject, '    "flask>=3.0",\n', '    # Why flask: said here.\n    "flask>=3.0"  ,\n')
    edit(pyproject, 'description = "', 'description = "Now described differently. ')
    assert run_check(project_copy).returncode == 0


def test_a_missing_lock_or_one_stamped_otherwise_is_stale(project_copy):
    (project_copy / lock.RUNTIME).unlink()
    lock.stamp(project_copy / lock.DEV, "0" * 64)
    checked = run_check(project_copy)
    assert checked.returncode == 1
    assert f"lock is stale: {lock.RUNTIME} is missing; run ./dev lock" in checked.stderr
    assert f"lock is stale: {lock.DEV} was written" in checked.stderr


def requirements_with_extras(strings: list[str]) -> list[Requirement]:
    """The requirements, and for each `name[extra]` the requirements that extra adds (from the
    installed package's metadata): those must be pinned too."""
    result = []
    for requirement in map(Requirement, strings):
        result.append(requirement)
        for added in map(Requirement, importlib.metadata.requires(requirement.name) or []):
            if (
                added.marker
                and any(added.marker.evaluate({"extra": extra}) for extra in requirement.extras)
                and not added.marker.evaluate({"extra": ""})
            ):
                result.append(added)
    return result


@pytest.mark.parametrize(
    "pins, extras",
    [(RUNTIME_PINS, []), (DEV_PINS, list(PYPROJECT["project"]["optional-dependencies"]))],
    ids=["runtime", "dev"],
)
def test_every_requirement_is_pinned_by_a_version_it_allows(pins, extras):
    strings = PYPROJECT["build-system"]["requires"] + PYPROJECT["project"]["dependencies"]
    for extra in extras:
        strings += PYPROJECT["project"]["optional-dependencies"][extra]
    requirements = requirements_with_extras(strings)
    assert any(r.name == "hiredis" for r in requirements)  # redis[hiredis] did bring its extra in
    for requirement in requirements:
        name = lock.normalize(requirement.name)
        assert name in pins, f"{requirement} is not pinned"
        assert requirement.specifier.contains(pins[name][0], prereleases=True), (requirement, pins[name])


def test_serving_installs_only_what_serving_needs():
    test_only = {
        lock.normalize(Requirement(r).name)
        for extra in PYPROJECT["project"]["optional-dependencies"].values()
        for r in extra
    }
    assert not test_only & RUNTIME_PINS.keys()
    assert "pytest" in DEV_PINS  # pins really are named by their normalized names


def test_a_package_both_locks_pin_has_one_version():
    # (Markers may differ: a package needed on old Pythons by one user may be needed everywhere by another.)
    assert {name: DEV_PINS[name][0] for name in RUNTIME_PINS} == {
        name: pin[0] for name, pin in RUNTIME_PINS.items()
    }


def test_this_venv_holds_the_dev_locks_pins():
    """./dev installed from the lock: each pin that applies here is the version installed."""
    wrong = {}
    for name, (version, marker) in DEV_PINS.items():
        if marker is None or Marker(marker).evaluate():
            installed = importlib.metadata.version(name)
            if installed != version:
                wrong[name] = (version, installed)
    assert wrong == {}


def test_the_runtime_lock_holds_every_package_the_served_processes_import():
    # gunicorn's gevent worker imports packaging, which gunicorn does not
    # declare: an image installed from the runtime lock alone could not start.
    found = subprocess.run(
        [sys.executable, "-c", SERVED_IMPORTS],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=60,
    )
    modules = set(json.loads(found.stdout))
    by_module = importlib.metadata.packages_distributions()
    needed = {
        lock.normalize(dist)
        for module in modules
        for dist in by_module.get(module, [])
        if lock.normalize(dist) != "patchwork-service"
    }
    # Format checkers jsonschema loads only when they are installed (the dev
    # lock has them through schemathesis); without them it skips those formats.
    optional = {"idna", "rfc3339-validator", "six"}
    assert needed - optional - set(RUNTIME_PINS) == set()
