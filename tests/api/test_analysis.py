"""POST/GET /games/{id}/analysis and its chart, through the app on a real Redis; the worker's part run in-process.

The responses are checked against openapi.yaml by the test client.
"""

from __future__ import annotations

import time

from flask.testing import FlaskClient

from service.api.contract.spec import load_spec
from service.botworker.analyst import analyse_next
from service.botworker.spent import SpentTimes
from service.botworker.worker import BotWorker
from service.config import RateLimit

from .conftest import checked_app

# A tiny search per position: what is tested here is the plumbing, not the judgement.
NODES_PER_MS, THINK_MS = 2, 10


def play_to_the_end(t) -> dict:
    """Each seat plays its first legal move (advance, or a leather patch's first cell) until the game ends."""
    game = t.state()
    while game["status"] != "finished":
        game = t.play(t.legal()["moves"][0])
    return game


def compute(app) -> bool:
    """What a bot worker does when no bot move waits: one queued analysis."""
    return analyse_next(app.extensions["patchwork"].analyses, NODES_PER_MS, THINK_MS, lambda: None)


def test_an_analysis_is_queued_once_computed_by_a_worker_and_then_served(client, app, table):
    t = table({"seed": 5})
    game = play_to_the_end(t)
    assert client.get(f"/games/{t.id}/analysis").get_json()["code"] == "analysis_not_requested"
    for _ in range(2):  # asked twice: one job
        resp = client.post(f"/games/{t.id}/analysis")
        assert resp.status_code == 202
        assert resp.headers["Location"] == f"/games/{t.id}/analysis"
    pending = client.get(f"/games/{t.id}/analysis")
    assert pending.status_code == 202 and "Retry-After" in pending.headers
    assert compute(app) and not compute(app), "one job for the game, however often asked for"
    resp = client.get(f"/games/{t.id}/analysis")
    assert resp.status_code == 200
    analysis = resp.get_json()
    assert analysis["version"] == game["version"] and analysis["level"] == "deep"
    assert [m["number"] for m in analysis["moves"]] == list(range(1, game["moves_played"] + 1))
    for move in analysis["moves"]:
        assert move["loss"] == round(move["eval_before"] - move["eval_after"], 1) >= 0
    assert len(analysis["summary"]) == 2
    # Stored once: asking again queues nothing and changes nothing.
    assert client.post(f"/games/{t.id}/analysis").status_code == 202
    assert not compute(app)
    assert client.get(f"/games/{t.id}/analysis").get_json() == analysis


def test_a_game_still_played_cannot_be_analysed(client, table):
    t = table()
    resp = client.post(f"/games/{t.id}/analysis")
    assert resp.status_code == 409 and resp.get_json()["code"] == "game_not_finished"
    assert client.post("/games/nosuchgame/analysis").status_code == 404


def test_the_analysis_of_a_game_still_played_answers_why_there_is_none(client, table):
    """Issue 38: a link from a created game (schemathesis infers one to every read of the game's
    path) led to the analysis and its chart, 404 until asked for, so a fresh game's resource looked
    missing; a game still played now answers 409 game_not_finished there, as the POST does, and 404
    is kept for no game or a finished game's analysis nobody asked for."""
    t = table()
    for path in (f"/games/{t.id}/analysis", f"/games/{t.id}/analysis.svg"):
        resp = client.get(path)
        assert (resp.status_code, resp.get_json()["code"]) == (409, "game_not_finished"), path
        assert client.get(path.replace(t.id, "nosuchgame")).get_json()["code"] == "game_not_found"
    t.play({"action": "advance"}, seat=0)
    assert client.post(f"/games/{t.id}/resign", headers=t.auth(1)).status_code == 201
    assert client.get(f"/games/{t.id}/analysis.svg").get_json()["code"] == "analysis_not_requested"


def test_every_read_below_a_created_game_that_its_id_alone_names_answers(client, app, table):
    """What a stateful fuzzer follows from POST /games (the spec's links, and those inferred from the
    game's id): each GET of the spec under /games/{game_id} that needs no other parameter answers a
    new game with something other than 404 (the chain to an analysis is resign, then POST)."""
    t = table()
    reads = [
        path
        for path, item in load_spec()["paths"].items()
        if path.startswith("/games/{game_id}/") and "get" in item and "{" not in path.replace("{game_id}", "")
    ]
    assert "/games/{game_id}/analysis.svg" in reads and "/games/{game_id}/board.svg" in reads
    plain = FlaskClient(app)  # the checking client reads a whole body, and the event stream never ends
    for path in reads:
        resp = plain.get(path.replace("{game_id}", t.id), headers=t.auth(0), buffered=False)
        resp.close()
        assert resp.status_code != 404, path


def test_the_chart_is_escaped_and_served_like_board_svg(client, app, table):
    hostile = '<script>x</script>"&'
    t = table({"seed": 6, "players": [{"name": hostile}, {"name": "B\x1b[31m"}]})
    play_to_the_end(t)
    assert client.get(f"/games/{t.id}/analysis.svg").status_code == 404
    client.post(f"/games/{t.id}/analysis")
    assert client.get(f"/games/{t.id}/analysis.svg").status_code == 202
    compute(app)
    resp = client.get(f"/games/{t.id}/analysis.svg")
    assert resp.status_code == 200 and resp.mimetype == "image/svg+xml"
    assert resp.headers["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    body = resp.get_data(as_text=True)
    assert "<script" not in body and "\x1b" not in body
    assert "&lt;script&gt;x&lt;/script&gt;&quot;&amp;" in body


def test_analysis_requests_are_rate_limited_per_client(redis_url, contract):
    app = checked_app(redis_url, contract, rate_limit_analyses=RateLimit(limit=2, window_seconds=60))
    client = app.test_client()
    game_id = client.post("/games").get_json()["game"]["id"]
    answers = [client.post(f"/games/{game_id}/analysis").status_code for _ in range(3)]
    assert answers == [409, 409, 429]


def test_a_worker_plays_a_waiting_bot_move_before_any_analysis(client, app, table):
    play = app.extensions["patchwork"].play
    t = table({"seed": 7})
    play_to_the_end(t)
    assert client.post(f"/games/{t.id}/analysis").status_code == 202
    play.bot_jobs.beat("test")  # a worker is alive: bot games are let through
    resp = client.post(
        "/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "random"}], "first_player": 1}
    )
    bot_game = resp.get_json()["game"]["id"]
    worker = BotWorker(
        play,
        play.bot_jobs,
        name="test",
        think_ms=THINK_MS,
        block_ms=1,
        spent=SpentTimes(NODES_PER_MS, "configured"),
        analyses=app.extensions["patchwork"].analyses,
    )
    worker.turn()  # a bot job waits: it is played, the analysis is not
    assert client.get(f"/games/{bot_game}").get_json()["turn"] == 0
    assert client.get(f"/games/{t.id}/analysis").status_code == 202
    worker.turn()  # no bot job: now the analysis
    assert client.get(f"/games/{t.id}/analysis").status_code == 200


def test_an_analysis_stays_leased_while_its_searches_are_paused_for_bot_moves(client, app, table):
    analyses = app.extensions["patchwork"].analyses
    t = table({"seed": 5})
    play_to_the_end(t)
    assert client.post(f"/games/{t.id}/analysis").status_code == 202
    analyses.queue.lease_ms = 300
    pauses = 0
    taken_meanwhile = []
    pauses_before_move: list[int] = []

    def bot_moves_meanwhile() -> None:
        # As the worker's give_way playing waiting bot moves: the first pauses
        # of the first move's searches take twice the lease between them.
        nonlocal pauses
        pauses += 1
        if pauses <= 4:
            time.sleep(0.15)
        if pauses == 4:
            taken_meanwhile.append(analyses.queue.take())  # what a second worker would get

    # A budget of 160 nodes a position: its searches pause every 32.
    assert analyse_next(
        analyses, 16, THINK_MS, lambda: pauses_before_move.append(pauses), bot_moves_meanwhile
    )
    assert pauses_before_move[1] >= 4, "the first pauses all fall between two renewals before moves"
    assert taken_meanwhile == [None], "the lease ran out in the searches: a second worker took the analysis"
    assert client.get(f"/games/{t.id}/analysis").status_code == 200


# The chart's legend and title in each language (the catalogues' translations of its labels).
CHART_WORDS = {
    "en": ("Analysis: Ann against Bob", "inaccuracy", "mistake", "blunder", "Ann ahead ↑", "move number"),
    "es": (
        "Análisis: Ann contra Bob",
        "imprecisión",
        "error",
        "error grave",
        "Ann por delante ↑",
        "número de jugada",
    ),
    "pt": (
        "Análise: Ann contra Bob",
        "imprecisão",
        "erro",
        "erro grave",
        "Ann à frente ↑",
        "número da jogada",
    ),
    "fr": ("Analyse : Ann contre Bob", "imprécision", "erreur", "gaffe", "Ann en tête ↑", "numéro du coup"),
}


def test_the_chart_speaks_the_language_asked_for_like_board_svg(client, app, table):
    t = table({"seed": 8, "players": [{"name": "Ann"}, {"name": "Bob"}]})
    play_to_the_end(t)
    client.post(f"/games/{t.id}/analysis")
    compute(app)
    charts = {}
    for language, header in [("en", "en"), ("es", "es-ES"), ("pt", "pt-BR"), ("fr", "fr;q=0.9, en;q=0.1")]:
        resp = client.get(f"/games/{t.id}/analysis.svg", headers={"Accept-Language": header})
        assert resp.status_code == 200
        assert resp.headers["Content-Language"] == language
        assert "accept-language" in {v.strip().lower() for v in resp.headers["Vary"].split(",")}
        body = charts[language] = resp.get_data(as_text=True)
        for word in CHART_WORDS[language]:
            assert word in body, (language, word)
    assert len(set(charts.values())) == 4
    # No header: English, said so.
    resp = client.get(f"/games/{t.id}/analysis.svg")
    assert resp.headers["Content-Language"] == "en" and resp.get_data(as_text=True) == charts["en"]


def test_a_game_with_a_takeback_is_analysed_as_its_moves_that_stand(client, app, table):
    """Issue 38: seat 0 advances, takes it back (seat 1 accepts), then the game is played to its end.

    The analysis is of the moves that stand (the history's entries less the taken-back advance and
    the takeback's own), and names the game's version, which counts them all.
    """
    t = table({"seed": 5})
    t.play({"action": "advance"}, seat=0)
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 202
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(1)).status_code == 201
    game = play_to_the_end(t)
    history = client.get(f"/games/{t.id}/moves").get_json()["moves"]
    assert len(history) == game["moves_played"] + 2 == game["version"] - 1
    client.post(f"/games/{t.id}/analysis")
    assert compute(app)
    analysis = client.get(f"/games/{t.id}/analysis").get_json()
    assert analysis["version"] == game["version"]
    assert [m["number"] for m in analysis["moves"]] == list(range(1, game["moves_played"] + 1))
    assert client.get(f"/games/{t.id}/analysis.svg").status_code == 200
