"""Computer players over HTTP: the app in this process, a real bot worker process, real Redis.

Each scenario runs on a single Redis and on a 3-master cluster (the `backend`
fixture). The worker thinks with BOT_THINK_MS=50 (tests/support/bot_workers.py), so
whole games take seconds; every wait has a generous explicit bound.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.api import create_app
from service.api.contract.spec import load_spec
from service.bots import LEVELS, choose_move, seed_for
from service.botworker.spent import SpentTimes
from service.engine import Advance, canonical_move
from tests.support.bot_workers import BotWorkerProcess, wait_for
from tests.support.history_check import replay_prefix

from .conftest import Table, checked_client_class

# A bot's move is due within its think_ms plus a second; this leaves room for a busy machine.
BOT_MOVE_BOUND = 10.0
# A whole game is about 30 to 60 moves.
GAME_BOUND = 90.0


@pytest.fixture
def worker(backend, app, tmp_path) -> Iterator[BotWorkerProcess]:
    """One bot worker on the test's backend, started and seen alive (its heartbeat is in Redis)."""
    jobs = app.extensions["patchwork"].play.bot_jobs
    with BotWorkerProcess(backend.url, tmp_path / "worker.log", cluster=backend.cluster) as process:
        wait_for(jobs.workers_seen, 20, f"no heartbeat from the worker; its log:\n{process.log()}")
        yield process


def history(client, game_id: str) -> list[dict]:
    resp = client.get(f"/games/{game_id}/moves")
    assert resp.status_code == 200
    return resp.get_json()["moves"]


def wait_for_person_or_end(table: Table, bound: float = BOT_MOVE_BOUND) -> dict:
    """The game once a person is in turn or it is over (the bots in turn have moved)."""

    def ready():
        game = table.state()
        if game["status"] == "finished" or game["players"][game["turn"]]["bot"] is None:
            return game
        return None

    return wait_for(ready, bound, f"the bot in turn in game {table.id} did not move")


def pending_jobs(app) -> int:
    """Jobs not done yet: queued or taken."""
    return app.extensions["patchwork"].play.bot_jobs.queued()


def test_bots_lists_the_levels_weakest_first(client):
    resp = client.get("/bots")
    assert resp.status_code == 200
    bots = resp.get_json()["bots"]
    assert bots == [level.public() for level in LEVELS]
    assert [bot["id"] for bot in bots][:2] == ["random", "greedy"]
    assert any(not bot["hint"] for bot in bots), "a searching level"


def test_the_spec_names_exactly_the_levels_on_offer():
    offered = load_spec()["components"]["schemas"]["BotLevelOrNull"]["enum"]
    assert offered == [level.id for level in LEVELS] + [None]


def test_an_unknown_level_is_400_naming_the_field(client):
    resp = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Hal", "bot": "hal9000"}]})
    assert resp.status_code == 400
    assert resp.get_json()["errors"][0]["pointer"] == "/players/1/bot"


def test_a_bot_game_with_no_worker_alive_is_503_and_nothing_is_stored(client, backend):
    resp = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}]})
    assert resp.status_code == 503
    assert resp.get_json()["code"] == "bots_unavailable"
    assert int(resp.headers["Retry-After"]) > 0
    # No game, no job: only the bot-game limit's counter (it counts attempts, as every limit does).
    keys = [key for node in backend.nodes for key in node.keys("*")]
    assert [key for key in keys if ":ratelimit:" not in str(key)] == []
    # A game between people needs no worker.
    assert client.post("/games", json={}).status_code == 201


def test_person_against_bot_to_the_end(client, worker):
    table = Table(client, {"players": [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], "seed": 11})
    assert table.tokens[0] is not None and table.tokens[1] is None
    assert [p["bot"] for p in table.game["players"]] == [None, "greedy"]
    game = table.game
    while game["status"] != "finished":
        assert game["turn"] == 0
        # Ann buys the first patch of the market she can place, or advances.
        options = table.legal(patch_id=game["market"][0])["moves"] if game["phase"] == "choose" else []
        if game["phase"] == "place_leather":
            options = table.legal()["moves"]
        move = options[0] if options else {"action": "advance"}
        if "placement" in move:  # legal moves show both forms; a request sends one
            del move["placement"]["cells"]
        table.play(move, seat=0)
        game = wait_for_person_or_end(table)
        assert game["players"][1]["bot"] == "greedy"
    moves = history(client, table.id)
    assert {entry["seat"] for entry in moves} == {0, 1}
    assert len(moves) == game["moves_played"]


def test_bots_against_each_other_play_to_the_end_by_themselves(app, client, worker):
    table = Table(
        client, {"players": [{"name": "R", "bot": "random"}, {"name": "Q", "bot": "search-quick"}], "seed": 3}
    )
    assert table.tokens == [None, None]
    game = wait_for(
        lambda: table.state()["status"] == "finished" and table.state(),
        GAME_BOUND,
        f"game {table.id} did not finish",
    )
    moves = history(client, table.id)
    assert len(moves) == game["moves_played"] > 20
    # Every move was judged by the rules: the history replays to the stored game.
    final = replay_prefix(game, moves, len(moves))
    assert final.finished and list(final.result.scores) == game["result"]["scores"]
    wait_for(lambda: pending_jobs(app) == 0, BOT_MOVE_BOUND, "done jobs left in the queue")


def test_a_bots_move_is_its_level_with_the_seed_of_game_and_version(client, worker):
    # `random` draws with the seed: any other seed would give other moves.
    table = Table(client, {"players": [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}]})
    game = wait_for(
        lambda: table.state()["status"] == "finished" and table.state(),
        GAME_BOUND,
        f"game {table.id} did not finish",
    )
    moves = history(client, table.id)
    for entry in moves:
        version = entry["number"]  # move n is played on the game at version n
        state = replay_prefix(game, moves, version - 1)
        expected = canonical_move(choose_move(state, "random", seed_for(table.id, version))).to_json()
        assert {key: entry[key] for key in expected} == expected, f"move {version}"


def test_jobs_for_a_version_never_reached_or_already_played_move_nothing(app, client, worker):
    jobs = app.extensions["patchwork"].play.bot_jobs
    table = Table(client, {"players": [{"name": "Ann"}, {"name": "Bot", "bot": "random"}], "seed": 2})
    # A job whose commit failed: the version never comes, the worker drops it.
    jobs.enqueue(table.id, 5, person_waiting=True, client="tests")
    table.play({"action": "advance"}, seat=0)
    game = wait_for_person_or_end(table)
    played = game["version"]
    # A repeated job, for a version the bot has played already.
    jobs.enqueue(table.id, 2, person_waiting=True, client="tests")
    wait_for(lambda: pending_jobs(app) == 0, BOT_MOVE_BOUND, "the jobs were not dropped")
    assert table.state()["version"] == played
    assert len(history(client, table.id)) == played - 1


def test_a_commit_late_past_the_workers_wait_is_fenced_then_judged_again_with_a_job_of_its_own(
    app, client, worker
):
    # What a slow web worker does, step by step: it reads the game, queues
    # the bot's job, and commits much later.
    play = app.extensions["patchwork"].play
    table = Table(client, {"players": [{"name": "Ann"}, {"name": "Bot", "bot": "random"}], "seed": 2})
    read = play.load(table.id)
    play.bot_jobs.enqueue(table.id, 2, person_waiting=True, client="tests")
    # The worker waits for version 2, then fences the commit and drops the job.
    wait_for(lambda: pending_jobs(app) == 0, BOT_MOVE_BOUND, "the worker kept the job")
    fenced = play.load(table.id)
    assert fenced.version == 1 and fenced.revision != read.revision
    # The late commit is refused, judged again on the game as stored, and
    # stored with a job of its own: the bot moves.
    committed = play.play(table.id, Advance(), table.tokens[0], start=read, client="tests")
    assert committed.version == 2
    game = wait_for_person_or_end(table)
    moves = history(client, table.id)
    assert game["version"] == len(moves) + 1 >= 3
    assert [entry["seat"] for entry in moves[:2]] == [0, 1]
    assert replay_prefix(game, moves, len(moves)).moves_played == len(moves)


def test_a_bot_facing_an_open_seat_waits_for_the_join_and_its_clock_with_it(app, client, worker):
    clock = {"initial_s": 60, "increment_s": 0, "first_move_s": 30}
    table = Table(
        client,
        {"players": [{"name": "Bot", "bot": "random"}, {"open": True}], "clock": clock, "first_player": 0},
    )
    created = table.game
    # A job is queued from the moment a bot's move is due until after that
    # move is committed: the queue read empty, then the game still at
    # version 1, means no move was ever due while the seat was open.
    assert pending_jobs(app) == 0
    waiting = table.state()
    assert waiting["version"] == 1 and waiting["moves_played"] == 0 and waiting["status"] == "active"
    # The clock waits with the bot: its deadline is still the lobby's, nobody's time runs.
    assert waiting["clock"] == created["clock"] and waiting["clock"]["running"] is None
    joined = client.post(f"/games/{table.id}/join", json={"name": "Ann"})
    assert joined.status_code == 201, joined.get_json()
    assert joined.get_json()["seat"] == 1
    table.tokens = [None, joined.get_json()["token"]]
    # The join handed the bot its turn: it moves, and Ann's clock runs from then on.
    game = wait_for_person_or_end(table)
    assert game["status"] == "active" and game["turn"] == 1 and game["clock"]["running"] == 1
    assert [entry["seat"] for entry in history(client, table.id)][:1] == [0]
    table.play({"action": "advance"}, seat=1)


def test_a_job_for_a_game_whose_seat_is_still_open_fences_the_join_and_moves_nothing(app, client, worker):
    # A join's job is queued before its take, at the version the join keeps:
    # a worker that reads the game with the seat still open waits for the
    # take, then fences it as it would a late commit.
    play = app.extensions["patchwork"].play
    table = Table(client, {"players": [{"name": "Bot", "bot": "random"}, {"open": True}], "first_player": 0})
    read = play.load(table.id)
    play.bot_jobs.enqueue(table.id, 1, person_waiting=True, client="tests")
    wait_for(lambda: pending_jobs(app) == 0, BOT_MOVE_BOUND, "the worker kept the job")
    fenced = play.load(table.id)
    assert fenced.version == 1 and fenced.revision != read.revision
    assert [seat.open for seat in fenced.record.seats] == [False, True]
    assert fenced.record.state.moves_played == 0
    # The join, judged on the game as stored now, queues the bot's job of its own.
    joined = client.post(f"/games/{table.id}/join", json={"name": "Ann"})
    assert joined.status_code == 201, joined.get_json()
    table.tokens = [None, joined.get_json()["token"]]
    game = wait_for_person_or_end(table)
    assert game["turn"] == 1 and game["moves_played"] >= 1


def test_bot_jobs_are_shared_by_the_client_address_the_rate_limits_count(backend, contract):
    # Behind one trusted proxy, X-Forwarded-For names the client. Nobody
    # takes the jobs here: the test reads them off the queue in the order
    # workers would get them.
    app = create_app(backend.settings(trust_proxy_headers=1))
    app.test_client_class = checked_client_class(contract)
    jobs = app.extensions["patchwork"].play.bot_jobs
    jobs.beat("a test standing in for a worker")  # bot games are accepted while a worker is seen
    try:
        busy, other = app.test_client(), app.test_client()
        busy.environ_base["HTTP_X_FORWARDED_FOR"] = "203.0.113.7"
        other.environ_base["HTTP_X_FORWARDED_FOR"] = "198.51.100.2"
        players = [{"name": "Ann"}, {"name": "Bot", "bot": "search"}]
        for _ in range(4):  # each move hands a bot its turn: a job in the busy client's share
            Table(busy, {"players": players, "first_player": 0}).play({"action": "advance"}, seat=0)
        # The other client's bot starts its game: the creation queues its job.
        Table(
            other, {"players": [{"name": "Bob"}, {"name": "Bot", "bot": "search-quick"}], "first_player": 1}
        )
        order = []
        while (job := jobs.take(block_ms=10)) is not None:
            order.append(job.client)
            jobs.done(job)
        assert order == ["203.0.113.7", "198.51.100.2", "203.0.113.7", "203.0.113.7", "203.0.113.7"]
    finally:
        app.extensions["patchwork"].store.close()


def test_a_person_cannot_move_for_a_bot_seat(client, worker):
    table = Table(client, {"players": [{"name": "Bot", "bot": "greedy"}, {"name": "Ann"}], "seed": 4})
    wait_for_person_or_end(table)
    # Ann's token is seat 1's; no token is seat 0's.
    assert table.state()["players"][0]["bot"] == "greedy"
    resp = client.post(
        f"/games/{table.id}/moves", json={"action": "advance"}, headers={"Authorization": "Bearer null"}
    )
    assert resp.status_code == 401


def test_bots_says_what_a_live_worker_measured_and_null_without_one(client, app):
    assert client.get("/bots").get_json()["measured"] is None
    spent = SpentTimes(37, "measured")
    spent.add("search", 912.0)
    app.extensions["patchwork"].play.bot_jobs.report(spent.report())
    assert client.get("/bots").get_json()["measured"] == {
        "nodes_per_ms": 37,
        "calibration": "measured",
        "levels": {"search": {"moves": 1, "median_ms": 912, "max_ms": 912}},
    }
