"""Whether a run kept both gunicorn workers busy, from their CPU time in /proc (Linux).

gunicorn's workers take turns accepting connections, but a load generator
opens all of its keep-alive connections at once, and often one worker
accepts every one of them while the other sleeps: that run measures one
worker, not two. Runs are checked, and repeated when one worker did most
of the work.
"""

from __future__ import annotations

import os
from pathlib import Path

# Above this share of the workers' CPU time, one worker served the run.
MAX_WORKER_SHARE = 0.75
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def worker_pids(master_pid: int) -> list[int]:
    """The gunicorn master's children (its workers); empty where /proc cannot tell."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master_pid:
            pids.append(int(stat.parent.name))
    return sorted(pids)


def cpu_times(pids: list[int]) -> list[tuple[float, float]]:
    """User and system CPU seconds of each process so far ((0.0, 0.0) for one that is gone)."""
    times = []
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            times.append((int(fields[11]) / _TICKS, int(fields[12]) / _TICKS))
        except OSError:
            times.append((0.0, 0.0))
    return times


def cpu_seconds(pids: list[int]) -> list[float]:
    """User + system CPU time of each process so far (0.0 for one that is gone)."""
    return [user + system for user, system in cpu_times(pids)]


def busiest_share(before: list[float], after: list[float]) -> float:
    """The largest worker's share of the CPU time the workers spent between two readings."""
    spent = [b - a for a, b in zip(before, after)]
    total = sum(spent)
    return max(spent) / total if total > 0 else 0.0
