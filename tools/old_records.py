"""Write tests/data/old-records.json: Redis records as the code before issue 37 wrote them.

Issue 37 reshaped the game-play core and the storage on the promise that a
game, player or seek written by the code before it stays served by the code
after it. tests/api/test_old_records.py keeps that promise honest only if its
records were written by the old code, not by the code it tests: this one-off
script made them, through the old code's own HTTP API, and dumped every key.

What it writes, through the old app's test client on a throwaway redis-server:
- two players, Ann and Bob (POST /players), and their tokens;
- a listed lobby game hosted by Ann with an open seat and a correspondence
  clock (nobody joined it);
- an active game between Ann and Bob (Ann hosts, Bob joins with an
  Idempotency-Key) on a correspondence clock, three moves, two of them keyed;
- five rated games from rated seeks (real-time clock), each resigned by Bob
  after both seats moved, so both ratings, the settlements and the
  leaderboard are written (the leaderboard lists players of 5 rated games);
- an active real-time game from an unrated seek pairing with two moves (only
  read by the test: its clock runs out while the dump waits);
- a game without a clock between two names, Cleo and Dan, with four moves
  (two keyed);
- a seek of Bob's left waiting;
and the old code's answers to what the test reads again (the profiles, the
leaderboard, the waiting seek, each player's active games); then every key
of that Redis: its type, value (hash fields, list items, stream entries with
their ids and consumer groups, zset members with scores, set members,
strings) and PTTL, the tokens the old code handed out, and the
ids. Lobby and seek times are set long (LOBBY_TTL_SECONDS, SEEK_TTL_SECONDS
ten years) so the open seat and the waiting seek are still open when the
test reads them, whenever that is.

How it was run (from the root of this worktree, on 2026-12-04):

    git worktree add /tmp/old 8f3446e      # main before issue 37's reshaping
    PYTHONPATH=/tmp/old .venv/bin/python tools/old_records.py tests/data/old-records.json

It starts its own redis-server on a free port (redis-server from PATH) and
stops it at the end. PYTHONPATH decides which `service` writes the records:
the script refuses this tree's own, and names the commit it used in the
dump's `written_by`.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from redis import Redis

TEN_YEARS_S = 10 * 365 * 24 * 3600
CORRESPONDENCE = {"days_per_move": 14}
BLITZ = {"initial_s": 300, "increment_s": 3}
RAPID = {"initial_s": 600, "increment_s": 5}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _text(raw: bytes) -> dict | str:
    """A Redis value as JSON text: itself when it is UTF-8, else {"base64": ...}."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(raw).decode()}


def dump(redis: Redis) -> dict:
    """Every key of `redis` with its type, value and PTTL (-1: no expiry)."""
    keys = {}
    for key in sorted(redis.scan_iter(count=1000)):
        kind = redis.type(key).decode()
        entry: dict = {"type": kind, "pttl": redis.pttl(key)}
        if kind == "string":
            entry["value"] = _text(redis.get(key))
        elif kind == "hash":
            entry["value"] = {_text(f): _text(v) for f, v in sorted(redis.hgetall(key).items())}
        elif kind == "list":
            entry["value"] = [_text(item) for item in redis.lrange(key, 0, -1)]
        elif kind == "set":
            entry["value"] = sorted(_text(m) for m in redis.smembers(key))
        elif kind == "zset":
            entry["value"] = [[_text(m), score] for m, score in redis.zrange(key, 0, -1, withscores=True)]
        elif kind == "stream":
            entry["value"] = [
                [sid.decode(), {_text(f): _text(v) for f, v in fields.items()}]
                for sid, fields in redis.xrange(key)
            ]
            entry["last_id"] = redis.xinfo_stream(key)["last-generated-id"].decode()
            entry["groups"] = [
                {"name": g["name"].decode(), "last_delivered_id": g["last-delivered-id"].decode()}
                for g in redis.xinfo_groups(key)
            ]
        else:
            raise ValueError(f"{key!r}: type {kind} is not dumped")
        keys[key.decode()] = entry
    return keys


def write_records(client) -> dict:
    """Play the set of games the module docstring lists; returns the tokens and ids."""

    def ok(resp, status=201):
        assert resp.status_code == status, (resp.status_code, resp.get_json())
        return resp.get_json()

    def bearer(token: str) -> dict:
        return {"Authorization": f"Bearer {token}"}

    def first_legal(game_id: str) -> dict:
        return ok(client.get(f"/games/{game_id}/legal-moves"), 200)["moves"][0]

    def play_moves(game_id: str, tokens: list[str], keys: list[str | None]) -> dict:
        """One legal move per entry of `keys` by the seat in turn, keyed where the entry is a key; the keyed answers."""
        keyed = {}
        for number, key in enumerate(keys, start=1):
            seat = ok(client.get(f"/games/{game_id}"), 200)["turn"]
            body = first_legal(game_id)
            headers = bearer(tokens[seat]) | ({"Idempotency-Key": key} if key else {})
            answer = client.post(f"/games/{game_id}/moves", json=body, headers=headers)
            ok(answer)
            if key:
                keyed[key] = {
                    "seat": seat,
                    "body": body,
                    "status": answer.status_code,
                    "answer": answer.get_json(),
                    "etag": answer.headers["ETag"],
                    "location": answer.headers["Location"],
                    "number": number,
                }
        return keyed

    players = {}
    for name in ("Ann", "Bob"):
        players[name] = ok(client.post("/players", json={"name": name}))
    ann, bob = bearer(players["Ann"]["token"]), bearer(players["Bob"]["token"])

    lobby = ok(
        client.post(
            "/games",
            json={"players": [{"name": "Ann"}, {"open": True}], "clock": CORRESPONDENCE},
            headers=ann,
        )
    )

    active = ok(
        client.post(
            "/games",
            json={"players": [{"name": "Ann"}, {"open": True}], "clock": CORRESPONDENCE},
            headers=ann,
        )
    )
    active_id = active["game"]["id"]
    joined = ok(client.post(f"/games/{active_id}/join", headers={**bob, "Idempotency-Key": "bob-joins"}))
    active_tokens = [active["tokens"][0], joined["token"]]
    active_keys = play_moves(active_id, active_tokens, ["active-1", None, "active-3"])

    rated = []
    seek = {"clock": BLITZ, "rated": True, "range": 3000}
    for _ in range(5):
        ok(client.post("/seeks", json=seek, headers=ann))
        game_id = ok(client.post("/seeks", json=seek, headers=bob))["seek"]["game"]
        for auth in (ann, bob):  # seat 0 is the seeker who waited: Ann
            ok(client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=auth))
        result = ok(
            client.post(f"/games/{game_id}/resign", headers={**bob, "Idempotency-Key": "bob-resigns"})
        )
        assert result["result"]["rated"] is True, result["result"]
        rated.append(game_id)

    # Any rating: Ann and Bob parted by more than the default range in the rated games.
    unrated = {"clock": RAPID, "range": 3000}
    ok(client.post("/seeks", json=unrated, headers=ann))
    realtime_id = ok(client.post("/seeks", json=unrated, headers=bob))["seek"]["game"]
    for auth in (ann, bob):
        ok(client.post(f"/games/{realtime_id}/moves", json=first_legal(realtime_id), headers=auth))

    named = ok(client.post("/games", json={"players": [{"name": "Cleo"}, {"name": "Dan"}]}))
    named_id = named["game"]["id"]
    named_keys = play_moves(named_id, named["tokens"], ["named-1", None, "named-3", None])

    waiting = ok(client.post("/seeks", json={"clock": {"initial_s": 900, "increment_s": 10}}, headers=bob))[
        "seek"
    ]
    assert waiting["status"] == "waiting", waiting

    return {
        "players": {
            name: {"id": body["player"]["id"], "token": body["token"]} for name, body in players.items()
        },
        "lobby_game": {"id": lobby["game"]["id"], "tokens": lobby["tokens"]},
        "active_game": {"id": active_id, "tokens": active_tokens, "keyed_moves": active_keys},
        "rated_games": rated,
        "realtime_game": {"id": realtime_id},
        "named_game": {"id": named_id, "tokens": named["tokens"], "keyed_moves": named_keys},
        "waiting_seek": {
            "id": waiting["id"],
            "player": "Bob",
            "answer": ok(client.get(f"/seeks/{waiting['id']}", headers=bob), 200),
        },
        "leaderboard": ok(client.get("/leaderboard"), 200),
        "profiles": {
            name: ok(client.get(f"/players/{body['player']['id']}"), 200) for name, body in players.items()
        },
        "active_games": {
            name: ok(
                client.get(
                    "/players/me/games", query_string={"status": "active"}, headers=bearer(body["token"])
                ),
                200,
            )
            for name, body in players.items()
        },
    }


def writing_tree() -> tuple[Path, str]:
    """The tree whose `service` this process imports, and its commit: never this script's own tree."""
    import service

    root = Path(service.__file__).resolve().parents[1]
    if root == Path(__file__).resolve().parents[1]:
        raise SystemExit(
            "service is imported from this tree: run with PYTHONPATH=<a worktree of the old commit>"
        )
    commit = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    )
    return root, commit.stdout.strip()


def main(out: Path) -> None:
    root, commit = writing_tree()
    from service.api.app import create_app
    from service.config import Settings

    redis_server = shutil.which("redis-server")
    assert redis_server, "redis-server is not on PATH"
    port = _free_port()
    with tempfile.TemporaryDirectory() as work:
        server = subprocess.Popen(
            [redis_server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=work,
            stdout=subprocess.DEVNULL,
        )
        try:
            url = f"redis://127.0.0.1:{port}"
            redis = Redis.from_url(url)
            for _ in range(100):
                try:
                    redis.ping()
                    break
                except Exception:
                    time.sleep(0.05)
            settings = Settings(redis_url=url, lobby_ttl_seconds=TEN_YEARS_S, seek_ttl_seconds=TEN_YEARS_S)
            app = create_app(settings)
            records = write_records(app.test_client())
            app.extensions["patchwork"].store.close()
            dumped = {
                "written_by": f"tools/old_records.py with the service of commit {commit} ({root})",
                "written_at_ms": int(redis.time()[0]) * 1000 + int(redis.time()[1]) // 1000,
                "records": records,
                "keys": dump(redis),
            }
            redis.close()
        finally:
            server.terminate()
            server.wait()
    out.write_text(json.dumps(dumped, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
