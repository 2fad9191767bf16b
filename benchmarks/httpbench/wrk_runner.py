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
from pathlib import Path

from .plans import GetPlan, MovePlan, request_text
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
        for step in plan.script:
            out.write(f"{step.seat}\t{step.body}\n".encode())
        for game in plan.games:
            out.write(f"{game.id}\t{game.tokens[0]}\t{game.tokens[1]}\n".encode())
        return "move"


def run(plan: GetPlan | MovePlan, host: str, port: int, *, connections: int, threads: int,
        duration: float) -> RunResult:
    """One wrk run of the plan: `connections` keep-alive connections over `threads` threads."""
    threads = max(1, min(threads, connections))
    with tempfile.TemporaryDirectory(prefix="bench-wrk-") as scratch:
        plan_file = Path(scratch) / "plan"
        mode = _write_plan(plan, f"{host}:{port}", plan_file)
        command = [
            wrk_path() or "wrk", f"--threads={threads}", f"--connections={connections}",
            f"--duration={max(1, round(duration))}s", "--timeout=5s",
            f"--script={LUA_SCRIPT}", f"http://{host}:{port}/",
            "--", str(plan_file), mode, str(plan.expect), str(threads),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith(RESULT_MARK)]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"wrk failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    figures = json.loads(lines[-1][len(RESULT_MARK):])
    if figures["starved"]:
        raise RuntimeError(f"{plan.name}: wrk ran out of fresh games; prepare more")
    return RunResult(
        requests=figures["requests"],
        seconds=figures["duration_us"] / 1e6,
        p50_ms=figures["p50_us"] / 1000,
        p99_ms=figures["p99_us"] / 1000,
        unexpected=figures["unexpected"] + figures["socket_errors"],
    )
