"""Two gunicorn processes on one Redis, many clients racing on the same games.

Clients in threads hit both instances with moves picked from the legal-moves
list they just read: some with If-Match (201 or 412, nothing else), some
without (judged against whatever the game is by then: 201, 409 or 422), some
with an Idempotency-Key and a retry through the other instance that must get
the first answer again, some sending the same keyed request to both instances
at once (one applies it; the other gets its answer or 409
idempotency_key_in_use). Afterwards no version was won twice, every
acknowledged move is in the history with the state its 201 showed, no move
is in the history that nobody got a 201 for, and every game replays from its
history to its stored state.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

from tests.support.concurrency import run_together
from tests.support.history_check import assert_acks_in_history, assert_history_replays
from tests.support.live_service import LiveService
from tests.support.service_client import Ack, ServiceClient, choose_move

GAMES = 3
CLIENTS = 8
ATTEMPTS_PER_CLIENT = 12
MODES = ("if_match", "plain", "idempotent", "duplicate")


def test_racing_clients_on_two_instances_keep_every_game_intact(redis_url, tmp_path):
    with (
        LiveService(redis_url, tmp_path / "a.log") as first,
        LiveService(redis_url, tmp_path / "b.log") as second,
    ):
        urls = [first.url, second.url]
        with ServiceClient(urls[0]) as setup:
            games = dict(setup.create_game(seed) for seed in range(100, 100 + GAMES))
        acks: list[Ack] = []
        statuses: dict[str, list[int]] = {mode: [] for mode in MODES}
        lock = threading.Lock()

        def contender(n: int) -> None:
            rng = random.Random(n)
            with ServiceClient(urls[n % 2]) as mine, ServiceClient(urls[(n + 1) % 2]) as other:
                for attempt in range(ATTEMPTS_PER_CLIENT):
                    mode = MODES[(n + attempt) % len(MODES)]
                    _, choice = choose_move(mine, rng.choice(sorted(games)), rng)
                    if choice is None:
                        continue  # that game is over
                    token = games[choice.game_id][choice.seat]
                    if mode == "if_match":
                        resp = mine.move(choice, token, if_match=choice.version)
                        # Legal at that version: it applies there or the version moved on.
                        assert resp.status_code in (201, 412), resp.text
                    elif mode == "plain":
                        resp = mine.move(choice, token)
                        # Judged against the game as it is now, which another client may have moved.
                        assert resp.status_code in (201, 409, 422), resp.text
                    else:
                        key = f"client{n}-{attempt}"
                        if_match = choice.version if rng.random() < 0.5 else None
                        if mode == "idempotent":
                            resp = mine.move(choice, token, if_match=if_match, key=key)
                        else:
                            resp = _send_to_both_at_once(mine, other, choice, token, if_match, key)
                        assert resp.status_code in (201, 409, 412, 422), resp.text
                        # A client that lost the answer retries elsewhere, If-Match now stale or absent.
                        retry = other.move(choice, token, if_match=choice.version + 100, key=key)
                        _assert_same_answer(retry, resp)
                    with lock:
                        statuses[mode].append(resp.status_code)
                        if resp.status_code == 201:
                            acks.append(Ack.of(choice, resp))

        run_together(CLIENTS, contender)

        assert 412 in statuses["if_match"], "the clients never raced on a version"
        assert acks, "no move was ever accepted"
        with ServiceClient(urls[1]) as reader:
            stored = {game_id: assert_history_replays(reader, game_id) for game_id in games}
            for game_id, (_game, history) in stored.items():
                acked = [ack for ack in acks if ack.game_id == game_id]
                # Every stored move was acknowledged to exactly one client: none came from nowhere.
                assert len(history) == len(acked), game_id
        assert_acks_in_history(acks, stored)


def _assert_same_answer(one, other) -> None:
    assert (one.status_code, one.content) == (other.status_code, other.content)
    assert one.headers["ETag"] == other.headers["ETag"]


def _in_use(resp) -> bool:
    return resp.status_code == 409 and resp.json()["code"] == "idempotency_key_in_use"


def _send_to_both_at_once(mine, other, choice, token, if_match, key):
    """The same keyed request through both instances at once; the answer it got."""
    with ThreadPoolExecutor(max_workers=2) as pair:
        sent = [
            pair.submit(client.move, choice, token, if_match=if_match, key=key) for client in (mine, other)
        ]
        answers = [future.result() for future in sent]
    # Whichever claimed the key answers; the other waits for nothing: it gets
    # the recorded answer, or 409 while the first is still running.
    real = [resp for resp in answers if not _in_use(resp)]
    assert real, "both copies told the key was in use: nobody ran the request"
    if len(real) == 2:
        _assert_same_answer(*real)
    return real[0]
