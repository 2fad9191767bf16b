"""Checks that what the service stored and acknowledged is what its history says.

The history (GET /games/{id}/moves) is rebuilt as engine moves and replayed
with `service.engine.replay` from the game's creation parameters; the result
must be the stored Game (GET /games/{id}) field by field, and every move a
client got a 201 for must sit in the history at its number, with the state
that 201 reported.
"""

from __future__ import annotations

from collections.abc import Iterable

from service.engine import Advance, Buy, GameState, PlaceLeather, Placement, Resign, replay

from .service_client import Ack, ServiceClient


def engine_move(entry: dict):
    """The engine move of one history entry, built from its covered cells."""
    if entry["action"] == "buy":
        cells = tuple(tuple(cell) for cell in entry["placement"]["cells"])
        return Buy(entry["patch_id"], Placement(cells=cells))
    if entry["action"] == "place_leather":
        return PlaceLeather(entry["row"], entry["col"])
    if entry["action"] == "resign":
        return Resign(entry["seat"])  # not always the seat in turn
    assert entry["action"] == "advance", entry
    return Advance()


def replay_prefix(game: dict, history: list[dict], count: int) -> GameState:
    """The engine state after the first `count` moves of the history."""
    return replay(
        [engine_move(entry) for entry in history[:count]],
        seed=game["seed"],
        time_board=game["time_board"],
        first_player=game["first_player"],
    )


def assert_view_is_state(view: dict, state: GameState) -> None:
    """The public Game body shows exactly this engine state."""
    where = f"game {view['id']} at version {view['version']}"
    assert view["moves_played"] == state.moves_played, where
    assert view["version"] == state.moves_played + 1, where
    assert view["status"] == ("finished" if state.finished else "active"), where
    assert view["turn"] == state.turn, where
    assert view["phase"] == state.phase, where
    assert view["circle"] == list(state.circle), where
    assert view["market"] == list(state.market), where
    assert view["leather_spaces"] == list(state.leather_spaces), where
    assert view["bonus_owner"] == state.bonus_owner, where
    outcome = state.result
    expected_result = (
        None
        if outcome is None
        else {"scores": list(outcome.scores), "winner": outcome.winner, "reason": outcome.reason}
    )
    assert view["result"] == expected_result, where
    for seat, (shown, player) in enumerate(zip(view["players"], state.players, strict=True)):
        at = f"{where}, seat {seat}"
        assert shown["buttons"] == player.buttons, at
        assert shown["position"] == player.position, at
        assert shown["income"] == player.income, at
        assert shown["empty_cells"] == player.empty_cells, at
        assert shown["has_bonus"] == (state.bonus_owner == seat), at
        assert shown["score"] == state.score(seat), at
        assert shown["quilt"] == state.quilt_grid(seat), at


def assert_history_replays(client: ServiceClient, game_id: str) -> tuple[dict, list[dict]]:
    """The stored game equals the replay of its stored history; returns (game, history)."""
    game = client.game(game_id)
    history = client.history(game_id)
    assert [entry["number"] for entry in history] == list(range(1, len(history) + 1))
    assert game["version"] == len(history) + 1, "a move in the state but not in the history, or back"
    state = replay_prefix(game, history, 0)
    for entry in history:
        assert entry["seat"] == state.turn, f"move {entry['number']} by a seat not in turn"
        state = replay_prefix(game, history, entry["number"])
    assert_view_is_state(game, state)
    return game, history


def assert_acks_in_history(acks: Iterable[Ack], games: dict[str, tuple[dict, list[dict]]]) -> None:
    """Every acknowledged move is in its game's history, once, with the state its 201 showed.

    `games` maps a game id to (game, history) as `assert_history_replays` returned them.
    """
    seen: dict[tuple[str, int], Ack] = {}
    for ack in acks:
        slot = (ack.game_id, ack.version)
        assert slot not in seen, f"two different moves acknowledged as version {ack.version} of {ack.game_id}"
        seen[slot] = ack
        game, history = games[ack.game_id]
        number = ack.version - 1
        assert ack.game["moves_played"] == number
        assert len(history) >= number, f"acknowledged move {number} of {ack.game_id} is lost"
        entry = history[number - 1]
        assert entry["seat"] == ack.seat
        assert {k: v for k, v in entry.items() if k not in ("number", "seat", "outcome")} == ack.move
        assert_view_is_state(ack.game, replay_prefix(game, history, number))


def acknowledged_in_history(ack: Ack, history: list[dict]) -> bool:
    """Whether the history holds the acknowledged move at the number its 201 gave it."""
    number = ack.version - 1
    if len(history) < number:
        return False
    entry = history[number - 1]
    shown = {key: value for key, value in entry.items() if key not in ("number", "seat", "outcome")}
    return entry["seat"] == ack.seat and shown == ack.move
