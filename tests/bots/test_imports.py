"""The bots are pure: importing them loads the engine and the standard library only."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A fresh interpreter: this test process has loaded flask and friends.
SCRIPT = """
import json, sys
before = set(sys.modules)
import service.bots
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_importing_the_bots_loads_only_the_engine_and_the_standard_library():
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stdout)
    assert "service.bots.search" in loaded
    assert {name.split(".")[0] for name in loaded} - set(sys.stdlib_module_names) == {"service"}
    project = {".".join(name.split(".")[:2]) for name in loaded if name.startswith("service.")}
    assert project == {"service.bots", "service.engine"}
