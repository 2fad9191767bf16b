"""The webhooks' storage (storage/webhooks.py): the notice's lookup, the queue's cap, leases and drops."""

from __future__ import annotations

import time

from service.games.jsontext import compact
from service.storage import Storage
from service.storage.webhooks import QueuedDelivery

PLAYER = "p" * 22


def _add(storage: Storage, hook_id: str, events: tuple[str, ...]) -> None:
    assert storage.webhooks.add(PLAYER, hook_id, compact({"id": hook_id}), events, most=5)


def test_a_notice_finds_each_webhook_that_wants_it_once_as_its_most_particular_event(storage: Storage):
    players = storage.players
    assert players.notice(PLAYER, "game_start", "{}", ("tournament_round", "game_start")).hooks == []
    _add(storage, "both", ("game_start", "tournament_round"))
    _add(storage, "starts", ("game_start",))
    _add(storage, "turns", ("your_turn",))
    found = players.notice(PLAYER, "game_start", "{}", ("tournament_round", "game_start")).hooks
    assert found == [("both", "tournament_round"), ("starts", "game_start")]
    assert players.notice(PLAYER, "game_start", "{}", ("game_start",)).hooks == [
        ("both", "game_start"),
        ("starts", "game_start"),
    ]
    assert players.notice(PLAYER, "challenge_declined", "{}").hooks == []
    assert storage.webhooks.remove(PLAYER, "both", ("game_start", "tournament_round"))
    assert players.notice(PLAYER, "game_start", "{}", ("tournament_round", "game_start")).hooks == [
        ("starts", "game_start")
    ]
    assert not storage.webhooks.remove(PLAYER, "both", ("game_start",))


def test_a_player_has_at_most_its_cap_of_webhooks(storage: Storage):
    for number in range(2):
        assert storage.webhooks.add(PLAYER, f"h{number}", "{}", ("your_turn",), most=2)
    assert not storage.webhooks.add(PLAYER, "h2", "{}", ("your_turn",), most=2)
    assert sorted(storage.webhooks.records(PLAYER)) == ["h0", "h1"]


def _deliveries(hook_id: str, count: int, first: int = 0) -> list[QueuedDelivery]:
    return [QueuedDelivery(f"{hook_id}/{n}-0", hook_id, f"job {n}") for n in range(first, first + count)]


def test_past_its_cap_a_webhooks_oldest_deliveries_are_dropped(storage: Storage):
    book = storage.webhooks
    assert book.enqueue(_deliveries("h", 3), most_pending=3) == 0
    assert book.enqueue(_deliveries("h", 2, first=3), most_pending=3) == 2
    taken = book.take(10, lease_ms=60_000)
    assert sorted(delivery.job for delivery in taken) == ["job 2", "job 3", "job 4"]
    assert {delivery.attempt for delivery in taken} == {1}


def test_a_lapsed_lease_gives_the_delivery_again_with_its_try_counted(storage: Storage):
    book = storage.webhooks
    book.enqueue(_deliveries("h", 1), most_pending=10)
    [first] = book.take(10, lease_ms=100)
    assert book.take(10, lease_ms=100) == []
    time.sleep(0.15)
    [again] = book.take(10, lease_ms=100)
    assert (again.id, again.job, again.attempt) == (first.id, first.job, 2)
    book.retry_at(again.id, "h", 0, tried=False)
    [put_off] = book.take(10, lease_ms=100)
    assert put_off.attempt == 2  # a try put off is not counted
    book.done(put_off.id, "h")
    assert book.pending() == 0 and book.next_due_ms() is None


def test_a_removed_webhooks_pending_deliveries_are_dropped(storage: Storage):
    book = storage.webhooks
    book.enqueue(_deliveries("gone", 3) + _deliveries("kept", 1), most_pending=10)
    assert book.drop_hook("gone") == 3
    assert [delivery.id for delivery in book.take(10, lease_ms=1000)] == ["kept/0-0"]
