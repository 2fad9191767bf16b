"""Playing games on a store: create, read, and judge-then-commit a move, with no HTTP in sight.

A move is judged in the order of docs/api-guide.md#order-of-checks (token,
the expected version, the move itself) and committed with one compare-and-set on the game's version and
revision. Losing the race to another process is not a refusal: the refused
commit returns the stored game and the move is judged again on it. When this
process kept a copy of the game (kept.py), the move is judged on that copy
and committed without reading the game first; a refusal is never given on a
kept copy, only on one just read from the store.

`GamePlay.amend` is the one compare-and-set every change of a stored game
goes through (a move, a bot's move, a timeout, a join, a rematch's claim, a
seat's name; writes.py holds what a change hands it), and `_move_write` the
one place a move's commit is written: the HTTP API and any other caller (a
bot worker, through `play_bot`) go through them. What callers hand in and
get back are plain values (values.py). The site hears of each game's
moments as a listener (listeners.py), registered with `GamePlay.listen`;
this module imports nothing of it. Whenever a commit leaves a bot in turn, `hand_turn` queues that bot's job first; a
new game is stored first and its job queued after (storage/bot_jobs.py says
why each way round). A job is served in the share of the client address
that handed the bot its turn (`client`), for fairness between clients.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, NoReturn, TypeVar

from service.engine import (
    Abort,
    GameFinished,
    GameState,
    Move,
    Resign,
    RuleError,
    Timeout,
    apply_move,
    new_game,
    replay,
)
from service.languages import DEFAULT_LANGUAGE
from service.storage import (
    BotJobs,
    ClockRefusal,
    ClockRefused,
    Commit,
    CommitResult,
    Deadlines,
    GameStore,
    IdempotencyAnswer,
    IdempotencyRecord,
    Moved,
    NewEvent,
    SeatExpired,
    StorageError,
    Stored,
    StoredView,
)

from .answers import RecordedAnswer, decode, encode_accepted, encode_refused
from .clock import ClockAt, ClockSettings, ClockState, after_move, at_deadline, start
from .events import EventFeed
from .jsontext import Fragment, compact, parse
from .kept import GameCopy, KeptCopies
from .listeners import GameListener
from .low_time import next_look_ms, owed_at, told_at_commit
from .outlive import keep, outlives, restore
from .records import NO_BOTS, GameRecord, Pause, Seat, could_be_game_id, create_record
from .refusals import (
    BotsBusy,
    BotsUnavailable,
    GameBusy,
    GameNotFound,
    GameNotStarted,
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    InvalidToken,
    MissingToken,
    NotABot,
    Refusal,
    RuleBroken,
    VersionMismatch,
    no_version,
)
from .takebacks import LastTurn, in_force, last_turn, moves_of, takeback_entry
from .values import PLAIN_SEATING, Committed, Created, Expiry, IdempotencyKey, Seating, VersionCondition
from .views import game_view, history_entry, move_outcome
from .writes import CLOCK_ATTEMPTS, MAX_COMMIT_ATTEMPTS, Unchanged, Write, clock_check, clock_log

T = TypeVar("T")


def seat_of_token(record: GameRecord, token: str | None) -> int:
    """The seat `token` belongs to, or the refusal: no token, or not one of this game's."""
    if token is None:
        raise MissingToken()
    seat = record.seat_of(token)
    if seat is None:
        raise InvalidToken()
    return seat


def recorded_answer(existing: IdempotencyRecord, key: IdempotencyKey) -> str:
    """The answer a key claimed before recorded; IdempotencyKeyReused for another body, IdempotencyKeyInUse while its request runs."""
    if existing.fingerprint != key.fingerprint:
        raise IdempotencyKeyReused()
    if existing.in_progress or existing.answer is None:
        raise IdempotencyKeyInUse()
    return existing.answer


def _replayed(record: GameRecord, moves: list[Move]) -> GameState:
    """The state after `moves` from the record's creation parameters: its seed, or its patch order (create_record keeps one)."""
    state = record.state
    return replay(
        moves,
        seed=state.seed if record.patch_order is None else None,
        patch_order=record.patch_order,
        first_player=state.first_player,
        time_board=state.time_board,
    )


_log = logging.getLogger(__name__)


class GamePlay:
    """Creates games, reads them, and plays moves on them through one store."""

    def __init__(
        self,
        store: GameStore,
        kept: KeptCopies,
        bot_jobs: BotJobs,
        deadlines: Deadlines,
    ):
        self.store = store
        self.kept = kept
        self.bot_jobs = bot_jobs
        self.deadlines = deadlines
        # What hears of each game's moments (listeners.py), in the order registered.
        self.listeners: list[GameListener] = []

    def listen(self, listener: GameListener) -> None:
        """Tell `listener` of every game's moments from now on, after the listeners registered before it."""
        self.listeners.append(listener)

    # --- creating and reading -------------------------------------------

    def create(
        self,
        names: tuple[str, str],
        bots: tuple[str | None, str | None] = NO_BOTS,
        *,
        client: str = "",
        clock: ClockSettings | None = None,
        seating: Seating = PLAIN_SEATING,
        **setup: Any,
    ) -> Created:
        """Set up and store a new game (`setup` as `new_game` takes it; InvalidSetup if wrong).

        `bots`: each seat's bot level id, None for a person (levels are the
        caller's to check). BotsUnavailable when a seat is a bot's and no
        bot worker is alive to play it; BotsBusy when the game is on a
        real-time clock and the live workers already have all the clocked
        bot games they can serve in time (BotJobs.admit_clocked). `client`:
        the address the game's bot jobs are served for. `clock`: the time control, None for none.
        `seating`: the seats' holders, the open seats, the id, the seat tokens of a rematch.
        """
        pending: ClockAt | None = None if clock is None else partial(start, clock)
        if clock is not None and seating.open_for_ms is not None:
            pending = partial(_started_open, clock, seating.open_for_ms)

        if bots != NO_BOTS and not self.bot_jobs.workers_seen():
            raise BotsUnavailable()
        # Each seat as its holder (a player, or none), its bot and a token that acts for it already make it.
        hashes = seating.token_hashes or (None, None)
        first, second = (
            Seat(name, token_hash=token_hash, bot=bot, open=empty)
            if holder is None
            else Seat(
                holder.name,
                token_hash=token_hash,
                bot=bot,
                player_id=holder.id,
                player_hash=holder.token_hash,
                open=empty,
                bot_account=holder.bot,
            )
            for name, bot, holder, empty, token_hash in zip(
                names, bots, seating.holders, seating.open_seats, hashes, strict=True
            )
        )
        record, tokens = create_record(
            new_game(**setup),
            (first, second),
            None,
            clock,
            listed=seating.listed,
            open_until_ms=seating.open_until_ms,
            rated=seating.rated,
            game_id=seating.game_id,
            seat_tokens=seating.seat_tokens,
            tournament=seating.tournament,
            first_move_forfeit=seating.first_move_forfeit,
        )
        at_ms = None if pending is None else self.store.now_ms()
        # A place among the clocked bot games the workers serve; a game with an open
        # seat counts from its first bot job (after the join), not for its time in the lobby.
        counted = clock is not None and clock.realtime and bots != NO_BOTS and True not in seating.open_seats
        if counted and pending is not None and at_ms is not None:
            place_ms = _clocks_until_ms(pending(at_ms)) - at_ms
            if not self.bot_jobs.admit_clocked(record.id, place_ms):
                raise BotsBusy()

        def creation(_absent: None) -> Write[Created]:
            made = record if pending is None else replace(record, clock_now=pending(self.store.now_ms()))
            view = compact(game_view(made, 1))
            text = made.encode()
            clock_now = made.clock_now

            def send(store: GameStore) -> CommitResult:
                return store.create_game(made.id, text, view, clock_check(clock_now), clock_log(clock_now))

            def done(_result: Stored) -> Created:
                # After the game is stored: until this returns nobody knows its id,
                # so a crash or a store error here (the caller gets no 201) leaves a
                # game nobody waits for, never a stalled one. Its deadline is
                # indexed likewise (Write.deadline_ms, just before): a game whose
                # creator never heard of it may outlive its first-move deadline until its TTL.
                self.hand_turn(made, 1, client)
                return Created(made.id, view, tokens)

            return Write(
                made,
                1,
                text,
                send,
                done,
                heard=lambda listener: listener.created(made),
                deadline_ms=None if clock_now is None else clock_now.deadline_ms,
                keep=False,
            )

        return self._written(record.id, creation, None)

    def store_whole(self, record: GameRecord, entries: Sequence[str]) -> Created:
        """Store a finished game made elsewhere whole, its history `entries` with it: a record replayed (record_games.py).

        Nobody plays it, so nobody is told of it (no listener hears it, no
        bot's turn, no clock) and its seats have no tokens.
        """
        version = len(entries) + 1
        view = compact(game_view(record, version))
        self.store.import_game(record.id, record.encode(), view, version, list(entries))
        return Created(record.id, view, [None, None])

    @staticmethod
    def check_id(game_id: str) -> None:
        """Refuse an id the service never issues before the store is asked.

        Such an id names no game, and could only trouble the store: a `}` in
        it would end the key's Redis Cluster hash tag early (CROSSSLOT).
        """
        if not could_be_game_id(game_id):
            raise GameNotFound(game_id)

    def load(self, game_id: str) -> GameCopy:
        """The game as stored now."""
        self.check_id(game_id)
        stored = self.store.load_game(game_id)
        if stored is None and self._restored(game_id):
            stored = self.store.load_game(game_id)
        if stored is None:
            self.kept.drop(game_id)
            raise GameNotFound(game_id)
        return GameCopy.of(stored)

    def _keep_record(self, game_id: str) -> None:
        """Keep the record of a finished player game just written (outlive.py).

        Right after the write, not at expiry: Redis tells of an expiry
        unreliably. The write stands whatever happens here, so its answer
        is given: a store that fails now leaves only the record unkept, told in the log.
        """
        try:
            keep(self.store, game_id)
        except StorageError:
            _log.warning("the record of finished game %s was not kept", game_id, exc_info=True)

    def _restored(self, game_id: str) -> bool:
        """Whether a finished game gone from the store was stored again from its kept record (outlive.py)."""
        return restore(self.store, game_id)

    def view(self, game_id: str) -> StoredView:
        """The Game body as stored, with its version."""
        self.check_id(game_id)
        found = self.store.load_view(game_id)
        if found is None and self._restored(game_id):
            found = self.store.load_view(game_id)
        if found is None:
            raise GameNotFound(game_id)
        return found

    def view_at(self, game_id: str, version: int) -> tuple[int, StoredView]:
        """(current version, the Game body as it was at `version`): stored when current, else replayed.

        A past version is rebuilt from the creation parameters and the moves
        in force after the first `version - 1` entries of the history (a
        takeback's puts back an earlier version's: takebacks.py); its
        `updated_at` is the time its last entry was accepted (GameRecord.advanced
        keeps every entry's).
        """
        stored = self.view(game_id)
        current = stored.version
        if version == current:
            return current, stored
        if version > current:
            raise no_version(current, version)
        record = self.load(game_id).record
        _version, entries = self.history(game_id, 0, version - 2) if version > 1 else (current, [])
        past = _replayed(record, moves_of(in_force(entries)))
        times = record.move_times
        then = replace(
            record,
            updated_at=record.created_at if version == 1 else times[version - 2],
            state=past,
            move_times=times[: version - 1],
            clock_now=self._clock_of_version(game_id, record, version),
            offer=None,  # an offer belongs to the game as it is now, not to a version it was made at
        )
        return current, StoredView(version, compact(game_view(then, version)))

    def _clock_of_version(self, game_id: str, record: GameRecord, version: int) -> ClockState | None:
        """The clock as of `version` of the game whose record (the current version's) this is."""
        if record.clock_now is None:
            return None
        entry = self.store.load_clock(game_id, version)
        return record.clock_now if entry is None else ClockState.from_log(parse(entry))

    def played(self, game_id: str) -> tuple[GameRecord, int, GameState, list[Move]]:
        """(the game as stored, its version, its state before the first move, every move in force at that version)."""
        record = self.load(game_id).record
        version, entries = self.history(game_id)
        return record, version, _replayed(record, []), moves_of(in_force(entries))

    def last_turn(self, game_id: str, game: GameCopy) -> LastTurn | None:
        """The last turn in force in `game` (takebacks.py): what a takeback would undo; None before any move."""
        _version, entries = self.history(game_id, 0, game.version - 2) if game.version > 1 else (0, [])
        return last_turn(in_force(entries[: game.version - 1]))

    def follow(self, game_id: str, after: int | None, idle_seconds: float) -> EventFeed:
        """A feed of the game's events after version `after` (None: from a snapshot); see events.py."""
        self.check_id(game_id)
        return EventFeed.open(self.store, game_id, after, idle_seconds)

    def history(self, game_id: str, start: int = 0, stop: int = -1) -> tuple[int, list[str]]:
        """(version, the stored Moves from index `start` to `stop`, as LRANGE counts)."""
        self.check_id(game_id)
        found = self.store.load_moves(game_id, start, stop)
        if found is None and self._restored(game_id):
            found = self.store.load_moves(game_id, start, stop)
        if found is None:
            raise GameNotFound(game_id)
        return found

    # --- seats ---------------------------------------------------------------

    def seat_of(self, game_id: str, token: str | None) -> int:
        """The seat whose token this is (MissingToken, InvalidToken, GameNotFound otherwise)."""
        return seat_of_token(self.load(game_id).record, token)

    # --- moves ------------------------------------------------------------

    def play_keyed(
        self,
        game_id: str,
        move: Move,
        token: str,
        key: IdempotencyKey,
        *,
        condition: VersionCondition | None = None,
        client: str = "",
        language: str = DEFAULT_LANGUAGE,
    ) -> Committed | RecordedAnswer:
        """`play` under an Idempotency-Key: the first request's answer is recorded, a retry gets it back.

        A refusal is recorded in `language`, the one its first answer speaks.

        The key is claimed in the same round trip as the game is read. A
        key already claimed answers its record (the caller replays it), or
        IdempotencyKeyReused (another body) or IdempotencyKeyInUse (the
        first request still runs); the token is checked first, so a stranger
        learns nothing. The commit records its own answer; a refusal of the
        move is recorded after it (answers.py), and any other end frees the
        key. A store that just failed is not called again: the in-progress
        marker expires on its own.
        """
        game, existing = self.claim_key(game_id, key)
        if existing is not None:
            if game.record.seat_of(token) is None:
                raise InvalidToken()
            return decode(recorded_answer(existing, key))
        try:
            return self.play(game_id, move, token, condition=condition, key=key, start=game, client=client)
        except Refusal as refusal:
            if not refusal.recorded:
                self.release_key(game_id, key)
                raise
            answer = IdempotencyAnswer(key.key, key.fingerprint, encode_refused(refusal, language))
            self.store.record_answer(game_id, answer)
            raise
        except StorageError:
            raise
        except BaseException:
            self.release_key(game_id, key)
            raise

    def claim_key(self, game_id: str, key: IdempotencyKey) -> tuple[GameCopy, IdempotencyRecord | None]:
        """Read the game and claim the key in one round trip: the game, and the key's record if it was claimed before."""
        self.check_id(game_id)
        stored, existing = self.store.load_for_move(game_id, key.key, key.fingerprint)
        if stored is None and self._restored(game_id):
            stored, existing = self.store.load_for_move(game_id, key.key, key.fingerprint)
        if stored is None:
            raise GameNotFound(game_id)
        return GameCopy.of(stored), existing

    def release_key(self, game_id: str, key: IdempotencyKey) -> None:
        """Free a key whose request ended without an answer to record."""
        try:
            self.store.release_key(game_id, key.key)
        except StorageError:
            pass  # the in-progress marker expires on its own

    def play(
        self,
        game_id: str,
        move: Move,
        token: str | None,
        *,
        condition: VersionCondition | None = None,
        key: IdempotencyKey | None = None,
        start: GameCopy | None = None,
        client: str = "",
    ) -> Committed:
        """Judge `move` by the holder of `token` and commit it, or raise the Refusal.

        `key`: a claimed Idempotency-Key (play_keyed), under which the commit
        records its answer. `start`: a copy just read from the store (with a key);
        without it a kept copy is tried first, then the store. `client`: the
        address a bot's job this move queues is served for.
        """

        def move_on(game: GameCopy) -> Write[Committed]:
            seat, state = self._judge(game, move, token, condition)
            clock = self._clock_after(game, state, seat, move)
            return self._move_write(
                game_id, game, state, seat, move, key, client, clock, _as_is, partial(self._too_late, game_id)
            )

        return self.amend(game_id, move_on, start=start, kept=start is None)

    def play_bot(self, game_id: str, game: GameCopy, move: Move, client: str) -> Committed | GameCopy:
        """Commit the move of the bot in turn in `game`, a copy just read from the store.

        Judged by the same checked `apply_move` as a person's move, and
        committed against exactly `game`'s version and revision: Committed,
        or the game as stored now when it is no longer that copy (the job
        was late or repeated, or its revision was renewed). NotABot when a
        person is in turn, RuleBroken for an illegal move. `client`: whose
        share the next bot's job goes to (the job's).
        """
        seat = game.record.state.turn
        if seat is None or game.record.bot_in_turn is None:
            raise NotABot(seat)
        try:
            state = apply_move(game.record.state, move, seat)
        except RuleError as err:
            raise RuleBroken(err) from None
        clock = self._clock_after(game, state, seat, move)

        def move_on(now: GameCopy) -> Write[Committed | GameCopy] | Unchanged[GameCopy]:
            if now is not game:
                return Unchanged(now)  # no longer the copy the move was judged on
            return self._move_write(
                game_id,
                game,
                state,
                seat,
                move,
                None,
                client,
                clock,
                _as_is,
                partial(self._too_late, game_id),
            )

        return self.amend(game_id, move_on, start=game)

    def take_back(
        self, game_id: str, game: GameCopy, turn: LastTurn, client: str, then: Callable[[Committed], T]
    ) -> Write[T]:
        """The commit undoing `turn`, the last turn in force in `game`: a new version whose state is `turn.to_version`'s.

        Committed like a move (`_move_write`), with a takeback's history
        entry (takebacks.py) and a move's event. The clock gives no time
        back: the running seat is charged to the commit, no increment, and
        the seat back in turn runs from it (a correspondence seat has its
        allowance again, as after any move). Its answer is `then` of the
        takeback Committed (its number: the entry's).
        """
        record = game.record
        state = _replayed(record, list(turn.kept))
        clock = None
        if record.clock is not None and record.clock_now is not None:
            clock = partial(
                after_move, record.clock, record.clock_now, turn.seat, state.turn, increment=False
            )
        return self._move_write(
            game_id, game, state, turn.seat, turn, None, client, clock, then, partial(self._too_late, game_id)
        )

    def _too_late(self, game_id: str, result: ClockRefused | SeatExpired) -> NoReturn:
        """A move the store's clock found at or after the deadline is refused as on a finished game (the timeout is applied first)."""
        current = result.current if isinstance(result, ClockRefused) else None
        if current is None:
            raise GameNotFound(game_id)
        raise self._flag_fell(game_id, GameCopy.of(current))

    # --- clocks -------------------------------------------------------------

    @staticmethod
    def _clock_after(game: GameCopy, state: GameState, seat: int, move: Move) -> ClockAt | None:
        """The clock after `seat`'s `move` on `game` left `state` (None: the game has no clock)."""
        record = game.record
        clock = record.clock_now
        if record.clock is None or clock is None:
            return None
        if isinstance(move, Resign):
            # A resignation earns no increment.
            return partial(after_move, record.clock, clock, seat, None, increment=False)
        # No keyword for a move: a partial with one merges a dict at every call.
        return partial(after_move, record.clock, clock, seat, state.turn)

    def expire(self, game_id: str, now_ms: int) -> Expiry:
        """End the game at its deadline if it has come by `now_ms` (the store's time), through the same commit as a move.

        A game whose first move never came is aborted (no winner), unless
        its first move is forfeit (GameRecord.first_move_forfeit: a
        tournament's game, every seat held): then the seat to move loses on
        time, as any other game does for the seat whose clock ran (the other wins).
        Applied once: the compare-and-set on the game's version and
        revision, and the commit's own check of the store's time against
        the stored deadline, let one expiry through whoever else tries.
        Nothing to do (Expiry()) when the game is gone, over, or unclocked;
        `next_look_ms` when its deadline is later than `now_ms`: the
        deadline, or the running seat's low-time notice owed before it,
        which is told here once it is due (low_time.py).
        """
        try:
            game = self.load(game_id)
        except GameNotFound:
            return Expiry()

        def ending_of(game: GameCopy) -> Write[Expiry] | Unchanged[Expiry]:
            record = game.record
            clock = record.clock_now
            if record.clock is None or clock is None or clock.deadline_ms is None or record.state.finished:
                return Unchanged(Expiry())
            deadline_ms = clock.deadline_ms
            if now_ms < deadline_ms:
                owed = owed_at(record)
                if owed is None:
                    return Unchanged(Expiry(next_look_ms=deadline_ms))
                if now_ms < owed:
                    return Unchanged(Expiry(next_look_ms=owed))
                return self._low_time_write(game, now_ms)
            for listener in self.listeners:
                # A vacation the game missed (a process died before pausing it): paused now, not lost.
                held = listener.pause_of(record)
                paused = None if held is None else _paused(record, *held)
                if isinstance(paused, GameRecord):
                    return _pause_write(game, paused, Expiry(next_look_ms=next_look_ms(paused)))
            ending: Move = Abort() if _aborts(record) else Timeout()
            seat = record.state.turn
            assert seat is not None  # not finished
            state = apply_move(record.state, ending)
            # A timeout or an abort must come at or after the stored deadline.
            ended = partial(at_deadline, record.clock, clock)
            reason = "aborted" if isinstance(ending, Abort) else "timeout"

            def applied(committed: Committed) -> Expiry:
                lag = None if committed.at_ms is None else committed.at_ms - deadline_ms
                return Expiry(applied=committed, reason=reason, lag_ms=lag)

            def early(_result: ClockRefused | SeatExpired) -> Expiry:
                # The store's clock says not yet: this caller's reading of it was early.
                return Expiry(next_look_ms=deadline_ms)

            return self._move_write(
                game_id, game, state, seat, ending, None, "", ended, applied, early, "after"
            )

        return self.amend(game_id, ending_of, start=game)

    def _low_time_write(self, game: GameCopy, now_ms: int) -> Write[Expiry]:
        """Tell the running seat's player its time runs low, marking it told in the same compare-and-set (low_time.py).

        No move: the version stays, and so does the Game's body (the told
        seats are not part of it). Then the next look is the deadline.
        """
        clock = game.record.clock_now
        assert clock is not None and clock.running is not None and clock.deadline_ms is not None
        seat, deadline_ms = clock.running, clock.deadline_ms
        record = game.record.low_time_now_told(seat)
        view = compact(game_view(record, game.version))
        write = Write.amended(game, record, view, lambda _stored: Expiry(next_look_ms=deadline_ms))
        write.heard = lambda listener: listener.low_time(record, seat, max(0, deadline_ms - now_ms))
        return write

    def pause(self, game_id: str, player_id: str, since_ms: int, until_ms: int) -> bool:
        """Pause the player's running correspondence clock in the game for its vacation `since_ms`..`until_ms`.

        The deadline moves by the part of the vacation this turn spends in
        it (from the later of the vacation's start and the turn's), and by no
        more however often it is asked: the record keeps the pause
        (GameRecord.pause). Asked again with an earlier `until_ms` (the
        vacation ended early), the deadline moves back by the difference. A
        real-time clock, a finished game, or one whose running seat is not
        the player's is left alone. Whether the game is paused as asked.
        """
        try:
            game = self.load(game_id)
        except GameNotFound:
            return False

        def paused(game: GameCopy) -> Write[bool] | Unchanged[bool]:
            record = _paused(game.record, player_id, since_ms, until_ms)
            if isinstance(record, bool):
                return Unchanged(record)
            return _pause_write(game, record, True)

        return self.amend(game_id, paused, start=game)

    def abort_unjoined(self, game_id: str) -> None:
        """Abort a game without a clock whose open seat's lobby time is up (lobby.py), once; nothing otherwise.

        A clocked one needs no call: its deadline is the lobby's while a seat
        is open, and the timekeepers abort it (`expire`).
        """
        try:
            game = self.load(game_id)
        except GameNotFound:
            return

        def abort(game: GameCopy) -> Write[None] | Unchanged[None]:
            record = game.record
            if record.clock is not None or record.state.finished or record.open_seat is None:
                return Unchanged(None)
            if self.store.now_ms() < record.open_until_ms:
                return Unchanged(None)
            state = apply_move(record.state, Abort())
            seat = record.state.turn
            assert seat is not None  # not finished
            return self._move_write(game_id, game, state, seat, Abort(), None, "", None, _nothing, None)

        self.amend(game_id, abort, start=game)

    def _flag_fell(self, game_id: str, game: GameCopy) -> Refusal:
        """The refusal of a move that reached its commit after the game's deadline; the timeout is applied first.

        Whoever else applies it (a timekeeper, another instance) makes this
        one's try fail harmlessly: the expiry happens once.
        """
        clock = game.record.clock_now
        if clock is not None and clock.deadline_ms is not None:
            try:
                expiry = self.expire(game_id, clock.deadline_ms)
            except (Refusal, StorageError):
                expiry = Expiry()
            if expiry.applied is not None:
                game = self.load(game_id)
        refusal = RuleBroken(GameFinished("the game is finished: the time of the seat in turn ran out"))
        refusal.version = game.version
        return refusal

    def fence(self, game_id: str, game: GameCopy) -> bool:
        """Make every commit prepared against `game` (version and revision) fail from now on.

        Such a commit, should its process ever send it, returns the stored
        game and is judged again (play, play_bot): the retry queues its own
        bot job. Nothing else changes. False when the game is no longer that
        copy (a commit landed first).
        """
        self.check_id(game_id)
        fenced = self.store.renew_revision(game_id, game.version, game.revision)
        if fenced:
            self.kept.drop(game_id)
        return fenced

    @staticmethod
    def _judge(
        game: GameCopy, move: Move, token: str | None, condition: VersionCondition | None
    ) -> tuple[int, GameState]:
        """(seat, state after the move), in the API's order: token, expected version, the move; the Refusal bears `game`'s version."""
        try:
            seat = seat_of_token(game.record, token)
            if game.record.open_seat is not None:
                raise GameNotStarted()
            if condition is not None and not condition.holds(game.version):
                raise VersionMismatch(game.version, condition.source)
            try:
                return seat, apply_move(game.record.state, move, seat)
            except RuleError as err:
                raise RuleBroken(err) from None
        except Refusal as refusal:
            refusal.version = game.version
            raise

    def _move_write(
        self,
        game_id: str,
        game: GameCopy,
        state: GameState,
        seat: int,
        move: Move | LastTurn,
        key: IdempotencyKey | None,
        client: str,
        clock: ClockAt | None,
        then: Callable[[Committed], T],
        refused: Callable[[ClockRefused | SeatExpired], T] | None,
        must_be: str = "before",
    ) -> Write[T]:
        """The commit of `seat`'s `move` on `game`, which left `state`: its answer is `then` of the move Committed.

        `move` is a LastTurn for a takeback of that turn (`take_back`): its history entry is a takeback's.

        With a clock, its values are taken at the store's time as this
        process reckons it (storage/store_time.py), never before the
        version's own: the commit refuses a reckoning too far from the
        store's clock ("skew": `amend` judges it again for the corrected
        one), and judges the deadline itself: `must_be` is the side of the
        stored deadline the commit must fall on ("before": a move; "after": a
        timeout or an abort), and `refused` answers it otherwise. The
        deadline index is lowered first when the new deadline may come
        sooner than the version's. A move that ends the game is settled by
        the listeners in this commit (GameListener.settle).
        """
        previous = game.record.clock_now
        ticking = hint = told = None
        before = game.record
        if clock is not None and previous is not None:
            ticking = clock(max(self.store.now_ms(), previous.since_ms))
        record = before.advanced(state, ticking)
        if ticking is not None:
            record, told = told_at_commit(record)
            # The index holds no later than the version's next look (its
            # deadline, or a low-time notice owed before it: low_time.py):
            # only a look that comes sooner needs it lowered (the mover had
            # more time than the seat that gets the turn). A seat moving on
            # or a correspondence move only pushes it back.
            due, was_due = next_look_ms(record), next_look_ms(before)
            if due is not None and (was_due is None or due < was_due):
                hint = due
        if state.finished:
            # The game's end: what its listeners decide with it is stored in this commit.
            for listener in self.listeners:
                record = listener.settle(record)
        version = game.version + 1
        # Its place in the history: after a takeback, more than the moves played (takebacks.py).
        number = game.version
        game_body = game_view(record, version)
        view = compact(game_body)
        if isinstance(move, LastTurn):
            entry = takeback_entry(number, seat, move.to_version)
        else:
            entry = history_entry(number, seat, move, move_outcome(before.state, state, seat))
        # The event goes into the same atomic commit: no move without its event.
        result_body = game_body["result"]
        event = NewEvent(
            compact({"move": Fragment(entry), "game": Fragment(view)}),
            compact(result_body) if result_body is not None else None,
        )
        self.hand_turn(record, version, client)
        text = record.encode()
        answer = (
            IdempotencyAnswer(key.key, key.fingerprint, encode_accepted(version, number, view))
            if key is not None
            else None
        )
        commit = Commit(
            game_id=game_id,
            version=game.version,
            revision=game.revision,
            state=text,
            view=view,
            move=entry,
            event=event,
            answer=answer,
            clock=clock_check(ticking, must_be),
            clock_log=clock_log(ticking),
            deadline_hint=hint,
        )

        def done(result: Stored) -> T:
            at_ms = result.now_ms
            if at_ms is not None and ticking is not None:
                at_ms = max(at_ms, ticking.since_ms)  # the time the store's check counted it at
            return then(Committed(game_id, version, number, view, at_ms))

        return Write(
            record,
            version,
            text,
            lambda store: store.commit_move(commit),
            done,
            heard=(
                (lambda listener: listener.committed(before, record, version, result_body))
                if told is None
                else partial(_heard_with_low_time, before, record, version, result_body, told)
            ),
            refused=refused,
        )

    # --- the compare-and-set ------------------------------------------------

    def amend(
        self,
        game_id: str,
        change: Callable[[GameCopy], Write[T] | Unchanged[T]],
        *,
        start: GameCopy | None = None,
        kept: bool = False,
    ) -> T:
        """Change the stored game by compare-and-set: `change` judges a copy of it, and judges again the
        game as stored now whenever another change landed first.

        `change` returns the Write to make, or Unchanged with the answer when
        nothing is to be written; a Refusal it raises is the answer, but on a copy this
        process kept (`kept`: one is tried first), which is never refused
        on: that is judged again on the game read from the store. `start`: a
        copy just read (None: the kept one or the store's). Once stored, the
        copy written is kept, a clock it started has its deadline indexed,
        its answer is made (Write.done) and the listeners hear of it
        (Write.heard). GameNotFound when the game is gone, GameBusy after
        MAX_COMMIT_ATTEMPTS lost races (or CLOCK_ATTEMPTS refusals of one
        copy's reckoning of the store's time).
        """
        self.check_id(game_id)
        game = start
        from_kept = False
        if game is None and kept:
            game = self.kept.get(game_id)
            from_kept = game is not None
        if game is None:
            game = self.load(game_id)
        return self._written(game_id, change, game, from_kept)

    def _written(
        self,
        game_id: str,
        change: Callable[[Any], Write[T] | Unchanged[T]],
        game: GameCopy | None,
        from_kept: bool = False,
    ) -> T:
        """`amend` from `game` (None: a game not stored yet, whose creation `change` writes)."""
        races = skews = 0
        while True:
            try:
                step = change(game)
            except Refusal:
                if not from_kept:
                    raise
                game, from_kept = self.load(game_id), False
                races += 1
                if races == MAX_COMMIT_ATTEMPTS:
                    raise GameBusy() from None
                continue
            if isinstance(step, Unchanged):
                return step.answer
            result = step.send(self.store)
            if isinstance(result, Stored):
                if step.keep:
                    self.kept.put(game_id, GameCopy(step.version, result.revision, step.record), step.text)
                if outlives(step.record):
                    self._keep_record(game_id)
                if step.deadline_ms is not None:
                    self.deadlines.schedule(game_id, step.deadline_ms)
                answer = step.done(result)
                if step.heard is not None:
                    for listener in self.listeners:
                        step.heard(listener)
                return answer
            if isinstance(result, ClockRefused) and result.reason is ClockRefusal.SKEW:
                # Written for a reckoning of the store's time that the refusal corrected:
                # the same copy is judged again for the corrected one.
                skews += 1
                if skews == CLOCK_ATTEMPTS:
                    raise GameBusy()
                continue
            if isinstance(result, ClockRefused | SeatExpired) and step.refused is not None:
                return step.refused(result)
            current = result.current if isinstance(result, Moved | ClockRefused) else None
            if current is None:
                self.kept.drop(game_id)
                raise GameNotFound(game_id)
            game, from_kept, skews = GameCopy.of(current), False, 0
            races += 1
            if races == MAX_COMMIT_ATTEMPTS:
                raise GameBusy()

    def now_ms(self) -> int:
        """The store's time as this process reckons it (storage/store_time.py): what a clock started now is written for."""
        return self.store.now_ms()

    def hand_turn(self, record: GameRecord, version: int, client: str) -> None:
        """Queue the job of the bot in turn in `record` at `version`, if a bot is in turn, in `client`'s share.

        Called before the commit that stores `record`: should this process
        die between the two, the job is there and the worker finds the
        game still before `version` and fences the commit (`fence`); should
        this process merely be slow, the fenced commit is retried and
        queues a new job. Games with no bot in turn pay nothing here, but for
        the end of a clocked bot game, whose place the workers get back; nor
        do games with a seat still open (a new game `[bot, open]`): the join
        that fills the last seat hands the bot its turn (lobby.py), the
        same way round as a commit.
        """
        if record.bot_in_turn is not None:
            clock, settings = record.clock_now, record.clock
            # A bot on a real-time clock is served by its flag time, first (bot_jobs.py).
            flag_ms = (
                None if settings is None or not settings.realtime or clock is None else clock.deadline_ms
            )
            self.bot_jobs.enqueue(
                record.id,
                version,
                person_waiting=record.has_person,
                client=client,
                flag_ms=flag_ms,
                clocks_until_ms=None if flag_ms is None or clock is None else _clocks_until_ms(clock),
            )
        elif record.state.finished and record.has_bot and record.clock is not None and record.clock.realtime:
            # Its place among the clocked bot games the workers serve is free at once (admit_clocked).
            self.bot_jobs.forget_clocked(record.id)


def _paused(record: GameRecord, player_id: str, since_ms: int, until_ms: int) -> GameRecord | bool:
    """The record with the player's running correspondence clock paused for `since_ms`..`until_ms` (GamePlay.pause).

    True: paused so already; False: nothing to pause (no such clock runs for the player).
    """
    clock, settings = record.clock_now, record.clock
    if (
        settings is None
        or settings.realtime
        or clock is None
        or clock.running is None
        or clock.deadline_ms is None
        or record.seats[clock.running].player_id != player_id
    ):
        return False
    seat, earlier = clock.running, record.pause
    if earlier is not None and (earlier.seat, earlier.since_ms, earlier.until_ms) == (
        seat,
        since_ms,
        until_ms,
    ):
        return True
    # What this vacation gave the turn before (asked again: ended early) is taken back first.
    given = earlier.shift_ms if earlier is not None and earlier.since_ms == since_ms else 0
    shift = max(0, until_ms - max(since_ms, clock.since_ms))
    return replace(
        record,
        clock_now=clock._replace(deadline_ms=clock.deadline_ms - given + shift),
        pause=Pause(seat, since_ms, until_ms, shift),
    )


def _pause_write(game: GameCopy, record: GameRecord, answer: T) -> Write[T]:
    """The amend that stores `record`, a pause of `game`'s clock: its deadline moved, and indexed at its next look."""
    clock = record.clock_now
    assert clock is not None and clock.deadline_ms is not None
    view = compact(game_view(record, game.version))
    write = Write.amended(game, record, view, lambda _stored: answer, deadline_ms=clock.deadline_ms)
    # ZADD LT: only a look sooner lowers the entry, as an early end's does.
    write.deadline_ms = next_look_ms(record)
    return write


def _heard_with_low_time(
    before: GameRecord, record: GameRecord, version: int, result: Any, seat: int, listener: GameListener
) -> None:
    """What listeners hear of a commit that told its running seat its time runs low (low_time.told_at_commit)."""
    listener.committed(before, record, version, result)
    clock = record.clock_now
    assert clock is not None and clock.deadline_ms is not None
    listener.low_time(record, seat, clock.deadline_ms - clock.since_ms)


def _as_is(committed: Committed) -> Committed:
    return committed


def _nothing(_committed: Committed) -> None:
    return None


def _aborts(record: GameRecord) -> bool:
    """Whether the game at its deadline is aborted (no first move came) rather than lost on time.

    Only the game's first move has a deadline of its own (clock.start): from
    it on, each seat's time is its bank (or a correspondence move's
    allowance), so the second player's first move, missed, is an ordinary
    timeout. A seat still open never forfeits: nobody sat there to lose.
    """
    return record.state.moves_played == 0 and (not record.first_move_forfeit or record.open_seat is not None)


def _started_open(settings: ClockSettings, open_for_ms: int, now_ms: int) -> ClockState:
    """The clock of a game created at `now_ms` with a seat open: its only deadline is the seat's (Seating.open_for_ms)."""
    return start(settings, now_ms)._replace(deadline_ms=now_ms + open_for_ms)


def _clocks_until_ms(clock: ClockState) -> int:
    """The latest a real-time game's clocks could run from `clock` without another move: one bank after the other.

    Before the first move no bank runs until the deadline for it.
    """
    start_ms = clock.since_ms if clock.running is not None or clock.deadline_ms is None else clock.deadline_ms
    return start_ms + clock.remaining_ms[0] + clock.remaining_ms[1]
