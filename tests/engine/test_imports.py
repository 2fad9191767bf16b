"""The engine stands alone: importing it pulls in the standard library and nothing else."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Run in a fresh interpreter: this test process has loaded flask and friends.
SCRIPT = """
import json, sys
before = set(sys.modules)
import service.engine
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def modules_loaded_by_importing_the_engine() -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def test_importing_the_engine_loads_only_the_standard_library():
    loaded = modules_loaded_by_importing_the_engine()
    assert "service.engine.rules" in loaded
    tops = {name.split(".")[0] for name in loaded}
    assert not tops & {"flask", "redis", "marshmallow", "werkzeug"}
    assert tops - set(sys.stdlib_module_names) == {"service"}
    # and nothing of the project outside the engine
    assert [
        name for name in loaded if name.startswith("service.") and not name.startswith("service.engine")
    ] == []
