"""One `schemathesis run` against a live service, and what it saw, read from its NDJSON report.

The tests run the command-line tool, not schemathesis's pytest plugin: the
CLI's engine runs the four phases in order (examples, coverage, fuzzing,
stateful) with the game ids of earlier answers fed to later operations, and it
is the same command a person runs for a long session. (The plugin also loses
each operation's name from the test ids under pytest 9.2, and its lazy loader
fails there outright.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("schemathesis.toml")


@dataclass(frozen=True)
class FuzzRun:
    """The outcome of one run: exit status, printed report, and the answers per phase and operation."""

    returncode: int
    output: str
    answers: Counter  # (phase, "METHOD /path/{template}", status) -> number of responses

    def statuses(self, phase: str, operation: str) -> set[int]:
        """The statuses `operation` answered in `phase`."""
        return {
            status
            for (p, op, status), count in self.answers.items()
            if (p, op) == (phase, operation) and count
        }

    def failures(self) -> str:
        """The report from its FAILURES section on (all of it when there is none)."""
        start = self.output.find("= FAILURES =")
        return self.output[self.output.rfind("\n", 0, start) + 1 :] if start >= 0 else self.output


def run_schemathesis(
    base_url: str,
    work_dir: Path,
    *,
    examples: int,
    seed: int | None = None,
    max_time: int | None = None,
    timeout: float = 600,
) -> FuzzRun:
    """`schemathesis run` on the spec the service serves, with tests/fuzz/schemathesis.toml."""
    report = Path(work_dir) / "schemathesis.ndjson"
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{base_url}/openapi.yaml",
        "--max-examples",
        str(examples),
        "--report",
        "ndjson",
        "--report-ndjson-path",
        str(report),
    ]
    if seed is not None:
        command += ["--seed", str(seed)]
    if max_time is not None:
        command += ["--max-time", str(max_time)]
    # cwd: the config names its hooks as the module tests.fuzz.hooks.
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    return FuzzRun(done.returncode, done.stdout + done.stderr, read_answers(report))


def read_answers(report: Path) -> Counter:
    """(phase, operation, status) -> count, over every request the run recorded."""
    answers: Counter = Counter()
    if not report.exists():
        return answers
    with report.open(encoding="utf-8") as lines:
        for line in lines:
            event = json.loads(line).get("ScenarioFinished")
            if event is None:
                continue
            recorder = event["recorder"]
            cases = recorder.get("cases", {})
            for case_id, interaction in recorder.get("interactions", {}).items():
                case, response = cases.get(case_id), interaction.get("response")
                if case is None or response is None:
                    continue  # a network error: no answer to count
                operation = f"{case['value']['method']} {case['value']['path']}"
                answers[(event["phase"], operation, response["status_code"])] += 1
    return answers
