"""The embedded Redis: Unix socket only, append-only persistence, clean stop, reuse."""

from __future__ import annotations

import logging
import os
import signal
import stat
from pathlib import Path

import pytest
from redis import Redis

from service.config import ConfigError, Settings
from service.run.embedded import (
    VERSION_FILE,
    DataDirInUse,
    DataDirRefused,
    EmbeddedRedis,
    find_redis_server,
)
from service.run.redis_process import answers_ping, redis_server_version
from service.storage import StoredGame, StoredView, open_store
from tests.support.store_calls import commit


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
        commit(store, "g1", 1, "s2", "v2", "m1", "0:key", "fp", "answer")
        store.close()
    finally:
        first.stop()
    assert not answers_ping(url)
    # Where the append-only file lives depends on the server: Redis 7 keeps
    # a multi-part one in appendonlydir/, Redis 6 one appendonly.aof.
    if redis_server_version(find_redis_server()) >= (7, 0, 0):
        assert (data / "appendonlydir").is_dir()
    else:
        assert (data / "appendonly.aof").is_file()

    second = EmbeddedRedis(data)
    assert second.start() == url
    try:
        store = open_store(url)
        assert store.load_game("g1") == StoredGame(2, "s2")
        assert store.load_view("g1") == StoredView(2, "v2")
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


def test_a_second_claim_on_the_data_dir_is_refused_naming_the_holder(tmp_path: Path) -> None:
    owner = EmbeddedRedis(tmp_path)
    url = owner.start()
    try:
        pid = server_pid(url)
        with pytest.raises(DataDirInUse, match=rf"pid {os.getpid()}\b"):
            EmbeddedRedis(tmp_path).start()
        assert server_pid(url) == pid
    finally:
        owner.stop()
    assert not answers_ping(url)
    with EmbeddedRedis(tmp_path):  # released with the stop
        pass


def test_a_server_left_running_on_the_socket_is_shut_down_before_the_next_start(tmp_path: Path) -> None:
    # As a service killed where nothing stops its children would leave it.
    leftover = EmbeddedRedis(tmp_path)
    url = leftover.start()
    leftover.release()
    old_pid = server_pid(url)
    try:
        with EmbeddedRedis(tmp_path) as redis:
            assert server_pid(redis.url) != old_pid
        assert not leftover._process.running
    finally:
        leftover.stop()


def test_a_data_dir_too_deep_for_a_socket_path_gets_a_private_socket_dir(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    with caplog.at_level(logging.WARNING, logger="service.run.embedded"):
        with EmbeddedRedis(deep) as redis:
            private = redis.socket_path.parent
            assert len(os.fsencode(redis.socket_path)) <= 100
            assert private != deep
            assert stat.S_IMODE(private.stat().st_mode) == 0o700
            assert private.stat().st_uid == os.getuid()
            assert str(redis.socket_path) in caplog.text
            store = open_store(redis.url)
            store.create_game("g1", "s", "v")
            assert store.load_view("g1") == StoredView(1, "v")
            store.close()
            assert config(redis.url, "dir") == str(deep)
    assert not private.exists()


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


def _version() -> str:
    return ".".join(str(part) for part in redis_server_version(find_redis_server()))


def test_the_version_that_ran_on_the_data_dir_is_recorded_and_an_older_data_dir_upgraded(
    tmp_path: Path,
) -> None:
    (tmp_path / VERSION_FILE).write_text("5.0.0\n")
    with EmbeddedRedis(tmp_path) as redis:
        assert answers_ping(redis.url)
    assert (tmp_path / VERSION_FILE).read_text() == f"{_version()}\n"


def test_a_data_dir_of_redis_7_without_a_record_is_refused_by_redis_6(tmp_path: Path, monkeypatch) -> None:
    # Redis 6 would not look in appendonlydir/ and start empty. The stand-in
    # only answers --version: the check refuses before anything runs it.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    old = bin_dir / "redis-server"
    old.write_text("#!/bin/sh\necho 'Redis server v=6.2.14 sha=00000000:0 malloc=libc bits=64'\n")
    old.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    data = tmp_path / "data"
    (data / "appendonlydir").mkdir(parents=True)
    with pytest.raises(DataDirRefused, match=r"Redis 7 or newer .*appendonlydir.* 6\.2\.14"):
        EmbeddedRedis(data).start()
    assert not (data / VERSION_FILE).exists()
