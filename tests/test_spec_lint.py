"""openapi.yaml passes Redocly's recommended lint with no error (warnings are reported, not failed).

`@redocly/cli` is pinned in package.json and package-lock.json; `./dev test`
installs it into node_modules (npm ci) and stops, naming what is missing,
when node or npm is not there: this test never skips.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REDOCLY = REPO / "node_modules" / ".bin" / "redocly"


def test_the_spec_passes_redoclys_recommended_lint():
    assert REDOCLY.exists(), "node_modules lacks @redocly/cli: run ./dev test (it runs npm ci)"
    # No telemetry and no update check: the lint must not need (or tell) the network.
    env = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}
    run = subprocess.run(
        [str(REDOCLY), "lint", "openapi.yaml", "--config", "redocly.yaml", "--format", "json"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(run.stdout)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    warnings = [p for p in report["problems"] if p["severity"] == "warn"]
    print(
        f"redocly lint: {len(errors)} errors, {len(warnings)} warnings: "
        + ", ".join(sorted({p["ruleId"] for p in warnings}))
    )
    assert errors == [], "\n".join(f"{p['ruleId']}: {p['message']}" for p in errors)
    assert run.returncode == 0, run.stderr
