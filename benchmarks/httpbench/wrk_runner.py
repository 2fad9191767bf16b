"""Driving a plan with wrk (a C load generator: far less CPU per request than Python).

Install on Debian/Ubuntu: `sudo apt-get install -y wrk` (macOS: `brew install
wrk`). benchmarks/http.py uses the built-in Python generator when wrk is not
on PATH.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .plans import GetPlan, MovePlan, common_header_lines, request_text
from .results import RunResult

LUA_SCRIPT = Path(__file__).with_name("wrk_plan.lua")
RESULT_MARK = "WRK-RESULT "


def wrk_path() -> str | None:
    """The wrk binary, or None when it is not installed."""
    return shutil.which("wrk")


def _write_plan(plan: GetPlan | MovePlan, host: str, path: Path) -> str:
    """The plan file wrk_plan.lua reads; returns its mode."""
    with open(path, "wb") as out:
        if isinstance(plan, GetPlan):
            for index, target in enumerate(plan.paths):
                raw = request_text("GET", target, host, plan.headers_for(index))
                out.write(b"%d\n" % len(raw) + raw)
            return "get"
        out.write(b"%d\n" % len(plan.script))
        common = common_header_lines()
        out.write(b"%d\n" % len(common) + "".join(f"{line}\n" for line in common).encode())
        for step in plan.script:
            out.write(f"{step.seat}\t{step.body}\n".encode())
        for game in plan.games:
            out.write(f"{game.id}\t{game.tokens[0]}\t{game.tokens[1]}\n".encode())
        return "move"


class WrkRun:
    """One wrk run of a plan: `connections` keep-alive connections over `threads` threads."""

    def __init__(
        self,
        plan: GetPlan | MovePlan,
        host: str,
        port: int,
        *,
        connections: int,
        threads: int,
        duration: float,
    ):
        threads = max(1, min(threads, connections))
        self.name = plan.name
        self._scratch = tempfile.TemporaryDirectory(prefix="bench-wrk-")
        plan_file = Path(self._scratch.name) / "plan"
        mode = _write_plan(plan, f"{host}:{port}", plan_file)
        command = [
            wrk_path() or "wrk",
            f"--threads={threads}",
            f"--connections={connections}",
            f"--duration={max(1, round(duration))}s",
            "--timeout=5s",
            f"--script={LUA_SCRIPT}",
            f"http://{host}:{port}/",
            "--",
            str(plan_file),
            mode,
            str(plan.expect),
            str(threads),
            str(connections),
        ]
        self.load_starts = time.time()
        self._process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def result(self) -> RunResult:
        """Wait for the end of the run and read its figures."""
        stdout, stderr = self._process.communicate()
        self._scratch.cleanup()
        lines = [line for line in stdout.splitlines() if line.startswith(RESULT_MARK)]
        if self._process.returncode != 0 or not lines:
            raise RuntimeError(f"wrk failed ({self._process.returncode}):\n{stdout}\n{stderr}")
        figures = json.loads(lines[-1][len(RESULT_MARK) :])
        if figures["starved"]:
            raise RuntimeError(f"{self.name}: wrk ran out of fresh games; prepare more")
        return RunResult(
            requests=figures["requests"],
            seconds=figures["duration_us"] / 1e6,
            p50_ms=figures["p50_us"] / 1000,
            p99_ms=figures["p99_us"] / 1000,
            unexpected=figures["unexpected"] + figures["socket_errors"],
        )

    def abort(self) -> None:
        """Stop the run now; its figures are dropped."""
        self._process.kill()
        self._process.communicate()
        self._scratch.cleanup()
