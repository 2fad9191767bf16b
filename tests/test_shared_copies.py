"""The copies the workers of one instance share (service/instance/shared_copies.py), across real forked processes.

No Redis: a copy is only a guess at the stored game, so what matters here is
that a process reads exactly what another wrote, or nothing: never a mix.
"""

from __future__ import annotations

import os

from service.engine import Advance, apply_move, new_game
from service.games import GameCopy, KeptCopies
from service.games.records import Seat, create_record, new_game_id
from service.instance.shared_copies import SLOT_BYTES, SharedCopies
from tests.support.forked import in_child


def test_what_one_process_writes_another_forked_from_the_same_parent_reads():
    shared = SharedCopies(16)
    game = new_game_id()

    in_child(lambda: shared.put(game, 7, "rev7", '{"a": "\u00e9"}'))
    assert shared.get(game) == (7, "rev7", '{"a": "\u00e9"}')

    shared.put(game, 8, "rev8", "eight")

    def child_reads_eight():
        assert shared.get(game) == (8, "rev8", "eight")

    in_child(child_reads_eight)


def test_an_older_copy_never_replaces_a_newer_one_of_the_same_game():
    shared = SharedCopies(4)
    game = new_game_id()
    shared.put(game, 5, "new", "five")
    shared.put(game, 4, "old", "four")
    assert shared.get(game) == (5, "new", "five")


def test_a_game_in_the_same_slot_evicts_the_other():
    shared = SharedCopies(1)
    first, second = new_game_id(), new_game_id()
    shared.put(first, 9, "r", "first")
    shared.put(second, 2, "r", "second")
    assert shared.get(first) is None
    assert shared.get(second) == (2, "r", "second")


def test_a_text_longer_than_a_slot_is_not_shared():
    shared = SharedCopies(4)
    game = new_game_id()
    shared.put(game, 1, "r", "short")
    shared.put(game, 2, "r", "x" * SLOT_BYTES)
    assert shared.get(game) == (1, "r", "short")


def test_a_slot_read_in_the_middle_of_a_write_is_a_miss():
    shared = SharedCopies(1)
    game = new_game_id()
    shared.put(game, 1, "r", "one")
    # A writer has written its text but not yet its header (text first, then header).
    header = shared._memory[:64]
    shared.put(game, 2, "r", "two")
    shared._memory[:64] = header
    assert shared.get(game) is None


def test_processes_writing_one_slot_at_once_never_let_a_reader_see_a_mix():
    shared = SharedCopies(1)
    game = new_game_id()
    # Texts of different lengths, each written with its own version and revision.
    written = {n: (n, f"rev{n}", str(n) * (100 + 37 * (n % 50))) for n in range(1, 4001)}
    writers = []
    for parity in (0, 1):
        pid = os.fork()
        if pid == 0:
            for n in range(1 + parity, 4001, 2):
                shared.put(game, *written[n])
            os._exit(0)
        writers.append(pid)
    running, seen = set(writers), 0
    while running:
        found = shared.get(game)  # None while a write is under way
        if found is not None:
            assert found == written[found[0]]
            seen += 1
        for pid in list(running):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                running.discard(pid)
    final = shared.get(game)
    assert final is not None and final == written[final[0]]


def test_kept_copies_take_a_newer_copy_another_worker_shared():
    shared = SharedCopies(8)
    start, _ = create_record(new_game(seed=3), (Seat("A"), Seat("B")))
    moved = start.advanced(apply_move(start.state, Advance(), start.state.turn))
    this_worker, other_worker = KeptCopies(8, shared), KeptCopies(8, shared)
    this_worker.put(start.id, GameCopy(1, "one", start), start.encode())
    other_worker.put(start.id, GameCopy(2, "two", moved), moved.encode())

    copy = this_worker.get(start.id)

    assert copy is not None and (copy.version, copy.revision) == (2, "two")
    assert copy.record == moved
