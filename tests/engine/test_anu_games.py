"""The 14 known-answer games of tests/data/anu-games.json, replayed move by move."""

import json
from pathlib import Path

import pytest

from service.engine import apply_move, canonical_move, legal_moves, new_game, parse_moves, replay

GAMES = json.loads((Path(__file__).parents[1] / "data" / "anu-games.json").read_text())["games"]


def test_the_data_holds_fourteen_games():
    assert len(GAMES) == 14
    assert sum(game["moves_played"] for game in GAMES) == 567


@pytest.mark.parametrize("game", GAMES, ids=[f"game{i}" for i in range(len(GAMES))])
def test_game_replays_to_its_known_scores(game):
    state = new_game(
        patch_order=game["circle"], first_player=game["first_player"], time_board=game["time_board"]
    )
    moves = parse_moves(game["moves"])
    assert len(moves) == game["moves_played"]
    for number, move in enumerate(moves, 1):
        assert not state.finished, f"game over before move {number}"
        assert canonical_move(move) in legal_moves(state), f"move {number} {move} is not legal"
        state = apply_move(state, move, seat=state.turn)
    assert state.finished
    assert state.moves_played == game["moves_played"]
    assert list(state.result.scores) == game["final_scores"]
    assert state.bonus_owner == game["bonus_owner"]
    without_bonus = [state.score(s) - (7 if state.bonus_owner == s else 0) for s in (0, 1)]
    assert without_bonus == game["scores_without_bonus"]
    assert replay(moves, patch_order=game["circle"], time_board=game["time_board"]) == state
