"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system", 2013)."""

from __future__ import annotations

import pytest

from service.ratings import MIN_RD, Rating, Result, after_game, updated


def test_the_papers_worked_example():
    # The paper: a player rated 1500, RD 200, volatility 0.06, tau 0.5, plays
    # three games: beats 1400 (RD 30), loses to 1550 (RD 100) and to 1700 (RD 300).
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1.0),
        Result(Rating(1550, 100), 0.0),
        Result(Rating(1700, 300), 0.0),
    ]
    after = updated(player, results, tau=0.5)
    # The paper's step 8: r' = 1464.06, RD' = 151.52; step 5: sigma' = 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    # Step 6 alone: phi* = sqrt(phi^2 + sigma^2), rating and volatility as they were.
    after = updated(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.volatility == 0.06
    assert after.rd == pytest.approx(((200 / 173.7178) ** 2 + 0.06**2) ** 0.5 * 173.7178)


def test_one_game_moves_both_players_by_opposite_amounts_when_they_are_alike():
    winner, loser = after_game(Rating(), Rating(), 1.0)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd) and winner.rd < 350


def test_a_draw_between_equals_changes_no_rating():
    first, second = after_game(Rating(1600, 80), Rating(1600, 80), 0.5)
    assert first.rating == pytest.approx(1600)
    assert second.rating == pytest.approx(1600)


def test_the_deviation_never_falls_below_its_floor():
    # Forty games against sure opponents in one period take an RD of 50 to about 37.
    games = [Result(Rating(1500, 30), 0.5)] * 40
    assert updated(Rating(1500, 50), games).rd < MIN_RD
    assert updated(Rating(1500, 50), games, min_rd=MIN_RD).rd == MIN_RD


def test_a_rating_round_trips_through_json():
    rating = Rating(1612.5, 88.25, 0.0601)
    assert Rating.from_json(rating.to_json()) == rating
