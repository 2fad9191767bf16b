"""The Game view's quilts: built piece by piece from a cache, always the engine's grid."""

from service.games.views import quilt_rows
from tests.support.pictures import random_game


def test_a_quilt_in_the_view_is_the_engines_grid_at_every_move_of_a_game():
    for seed in (3, 4):
        for state in random_game(seed):
            for seat in (0, 1):
                rows = quilt_rows(state.players[seat].pieces)
                assert [list(row) for row in rows] == state.quilt_grid(seat)


def test_a_quilt_met_first_in_the_middle_of_a_game_is_built_right_from_nothing():
    # A worker that starts with a game half played has none of its quilts cached.
    last = random_game(5)[-1]
    quilt_rows.cache_clear()
    for seat in (0, 1):
        assert [list(row) for row in quilt_rows(last.players[seat].pieces)] == last.quilt_grid(seat)
