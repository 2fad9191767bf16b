"""Tournaments played to the end by scripted players on two instances of the service, with real processes (issue 39).

Two `patchwork-service` processes (gunicorn and their own timekeepers; no
bot workers, which tournaments never use) share one throwaway Redis (or,
for the round robin and the Swiss, a 3-master Redis Cluster too). Each
player is a thread that keeps reading its active games through one
instance and playing its turns through the other, as a person with two
tabs on a load balancer would. Who wins a game is the script's: the player
listed first among the two (the "stronger") advances on its turns and the
other resigns on its first turn, so every result is known beforehand and
the standings' points follow from the rule by hand. The tournament alone
pairs, starts the rounds (`pause_s` after the last game of the one
before) and scores; the test reads what it did:
- every round paired once: as many rounds as planned, each player in one
  pairing a round, no pair twice (swiss) or every pair once (round robin),
  each player's stream telling one `game_start` with the tournament per
  game it played, and each game tagged with its round;
- every result as the games' own `result` says, and the standings' points
  and ranks as the rule gives them;
- a player who never moves loses each game on time (a first move not made
  is a loss, never an abort); a withdrawal mid-tournament loses the games
  left; a tournament starts by itself at `starts_at` with nobody asking,
  once; and every timekeeper killed with kill -9 just as a round falls due
  leaves that round paired once all the same.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

import pytest
import requests

from service.storage import Storage, open_storage
from tests.support.bot_workers import wait_for
from tests.support.patchwork_service import PatchworkService, children, program
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.redis_servers import ThrowawayRedis

# Long enough that a scripted player's turn never times out, short enough for the absent one's.
CLOCK = {"initial_s": 60, "increment_s": 0, "first_move_s": 30}
# The contract's least: the absent player's games end within these.
SHORT_CLOCK = {"initial_s": 10, "increment_s": 0, "first_move_s": 5}
POLL_S = 0.1
# The contract's promise for the start at `starts_at`, and some room for the machine's load.
START_PROMISE_S = 2.0
SERVICE_ENV = {"BOT_WORKERS": "0", "TIMEKEEPERS": "1"}
TIMEKEEPER = "service.botworker.timekeeper_main"


@pytest.fixture
def redis(request, tmp_path) -> Iterator[ThrowawayRedis | ThrowawayCluster]:
    """A throwaway redis-server, or a 3-master Redis Cluster for a test parametrized with "cluster"."""
    kind = getattr(request, "param", "single")
    with (
        ThrowawayCluster(tmp_path / "cluster")
        if kind == "cluster"
        else ThrowawayRedis(tmp_path / "redis") as server
    ):
        yield server


def _on_cluster(redis: ThrowawayRedis | ThrowawayCluster) -> bool:
    return isinstance(redis, ThrowawayCluster)


@pytest.fixture
def storage(redis) -> Iterator[Storage]:
    opened = open_storage(redis.url, cluster=_on_cluster(redis), max_connections=8)
    yield opened
    opened.close()


@pytest.fixture
def services(redis, tmp_path) -> Iterator[list[PatchworkService]]:
    """The two instances, running."""
    env = {**SERVICE_ENV, "REDIS_CLUSTER": "1" if _on_cluster(redis) else "0"}
    first = PatchworkService(tmp_path / "a", tmp_path / "a.log", redis_url=redis.url, env=env)
    second = PatchworkService(tmp_path / "b", tmp_path / "b.log", redis_url=redis.url, env=env)
    with first, second:
        yield [first, second]


@pytest.fixture
def instances(services) -> list[str]:
    """The two instances' addresses."""
    return [service.url for service in services]


# --- requests -----------------------------------------------------------------------


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _ok(resp: requests.Response, *statuses: int) -> dict:
    assert resp.status_code in (statuses or (200,)), (resp.status_code, resp.text)
    return resp.json()


class Player:
    """A player of the test: its id, name and token, and where its requests go."""

    def __init__(self, urls: list[str], name: str, index: int):
        self.name = name
        self.url = urls[index % 2]  # reads through one instance ...
        self.other = urls[(index + 1) % 2]  # ... and plays through the other
        body = _ok(requests.post(f"{self.url}/players", json={"name": name}, timeout=10), 201)
        self.id = body["player"]["id"]
        self.token = body["token"]

    def post(self, path: str, body: dict | None = None, *statuses: int, url: str | None = None) -> dict:
        resp = requests.post(
            f"{url or self.url}{path}", json=body or {}, headers=_auth(self.token), timeout=10
        )
        return _ok(resp, *(statuses or (200,)))

    def active_games(self) -> list[dict]:
        resp = requests.get(
            f"{self.url}/players/me/games", params={"status": "active"}, headers=_auth(self.token), timeout=10
        )
        return _ok(resp)["games"]


def _server_now(url: str) -> datetime:
    """The service's time, to the second, from an answer's `Date`."""
    return parsedate_to_datetime(requests.get(f"{url}/healthz", timeout=10).headers["Date"])


def _rfc3339(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _organise(organiser: Player, players: list[Player], **fields) -> str:
    """A tournament by `organiser` (who does not play) starting a minute on, joined by `players`: its id."""
    body = {
        "name": "Test",
        "clock": CLOCK,
        "max_players": 20,
        "pause_s": 0,
        "starts_at": _rfc3339(_server_now(organiser.url) + timedelta(seconds=90)),
        **fields,
    }
    tournament = organiser.post("/tournaments", body, 201)["tournament"]
    for index, player in enumerate(players):
        # Joins through both instances.
        player.post(f"/tournaments/{tournament['id']}/join", url=player.other if index % 2 else player.url)
    return tournament["id"]


def _tournament(url: str, tournament_id: str) -> dict:
    return _ok(requests.get(f"{url}/tournaments/{tournament_id}", timeout=10))["tournament"]


# --- the scripted players ------------------------------------------------------------------


class Script:
    """Every player's thread: the stronger of the two advances on its turns, the other resigns on its first.

    `strength`: player ids, strongest first. `absent`: players who never
    move. `quits`: a player and what it waits for before it withdraws (and
    plays no more).
    """

    def __init__(self, tournament_id: str, players: list[Player], strength: list[str]):
        self.tournament_id = tournament_id
        self.players = players
        self.strength = strength
        self.absent: set[str] = set()
        self.quits: dict[str, Callable[[], bool]] = {}
        self.quit: set[str] = set()
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.threads = [threading.Thread(target=self._run, args=(p,), daemon=True) for p in players]

    def __enter__(self) -> Script:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(20)
        assert not self.errors, self.errors

    def _run(self, player: Player) -> None:
        try:
            while not self.stop.is_set():
                if player.id in self.quits and player.id not in self.quit and self.quits[player.id]():
                    player.post(f"/tournaments/{self.tournament_id}/withdraw")
                    self.quit.add(player.id)
                if player.id not in self.absent and player.id not in self.quit:
                    for entry in player.active_games():
                        if (
                            entry["my_turn"]
                            and entry["game"].get("tournament", {}).get("id") == self.tournament_id
                        ):
                            self._turn(player, entry["game"], entry["seat"])
                self.stop.wait(POLL_S)
        except BaseException as error:  # reported by __exit__
            self.errors.append(error)

    def _turn(self, player: Player, game: dict, seat: int) -> None:
        opponent = game["players"][1 - seat]["player_id"]
        game_path = f"{player.other}/games/{game['id']}"
        headers = {**_auth(player.token), "If-Match": f'"{game["version"]}"'}
        if self.strength.index(player.id) > self.strength.index(opponent):
            resp = requests.post(f"{game_path}/resign", headers=headers, timeout=10)
        else:
            move = {"action": "advance"}
            if game["phase"] == "place_leather":
                move = _ok(requests.get(f"{game_path}/legal-moves", timeout=10))["moves"][0]
            resp = requests.post(f"{game_path}/moves", json=move, headers=headers, timeout=10)
        # 412: the game moved on since it was read (this thread's own earlier move, seen late).
        assert resp.status_code in (201, 412), resp.text


def _finished(url: str, tournament_id: str, within_s: float) -> dict:
    """The tournament once finished; fails after `within_s` with the tournament as it stood."""
    deadline = time.monotonic() + within_s
    while True:
        found = _tournament(url, tournament_id)
        if found["status"] == "finished":
            return found
        assert time.monotonic() < deadline, f"not finished within {within_s} s: {json.dumps(found)[:3000]}"
        time.sleep(0.5)


# --- what the tournament did ------------------------------------------------------------


def _pair(pairing: dict) -> frozenset[str]:
    second = pairing["second"]
    return frozenset({pairing["first"]["id"], *([] if second is None else [second["id"]])})


def _game_starts(storage: Storage, player: Player, tournament_id: str) -> list[tuple[str, int]]:
    """(game, round) of each `game_start` the player's stream told of the tournament's games."""
    told = []
    for event in storage.players.events_after(player.id, None, 100):
        data = json.loads(event.data)
        if event.kind == "game_start" and data.get("tournament", {}).get("id") == tournament_id:
            told.append((data["game"], data["tournament"]["round"]))
    return told


def _check_rounds(
    urls: list[str], storage: Storage, done: dict, players: list[Player], rounds: int
) -> list[tuple[int, dict]]:
    """Every round paired once, each game tagged and told once; (round, pairing) for every pairing."""
    assert done["round"] == rounds and [r["number"] for r in done["round_pairings"]] == list(
        range(1, rounds + 1)
    )
    assert all(r["status"] == "finished" for r in done["round_pairings"])
    played: list[tuple[int, dict]] = []
    for number, pairings in ((r["number"], r["pairings"]) for r in done["round_pairings"]):
        seated = Counter(itertools.chain.from_iterable(_pair(p) for p in pairings))
        assert set(seated) == {p.id for p in players} and set(seated.values()) == {1}, (number, pairings)
        for pairing in pairings:
            played.append((number, pairing))
            if pairing["game"] is not None:
                game = _ok(requests.get(f"{urls[number % 2]}/games/{pairing['game']}", timeout=10))
                assert game["tournament"] == {"id": done["id"], "round": number}
                assert game["status"] == "finished"
                assert [p["player_id"] for p in game["players"]] == [
                    pairing["first"]["id"],
                    pairing["second"]["id"],
                ]
                assert pairing["winner"] == ("first", "second")[game["result"]["winner"]], (
                    pairing,
                    game["result"],
                )
                assert pairing["margin"] == game["result"]["scores"][0] - game["result"]["scores"][1]
    # One game_start per game, each game once: nothing was created twice.
    for player in players:
        told = _game_starts(storage, player, done["id"])
        games = [(p["game"], n) for n, p in played if p["game"] is not None and player.id in _pair(p)]
        assert sorted(told) == sorted(games), (player.name, told, games)
    return played


def _points(played: list[tuple[int, dict]]) -> Counter[str]:
    """Each player's points by the contract: 1 a win or a bye, Patchwork has no draws."""
    points: Counter[str] = Counter()
    for _number, pairing in played:
        if pairing["second"] is None:
            points[pairing["first"]["id"]] += 1
        else:
            points[pairing[pairing["winner"]]["id"]] += 1
    return points


def _stronger_won(played: list[tuple[int, dict]], strength: list[str]) -> None:
    """Each game went to the stronger of its two players, as the script has it."""
    for number, pairing in played:
        first, second = pairing["first"]["id"], pairing["second"]["id"]
        expected = "first" if strength.index(first) < strength.index(second) else "second"
        assert pairing["winner"] == expected, (number, pairing)


def _standing_points(done: dict) -> dict[str, float]:
    return {s["player"]["id"]: s["points"] for s in done["standings"]}


def _players(urls: list[str], count: int) -> list[Player]:
    return [
        Player(urls, name, index)
        for index, name in enumerate(["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:count])
    ]


# --- the tests -------------------------------------------------------------------------------


# On a single Redis and on a Redis Cluster: a tournament's keys, its games' and its players' lie in other slots.
@pytest.mark.parametrize("redis", ["single", "cluster"], indirect=True)
def test_a_round_robin_of_4_played_to_the_end_on_two_instances(instances, storage):
    organiser = Player(instances, "Org", 0)
    players = _players(instances, 4)
    tournament_id = _organise(organiser, players, system="round_robin", rated=True)
    strength = [p.id for p in players]
    with Script(tournament_id, players, strength):
        organiser.post(f"/tournaments/{tournament_id}/start", url=organiser.other)
        done = _finished(instances[0], tournament_id, 120)
    played = _check_rounds(instances, storage, done, players, 3)
    _stronger_won(played, strength)
    # Every pair once, no bye (an even field).
    assert sorted(map(sorted, (_pair(p) for _n, p in played))) == sorted(
        sorted(pair) for pair in itertools.combinations([p.id for p in players], 2)
    )
    # The stronger wins every game: 3, 2, 1, 0 points, ranked in that order.
    assert _points(played) == {players[0].id: 3, players[1].id: 2, players[2].id: 1}
    assert [(s["player"]["id"], s["points"], s["rank"]) for s in done["standings"]] == [
        (players[0].id, 3, 1),
        (players[1].id, 2, 2),
        (players[2].id, 1, 3),
        (players[3].id, 0, 4),
    ]
    # Who starts: each player's starts differ by at most one (3 games: 1 or 2 each).
    starts = Counter(p["first"]["id"] for _n, p in played)
    assert all(starts[p.id] in (1, 2) for p in players), starts


@pytest.mark.parametrize("redis", ["single", "cluster"], indirect=True)
def test_a_swiss_of_6_in_3_rounds_played_to_the_end_on_two_instances(instances, storage):
    organiser = Player(instances, "Org", 1)
    players = _players(instances, 6)
    tournament_id = _organise(organiser, players, system="swiss", rounds=3)
    strength = [p.id for p in players]
    with Script(tournament_id, players, strength):
        organiser.post(f"/tournaments/{tournament_id}/start")
        done = _finished(instances[1], tournament_id, 180)
    played = _check_rounds(instances, storage, done, players, 3)
    _stronger_won(played, strength)
    # No pair twice, no bye (an even field).
    pairs = [_pair(p) for _n, p in played]
    assert len(set(pairs)) == len(pairs) == 9 and all(len(pair) == 2 for pair in pairs)
    # The points are the games' wins; the strongest won all three and leads alone.
    points = _points(played)
    assert _standing_points(done) == {p.id: points[p.id] for p in players}
    assert sum(points.values()) == 9 and points[players[0].id] == 3
    assert done["standings"][0]["player"]["id"] == players[0].id and done["standings"][0]["rank"] == 1
    ranked = [s["points"] for s in done["standings"]]
    assert ranked == sorted(ranked, reverse=True)
    # Round 2 pairs by score group: the three winners of round 1 meet a winner where they can
    # (three winners: one must meet a loser), so at most one pairing mixes the groups... by two.
    after_one = Counter(p[p["winner"]]["id"] for n, p in played if n == 1)
    mixed = [p for n, p in played if n == 2 and after_one[p["first"]["id"]] != after_one[p["second"]["id"]]]
    assert len(mixed) == 1, mixed


def test_a_player_who_never_moves_loses_each_game_on_time_and_none_is_aborted(instances, storage):
    organiser = Player(instances, "Org", 0)
    players = _players(instances, 2)
    # A double round robin of two: the absent player is second in one game (its bank runs out)
    # and first in the other (its first move is not made in time).
    tournament_id = _organise(organiser, players, system="round_robin", double=True, clock=SHORT_CLOCK)
    present, absent = players
    script = Script(tournament_id, players, [present.id, absent.id])
    script.absent.add(absent.id)
    with script:
        organiser.post(f"/tournaments/{tournament_id}/start")
        done = _finished(instances[0], tournament_id, 90)
    played = _check_rounds(instances, storage, done, players, 2)
    assert sorted(p["first"]["id"] == absent.id for _n, p in played) == [False, True]
    for _number, pairing in played:
        game = _ok(requests.get(f"{instances[0]}/games/{pairing['game']}", timeout=10))
        assert game["result"]["reason"] == "timeout"
        assert game["players"][game["result"]["winner"]]["player_id"] == present.id
    assert _standing_points(done) == {present.id: 2, absent.id: 0}


def test_a_player_withdrawn_mid_tournament_loses_every_game_left(instances, storage):
    organiser = Player(instances, "Org", 1)
    players = _players(instances, 4)
    # The strongest player withdraws once round 1 is over: it won that game and loses the two left.
    quitter = players[0]
    tournament_id = _organise(organiser, players, system="round_robin", pause_s=3)
    strength = [p.id for p in players]
    script = Script(tournament_id, players, strength)

    def round_one_over() -> bool:
        done = _tournament(quitter.url, tournament_id)
        return bool(done["round_pairings"]) and done["round_pairings"][0]["status"] == "finished"

    script.quits[quitter.id] = round_one_over
    with script:
        organiser.post(f"/tournaments/{tournament_id}/start")
        done = _finished(instances[0], tournament_id, 120)
    played = _check_rounds(instances, storage, done, players, 3)
    assert {p["id"]: p["withdrawn"] for p in done["players"]} == {p.id: p is quitter for p in players}
    # The quitter won its round 1 game (the strongest) and lost the two left; the others'
    # games among themselves went to the stronger, as scripted.
    expected: Counter[str] = Counter()
    for number, pairing in played:
        pair = _pair(pairing)
        if quitter.id in pair:
            (other,) = pair - {quitter.id}
            winner = quitter.id if number == 1 else other
        else:
            winner = min(pair, key=strength.index)
        assert pairing[pairing["winner"]]["id"] == winner, (number, pairing)
        expected[winner] += 1
    assert expected[quitter.id] == 1 and sum(expected.values()) == 6
    assert _standing_points(done) == {p.id: expected[p.id] for p in players}


def test_a_tournament_starts_at_its_time_with_nobody_asking_and_one_too_small_is_cancelled(
    instances, storage
):
    organiser = Player(instances, "Org", 0)
    players = _players(instances, 2)
    starts_at = _server_now(organiser.url) + timedelta(seconds=62)
    body = {"starts_at": _rfc3339(starts_at), "system": "round_robin"}
    tournament_id = _organise(organiser, players, **body)
    lonely = organiser.post("/tournaments", {"name": "Alone", "clock": CLOCK, "max_players": 4, **body}, 201)[
        "tournament"
    ]["id"]
    players[0].post(f"/tournaments/{lonely}/join")
    assert _tournament(instances[1], tournament_id)["status"] == "upcoming"
    time.sleep(max(0.0, (starts_at - _server_now(organiser.url)).total_seconds() - 5))
    assert _tournament(instances[1], tournament_id)["status"] == "upcoming"
    wait_for(
        lambda: _tournament(instances[1], tournament_id)["status"] == "running",
        10 + START_PROMISE_S,
        "the tournament did not start by itself",
        every=0.2,
    )
    started = _tournament(instances[0], tournament_id)
    began = datetime.fromisoformat(started["round_pairings"][0]["started_at"].replace("Z", "+00:00"))
    assert starts_at <= began <= starts_at + timedelta(seconds=START_PROMISE_S + 1), (starts_at, began)
    assert started["round"] == 1 and len(started["round_pairings"]) == 1
    (pairing,) = started["round_pairings"][0]["pairings"]
    assert _pair(pairing) == {players[0].id, players[1].id} and pairing["game"] is not None
    wait_for(
        lambda: _tournament(instances[0], lonely)["status"] == "cancelled",
        5,
        "the lonely one was not cancelled",
    )
    # Started once, on one instance: one game, told once to each.
    time.sleep(2)
    for player in players:
        assert _game_starts(storage, player, tournament_id) == [(pairing["game"], 1)]
    assert len(_tournament(instances[1], tournament_id)["round_pairings"]) == 1


def test_timekeepers_killed_as_rounds_fall_due_leave_each_round_paired_once(services, instances, storage):
    organiser = Player(instances, "Org", 0)
    players = _players(instances, 6)
    # A second's pause between rounds: the next round falls due at a moment the test knows.
    tournament_id = _organise(organiser, players, system="swiss", rounds=3, pause_s=1)
    strength = [p.id for p in players]
    killed: list[tuple[int, int]] = []  # (the round due, the pid killed)
    stop = threading.Event()

    def kill_every_timekeeper_as_each_round_falls_due() -> None:
        """At each next round's due time (and a little after, the second time), kill -9 both instances' timekeepers.

        They pair the round (the runner's tick, every quarter second), so the
        kill finds them before, in the middle of or after creating its games;
        the supervisor restarts them, and the leases of the killed ones end.
        """
        offsets = iter((0.0, 0.15))
        seen: set[int] = set()
        while not stop.is_set():
            found = _tournament(instances[0], tournament_id)
            due = found["next_round_at"]
            if found["status"] == "running" and due is not None and found["round"] not in seen:
                seen.add(found["round"])
                at = datetime.fromisoformat(due.replace("Z", "+00:00")).timestamp() + next(offsets, 0.0)
                time.sleep(max(0.0, at - time.time()))
                for service in services:
                    for pid in children(service.process.pid):
                        if program(pid) == TIMEKEEPER:
                            os.kill(pid, signal.SIGKILL)
                            killed.append((found["round"] + 1, pid))
            stop.wait(0.02)

    killer = threading.Thread(target=kill_every_timekeeper_as_each_round_falls_due, daemon=True)
    with Script(tournament_id, players, strength):
        organiser.post(f"/tournaments/{tournament_id}/start")
        killer.start()
        try:
            done = _finished(instances[1], tournament_id, 180)
        finally:
            stop.set()
            killer.join(10)
    # Both rounds after the first fell due with their pairers killed, on both instances.
    assert sorted({number for number, _pid in killed}) == [2, 3] and len(killed) == 4, killed
    played = _check_rounds(instances, storage, done, players, 3)
    _stronger_won(played, strength)
    pairs = [_pair(p) for _n, p in played]
    assert len(set(pairs)) == len(pairs) == 9
    points = _points(played)
    assert _standing_points(done) == {p.id: points[p.id] for p in players}
    assert sum(points.values()) == 9 and points[players[0].id] == 3
