"""`patchwork-bot` driving `patchwork-engine` as a bot account on a running `patchwork-service`.

The bridge reaches the service through a proxy the tests can cut (a dropped
stream); it is killed with SIGKILL and started again (a crashed bridge); the
service is stopped and started again on the same Redis (a restart). Through
all of it every game is played to its end, each of the bot's turns gets
exactly one move (never two, none lost to a clock), and challenges outside
the bridge's limits or the service's daily cap are declined.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pytest
import requests

from tests.support.bridges import Bridge
from tests.support.patchwork_service import PatchworkService
from tests.support.tcp_proxy import TcpProxy


@pytest.fixture
def service(redis_url, tmp_path) -> Iterator[PatchworkService]:
    # No bot workers: the bot here is an outside engine, and the machine's two cores go to it.
    with PatchworkService(
        tmp_path / "data",
        tmp_path / "service.log",
        redis_url=redis_url,
        env={"BOT_WORKERS": "0", "BOT_GAMES_PER_DAY": "1"},
    ) as running:
        yield running


@pytest.fixture
def proxy(service) -> Iterator[TcpProxy]:
    front = TcpProxy(service.port)
    yield front
    front.close()


def new_player(url: str, name: str, bot: bool = False) -> tuple[str, str]:
    """A player's (id, token)."""
    answer = requests.post(f"{url}/players", json={"name": name, "bot": bot}, timeout=10)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    assert created["player"]["bot"] is bot
    return created["player"]["id"], created["token"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def challenge(url: str, token: str, to: str, **asked) -> dict:
    body = {"to": to, "clock": {"initial_s": 300, "increment_s": 2}, "rated": False, "seat": None, **asked}
    answer = requests.post(f"{url}/challenges", json=body, headers=auth(token), timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()["challenge"]


def wait_for(what: str, check: Callable[[], object], timeout: float = 60.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def answered(url: str, challenge_id: str) -> dict | None:
    found = requests.get(f"{url}/challenges/{challenge_id}", timeout=10).json()["challenge"]
    return None if found["status"] == "pending" else found


def finished(url: str, game_id: str) -> dict | None:
    game = requests.get(f"{url}/games/{game_id}", timeout=10).json()
    return game if game["status"] == "finished" else None


def bot_moves(url: str, game_id: str, seat: int) -> list[tuple[int, str]]:
    """(version the move was made at, action) of each move of `seat` in the game's history."""
    history = requests.get(f"{url}/games/{game_id}/moves", timeout=10).json()["moves"]
    return [(entry["number"], entry["action"]) for entry in history if entry["seat"] == seat]


def play_as_person(
    url: str, game_id: str, seat: int, token: str, on_move: Callable[[int], None] = lambda n: None
) -> dict:
    """Random legal moves for `seat` whenever it is in turn, until the game ends; the finished Game."""
    rng = random.Random(game_id)
    made = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        game = requests.get(f"{url}/games/{game_id}", timeout=10).json()
        if game["status"] == "finished":
            return game
        if game["turn"] != seat:
            time.sleep(0.05)
            continue
        legal = requests.get(f"{url}/games/{game_id}/legal-moves", timeout=10).json()["moves"]
        answer = requests.post(
            f"{url}/games/{game_id}/moves",
            json=rng.choice(legal),
            headers={**auth(token), "If-Match": f'"{game["version"]}"'},
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        made += 1
        on_move(made)
    raise AssertionError("the game did not end in time")


def assert_each_turn_played_once(bridge: Bridge, url: str, game_id: str, seat: int, kills: int = 0) -> None:
    """No turn was played twice, and every move of the bot's seat was made by the bridge.

    A run killed with SIGKILL may die between a move's commit and its log
    line: up to one move per kill is in the history without a line.
    """
    logged = [version for game, version, _ in bridge.played() if game == game_id]
    assert len(logged) == len(set(logged)), f"a turn was played twice: {sorted(logged)}"
    # A move is logged at the version it was made at; the history's entry n is the move made at version n
    # (version 1 is the game as created).
    in_history = {number for number, action in bot_moves(url, game_id, seat) if action != "resign"}
    assert set(logged) <= in_history
    assert len(in_history - set(logged)) <= kills


def test_a_bot_plays_a_person_to_the_end_through_a_killed_bridge_a_restarted_service_and_dropped_streams(
    service, proxy, tmp_path
):
    bot_id, bot_token = new_player(service.url, "Stitcher", bot=True)
    _, ann_token = new_player(service.url, "Ann")
    bridge = Bridge(proxy.url, bot_token, tmp_path, "stitcher").start()
    try:
        asked = challenge(service.url, ann_token, bot_id, seat=0, rated=True)
        accepted = wait_for("the bot to accept", lambda: answered(service.url, asked["id"]))
        assert accepted["status"] == "accepted", accepted
        game_id = accepted["game"]

        def trouble(moves_made: int) -> None:
            if moves_made == 4:
                bridge.kill()
                bridge.start()
            elif moves_made == 8:
                service.close()
                service.start()
            elif moves_made == 12:
                # The bridge may still be reconnecting after the restart: cut once both streams are up.
                wait_for("the bridge's streams to be open", lambda: proxy.open_connections() >= 2)
                assert proxy.cut() >= 2  # the player stream and the game's, at least
            elif moves_made == 16:
                bridge.kill()  # and no bridge at all while the person moves
                time.sleep(1)
                bridge.start()

        game = play_as_person(service.url, game_id, 0, ann_token, trouble)
        assert game["result"]["reason"] == "completed", game["result"]
        assert game["players"][1]["bot"] is True and game["players"][0]["bot"] is None
        assert game["result"]["rated"] is True
        assert bridge.runs == 3
        assert_each_turn_played_once(bridge, service.url, game_id, 1, kills=2)
        assert bridge.stop() == 0
    finally:
        bridge.close()


def test_two_bridged_bots_play_each_other_and_the_daily_cap_declines_the_next(service, tmp_path):
    _, first_token = new_player(service.url, "Quilter", bot=True)
    second_id, second_token = new_player(service.url, "Patcher", bot=True)
    first = Bridge(service.url, first_token, tmp_path, "quilter").start()
    second = Bridge(service.url, second_token, tmp_path, "patcher").start()
    try:
        asked = challenge(service.url, first_token, second_id, seat=0)
        accepted = wait_for("the challenged bot to accept", lambda: answered(service.url, asked["id"]))
        assert accepted["status"] == "accepted", accepted
        game = wait_for("the bots to finish", lambda: finished(service.url, accepted["game"]), timeout=120)
        assert isinstance(game, dict) and game["result"]["reason"] == "completed", game
        assert_each_turn_played_once(first, service.url, accepted["game"], 0)
        assert_each_turn_played_once(second, service.url, accepted["game"], 1)

        # BOT_GAMES_PER_DAY=1: the second bot against bot game is refused, and the bridge declines it.
        again = challenge(service.url, first_token, second_id, seat=0)
        refused = wait_for("the capped challenge to be declined", lambda: answered(service.url, again["id"]))
        assert refused["status"] == "declined" and refused["decline_reason"] == "later", refused
        assert refused["game"] is None
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize(
    ("asked", "reason"),
    [
        ({"clock": {"initial_s": 30}}, "too_fast"),  # under --min-initial-s 60
        ({"clock": {"initial_s": 7200, "increment_s": 60}}, "too_slow"),  # over --max-increment-s 30
        ({"clock": None}, "generic"),  # no clock, and no --untimed
        ({"clock": {"days_per_move": 3}}, "too_slow"),  # no --correspondence
        ({"rated": True}, "casual"),  # --no-rated
    ],
)
def test_a_challenge_outside_the_bridge_s_limits_is_declined_with_its_reason(
    service, tmp_path, asked, reason
):
    bot_id, bot_token = new_player(service.url, "Picky", bot=True)
    _, ann_token = new_player(service.url, "Ann")
    bridge = Bridge(
        service.url, bot_token, tmp_path, "picky", "--no-rated", "--max-increment-s", "30"
    ).start()
    try:
        made = challenge(service.url, ann_token, bot_id, **asked)
        declined = wait_for("the decline", lambda: answered(service.url, made["id"]))
        assert declined["status"] == "declined" and declined["decline_reason"] == reason, declined
    finally:
        bridge.close()


def test_a_restarted_bridge_answers_the_challenges_made_while_it_was_down(service, tmp_path):
    bot_id, bot_token = new_player(service.url, "Sleepy", bot=True)
    _, ann_token = new_player(service.url, "Ann")
    made = challenge(service.url, ann_token, bot_id, seat=1)
    bridge = Bridge(service.url, bot_token, tmp_path, "sleepy").start()
    try:
        accepted = wait_for("the bot to accept", lambda: answered(service.url, made["id"]))
        assert accepted["status"] == "accepted", accepted
        # The bot has seat 0 and moves first, with nobody's notice to wake it but the game's start.
        wait_for("the bot's first move", lambda: bot_moves(service.url, accepted["game"], 0))
    finally:
        bridge.close()
