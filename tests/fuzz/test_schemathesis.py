"""schemathesis against the live service (gunicorn, 2 workers, real Redis): every operation of
openapi.yaml, valid and invalid requests, every check, and stateful sequences that follow the
spec's links from POST /games into the game's endpoints, playing moves with the seat tokens.

A failure of any check (a 5xx, a status, content type, header or body the
spec does not declare, invalid data accepted, valid data refused, a move
accepted without its token, ...) fails the test with schemathesis's report,
curl lines to reproduce it, and the end of the service's log.
tests/fuzz/schemathesis.toml says what runs, hooks.py how seat tokens reach
makeMove.

CI: a fixed seed and a bounded number of examples (about 20 s here).
Long session: `./dev test tests/fuzz --run-slow -s` runs ten minutes on a new
seed (printed in the summary); FUZZ_MAX_TIME (seconds), FUZZ_EXAMPLES (per
operation and pass) and FUZZ_SEED change that.
"""

from __future__ import annotations

import os

import pytest
import yaml

from .schemathesis_cli import ROOT, FuzzRun, run_schemathesis

CI_EXAMPLES = 500
CI_SEED = 20_241_129


def spec_operations() -> set[str]:
    """Every operation of openapi.yaml, as "METHOD /path"."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    return {
        f"{method.upper()} {path}"
        for path, item in spec["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }


def assert_clean(run: FuzzRun, service) -> None:
    assert run.returncode == 0, (
        f"schemathesis exit status {run.returncode}:\n{run.failures()}\n"
        f"--- end of the service's log ---\n{service.log()[-4000:]}"
    )
    server_errors = {key: count for key, count in run.answers.items() if key[2] >= 500}
    assert not server_errors, server_errors


def assert_reached_the_games(run: FuzzRun) -> None:
    """Not vacuous: every operation answered, invalid data met the validator, links led into real games."""
    answered = {operation for _phase, operation, _status in run.answers}
    assert answered >= spec_operations()  # and the other methods on each path, answered 405
    # The coverage phase's invalid bodies were refused as the spec says, not lost on 404s.
    assert 400 in run.statuses("coverage", "POST /games")
    assert 400 in run.statuses("coverage", "POST /games/{game_id}/moves")
    # Stateful: games created, moves accepted with the token a link carried (201), the
    # other seat's token refused (409 not_your_turn), and the moves read back by number.
    assert 201 in run.statuses("stateful", "POST /games")
    assert {201, 409} <= run.statuses("stateful", "POST /games/{game_id}/moves")
    for operation in [
        "GET /games/{game_id}",
        "GET /games/{game_id}/moves",
        "GET /games/{game_id}/moves/{number}",
        "GET /games/{game_id}/legal-moves",
        "GET /games/{game_id}/events",  # its events checked against the spec's itemSchema
    ]:
        assert 200 in run.statuses("stateful", operation), operation


def test_schemathesis_finds_nothing(fuzz_service, tmp_path):
    run = run_schemathesis(fuzz_service.url, tmp_path, examples=CI_EXAMPLES, seed=CI_SEED)
    assert_clean(run, fuzz_service)
    assert_reached_the_games(run)


@pytest.mark.slow
def test_schemathesis_long_session(fuzz_service, tmp_path):
    seed = os.environ.get("FUZZ_SEED")
    max_time = int(os.environ.get("FUZZ_MAX_TIME", 600))
    run = run_schemathesis(
        fuzz_service.url,
        tmp_path,
        examples=int(os.environ.get("FUZZ_EXAMPLES", 1000)),
        seed=int(seed) if seed else None,
        max_time=max_time,
        timeout=2 * max_time + 600,
    )
    print(run.output[run.output.find("= SUMMARY =") :])  # seen with -s: the seed, the counts
    assert_clean(run, fuzz_service)
    assert_reached_the_games(run)
