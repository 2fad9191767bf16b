"""Moves played on a Redis Cluster while it is resharded and while a master fails over.

Run:  ./dev bench reshard    (about a minute)

Two scenarios, each on a fresh cluster of throwaway redis-servers with two
service instances (gunicorn, REDIS_CLUSTER=1) and six clients playing
through both (tests/support/cluster_play.py, the same code the system tests
run):

- resharding: `--games` games are made, and every slot holding a game of
  the busiest master is moved to another master with the standard
  procedure (SETSLOT IMPORTING/MIGRATING, MIGRATE in batches of
  `--keys-per-batch` keys, SETSLOT NODE on every master), `--at-once` slots
  at a time, `--pause` seconds after each batch, while those games are
  played;
- failover: 3 masters with a replica each; CLUSTER FAILOVER (no FORCE) on
  the replica of the master holding the games played.

For each it prints how long the change took, what moved, the moves
acknowledged before, during and after, every answer by status, the 503s
without Retry-After, the acknowledged moves missing from the histories
afterwards (lost), the moves stored that nobody got a 201 for, and the
redirects and refusals the nodes answered (INFO errorstats).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# benchmarks/http.py would shadow the standard library's `http` package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from tests.support.cluster_play import fail_over, reshard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=600, help="games made (a third land on each master)")
    parser.add_argument("--at-once", type=int, default=10, help="slots in migration together")
    parser.add_argument("--keys-per-batch", type=int, default=2, help="keys per MIGRATE")
    parser.add_argument("--pause", type=float, default=0.005, help="seconds after each MIGRATE")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        played = reshard(
            Path(scratch) / "reshard",
            games=options.games,
            at_once=options.at_once,
            keys_per_batch=options.keys_per_batch,
            pause=options.pause,
        )
        print("\n".join(played.lines()), flush=True)
        print("\n".join(fail_over(Path(scratch) / "failover").lines()))


if __name__ == "__main__":
    main()
