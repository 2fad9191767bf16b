"""One run's figures, and the medians and ratios printed at the end."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from .cpuuse import PARTS, WORKERS_KERNEL


@dataclass(frozen=True)
class RunResult:
    """What one load-generator run measured."""

    requests: int  # answers received within the run
    seconds: float
    p50_ms: float
    p99_ms: float
    unexpected: int  # answers whose status was not the one the plan expects
    cpu_us: dict[str, float] = field(default_factory=dict)  # per request, by part (cpuuse.PARTS)
    store_calls: dict[str, float] = field(default_factory=dict)  # per request, by store operation

    @property
    def rps(self) -> float:
        return self.requests / self.seconds


def percentile(ordered: list[float], pct: float) -> float:
    """The nearest-rank percentile of an ascending list (0.0 when empty)."""
    if not ordered:
        return 0.0
    rank = max(1, round(pct / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass(frozen=True)
class Summary:
    """One endpoint over all rounds: medians of its runs and of their ratios to /healthz."""

    name: str
    rps: float
    p50_ms: float
    p99_ms: float
    ratio: float
    unexpected: int
    requests: int
    cpu_us: dict[str, float]
    store_calls: dict[str, float]


def summarize(name: str, runs: list[RunResult], ratios: list[float]) -> Summary:
    """Medians over the runs of one endpoint, and of its ratios to /healthz."""
    return Summary(
        name=name,
        rps=statistics.median(run.rps for run in runs),
        p50_ms=statistics.median(run.p50_ms for run in runs),
        p99_ms=statistics.median(run.p99_ms for run in runs),
        ratio=statistics.median(ratios) if ratios else 0.0,
        unexpected=sum(run.unexpected for run in runs),
        requests=sum(run.requests for run in runs),
        cpu_us={
            part: statistics.median(run.cpu_us.get(part, 0.0) for run in runs)
            for part in (*PARTS, WORKERS_KERNEL)
        },
        store_calls={
            operation: statistics.median(run.store_calls.get(operation, 0.0) for run in runs)
            for operation in sorted({operation for run in runs for operation in run.store_calls})
        },
    )


def table(rows: list[Summary], targets: dict[str, float]) -> str:
    """The figures as a Markdown table, ready for the README."""
    lines = [
        "| endpoint | req/s (median) | p50 ms | p99 ms | x /healthz | target | unexpected |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        target = targets.get(row.name)
        goal = (
            ""
            if target is None
            else f">= {target:.1f} " + ("ok" if row.ratio >= target else f"MISSED ({row.ratio:.3f})")
        )
        lines.append(
            f"| {row.name} | {row.rps:,.0f} | {row.p50_ms:.2f} | {row.p99_ms:.2f} | "
            f"{row.ratio:.2f} | {goal} | {row.unexpected} of {row.requests:,} |"
        )
    return "\n".join(lines)


def cpu_table(rows: list[Summary], baseline: str) -> str:
    """CPU microseconds per request by part, and each total beyond the baseline endpoint's."""
    base = next(_total(row) for row in rows if row.name == baseline)
    lines = [
        "| endpoint | " + " | ".join(PARTS) + f" | total | beyond {baseline} |",
        "| --- |" + " ---: |" * (len(PARTS) + 2),
    ]
    for row in rows:
        total = _total(row)
        cells = " | ".join(f"{row.cpu_us[part]:,.0f}" for part in PARTS)
        lines.append(f"| {row.name} | {cells} | {total:,.0f} | {total - base:+,.0f} |")
    return "\n".join(lines)


def _total(row: Summary) -> float:
    """A row's CPU per request, all parts (the workers' kernel share is inside theirs)."""
    return sum(row.cpu_us[part] for part in PARTS)


def kernel_line(rows: list[Summary], short: dict[str, str]) -> str:
    """The workers' CPU per request spent in the kernel (system time), and its share of theirs; `short` names the rows."""
    shown = [
        f"{short.get(row.name, row.name)} {row.cpu_us[WORKERS_KERNEL]:,.0f} us "
        f"({row.cpu_us[WORKERS_KERNEL] / row.cpu_us['workers']:.0%})"
        for row in rows
        if row.cpu_us.get("workers")
    ]
    return "Of the workers' CPU per answer, in the kernel (system time, /proc): " + ", ".join(shown)
