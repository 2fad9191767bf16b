"""Properties of random games (hypothesis): legality, invariants, round trips, the end."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import (
    PATCHES,
    TIME_BOARDS,
    Advance,
    Buy,
    CannotAfford,
    CellOccupied,
    DoesNotFit,
    PatchNotAvailable,
    PlaceLeather,
    Placement,
    RuleError,
    WrongPhase,
    apply_move,
    canonical_placement,
    legal_moves,
    new_game,
    replay,
    resolve_placement,
    state_from_dict,
    state_to_dict,
)

LONGEST_GAME = 63
GAMES = settings(max_examples=30, deadline=None)
randoms = st.randoms(use_true_random=False)
boards = st.sampled_from(TIME_BOARDS)
seats = st.sampled_from((0, 1))


def random_game(rng, time_board, first_player):
    """Every state of one game of uniformly random legal moves, and the moves."""
    state = new_game(seed=rng.randrange(2**53), time_board=time_board, first_player=first_player)
    states, moves = [state], []
    while not state.finished:
        assert len(moves) < LONGEST_GAME, "a game went past the longest possible game"
        move = rng.choice(legal_moves(state))
        state = apply_move(state, move, seat=state.turn)
        states.append(state)
        moves.append(move)
    return states, moves


@GAMES
@given(randoms, boards, seats)
def test_games_end_and_keep_their_invariants(rng, time_board, first_player):
    states, moves = random_game(rng, time_board, first_player)
    for before, move, after in zip(states, moves, states[1:]):
        seat = before.turn
        assert after.moves_played == before.moves_played + 1
        for old, new in zip(before.players, after.players):
            assert new.buttons >= 0
            assert new.position >= old.position
            assert new.quilt & old.quilt == old.quilt
        assert set(after.leather_spaces) <= set(before.leather_spaces)
        assert before.bonus_owner is None or after.bonus_owner == before.bonus_owner
        assert len(after.circle) == len(before.circle) - isinstance(move, Buy)
        assert after.players[1 - seat] == before.players[1 - seat]
    end = states[-1]
    assert end.finished and all(p.position == 53 for p in end.players)
    assert legal_moves(end) == []
    scores = end.result.scores
    for s, player in enumerate(end.players):
        assert scores[s] == player.buttons + 7 * (end.bonus_owner == s) - 2 * player.empty_cells
    if scores[0] != scores[1]:
        assert end.result.winner == scores.index(max(scores))
    else:
        assert end.result.winner == end.first_to_end


@settings(max_examples=8, deadline=None)
@given(randoms, boards, seats)
def test_every_legal_move_applies(rng, time_board, first_player):
    states, _ = random_game(rng, time_board, first_player)
    for state in states[:-1]:
        mover = state.turn
        for move in legal_moves(state):
            after = apply_move(state, move, seat=mover)
            added = after.players[mover].quilt & ~state.players[mover].quilt
            if isinstance(move, Buy):
                assert added == resolve_placement(move.patch_id, move.placement)
                assert added.bit_count() == PATCHES[move.patch_id].cells
            elif isinstance(move, PlaceLeather):
                assert added == 1 << (move.row * 9 + move.col)


def candidate(rng, state):
    """A random move, legal or not."""
    roll = rng.random()
    if roll < 0.1:
        return Advance()
    if roll < 0.3:
        return PlaceLeather(rng.randint(-1, 9), rng.randint(-1, 9))
    pid = rng.choice(state.market + (rng.randint(0, 34),)) if state.market else rng.randint(0, 34)
    if roll < 0.75:
        return Buy(
            pid,
            Placement(
                row=rng.randint(-1, 8),
                col=rng.randint(-1, 8),
                rotation=rng.choice((0, 90, 180, 270)),
                flipped=rng.random() < 0.5,
            ),
        )
    count = PATCHES[pid].cells if pid in PATCHES else 2
    top, left = rng.randint(0, 8), rng.randint(0, 8)
    cells = [[top + rng.randint(0, 2), left + rng.randint(0, 2)] for _ in range(count)]
    return Buy(pid, Placement(cells=cells))


def expected_refusal(state, move):
    """The error the order of docs/rules.md#refused-moves gives for a move that is not legal."""
    me = state.players[state.turn]
    if isinstance(move, PlaceLeather) != (state.phase == "place_leather"):
        return WrongPhase
    if isinstance(move, PlaceLeather):
        on_board = 0 <= move.row < 9 and 0 <= move.col < 9
        return CellOccupied if on_board else DoesNotFit
    if move.patch_id not in state.market:
        return PatchNotAvailable
    if PATCHES[move.patch_id].cost > me.buttons:
        return CannotAfford
    return DoesNotFit


def listed_form(move):
    """The move as legal_moves would list it, or None when its placement cannot exist."""
    if not isinstance(move, Buy):
        return move
    try:
        mask = resolve_placement(move.patch_id, move.placement)
    except DoesNotFit:
        return None
    return Buy(move.patch_id, canonical_placement(move.patch_id, mask))


@GAMES
@given(randoms, boards, seats)
def test_random_candidates_are_applied_exactly_when_legal(rng, time_board, first_player):
    states, _ = random_game(rng, time_board, first_player)
    for state in states[:-1]:
        legal = set(legal_moves(state))
        snapshot = state_to_dict(state)
        for _ in range(8):
            move = candidate(rng, state)
            if listed_form(move) in legal:
                assert apply_move(state, move).moves_played == state.moves_played + 1
                continue
            try:
                apply_move(state, move)
            except RuleError as error:
                assert type(error) is expected_refusal(state, move), (move, error)
            else:
                raise AssertionError(f"illegal {move} was applied")
            assert state_to_dict(state) == snapshot


@GAMES
@given(randoms, boards, seats)
def test_states_round_trip_and_replay_reproduces_the_game(rng, time_board, first_player):
    states, moves = random_game(rng, time_board, first_player)
    for state in states:
        assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
    start = states[0]
    assert replay(moves, seed=start.seed, time_board=time_board, first_player=first_player) == states[-1]
