"""Racing commits: exactly one wins each version, and the history agrees with the winners."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from service.storage import GameStore, StoredGame, StoredView
from tests.support.store_calls import commit

THREADS = 12
MOVES = 30


def test_one_commit_wins_among_many_at_the_same_version(store: GameStore) -> None:
    store.create_game("g1", "s", "v")
    start = threading.Barrier(THREADS)

    def commit_one(thread: int) -> bool:
        start.wait()
        return commit(store, "g1", 1, f"s-{thread}", f"v-{thread}", f"m-{thread}").committed

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(commit_one, range(THREADS)))

    assert results.count(True) == 1
    winner = results.index(True)
    assert store.load_game("g1") == StoredGame(2, f"s-{winner}")
    assert store.load_view("g1") == StoredView(2, f"v-{winner}")
    assert store.load_moves("g1") == (2, [f"m-{winner}"])


def test_threads_racing_through_a_game_never_both_win_a_version(store: GameStore) -> None:
    store.create_game("g1", "s", "v")
    wins: dict[int, list[str]] = {}  # version committed against -> moves that won it
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def play(thread: int) -> None:
        start.wait()
        attempt = 0
        while True:
            game = store.load_game("g1")
            assert game is not None
            if game.version > MOVES:
                return
            move = f"t{thread}-a{attempt}"
            attempt += 1
            if commit(store, "g1", game.version, f"state after {move}", f"view after {move}", move).committed:
                with lock:
                    wins.setdefault(game.version, []).append(move)

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(play, range(THREADS)))

    assert sorted(wins) == list(range(1, MOVES + 1))
    assert all(len(moves) == 1 for moves in wins.values())
    history = [wins[version][0] for version in range(1, MOVES + 1)]
    assert store.load_moves("g1") == (MOVES + 1, history)
    last = history[-1]
    assert store.load_game("g1") == StoredGame(MOVES + 1, f"state after {last}")
    assert store.load_view("g1") == StoredView(MOVES + 1, f"view after {last}")
