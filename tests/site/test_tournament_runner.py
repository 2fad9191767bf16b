"""Tournaments on a real store (single Redis and a Cluster), run by the timekeepers' pass called directly.

A 4-player round robin is played to its end: every game is given up by the
lower of its two players in a fixed order Ann > Bob > Cy > Dan, so whatever
the Berger tables pair, Ann ends with 3 points, Bob 2, Cy 1, Dan 0, and by
hand: Buchholz (the opponents' points) Ann 2+1+0 = 3, Bob 3+1+0 = 4, Cy
3+2+0 = 5, Dan 3+2+1 = 6; Sonneborn-Berger (the points of those beaten)
Ann 2+1+0 = 3, Bob 1+0 = 1, Cy 0, Dan 0; every margin 0 (nobody moved: both
scores stand at the start's).

The repairs: a game that ended while no tournament listener heard it (a
process that died after the game's commit), and a round whose games were
never created (a process that died after pairing it), are both made whole
by the next pass.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from service.botworker.timekeeper import Timekeeper
from service.engine import Resign
from service.games import GamePlay, KeptCopies
from service.games.clock import ClockSettings
from service.games.refusals import GameNotFound
from service.site.core import SiteCore, site_core
from service.site.lobby import Players
from service.site.players import PlayerRecord
from service.site.tournament_records import FINISHED, RUNNING, Tournament, TournamentFull, begun
from service.site.tournament_runner import TournamentRunner
from service.site.tournaments import REPAIR_MS, TournamentRequest
from service.storage import Storage, open_storage
from tests.support.backends import Backend

BLITZ = ClockSettings(initial_s=300, increment_s=3)
ORDER = ("Ann", "Bob", "Cy", "Dan")


@pytest.fixture
def storage(backend: Backend) -> Iterator[Storage]:
    opened = open_storage(backend.url, cluster=backend.cluster)
    yield opened
    opened.close()


@pytest.fixture
def core(storage: Storage) -> SiteCore:
    return site_core(storage, KeptCopies(64))


def _players(storage: Storage, names=ORDER) -> dict[str, tuple[PlayerRecord, str]]:
    players = Players(storage.players)
    return {name: players.create(name) for name in names}


def _request(
    system="round_robin", *, starts_ms: int, rounds=None, pause_s=0, max_players=8
) -> TournamentRequest:
    return TournamentRequest(
        name="Test cup",
        system=system,
        rounds=rounds,
        double=False,
        clock=BLITZ,
        rated=False,
        starts_ms=starts_ms,
        max_players=max_players,
        min_rating=None,
        max_rating=None,
        pause_s=pause_s,
        listed=True,
    )


def _organised(core: SiteCore, entrants: dict[str, tuple[PlayerRecord, str]], **request) -> str:
    """A tournament whose start is already due, organised by a player of its own, every entrant joined."""
    organiser, _token = Players(core.tournaments.players.store).create("Org")
    made = core.tournaments.create(organiser, _request(starts_ms=core.play.now_ms() - 1, **request))
    for record, _token in entrants.values():
        core.tournaments.join(made["id"], record)
    return made["id"]


def _give_up_by_the_lower(play: GamePlay, tournament: Tournament, entrants) -> None:
    """Every game of the current round given up by its lower player in ORDER."""
    names = {record.id: name for name, (record, _token) in entrants.items()}
    for board in tournament.played[-1].boards:
        if board.game is None:
            continue
        first, second = names[board.first], names[board.second]
        loser_seat = 0 if ORDER.index(first) > ORDER.index(second) else 1
        loser = first if loser_seat == 0 else second
        play.play(board.game, Resign(seat=loser_seat), entrants[loser][1])


def test_a_round_robin_of_four_is_started_paired_and_finished_by_the_pass(core: SiteCore, storage: Storage):
    entrants = _players(storage)
    tournament_id = _organised(core, entrants)
    runner = TournamentRunner(core.tournaments)
    assert runner.tick() == 1  # the start was due
    played_games = set()
    for number in (1, 2, 3):
        tournament = core.tournaments.load(tournament_id)
        assert (tournament.status, tournament.round) == (RUNNING, number)
        boards = tournament.played[-1].boards
        # Four players: two games a round, every game created with its tag, seat 0 the pairing's first.
        assert len(boards) == 2 and all(b.game is not None for b in boards)
        for board in boards:
            game = core.play.load(board.game).record
            assert (game.tournament.id, game.tournament.round) == (tournament_id, number)
            assert (game.seats[0].player_id, game.seats[1].player_id) == (board.first, board.second)
            played_games.add(frozenset((board.first, board.second)))
        _give_up_by_the_lower(core.play, tournament, entrants)
        # The listener recorded every result; the next round is due at once (no pause).
        after = core.tournaments.load(tournament_id)
        assert all(b.winner is not None for b in after.played[-1].boards)
        runner.tick()
    # Every pair met once.
    assert len(played_games) == 6
    final = core.tournaments.load(tournament_id)
    assert final.status == FINISHED and final.round == 3 and final.next_round_ms is None
    names = {record.id: name for name, (record, _token) in entrants.items()}
    table = [
        (s["rank"], names[s["player"]["id"]], s["points"], s["buchholz"], s["sonneborn_berger"], s["margin"])
        for s in final.standings_view()
    ]
    assert table == [
        (1, "Ann", 3.0, 3.0, 3.0, 0),
        (2, "Bob", 2.0, 4.0, 1.0, 0),
        (3, "Cy", 1.0, 5.0, 0.0, 0),
        (4, "Dan", 0.0, 6.0, 0.0, 0),
    ]
    # Seen ended, it leaves the due index, and stands among the finished.
    runner.tick()
    assert storage.tournaments.due.indexed(tournament_id) is None
    assert [t["id"] for t in core.tournaments.page("finished", None).games] == [tournament_id]
    kinds = [e.kind for e in storage.tournaments.events_after(tournament_id, None, 100)]
    assert kinds == ["round_start"] + ["game_end", "game_end", "standings", "round_start"] * 2 + [
        "game_end",
        "game_end",
        "standings",
        "finished",
    ]


def test_a_round_is_paired_once_however_many_passes_race(core: SiteCore, storage: Storage):
    entrants = _players(storage)
    tournament_id = _organised(core, entrants)
    other = site_core(storage, KeptCopies(0))  # another timekeeper process
    runners = [TournamentRunner(core.tournaments), TournamentRunner(other.tournaments)]
    now = core.play.now_ms()
    for runner in runners:
        runner.visit(tournament_id, now)
    first = core.tournaments.load(tournament_id)
    assert first.round == 1
    _give_up_by_the_lower(core.play, first, entrants)
    now = core.play.now_ms()
    for runner in runners * 2:
        runner.visit(tournament_id, now)
    second = core.tournaments.load(tournament_id)
    assert second.round == 2
    kinds = [e.kind for e in storage.tournaments.events_after(tournament_id, None, 100)]
    assert kinds.count("round_start") == 2
    # Round 2's games are the ones its record names, each made once.
    for board in second.played[1].boards:
        assert core.play.load(board.game).version == 1


def test_the_pass_repairs_a_result_nobody_heard_and_games_never_made(core: SiteCore, storage: Storage):
    entrants = _players(storage)
    tournament_id = _organised(core, entrants)
    # A process paired the first round and died before creating its games.
    paired = core.tournaments._change(tournament_id, lambda t, now: begun(t, None, now))
    game_ids = [b.game for b in paired.played[0].boards]
    for game_id in game_ids:
        with pytest.raises(GameNotFound):
            core.play.load(game_id)
    runner = TournamentRunner(core.tournaments)
    assert runner.visit(tournament_id, core.play.now_ms()) is not None
    for game_id in game_ids:
        assert core.play.load(game_id).version == 1
    # A process ended a game and died before its tournament heard: a core with no listeners.
    deaf = GamePlay(storage.games, KeptCopies(0), storage.bot_jobs, storage.deadlines)
    _give_up_by_the_lower(deaf, paired, entrants)
    unheard = core.tournaments.load(tournament_id)
    assert all(b.winner is None for b in unheard.played[0].boards)
    now = core.play.now_ms()
    # The next look at the round comes REPAIR_MS later: that look records both results.
    assert storage.tournaments.due.indexed(tournament_id) is not None
    assert runner.visit(tournament_id, now + REPAIR_MS) is not None
    repaired = core.tournaments.load(tournament_id)
    assert all(b.winner is not None for b in repaired.played[0].boards)
    assert repaired.next_round_ms is not None  # the round is over: the next is due


def test_at_the_start_with_one_player_the_pass_cancels_it(core: SiteCore, storage: Storage):
    entrants = _players(storage, ("Ann",))
    tournament_id = _organised(core, entrants)
    assert TournamentRunner(core.tournaments).tick() == 1
    cancelled = core.tournaments.load(tournament_id)
    assert cancelled.status == "cancelled" and cancelled.played == ()
    # The cancellation asked for a look at once (its own pass's lease gave way to it): that look forgets it.
    assert TournamentRunner(core.tournaments).tick() == 1
    assert storage.tournaments.due.indexed(tournament_id) is None
    assert [t["id"] for t in core.tournaments.page("finished", None).games] == [tournament_id]
    assert core.tournaments.page("upcoming", None).games == []
    assert [e.kind for e in storage.tournaments.events_after(tournament_id, None, 10)] == ["cancelled"]


def test_a_round_robin_player_who_withdraws_loses_the_games_left_unplayed(core: SiteCore, storage: Storage):
    entrants = _players(storage)
    tournament_id = _organised(core, entrants, pause_s=0)
    runner = TournamentRunner(core.tournaments)
    runner.tick()
    first = core.tournaments.load(tournament_id)
    dan = entrants["Dan"][0]
    core.tournaments.withdraw(tournament_id, dan)
    # Dan's game of round 1 is still his to play (he gives it up, lower in ORDER).
    _give_up_by_the_lower(core.play, first, entrants)
    for _round in (2, 3):
        runner.tick()
        tournament = core.tournaments.load(tournament_id)
        (dans,) = [b for b in tournament.played[-1].boards if dan.id in (b.first, b.second)]
        assert dans.game is None and dans.winner == ("second" if dans.first == dan.id else "first")
        _give_up_by_the_lower(core.play, tournament, entrants)
    runner.tick()
    final = core.tournaments.load(tournament_id)
    assert final.status == FINISHED
    assert final.entrant(dan.id).withdrawn is True
    points = {s["player"]["name"]: s["points"] for s in final.standings_view()}
    assert points == {"Ann": 3.0, "Bob": 2.0, "Cy": 1.0, "Dan": 0.0}


def test_a_swiss_pairs_its_second_round_by_score_and_finishes(core: SiteCore, storage: Storage):
    entrants = _players(storage)
    tournament_id = _organised(core, entrants, system="swiss", rounds=2)
    runner = TournamentRunner(core.tournaments)
    runner.tick()
    first = core.tournaments.load(tournament_id)
    _give_up_by_the_lower(core.play, first, entrants)
    winners = set()
    for board in core.tournaments.load(tournament_id).played[0].boards:
        winners.add(board.first if board.winner == "first" else board.second)
    runner.tick()
    second = core.tournaments.load(tournament_id)
    assert second.round == 2
    # Score groups: the two winners of round 1 meet, and so do the two losers; no pair plays twice.
    pairs = [frozenset((b.first, b.second)) for b in second.played[1].boards]
    assert frozenset(winners) in pairs
    assert not set(pairs) & {frozenset((b.first, b.second)) for b in first.played[0].boards}
    _give_up_by_the_lower(core.play, second, entrants)
    final = core.tournaments.load(tournament_id)
    assert final.status == FINISHED
    points = {s["player"]["name"]: s["points"] for s in final.standings_view()}
    # Ann wins both, Dan loses both; Bob and Cy win one each (against Dan, or each other's loser).
    assert points == {"Ann": 2.0, "Bob": 1.0, "Cy": 1.0, "Dan": 0.0}


def test_a_swiss_pairs_a_withdrawn_player_no_more(core: SiteCore, storage: Storage):
    entrants = _players(storage)
    tournament_id = _organised(core, entrants, system="swiss", rounds=2)
    runner = TournamentRunner(core.tournaments)
    runner.tick()
    dan = entrants["Dan"][0]
    core.tournaments.withdraw(tournament_id, dan)
    _give_up_by_the_lower(core.play, core.tournaments.load(tournament_id), entrants)
    runner.tick()
    second = core.tournaments.load(tournament_id).played[1]
    # Three left: one game and one bye, Dan on neither.
    assert all(dan.id not in (b.first, b.second) for b in second.boards)
    assert sorted(b.second is None for b in second.boards) == [False, True]
    (bye,) = [b for b in second.boards if b.second is None]
    assert bye.winner == "first" and bye.game is None


def test_the_timekeepers_tick_starts_a_tournament_that_is_due(core: SiteCore, storage: Storage):
    entrants = _players(storage, ("Ann", "Bob"))
    tournament_id = _organised(core, entrants)
    keeper = Timekeeper(core.play, storage.deadlines, tournaments=TournamentRunner(core.tournaments))
    assert core.tournaments.load(tournament_id).status == "upcoming"
    keeper.tick()
    started = core.tournaments.load(tournament_id)
    assert (started.status, started.round) == (RUNNING, 1)
    (board,) = started.played[0].boards
    # Its game is made, its clock ready: the first move is due `first_move_s` (the default minute) on.
    clock = core.play.load(board.game).record.clock_now
    assert clock is not None and clock.deadline_ms is not None
    assert 60_000 <= clock.deadline_ms - started.played[0].started_ms <= 61_000


def test_an_early_start_is_looked_at_again_soon_not_at_starts_at(core: SiteCore, storage: Storage):
    entrants = _players(storage, ("Ann", "Bob"))
    organiser, _token = Players(storage.players).create("Org")
    a_day = 24 * 3600 * 1000
    made = core.tournaments.create(organiser, _request(starts_ms=core.play.now_ms() + a_day))
    for record, _token in entrants.values():
        core.tournaments.join(made["id"], record)
    assert storage.tournaments.due.indexed(made["id"]) > core.play.now_ms() + a_day - 1000
    before = core.play.now_ms()
    core.tournaments.start(made["id"], organiser)
    # Had the organiser's request died before making the games, this look would make them.
    assert before <= storage.tournaments.due.indexed(made["id"]) <= core.play.now_ms() + REPAIR_MS


def test_racing_joins_fill_the_places_exactly(core: SiteCore, storage: Storage):
    entrants = _players(storage, [f"P{n}" for n in range(8)])
    organiser, _token = Players(storage.players).create("Org")
    made = core.tournaments.create(organiser, _request(starts_ms=core.play.now_ms() + 60_000, max_players=5))
    others = [site_core(storage, KeptCopies(0)).tournaments for _ in range(4)]  # four more processes
    answers: list[str] = []

    def join(n: int, record: PlayerRecord) -> None:
        try:
            others[n % 4].join(made["id"], record)
            answers.append("joined")
        except TournamentFull:
            answers.append("full")

    threads = [threading.Thread(target=join, args=(n, r)) for n, (r, _t) in enumerate(entrants.values())]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == ["full"] * 3 + ["joined"] * 5
    assert len(core.tournaments.load(made["id"]).players) == 5


def test_a_round_whose_games_end_together_ends_once(core: SiteCore, storage: Storage):
    entrants = _players(storage, [f"P{n}" for n in range(8)])
    tournament_id = _organised(core, entrants, system="swiss", rounds=2)
    TournamentRunner(core.tournaments).tick()
    first = core.tournaments.load(tournament_id)
    tokens = {record.id: token for record, token in entrants.values()}
    # Each game given up by its second player, each in a process of its own, all at once.
    plays = [site_core(storage, KeptCopies(0)).play for _ in first.played[0].boards]
    threads = [
        threading.Thread(target=play.play, args=(board.game, Resign(seat=1), tokens[board.second]))
        for play, board in zip(plays, first.played[0].boards, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = core.tournaments.load(tournament_id)
    assert [b.winner for b in after.played[0].boards] == ["first"] * 4
    assert after.next_round_ms is not None
    kinds = [e.kind for e in storage.tournaments.events_after(tournament_id, None, 100)]
    assert kinds == ["round_start"] + ["game_end"] * 4 + ["standings"]
