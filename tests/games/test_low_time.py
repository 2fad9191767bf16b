"""Low-time notices (games/low_time.py): told once per game and seat, at the line, by a timekeeper or in a commit.

Real-time clocks here are two seconds long (a line of 400 ms); a
correspondence game's line, twelve hours before its deadline, is reached by
handing `expire` the store's time as a timekeeper would read it then.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from service.botworker.timekeeper import Timekeeper
from service.engine import Advance, Resign
from service.games import GamePlay, GameRecord, KeptCopies
from service.games.clock import CORRESPONDENCE_LOW_MS, ClockSettings, rfc3339_ms
from service.games.listeners import GameListener
from service.games.values import Holder, Seating
from service.site.core import site_core
from service.storage import Storage

TWO_SECONDS = ClockSettings(initial_s=2, first_move_s=60)
LINE_MS = 400
PLAYERS = Seating(holders=(Holder("A" * 22, "Ada", "a" * 64), Holder("B" * 22, "Bo", "b" * 64)))


class LowTimes(GameListener):
    """Writes down every low-time notice the core tells."""

    def __init__(self) -> None:
        self.told: list[tuple[str, int, int]] = []

    def low_time(self, record: GameRecord, seat: int, remaining_ms: int) -> None:
        self.told.append((record.id, seat, remaining_ms))


def _started(play: GamePlay, clock: ClockSettings, seating: Seating = PLAYERS) -> tuple[str, list[Any]]:
    """A game on `clock` whose first move is made: seat 1's time runs."""
    created = play.create(("Ada", "Bo"), clock=clock, seating=seating, seed=3)
    play.play(created.game_id, Advance(), created.tokens[0])
    return created.game_id, created.tokens


def _clock(play: GamePlay, game_id: str):
    clock = play.load(game_id).record.clock_now
    assert clock is not None and clock.deadline_ms is not None
    return clock


def test_a_running_real_time_clock_is_told_once_at_a_fifth_of_its_bank(play: GamePlay, storage: Storage):
    heard = LowTimes()
    play.listen(heard)
    game_id, _tokens = _started(play, TWO_SECONDS)
    clock = _clock(play, game_id)
    # The game's one index entry is its next look: the line, before the deadline.
    assert storage.deadlines.indexed(game_id) == clock.deadline_ms - LINE_MS
    keeper = Timekeeper(play, storage.deadlines)
    keeper.tick()
    assert heard.told == []  # not yet
    time.sleep((clock.deadline_ms - LINE_MS - play.now_ms() + 50) / 1000)
    assert keeper.tick() == 0
    assert [(game, seat) for game, seat, _ in heard.told] == [(game_id, 1)]
    assert 0 < heard.told[0][2] <= LINE_MS
    # Told: the entry waits for the deadline, and nobody tells it again.
    assert storage.deadlines.indexed(game_id) == clock.deadline_ms
    assert play.expire(game_id, play.now_ms()).next_look_ms == clock.deadline_ms
    assert play.load(game_id).record.low_time_told == (False, True)
    assert len(heard.told) == 1


def test_racing_timekeepers_tell_it_once(play: GamePlay, other_process: Callable[[], GamePlay]):
    game_id, _tokens = _started(play, TWO_SECONDS)
    owed = _clock(play, game_id).deadline_ms - LINE_MS
    plays = [play, *(other_process() for _ in range(3))]
    heard = LowTimes()
    for each in plays:
        each.listen(heard)
    start = threading.Barrier(len(plays))

    def look(each: GamePlay) -> None:
        start.wait()
        each.expire(game_id, owed)

    threads = [threading.Thread(target=look, args=(each,)) for each in plays]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert [(game, seat) for game, seat, _ in heard.told] == [(game_id, 1)]


def test_a_correspondence_move_is_told_twelve_hours_before_its_deadline(play: GamePlay, storage: Storage):
    heard = LowTimes()
    play.listen(heard)
    game_id, _tokens = _started(play, ClockSettings(days_per_move=1))
    deadline = _clock(play, game_id).deadline_ms
    owed = deadline - CORRESPONDENCE_LOW_MS
    assert storage.deadlines.indexed(game_id) == owed
    # A look a minute early tells nothing and names the time it is owed.
    assert play.expire(game_id, owed - 60_000).next_look_ms == owed
    assert heard.told == []
    assert play.expire(game_id, owed).next_look_ms == deadline
    assert heard.told == [(game_id, 1, CORRESPONDENCE_LOW_MS)]
    play.expire(game_id, owed + 1)
    assert len(heard.told) == 1


def test_a_move_handing_the_turn_to_a_seat_under_the_line_tells_it_in_its_commit(play: GamePlay):
    heard = LowTimes()
    play.listen(heard)
    game_id, tokens = _started(play, TWO_SECONDS)
    # Seat 1 spends most of its bank on its move (no timekeeper runs here), and seat 0 answers at once.
    time.sleep(1.7)
    play.play(game_id, Advance(), tokens[1])
    assert heard.told == []  # seat 0 got the turn with its whole bank
    play.play(game_id, Advance(), tokens[0])
    assert [(game, seat) for game, seat, _ in heard.told] == [(game_id, 1)]
    assert play.load(game_id).record.low_time_told == (False, True)


def test_a_game_whose_clock_stops_is_told_nothing(play: GamePlay, storage: Storage):
    heard = LowTimes()
    play.listen(heard)
    game_id, tokens = _started(play, TWO_SECONDS)
    owed = _clock(play, game_id).deadline_ms - LINE_MS
    play.play(game_id, Resign(), tokens[1])
    assert play.expire(game_id, owed).next_look_ms is None
    # Seats no player holds (names and service bots) are owed nothing: the index waits for the deadline.
    plain = play.create(("Cy", "Di"), clock=TWO_SECONDS, seed=3)
    play.play(plain.game_id, Advance(), plain.tokens[0])
    assert storage.deadlines.indexed(plain.game_id) == _clock(play, plain.game_id).deadline_ms
    assert (
        play.expire(plain.game_id, _clock(play, plain.game_id).deadline_ms - LINE_MS).next_look_ms is not None
    )
    assert heard.told == []


def test_the_seats_player_hears_it_on_its_stream(storage: Storage):
    core = site_core(storage, KeptCopies(0))
    holder = PLAYERS.holders[1]
    assert holder is not None
    game_id, _tokens = _started(core.play, ClockSettings(days_per_move=2))
    deadline = _clock(core.play, game_id).deadline_ms
    core.play.expire(game_id, deadline - CORRESPONDENCE_LOW_MS)
    told = [event for event in storage.players.events_after(holder.id, None, 100) if event.kind == "low_time"]
    assert [json.loads(event.data) for event in told] == [
        {"game": game_id, "seat": 1, "remaining_ms": CORRESPONDENCE_LOW_MS, "deadline": rfc3339_ms(deadline)}
    ]
