"""Swiss pairing on hand-worked fields, and a property test against a brute-force oracle.

Players p1..pN are given in seed order (no seeds: the order given ranks
players of equal points). The expected rounds are worked by hand from the
contract (equal scores first, no repeats, one bye at most, the player with
fewer starts starts, then the one who did not start last, then the
higher-ranked) and the documented preferences below it (the top half of a
score group meets the bottom half; among rounds equal on all that, the
squared distances from that order decide).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from service.pairing import Outcome, Pairing, swiss_round, within_the_rules
from service.pairing.history import histories
from service.pairing.swiss import WINDOWS, block_ends, paired, places


def won(first: str, second: str, winner: str) -> Outcome:
    return Outcome(first, second, winner, 3 if winner == first else -3)


def bye(player: str) -> Outcome:
    return Outcome(player, None, None, 0)


def test_two_players_meet_every_round_with_the_start_alternating():
    # Two players can only meet again (the one case where a repeat is unavoidable).
    # Round 1: a tie on everything, the higher-ranked (a) starts. Round 2: b has started
    # fewer games. Round 3: one start each, b started last, so a starts.
    past: list[list[Outcome]] = []
    expected = [Pairing("a", "b"), Pairing("b", "a"), Pairing("a", "b")]
    for pairing in expected:
        assert swiss_round(["a", "b"], past) == [pairing]
        past.append([won(pairing.first, pairing.second or "", "a")])


def test_three_players_each_sit_out_once_and_meet_everyone_once():
    players = ["a", "b", "c"]
    # Round 1: the lowest-ranked (c) sits out; a (higher-ranked) starts against b.
    r1 = swiss_round(players, [])
    assert r1 == [Pairing("a", "b"), Pairing("c", None)]
    past = [[won("a", "b", "a"), bye("c")]]
    # Round 2: a and c have 1 point, b none: b is the lowest-ranked without a bye.
    # a has started once, c never: c starts.
    assert swiss_round(players, past) == [Pairing("c", "a"), Pairing("b", None)]
    past.append([won("c", "a", "c"), bye("b")])
    # Round 3: c 2, a 1, b 1: only a has had no bye. b has started fewer games than c.
    assert swiss_round(players, past) == [Pairing("b", "c"), Pairing("a", None)]


EIGHT = [f"p{i}" for i in range(1, 9)]


def test_eight_players_over_three_rounds():
    # Round 1: one score group of 8, top half against bottom half; nobody has started,
    # so the higher-ranked starts on every board.
    assert swiss_round(EIGHT, []) == [
        Pairing("p1", "p5"),
        Pairing("p2", "p6"),
        Pairing("p3", "p7"),
        Pairing("p4", "p8"),
    ]
    r1 = [won("p1", "p5", "p1"), won("p2", "p6", "p2"), won("p3", "p7", "p3"), won("p4", "p8", "p4")]
    # Round 2: groups {p1..p4} (1 point, all started) and {p5..p8} (0, none started).
    # Any pairing inside a group puts two starters (or two seconds) together, so the
    # halves decide: p1-p3, p2-p4, p5-p7, p6-p8; equal starts, each started last alike:
    # the higher-ranked starts.
    assert swiss_round(EIGHT, [r1]) == [
        Pairing("p1", "p3"),
        Pairing("p2", "p4"),
        Pairing("p5", "p7"),
        Pairing("p6", "p8"),
    ]
    r2 = [won("p1", "p3", "p3"), won("p2", "p4", "p2"), won("p5", "p7", "p7"), won("p6", "p8", "p6")]
    # Points: p2 2, p3 2; p1 1, p4 1, p6 1, p7 1; p5 0, p8 0.
    # Starts/seconds: p1 2/0, p2 2/0, p3 1/1 (second last), p4 1/1 (second last),
    # p5 1/1 (first last), p6 1/1 (first last), p7 0/2, p8 0/2. Nobody has met within a group.
    # {p2, p3}: p3 has started fewer: p3 starts.
    # {p1, p4, p6, p7}: p1-p6 + p4-p7 is the ranking's order, but p6 would start twice in
    # a row and p4 go second twice; p1-p7 + p4-p6 and p1-p4 + p6-p7 seat everyone well,
    # and of those p1-p7 + p4-p6 pairs across the group's halves. p7 started fewer than p1;
    # p4 and p6 one start each, p6 started last: p4 starts.
    # {p5, p8}: p8 has started fewer.
    assert swiss_round(EIGHT, [r1, r2]) == [
        Pairing("p3", "p2"),
        Pairing("p7", "p1"),
        Pairing("p4", "p6"),
        Pairing("p8", "p5"),
    ]


NINE = [f"p{i}" for i in range(1, 10)]


def test_nine_players_over_two_rounds():
    # Round 1: the lowest-ranked (p9) sits out; the other eight as in the field of eight.
    assert swiss_round(NINE, []) == [
        Pairing("p1", "p5"),
        Pairing("p2", "p6"),
        Pairing("p3", "p7"),
        Pairing("p4", "p8"),
        Pairing("p9", None),
    ]
    r1 = [
        won("p1", "p5", "p1"),
        won("p2", "p6", "p6"),
        won("p3", "p7", "p3"),
        won("p4", "p8", "p4"),
        bye("p9"),
    ]
    # Round 2: 1 point: p1 p3 p4 p6 p9; 0: p2 p5 p7 p8. p8, the lowest without a bye, sits out.
    # Five in the upper group: one floats down (one squared point of difference, the least).
    # Seats that cost nothing: a starter (p1 p3 p4 p2) meets a second (p5 p6 p7) or p9
    # (who has neither), and p6-p9 seats well too (p6 starts). The upper group holds three
    # starters and only p6 and p9 for them, so a starter floats: p1 (met p5) to p7, p3 (met p7)
    # to p5, or p4 to p5 or p7, the lower group's starter p2 taking the other second.
    # Squared distances from the ranking's order (upper group of 5, halves {p1 p3} | {p4 p6 p9};
    # lower of 3, {p2} | {p5 p7}; a floater costs its distance from its group's foot plus its
    # opponent's from the next group's head):
    #   p4-p5 (2+1)^2 + p2-p7 (1)^2 + p1-p6 (1)^2 + p3-p9 (1)^2 = 12;
    #   p4-p5 9 + p2-p7 1 + p1-p9 (2)^2 + p3-p6 0 = 14; p4-p7 (2+2)^2 + ... >= 16;
    #   p3-p5 (3+1)^2 ... >= 16; p1-p7 (4+2)^2 ... >= 36. So p4-p5, p2-p7, p1-p6, p3-p9.
    # Seats: p6, p9, p5 and p7 have started fewer than their opponents.
    assert swiss_round(NINE, [r1]) == [
        Pairing("p6", "p1"),
        Pairing("p9", "p3"),
        Pairing("p5", "p4"),
        Pairing("p7", "p2"),
        Pairing("p8", None),
    ]


def test_seeds_rank_players_of_equal_points():
    # Seeds put p4 on top and p1 last: the top half (p4, p3) meets the bottom half (p2, p1).
    seeds = {"p1": 1000.0, "p2": 1200.0, "p3": 1400.0, "p4": 1600.0}
    assert swiss_round(["p1", "p2", "p3", "p4"], [], seeds) == [Pairing("p4", "p2"), Pairing("p3", "p1")]


def test_a_lone_player_sits_out_and_an_empty_field_has_no_pairings():
    assert swiss_round(["a"], []) == [Pairing("a", None)]
    assert swiss_round([], []) == []


def test_a_field_where_every_pair_has_met_repeats_as_few_and_as_close_in_score_as_it_can():
    # Four players after a full round robin: every round now repeats two pairs, so the
    # scores decide. p1 3, p2 2, p3 1, p4 0: p1-p2 + p3-p4 (1 + 1 squared points) beats
    # p1-p3 + p2-p4 (4 + 4) and p1-p4 + p2-p3 (9 + 1).
    past = [
        [won("p1", "p3", "p1"), won("p2", "p4", "p2")],
        [won("p2", "p1", "p1"), won("p4", "p3", "p3")],
        [won("p1", "p4", "p1"), won("p3", "p2", "p2")],
    ]
    # Starts: p1 2 (first last), p2 2 (second last), p3 1 (first last), p4 1 (second last):
    # on equal starts the one who did not start last starts.
    assert swiss_round(["p1", "p2", "p3", "p4"], past) == [Pairing("p2", "p1"), Pairing("p4", "p3")]


def test_a_second_bye_is_never_given_while_someone_has_none_even_at_the_price_of_a_repeat():
    seven = [f"p{i}" for i in range(1, 8)]
    past = [
        [won("p1", "p4", "p4"), won("p2", "p5", "p2"), won("p3", "p6", "p6"), bye("p7")],
        [won("p6", "p2", "p6"), won("p4", "p7", "p4"), won("p1", "p3", "p1"), bye("p5")],
        [won("p4", "p6", "p4"), won("p5", "p1", "p1"), won("p7", "p2", "p2"), bye("p3")],
        [won("p2", "p4", "p2"), won("p7", "p1", "p1"), won("p3", "p5", "p3"), bye("p6")],
        [won("p6", "p1", "p6"), won("p2", "p3", "p2"), won("p5", "p7", "p5"), bye("p4")],
    ]
    # Only p1 and p2 have had no bye, and each has met everyone but the other: whichever sits
    # out, the other must repeat a pairing (sitting p7 out again would avoid it: p1-p2, p3-p4,
    # p5-p6). Points: p2 p4 p6 4, p1 3, p3 p5 2, p7 1, so p1 is the lowest-ranked without a bye.
    # p2's one repeat is the only one: p2-p4 leaves p6-p5, p3-p7, and p2-p6 leaves p4-p5, p3-p7.
    pairings = swiss_round(seven, past)
    assert pairings[-1] == Pairing("p1", None)
    met = {frozenset((o.first, o.second)) for round_ in past for o in round_ if o.second}
    repeated = [p for p in pairings[:-1] if frozenset((p.first, p.second)) in met]
    assert len(repeated) == 1
    assert "p2" in (repeated[0].first, repeated[0].second)


# --- the property test ----------------------------------------------------------------


def least_score_cost(players: Sequence[str], points: dict[str, int], met: set[frozenset[str]]) -> int | None:
    """The least sum of squared score differences over every round of `players` without a repeat,
    by brute force over subsets (None: no such round)."""
    count = len(players)

    @cache
    def best(left: int) -> int | None:
        if left == 0:
            return 0
        i = (left & -left).bit_length() - 1
        found = None
        for j in range(i + 1, count):
            if left >> j & 1 and frozenset((players[i], players[j])) not in met:
                rest = best(left & ~(1 << i) & ~(1 << j))
                if rest is not None:
                    here = rest + (points[players[i]] - points[players[j]]) ** 2
                    found = here if found is None else min(found, here)
        return found

    return best((1 << count) - 1)


def check_round(players: list[str], past: list[list[Outcome]], pairings: list[Pairing]) -> None:
    """The contract, checked from the results alone."""
    points: Counter[str] = Counter()
    starts: Counter[str] = Counter()
    last_started: dict[str, bool] = {}
    byes: Counter[str] = Counter()
    met: set[frozenset[str]] = set()
    for round_ in past:
        for o in round_:
            if o.second is None:
                byes[o.first] += 1
                points[o.first] += 1
                continue
            points[o.winner or ""] += 1
            starts[o.first] += 1
            last_started[o.first], last_started[o.second] = True, False
            met.add(frozenset((o.first, o.second)))
    seated = [p.first for p in pairings] + [p.second for p in pairings if p.second]
    assert sorted(seated) == sorted(players)
    games = [p for p in pairings if p.second is not None]
    sitting_out = [p.first for p in pairings if p.second is None]
    assert len(sitting_out) == len(players) % 2
    # No repeat, and the least score differences possible given who sits out.
    assert not {frozenset((p.first, p.second)) for p in games} & met
    rest = [p for p in players if p not in sitting_out]
    assert sum((points[p.first] - points[p.second or ""]) ** 2 for p in games) == least_score_cost(
        rest, points, met
    )
    for out in sitting_out:
        # A second bye never, and the lowest-ranked without one whose absence leaves a round.
        assert byes[out] == 0
        order = sorted(players, key=lambda p: (-points[p], players.index(p)))
        below = order[order.index(out) + 1 :]
        for other in below:
            assert byes[other] or least_score_cost([p for p in players if p != other], points, met) is None
    # Seats: fewer starts starts; then the one who did not start last.
    for p in games:
        second = p.second or ""
        assert starts[p.first] <= starts[second]
        if starts[p.first] == starts[second]:
            assert not last_started.get(p.first) or last_started.get(second)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(min_value=2, max_value=11), seed=st.integers(min_value=0, max_value=10**6))
def test_random_results_never_bring_a_repeat_a_second_bye_or_a_wrong_seat(count, seed):
    # Rounds up to (count - 2) // 2 (at least one): a field whose players have each met fewer
    # than half of the others always has a round without a repeat (Dirac), bye or not.
    chance = random.Random(seed)
    players = [f"p{i}" for i in range(1, count + 1)]
    past: list[list[Outcome]] = []
    for _ in range(max(1, (count - 2) // 2)):
        pairings = swiss_round(players, past)
        check_round(players, past, pairings)
        past.append(
            [
                bye(p.first)
                if p.second is None
                else won(p.first, p.second, chance.choice((p.first, p.second)))
                for p in pairings
            ]
        )


def test_blocks_and_windows_pair_a_large_field_as_close_in_score_as_every_pair_would():
    # 128 players after 6 random rounds, paired in blocks of at least 32 over the narrow
    # windows' edges (score groups of up to 40 players: wider than the narrowest window):
    # no repeat, and the same least sum of squared score differences as over every pair.
    chance = random.Random(39)
    players = [f"p{i}" for i in range(128)]
    past: list[list[Outcome]] = []
    for _ in range(6):
        pairings = swiss_round(players, past)
        past.append(
            [won(p.first, p.second or "", chance.choice((p.first, p.second or ""))) for p in pairings]
        )
    found = histories(past, players)
    ranked = sorted(players, key=lambda p: (-found[p].points, players.index(p)))
    assert max(Counter(found[p].points for p in players).values()) > 2 * WINDOWS[0] + 2
    assert len(block_ends(places(ranked, found), 32)) > 1

    def score_cost(pairs: list[tuple[str, str]] | None) -> int:
        assert pairs is not None
        assert sorted(p for pair in pairs for p in pair) == sorted(players)
        assert not any(b in found[a].opponents for a, b in pairs)
        return sum((found[a].points - found[b].points) ** 2 for a, b in pairs)

    in_blocks = paired(ranked, found, repeats=False, block=32)
    assert score_cost(in_blocks) == score_cost(
        paired(ranked, found, repeats=False, windows=(None,), block=None)
    )


@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=2, max_value=9), seed=st.integers(min_value=0, max_value=10**6))
def test_a_field_too_small_for_its_rounds_is_still_paired_whole_with_byes_shared_out(count, seed):
    # 15 rounds (the most a Swiss may have) for 2 to 9 players: repeats become unavoidable,
    # yet every round seats everyone once, nobody gets a second bye while someone has none,
    # and the seats follow the contract.
    chance = random.Random(seed)
    players = [f"p{i}" for i in range(1, count + 1)]
    past: list[list[Outcome]] = []
    byes: Counter[str] = Counter()
    starts: Counter[str] = Counter()
    last_started: dict[str, bool] = {}
    for _ in range(15):
        pairings = swiss_round(players, past)
        seated = [p.first for p in pairings] + [p.second for p in pairings if p.second]
        assert sorted(seated) == sorted(players)
        for p in pairings:
            if p.second is None:
                assert byes[p.first] == min(byes[q] for q in players)
                byes[p.first] += 1
                continue
            assert starts[p.first] <= starts[p.second]
            if starts[p.first] == starts[p.second]:
                assert not last_started.get(p.first) or last_started.get(p.second)
            starts[p.first] += 1
            last_started[p.first], last_started[p.second] = True, False
        past.append(
            [
                bye(p.first)
                if p.second is None
                else won(p.first, p.second, chance.choice((p.first, p.second)))
                for p in pairings
            ]
        )


def test_a_round_is_within_the_rules_unless_it_pairs_two_again_or_gives_a_second_bye():
    # After a-b (a won) and c's bye: a-c, b's bye is a fresh round; b-a repeats; c's bye again is a
    # second one; a player who has played nothing (d) may have a bye.
    past = [[won("a", "b", "a"), bye("c")]]
    assert within_the_rules([Pairing("a", "c"), Pairing("b", None)], past)
    assert within_the_rules([Pairing("a", "c"), Pairing("d", None)], past)
    assert not within_the_rules([Pairing("b", "a"), Pairing("c", None)], past)
    assert not within_the_rules([Pairing("a", "b"), Pairing("d", "e"), Pairing("c", None)], past)
    assert within_the_rules([Pairing("a", "c"), Pairing("b", "d")], past)


def test_three_players_have_three_rounds_within_the_rules_and_no_fourth():
    # Each pair meets once and each player sits out once: three rounds, after which any round
    # pairs two again and gives someone a second bye.
    past: list[list[Outcome]] = []
    for _round in range(3):
        pairings = swiss_round(["p1", "p2", "p3"], past)
        assert within_the_rules(pairings, past)
        past.append([won(p.first, p.second, p.first) if p.second else bye(p.first) for p in pairings])
    assert not within_the_rules(swiss_round(["p1", "p2", "p3"], past), past)
