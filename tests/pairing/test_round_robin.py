"""Round robin by Berger tables, checked against the tables FIDE publishes (C.05, Annex 1).

The expected tables below are copied by hand from the published Berger
tables, board by board, the player moving first on the left; for 5 players
the 6-player table is used with player 6 as the bye.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from service.pairing import Pairing, round_robin

BERGER_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
# Players a..f are Berger numbers 1..6, in the order given.
NAMES = "abcdef"


def table(rounds: list[list[Pairing]]) -> list[list[tuple[int, int | None]]]:
    """The rounds in Berger numbers (None: the bye)."""
    number = {name: index + 1 for index, name in enumerate(NAMES)}
    return [
        [(number[p.first], None if p.second is None else number[p.second]) for p in round_]
        for round_ in rounds
    ]


def test_four_players_follow_the_published_table():
    assert table(round_robin(list("abcd"))) == BERGER_4


def test_six_players_follow_the_published_table():
    assert table(round_robin(list("abcdef"))) == BERGER_6


def test_five_players_follow_the_six_player_table_with_the_sixth_as_the_bye():
    # The 6-player table, player 6's opponent sitting out (None).
    assert table(round_robin(list("abcde"))) == [
        [(1, None), (2, 5), (3, 4)],
        [(4, None), (5, 3), (1, 2)],
        [(2, None), (3, 1), (4, 5)],
        [(5, None), (1, 4), (2, 3)],
        [(3, None), (4, 2), (5, 1)],
    ]


def test_the_double_round_robin_plays_the_table_again_with_the_seats_swapped():
    rounds = table(round_robin(list("abcd"), double=True))
    assert rounds == BERGER_4 + [[(b, a) for a, b in round_] for round_ in BERGER_4]
    with_bye = table(round_robin(list("abc"), double=True))
    # Three players: the 4-player table with 4 as the bye, which stays a bye in the second cycle.
    assert with_bye == [[(1, None), (2, 3)], [(3, None), (1, 2)], [(2, None), (3, 1)]] + [
        [(1, None), (3, 2)],
        [(3, None), (2, 1)],
        [(2, None), (1, 3)],
    ]


def test_fewer_than_two_players_have_no_rounds():
    assert round_robin([]) == []
    assert round_robin(["a"]) == []


@pytest.mark.parametrize("count", range(2, 21))
def test_every_pair_meets_once_everyone_plays_each_round_and_the_starts_are_balanced(count):
    players = [f"p{i}" for i in range(count)]
    rounds = round_robin(players)
    assert len(rounds) == count - 1 + count % 2
    games = [p for round_ in rounds for p in round_ if p.second is not None]
    assert sorted(tuple(sorted((p.first, p.second))) for p in games) == sorted(
        tuple(sorted(pair)) for pair in combinations(players, 2)
    )
    for round_ in rounds:
        seated = [p.first for p in round_] + [p.second for p in round_ if p.second is not None]
        assert sorted(seated) == sorted(players)
    byes = Counter(p.first for round_ in rounds for p in round_ if p.second is None)
    assert byes == (Counter(players) if count % 2 else Counter())
    starts = Counter(p.first for p in games)
    seconds = Counter(p.second for p in games)
    for player in players:
        assert abs(starts[player] - seconds[player]) <= 1, player
    assert max(starts[p] for p in players) - min(starts[p] for p in players) <= 1
    double = round_robin(players, double=True)
    double_games = [p for round_ in double for p in round_ if p.second is not None]
    assert Counter((p.first, p.second) for p in double_games) == Counter(
        [(p.first, p.second) for p in games] + [(p.second, p.first) for p in games]
    )
