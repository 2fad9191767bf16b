"""The TypeScript client (clients/typescript/) against a live service, with node's test runner.

gunicorn serves the API on a real redis-server with a bot worker, and a
second instance on the same store limits game creation to one per two
seconds (a real 429 with Retry-After for the client to honour). The client
is set up as its README says on a fresh clone, in a copy of the package
(tests/support/typescript_client.py): `npm ci` (its own lock), `npm run
build`, then `npm test` runs its tests with the services' addresses in
PATCHWORK_URL and PATCHWORK_LIMITED_URL: a method for every operation of
openapi.yaml, each sending that operation's method and path; the lobby,
seeks, pictures and an analysis pending (202) then done; a whole game
against a bot through the example, streams cut mid-game and resumed, a resume answered with a snapshot, a
move's answer held until the stream has shown the bot's reply, a lost answer
retried with its Idempotency-Key; and the README's and the guide's bodies
(examples/docs.ts) sent as typed, answered as the docs show.
"""

from __future__ import annotations

import subprocess

from tests.support.bot_workers import BotWorkerProcess, create_bot_game
from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis
from tests.support.typescript_client import build_client, node_env


def test_the_typescript_client_against_the_live_service(tmp_path):
    package = build_client(tmp_path / "client", fresh_install=True)
    with (
        ThrowawayRedis(tmp_path / "redis") as redis,
        # A webhook to a loopback http URL is taken only with these (a test setting).
        LiveService(
            redis.url,
            tmp_path / "web.log",
            workers=2,
            env={"WEBHOOK_ALLOW_PRIVATE": "1", "WEBHOOK_ALLOW_HTTP": "1"},
        ) as web,
        LiveService(
            redis.url,
            tmp_path / "limited.log",
            workers=1,
            env={"RATE_LIMIT_CREATE": "1", "RATE_LIMIT_WINDOW_SECONDS": "2"},
        ) as limited,
        BotWorkerProcess(redis.url, tmp_path / "worker.log") as worker,
    ):
        # Bot games are refused until the worker's first heartbeat.
        create_bot_game(web.url, [{"name": "Ann"}, {"name": "Bot", "bot": "random"}])
        assert list((package / "dist" / "test").glob("*.test.js")), "no compiled tests in dist/test"
        run = subprocess.run(
            ["npm", "test"],
            cwd=package,
            env={**node_env(), "PATCHWORK_URL": web.url, "PATCHWORK_LIMITED_URL": limited.url},
            capture_output=True,
            text=True,
            timeout=300,
        )
        print(run.stdout)
        assert run.returncode == 0, (
            f"npm test failed:\n{run.stdout}\n{run.stderr}\n"
            f"web log:\n{web.log()[-3000:]}\nworker log:\n{worker.log()[-2000:]}"
        )
