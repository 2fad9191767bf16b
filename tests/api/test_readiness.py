"""`GET /readyz` is ready whether or not a bot worker runs, and says which (issue 36).

A service whose bot workers are down still plays every game without a bot
seat, so it must stay in rotation; `bots` tells the operator (and a client)
whether bot seats are served, from the workers' heartbeat in the store.
"""

from __future__ import annotations

import time


def test_readyz_is_ready_with_or_without_a_bot_worker_and_says_which(app, client):
    jobs = app.extensions["patchwork"].play.bot_jobs
    jobs.beat("gone", ttl_ms=1)  # whatever beat before: expired now
    time.sleep(0.05)
    assert not jobs.workers_seen()
    without = client.get("/readyz")
    assert (without.status_code, without.json) == (200, {"status": "ready", "bots": "unavailable"})
    # Bot seats are refused meanwhile, and the same moment's person game is made.
    refused = client.post("/games", json={"players": [{"name": "A"}, {"name": "B", "bot": "random"}]})
    assert (refused.status_code, refused.json["code"]) == (503, "bots_unavailable")
    assert client.post("/games", json={"seed": 1}).status_code == 201

    jobs.beat("a test standing in for a worker")
    try:
        alive = client.get("/readyz")
        assert (alive.status_code, alive.json) == (200, {"status": "ready", "bots": "available"})
    finally:
        jobs.beat("gone", ttl_ms=1)
