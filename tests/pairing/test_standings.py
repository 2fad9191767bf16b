"""Standings and their tie-breaks on hand-worked crosstables."""

from __future__ import annotations

from service.pairing import Outcome, Standing, standings


def game(first: str, second: str, winner: str, margin: int) -> Outcome:
    return Outcome(first, second, winner, margin)


def test_points_then_buchholz_then_sonneborn_berger_on_a_six_player_crosstable():
    past = [
        [game("A", "B", "A", 10), game("C", "D", "C", 5), game("E", "F", "F", -7)],
        [game("A", "C", "C", -3), game("F", "B", "F", 2), game("D", "E", "D", 4)],
        [game("F", "A", "A", -6), game("D", "B", "B", -1), game("C", "E", "E", -8)],
    ]
    # Worked by hand:
    # player  results (opponent, win/loss)  points  Buchholz     SB (beaten)      margin
    # A       B W, C L, F W                 2       1+2+2 = 5    B1 + F2 = 3      +10 -3 +6 = 13
    # C       D W, A W, E L                 2       1+2+1 = 4    D1 + A2 = 3      +5 +3 -8 = 0
    # F       E W, B W, A L                 2       1+1+2 = 4    E1 + B1 = 2      +7 +2 -6 = 3
    # E       F L, D L, C W                 1       2+1+2 = 5    C2 = 2           -7 -4 +8 = -3
    # B       A L, F L, D W                 1       2+2+1 = 5    D1 = 1           -10 -2 +1 = -11
    # D       C L, E W, B L                 1       2+1+1 = 4    E1 = 1           -5 +4 -1 = -2
    # A leads the 2-point players on Buchholz; C passes F on Sonneborn-Berger;
    # among the 1-point players E and B lead D on Buchholz, and E passes B on SB.
    assert standings(list("ABCDEF"), past) == [
        Standing("A", 2.0, 5.0, 3.0, 13, 1),
        Standing("C", 2.0, 4.0, 3.0, 0, 2),
        Standing("F", 2.0, 4.0, 2.0, 3, 3),
        Standing("E", 1.0, 5.0, 2.0, -3, 4),
        Standing("B", 1.0, 5.0, 1.0, -11, 5),
        Standing("D", 1.0, 4.0, 1.0, -2, 6),
    ]


def test_the_margin_breaks_the_last_tie_and_only_full_ties_share_a_rank():
    even = [[game("G", "H", "G", 5), game("I", "J", "I", 5)]]
    # G and I: 1 point, Buchholz 0, SB 0, margin 5 each: tied on everything, listed by id.
    # H and J: 0 points, Buchholz 1 (their winner's point), SB 0, margin -5: tied too.
    assert standings(list("JIHG"), even) == [
        Standing("G", 1.0, 0.0, 0.0, 5, 1),
        Standing("I", 1.0, 0.0, 0.0, 5, 1),
        Standing("H", 0.0, 1.0, 0.0, -5, 3),
        Standing("J", 0.0, 1.0, 0.0, -5, 3),
    ]
    uneven = [[game("G", "H", "G", 5), game("I", "J", "I", 3)]]
    assert [(s.player, s.rank) for s in standings(list("GHIJ"), uneven)] == [
        ("G", 1),
        ("I", 2),
        ("J", 3),
        ("H", 4),
    ]


def test_a_bye_is_a_point_that_adds_nothing_to_the_tie_breaks():
    past = [[game("K", "L", "K", 4), Outcome("M", None, None, 0)]]
    # K: 1 point, Buchholz 0 (L has none), margin 4. M: 1 point from the bye, nothing else.
    # L: Buchholz 1 (K's point). M's opponent-less bye leaves it behind K on margin alone.
    assert standings(list("KLM"), past) == [
        Standing("K", 1.0, 0.0, 0.0, 4, 1),
        Standing("M", 1.0, 0.0, 0.0, 0, 2),
        Standing("L", 0.0, 1.0, 0.0, -4, 3),
    ]


def test_a_player_who_never_played_stands_last_with_nothing_and_a_game_nobody_won_scores_no_one():
    past = [[game("N", "O", "N", 2)], [Outcome("N", "O", None, 0)]]
    # Round 2 was forfeited by both (None): a game played, no point for either.
    # N: 1 point, Buchholz 0+0 (O has none), SB 0, margin 2. O: Buchholz 1+1, margin -2.
    assert standings(["N", "O", "P"], past) == [
        Standing("N", 1.0, 0.0, 0.0, 2, 1),
        Standing("O", 0.0, 2.0, 0.0, -2, 2),
        Standing("P", 0.0, 0.0, 0.0, 0, 3),
    ]
