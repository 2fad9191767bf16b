"""`./dev bench http` for an earlier commit and for this checkout, taking turns: before and after on the same machine.

Run:  ./dev bench before_after --rev e24be75              (about 14 minutes)
      ./dev bench before_after --rev HEAD~3 --turns 2 -- --clock

On a shared machine the ratios of `./dev bench http` move from hour to
hour by more than most changes do (moves at 0.31-0.36 of /healthz for one
commit on one morning, 0.40 for it when it landed). A change is judged
against its baseline measured in the same stretch of time: each turn runs
the earlier commit's own benchmark (its service, its benchmark code, from a
`git worktree` of it), then this checkout's, each on a fresh Redis and a
fresh gunicorn, so a slow spell of the machine falls on both.

Both sides run with this venv's packages (the lock of this checkout): what
is compared is the project's code. Arguments after `--` go to both
benchmarks (they must be options the earlier commit's knows too).

Printed: for each turn and side, moves' x /healthz (requests/s, median of
the side's rounds) and /healthz's CPU per answer over a move's (workers,
Redis and load generator); then the medians over turns of each, and after
over before. A ratio of ratios above 1 means moves gained on /healthz.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOVES = "POST /games/{id}/moves"
HEALTHZ = "GET /healthz"
# "0.39", or the three places a missed target is printed with: "MISSED (0.394)".
_PRECISE = re.compile(r"\((\d+\.\d+)\)")


@dataclass(frozen=True)
class SideFigures:
    """What one side's benchmark printed for moves."""

    ratio: float  # moves' requests/s over /healthz's (median over its rounds)
    cpu_ratio: float  # /healthz's total CPU per answer over a move's
    move_cpu_us: float  # a move's total CPU per answer


def _number(cell: str) -> float:
    return float(cell.replace(",", "").replace("+", ""))


def parse_http_output(text: str) -> SideFigures:
    """Moves' figures from the two markdown tables `benchmarks/http.py` prints."""
    ratio = None
    totals: dict[str, float] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] == MOVES:
            precise = _PRECISE.search(cells[5])
            ratio = float(precise.group(1)) if precise else _number(cells[4])
        elif len(cells) == 6 and cells[0] in (MOVES, HEALTHZ) and cells[4].replace(",", "").isdigit():
            totals[cells[0]] = _number(cells[4])
    if ratio is None or len(totals) != 2:
        raise ValueError("no moves row in the benchmark's output:\n" + text[-3000:])
    return SideFigures(ratio, totals[HEALTHZ] / totals[MOVES], totals[MOVES])


def run_side(tree: Path, passed: list[str]) -> SideFigures:
    """One `benchmarks/http.py` of `tree`, its service served from `tree`."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, str(tree / "benchmarks" / "http.py"), *passed],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"the benchmark of {tree} failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        )
    return parse_http_output(done.stdout)


def parse_args() -> tuple[argparse.Namespace, list[str]]:
    argv = sys.argv[1:]
    passed: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, passed = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", required=True, help="the earlier commit (anything git rev-parse takes)")
    parser.add_argument("--turns", type=int, default=2, help="turns of before-then-after (2)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of each side's benchmark per turn (3)")
    return parser.parse_args(argv), passed


def main() -> None:
    args, passed = parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{args.rev}^{{commit}}"], cwd=ROOT, capture_output=True, text=True
    )
    if commit.returncode != 0:
        raise SystemExit(f"not a commit: {args.rev}")
    sha = commit.stdout.strip()
    passed = ["--repeat", str(args.repeat), *passed]
    before: list[SideFigures] = []
    after: list[SideFigures] = []
    with tempfile.TemporaryDirectory(prefix="bench-before-") as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), sha], cwd=ROOT, check=True, capture_output=True
        )
        try:
            print(
                f"before: {sha[:12]} (a worktree); after: this checkout; {args.turns} turns of {args.repeat} rounds each"
            )
            print("| turn | side | moves x /healthz | /healthz CPU / move CPU | move CPU us |")
            print("| ---: | --- | ---: | ---: | ---: |")
            for turn in range(1, args.turns + 1):
                for side, tree_of_side, figures in (("before", tree, before), ("after", ROOT, after)):
                    got = run_side(tree_of_side, passed)
                    figures.append(got)
                    print(
                        f"| {turn} | {side} | {got.ratio:.3f} | {got.cpu_ratio:.3f} | {got.move_cpu_us:,.0f} |",
                        flush=True,
                    )
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
    print()
    for name, pick in (("moves x /healthz", "ratio"), ("/healthz CPU / move CPU", "cpu_ratio")):
        was = statistics.median(getattr(f, pick) for f in before)
        now = statistics.median(getattr(f, pick) for f in after)
        print(
            f"{name}: before {was:.3f}, after {now:.3f} (medians over turns); after / before {now / was:.3f}"
        )


if __name__ == "__main__":
    main()
