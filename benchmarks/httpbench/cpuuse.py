"""Where a run's CPU time went: service workers, Redis, load generator (Linux /proc).

Throughput on a shared 2-core machine is set by the CPU time each request
costs all the processes together, so the benchmark reports that cost per
answered request, split by process. It shows which side a change helps,
and why a ratio to /healthz moves: only the work a request does beyond
/healthz's changes it.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass

from .balance import cpu_seconds, cpu_times

PARTS = ("workers", "redis", "generator")
# Shown beside the parts, not added to them: the workers' time in the kernel
# (sockets, polling), a share of "workers".
WORKERS_KERNEL = "workers_kernel"


def _children_seconds() -> float:
    # The load generator runs as this process's child (wrk, or forked Python
    # processes) and has been waited for by the time a run's result is read.
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class CpuReading:
    """CPU seconds used so far by each part."""

    workers: float
    redis: float
    generator: float
    workers_kernel: float

    @classmethod
    def now(cls, worker_pids: list[int], redis_pid: int | None) -> CpuReading:
        # One reading of the workers for both figures: the kernel's share is of the same instant's total.
        workers = cpu_times(worker_pids)
        return cls(
            workers=sum(user + system for user, system in workers),
            redis=sum(cpu_seconds([redis_pid])) if redis_pid is not None else 0.0,
            generator=_children_seconds(),
            workers_kernel=sum(system for _user, system in workers),
        )

    def per_request_us(self, since: CpuReading, requests: int) -> dict[str, float]:
        """Microseconds of CPU per request for each part (and the workers' kernel share) between `since` and this reading."""
        requests = max(requests, 1)
        return {
            part: (getattr(self, part) - getattr(since, part)) / requests * 1e6
            for part in (*PARTS, WORKERS_KERNEL)
        }
