"""The TypeScript client of clients/typescript/, built as its package.json builds it, in a copy.

The build (`npm run build`: openapi-typescript on openapi.yaml with its
default options, then tsc --strict) runs in a temporary copy of the package
beside a copy of openapi.yaml, so the checkout gets no generated file and
two runs never share one. The node packages are the checkout's node_modules
(package-lock.json; ./dev test runs npm ci), linked into the copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
NODE_MODULES = ROOT / "node_modules"


def node_env() -> dict[str, str]:
    """The environment node and npm run in: no update check, no telemetry, no network for installs."""
    return {
        **os.environ,
        "NO_UPDATE_NOTIFIER": "1",
        "npm_config_update_notifier": "false",
        "npm_config_fund": "false",
    }


def build_client(work: Path) -> Path:
    """Build the client in `work` (made if missing, else empty); the built package's directory (its dist/ inside)."""
    assert (NODE_MODULES / ".bin" / "openapi-typescript").exists(), (
        "node_modules lacks openapi-typescript: run ./dev test (it runs npm ci)"
    )
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "openapi.yaml", work / "openapi.yaml")
    (work / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
    package = work / "clients" / "typescript"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("dist", "api.ts", "node_modules"))
    run = subprocess.run(
        ["npm", "run", "--silent", "build"],
        cwd=package,
        env=node_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, f"npm run build failed:\n{run.stdout}\n{run.stderr}"
    return package
