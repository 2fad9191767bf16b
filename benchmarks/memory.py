"""What games and idempotency records cost in Redis memory.

Run:  ./dev bench memory    (a few seconds)

It starts a throwaway redis-server, drives the app in-process (Flask's test
client) and prints bytes as Redis counts them: MEMORY USAGE of each key
(value, key name and Redis's per-key overhead) and the growth of
used_memory, which also counts the expiry entry. Figures for sizing
maxmemory: a game just created, a game played to its end (the history and
the final state), the record a finished player game is kept as when its
keys expire (service/games/outlive.py, kept with no TTL), and one refused
move recorded under an Idempotency-Key (what a client can make the store
keep for 24 h per request).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# benchmarks/http.py would shadow the standard library's `http` package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from benchmarks.httpbench.plans import CLOCKED_CREATE_BODY, CREATE_BODY, move_script
from service.api import create_app
from service.config import Settings
from service.games.outlive import unpacked
from tests.support.redis_servers import ThrowawayRedis

REFUSALS = 2000


def key_bytes(redis, pattern: str) -> int:
    return sum(redis.memory_usage(key, samples=0) for key in redis.scan_iter(pattern))


def used_memory(redis) -> int:
    return int(redis.info("memory")["used_memory"])


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch, ThrowawayRedis(Path(scratch)) as server:
        redis = server.client()
        app = create_app(Settings(redis_url=server.url))
        client = app.test_client()

        def create() -> tuple[str, list[str]]:
            made = client.post("/games", data=CREATE_BODY, content_type="application/json").get_json()
            return made["game"]["id"], made["tokens"]

        game_id, tokens = create()
        print(
            f"new game:                {key_bytes(redis, f'*{{{game_id}}}*'):>7} bytes (MEMORY USAGE of its keys)"
        )

        script = move_script()

        def play_out(game_id: str, tokens: list[str]) -> None:
            """Play the scripted game to its end, each move with its seat's token."""
            for step in script:
                resp = client.post(
                    f"/games/{game_id}/moves",
                    data=step.body,
                    content_type="application/json",
                    headers={"Authorization": f"Bearer {tokens[step.seat]}"},
                )
                assert resp.status_code == 201, resp.get_data()

        game_id, tokens = create()
        play_out(game_id, tokens)
        finished = key_bytes(redis, f"*{{{game_id}}}*")
        print(f"finished game:           {finished:>7} bytes ({len(script)} moves, no Idempotency-Key)")

        # A player's clocked game against a guest, played to its end: its record is kept for good.
        player = client.post("/players", json={"name": "Ann"}).get_json()
        made = client.post(
            "/games",
            data=CLOCKED_CREATE_BODY,
            content_type="application/json",
            headers={"Authorization": f"Bearer {player['token']}"},
        ).get_json()
        game_id, tokens = made["game"]["id"], [player["token"], made["tokens"][1]]
        play_out(game_id, tokens)
        (kept_key,) = redis.scan_iter(f"*{{{game_id}}}:kept")
        stored = redis.get(kept_key)
        assert isinstance(stored, str)  # the client decodes answers
        text = unpacked(stored)
        print(
            f"kept record:             {redis.memory_usage(kept_key, samples=0):>7} bytes "
            f"(a player's clocked game of {len(script)} moves, no TTL; compressed from a text of "
            f"{len(text.encode())} bytes, {len(text.partition(chr(10) * 2)[2])} of them its moves)"
        )

        game_id, tokens = create()
        for number, step in enumerate(script):
            resp = client.post(
                f"/games/{game_id}/moves",
                data=step.body,
                content_type="application/json",
                headers={
                    "Authorization": f"Bearer {tokens[step.seat]}",
                    "Idempotency-Key": f"move-{number:04d}",
                },
            )
            assert resp.status_code == 201, resp.get_data()
        with_keys = key_bytes(redis, f"*{{{game_id}}}*")
        print(
            f"finished game, keyed:    {with_keys:>7} bytes (every move with an Idempotency-Key: "
            f"{(with_keys - finished) // len(script)} bytes per 201 record)"
        )

        # Seat 1 asks to move while seat 0 is in turn: 409, recorded, with a 16-character key.
        game_id, tokens = create()
        before = used_memory(redis)
        for number in range(REFUSALS):
            resp = client.post(
                f"/games/{game_id}/moves",
                json={"action": "advance"},
                headers={"Authorization": f"Bearer {tokens[1]}", "Idempotency-Key": f"refused-{number:08d}"},
            )
            assert resp.status_code == 409, resp.get_data()
        grown = (used_memory(redis) - before) / REFUSALS
        records = key_bytes(redis, f"*{{{game_id}}}:idem*")
        print(
            f"refusal record:          {records / REFUSALS:>7.0f} bytes (MEMORY USAGE per record, "
            f"index included if any; used_memory grew {grown:.0f} per refusal)"
        )
        sample = next(redis.scan_iter(f"*{{{game_id}}}:idem:*"))
        print(f"  one record: {sample} -> {redis.get(sample)!r}")
        app.extensions["patchwork"].store.close()
        redis.close()


if __name__ == "__main__":
    main()
