"""The embedded Redis: Unix socket only, append-only persistence, clean stop, reuse."""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path

import pytest
from redis import Redis

from service.config import ConfigError, Settings
from service.storage import StoredGame, open_store
from service.storage.embedded import EmbeddedRedis, find_redis_server
from service.storage.redis_process import answers_ping


def config(url: str, name: str) -> str:
    """One setting of the server at url, as CONFIG GET reports it."""
    with Redis.from_url(url, decode_responses=True) as client:
        return client.config_get(name)[name]


def server_pid(url: str) -> int:
    with Redis.from_url(url) as client:
        return int(client.info("server")["process_id"])


def test_find_redis_server_names_an_executable() -> None:
    binary = find_redis_server()
    assert os.path.isfile(binary) and os.access(binary, os.X_OK)


def test_games_survive_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = EmbeddedRedis(data)
    url = first.start()
    try:
        store = open_store(url)
        store.create_game("g1", "s1", "v1")
        store.commit_move("g1", 1, "s2", "v2", "m1", "0:key", "fp", "answer")
        store.close()
    finally:
        first.stop()
    assert not answers_ping(url)
    assert (data / "appendonly.aof").is_file()

    second = EmbeddedRedis(data)
    assert second.start() == url
    try:
        store = open_store(url)
        assert store.load_game("g1") == StoredGame(2, "s2")
        assert store.load_view("g1") == (2, "v2")
        assert store.load_moves("g1") == (2, ["m1"])
        assert store.load_for_move("g1", "0:key", "fp")[1].answer == "answer"
        store.close()
    finally:
        second.stop()


def test_it_listens_only_on_a_socket_in_the_data_dir_and_appends_every_second(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as redis:
        assert redis.url == f"unix://{tmp_path / 'redis.sock'}"
        assert config(redis.url, "port") == "0"
        assert config(redis.url, "appendonly") == "yes"
        assert config(redis.url, "appendfsync") == "everysec"
        assert config(redis.url, "dir") == str(tmp_path)
        assert (tmp_path / "redis.sock").is_socket()
    assert not answers_ping(redis.url)


def test_its_memory_is_bounded_and_full_means_refusing_writes_not_evicting(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "default") as redis:
        assert config(redis.url, "maxmemory") == str(256 * 1024 * 1024)
        assert config(redis.url, "maxmemory-policy") == "noeviction"
    with EmbeddedRedis(tmp_path / "set", maxmemory="64mb") as redis:
        assert config(redis.url, "maxmemory") == str(64 * 1024 * 1024)


def test_the_memory_setting_takes_redis_sizes_and_refuses_anything_else() -> None:
    assert Settings().embedded_redis_maxmemory == "256mb"
    assert Settings.from_env({"EMBEDDED_REDIS_MAXMEMORY": " 2GB "}).embedded_redis_maxmemory == "2gb"
    assert Settings.from_env({"EMBEDDED_REDIS_MAXMEMORY": "0"}).embedded_redis_maxmemory == "0"
    for wrong in ("lots", "1.5gb", "-1", "256 mb"):
        with pytest.raises(ConfigError, match="EMBEDDED_REDIS_MAXMEMORY"):
            Settings.from_env({"EMBEDDED_REDIS_MAXMEMORY": wrong})


def test_a_server_still_running_on_the_socket_is_reused_and_left_running(tmp_path: Path) -> None:
    owner = EmbeddedRedis(tmp_path)
    url = owner.start()
    try:
        pid = server_pid(url)
        borrower = EmbeddedRedis(tmp_path)
        assert borrower.start() == url
        assert server_pid(url) == pid
        borrower.stop()
        assert answers_ping(url)
    finally:
        owner.stop()
    assert not answers_ping(url)


def test_a_data_dir_too_deep_for_a_socket_path_falls_back_to_a_short_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    with caplog.at_level(logging.WARNING, logger="service.storage.embedded"):
        redis = EmbeddedRedis(deep)
    assert len(os.fsencode(redis.socket_path)) <= 100
    assert redis.socket_path.parent != deep
    assert str(redis.socket_path) in caplog.text
    with redis:
        store = open_store(redis.url)
        store.create_game("g1", "s", "v")
        assert store.load_view("g1") == (1, "v")
        store.close()
        assert config(redis.url, "dir") == str(deep)
    assert not redis.socket_path.exists()


def test_a_socket_left_by_a_killed_server_does_not_block_the_next_start(tmp_path: Path) -> None:
    crashed = EmbeddedRedis(tmp_path)
    url = crashed.start()
    replacement = EmbeddedRedis(tmp_path)
    try:
        os.kill(server_pid(url), signal.SIGKILL)
        crashed.stop()  # reaps the killed child; SHUTDOWN finds nobody
        assert (tmp_path / "redis.sock").exists() and not answers_ping(url)

        assert replacement.start() == url
        assert answers_ping(url)
    finally:
        replacement.stop()
        crashed.stop()
