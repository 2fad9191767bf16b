"""The TypeScript client of clients/typescript/, built as its package.json builds it, in a copy.

The build (`npm run build`: openapi-typescript on openapi.yaml with its
default options, then tsc --strict) runs in a temporary copy of the package
beside a copy of openapi.yaml, so the checkout gets no generated file and
two runs never share one. The node packages are the client's own
(clients/typescript/package-lock.json): either its node_modules in the
checkout (./dev test runs npm ci there), linked into the copy, or installed
into the copy by `npm ci` as on a fresh clone (`fresh_install`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
NODE_MODULES = PACKAGE / "node_modules"


def node_env() -> dict[str, str]:
    """The environment node and npm run in: no update check, no telemetry, no network for installs."""
    return {
        **os.environ,
        "NO_UPDATE_NOTIFIER": "1",
        "npm_config_update_notifier": "false",
        "npm_config_fund": "false",
    }


def npm(package: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """npm ARGS in `package`, which must succeed; its run (stdout, stderr)."""
    run = subprocess.run(
        ["npm", *args], cwd=package, env=node_env(), capture_output=True, text=True, timeout=timeout
    )
    assert run.returncode == 0, f"npm {' '.join(args)} failed in {package}:\n{run.stdout}\n{run.stderr}"
    return run


def build_client(work: Path, fresh_install: bool = False, build: bool = True) -> Path:
    """Build the client in `work` (made if missing, else empty); the built package's directory (its dist/ inside).

    `fresh_install`: its node packages installed by `npm ci` in the copy, as the README says to on a
    fresh clone (from npm's cache when it has them, which ./dev test's own npm ci filled), rather
    than the checkout's node_modules linked in. `build=False`: the copy set up, not built (for
    `npm pack`, whose prepack builds it).
    """
    if not fresh_install:
        assert (NODE_MODULES / ".bin" / "openapi-typescript").exists(), (
            "clients/typescript/node_modules lacks openapi-typescript: run ./dev test (it runs npm ci there)"
        )
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "openapi.yaml", work / "openapi.yaml")
    package = work / "clients" / "typescript"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("dist", "api.ts", "node_modules"))
    if fresh_install:
        npm(package, "ci", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund")
    else:
        (package / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
    if build:
        npm(package, "run", "--silent", "build")
    return package
