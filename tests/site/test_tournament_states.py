"""The tournament state machine on hand-worked sequences (site/tournament_records.py), no store.

A round robin of three (Ann 1700, Bob 1600, Cy 1500, seeded in that order)
has three rounds of one game and one bye; a round is over when its game has
a result, and the next is due `pause_s` after that result.
"""

from __future__ import annotations

import pytest

from service.site.tournament_records import (
    CANCELLED,
    FINISHED,
    RUNNING,
    Entrant,
    NotInTournament,
    NotOrganiser,
    PlayerRef,
    RatingOutOfRange,
    TooFewPlayers,
    Tournament,
    TournamentFull,
    TournamentOver,
    TournamentStarted,
    begun,
    cancelled,
    joined,
    next_paired,
    result_recorded,
    withdrawn,
)

ANN = Entrant("ann", "Ann", 1700)
BOB = Entrant("bob", "Bob", 1600)
CY = Entrant("cy", "Cy", 1500)
START_MS = 1_000_000


def tournament(system="round_robin", *, players=(), max_players=4, rounds=None, **changes) -> Tournament:
    return Tournament(
        id="t1",
        name="Cup",
        system=system,
        double=False,
        rounds=rounds,
        clock={"initial_s": 300, "increment_s": 0, "first_move_s": 60},
        rated=False,
        starts_ms=START_MS,
        max_players=max_players,
        min_rating=changes.pop("min_rating", None),
        max_rating=changes.pop("max_rating", None),
        pause_s=30,
        listed=True,
        organiser=PlayerRef("org", "Org"),
        created_ms=0,
        players=tuple(players),
        **changes,
    )


def test_joining_is_once_within_the_bounds_and_the_places():
    made = tournament(max_players=2, min_rating=1550, max_rating=1650)
    after = joined(made, BOB)
    assert after is not None and after.after.players == (BOB,) and after.events == ()
    assert joined(after.after, BOB) is None
    with pytest.raises(RatingOutOfRange):
        joined(made, ANN)
    with pytest.raises(RatingOutOfRange):
        joined(made, CY)
    full = tournament(max_players=1, players=[ANN])
    with pytest.raises(TournamentFull):
        joined(full, BOB)


def test_withdrawing_before_the_start_leaves_and_after_it_marks():
    made = tournament(players=[ANN, BOB])
    left = withdrawn(made, "ann")
    assert left is not None and left.after.players == (BOB,)
    with pytest.raises(NotInTournament):
        withdrawn(left.after, "ann")
    running = tournament(players=[ANN, BOB], status=RUNNING)
    marked = withdrawn(running, "ann")
    assert marked is not None and marked.after.players == (Entrant("ann", "Ann", 1700, True), BOB)
    assert withdrawn(marked.after, "ann") is None


def test_the_start_needs_two_players_and_the_service_cancels_with_fewer():
    alone = tournament(players=[ANN])
    with pytest.raises(TooFewPlayers):
        begun(alone, "org", START_MS)
    with pytest.raises(NotOrganiser):
        begun(alone, "ann", START_MS)
    by_service = begun(alone, None, START_MS)
    assert by_service is not None
    assert by_service.after.status == CANCELLED and by_service.events == (("cancelled", {}),)
    with pytest.raises(TournamentOver):
        joined(by_service.after, BOB)


def test_cancelling_is_the_organisers_and_only_before_the_start():
    made = tournament(players=[ANN])
    with pytest.raises(NotOrganiser):
        cancelled(made, "ann", 5)
    done = cancelled(made, "org", 5)
    assert done is not None and (done.after.status, done.after.ended_ms) == (CANCELLED, 5)
    assert cancelled(done.after, "org", 6) is None
    with pytest.raises(TournamentStarted):
        cancelled(tournament(status=RUNNING), "org", 5)


def test_a_round_robin_of_three_plays_three_rounds_each_with_a_bye():
    started = begun(tournament(players=[CY, ANN, BOB]), None, START_MS)
    assert started is not None
    state = started.after
    assert (state.status, state.round, state.planned_rounds) == (RUNNING, 1, 3)
    assert [kind for kind, _data in started.events] == ["round_start"]
    met = set()
    for number in (1, 2, 3):
        boards = state.played[-1].boards
        (bye,) = [b for b in boards if b.second is None]
        (game,) = [b for b in boards if b.second is not None]
        assert (bye.winner, bye.game) == ("first", None) and game.game is not None
        met.add(frozenset((game.first, game.second)))
        now = START_MS + number * 100_000
        change = result_recorded(state, number, game.game, "second", -4, now)
        assert change is not None
        # Recorded once: the same result again changes nothing.
        assert result_recorded(change.after, number, game.game, "second", -4, now) is None
        state = change.after
        if number < 3:
            assert [k for k, _d in change.events] == ["game_end", "standings"]
            assert state.next_round_ms == now + 30_000
            # Not before its time; once, at it.
            assert next_paired(state, now + 29_999) is None
            paired = next_paired(state, now + 30_000)
            assert paired is not None and paired.after.round == number + 1
            assert next_paired(paired.after, now + 30_000) is None
            state = paired.after
        else:
            assert [k for k, _d in change.events] == ["game_end", "standings", "finished"]
    assert state.status == FINISHED and state.ended_ms == START_MS + 300_000
    assert met == {frozenset(("ann", "bob")), frozenset(("ann", "cy")), frozenset(("bob", "cy"))}
    # Each played one bye (1 point) and two games, each game won by its second player.
    byes = {b.first for r in state.played for b in r.boards if b.second is None}
    assert byes == {"ann", "bob", "cy"}
    assert sum(s["points"] for s in state.standings_view()) == 6.0


@pytest.mark.parametrize(("field", "rounds_played"), [([ANN, BOB], 1), ([ANN, BOB, CY], 3)])
def test_a_swiss_too_small_for_its_rounds_ends_when_no_round_is_left_without_a_repeat(field, rounds_played):
    # Five rounds asked. Two players can meet once; three play each pair once, each sitting out
    # once (a bye), in three rounds. The next round would pair two again (and give a second
    # bye), which the contract never does: the tournament finishes at its pairing instead.
    started = begun(tournament("swiss", players=field, rounds=5), None, START_MS)
    assert started is not None
    state = started.after
    now = START_MS
    for number in range(1, rounds_played + 1):
        assert state.round == number
        (game,) = [b for b in state.played[-1].boards if b.second is not None]
        now += 100_000
        change = result_recorded(state, number, game.game, "first", 5, now)
        assert change is not None and state.status == RUNNING
        paired = next_paired(change.after, now + 30_000)
        assert paired is not None
        state = paired.after
    assert (state.status, state.round) == (FINISHED, rounds_played)
    assert state.ended_ms == now + 30_000
    pairs = [frozenset((b.first, b.second)) for r in state.played for b in r.boards if b.second is not None]
    assert len(pairs) == len(set(pairs)) == rounds_played


def test_a_result_of_another_round_or_game_is_none_of_the_rounds():
    started = begun(tournament(players=[ANN, BOB]), None, START_MS)
    assert started is not None
    (board,) = started.after.played[0].boards
    assert result_recorded(started.after, 2, board.game, "first", 3, START_MS) is None
    assert result_recorded(started.after, 1, "other-game", "first", 3, START_MS) is None
