"""Real PostgreSQL and Redis servers for the tests, from Debian's packages, on loopback.

Each server runs in a temporary folder of its own, on a free port of 127.0.0.1, for one test
session, and is stopped afterwards. `make test` installs the packages when they are missing;
without them these fixtures fail (they never fall back to a mock).

PostgreSQL refuses to run as root, so as root it runs as the ``postgres`` user that Debian's
package creates.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

_START_SECONDS = 120
_databases = itertools.count(1)


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    if not found:
        pytest.fail("PostgreSQL is not installed: `make test` installs Debian's postgresql")
    return Path(found[-1]).parent


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _wait_until_listening(port: int, server: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + _START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"{what} stopped at start-up with status {server.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.05)  # polling for an event (the port open), not waiting out time
    raise RuntimeError(f"{what} did not start listening on port {port}")


def _wait_until_accepting(port: int, server: subprocess.Popen[bytes]) -> None:
    """Wait until PostgreSQL takes connections: its port opens before it has finished
    starting up ("the database system is starting up")."""
    import psycopg

    deadline = time.monotonic() + _START_SECONDS
    while True:
        try:
            psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/postgres").close()
            return
        except psycopg.OperationalError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.05)  # polling for an event (the server ready), not waiting out time


class PostgresServer:
    """A PostgreSQL server in a temporary folder of its own, on a free port of 127.0.0.1;
    :meth:`stop` and :meth:`start` again keep its port and its data."""

    def __init__(self) -> None:
        self.binaries = _postgres_bin()
        self.folder = Path(tempfile.mkdtemp(prefix="sosgame-postgres-"))
        self.data = self.folder / "data"
        if os.geteuid() == 0:
            server_user = pwd.getpwnam("postgres")
            os.chown(self.folder, server_user.pw_uid, server_user.pw_gid)
        initdb = [str(self.binaries / "initdb"), "-D", str(self.data), "-U", "postgres"]
        subprocess.run(
            _as_server_user(
                [*initdb, "-A", "trust", "--no-sync", "-E", "UTF8", "--locale", "C.UTF-8"]
            ),
            check=True,
            capture_output=True,
            timeout=_START_SECONDS,
        )
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}"
        """The server's URL, without a database."""
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server; returns once it takes connections."""
        options = [
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            f"unix_socket_directories={self.folder}",
        ]
        options += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "max_connections=200"]
        command = [str(self.binaries / "postgres"), "-D", str(self.data), "-p", str(self.port)]
        self.process = subprocess.Popen(
            _as_server_user([*command, *options]),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_until_listening(self.port, self.process, "PostgreSQL")
        _wait_until_accepting(self.port, self.process)

    def stop(self) -> None:
        """Stop the server (a fast shutdown: open connections are cut)."""
        if self.process is not None:
            stop = [str(self.binaries / "pg_ctl"), "stop", "-D", str(self.data), "-m", "fast"]
            subprocess.run(
                _as_server_user(stop), check=True, capture_output=True, timeout=_START_SECONDS
            )
            self.process.wait(timeout=60)
            self.process = None

    def remove(self) -> None:
        """Stop the server and delete its data."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def running_postgres() -> Iterator[str]:
    """A PostgreSQL server, running until the block ends: its URL, without a database."""
    with stoppable_postgres() as server:
        yield server.url


@contextlib.contextmanager
def stoppable_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of its own, started, that the block may stop and start again."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.remove()


def new_postgres_database(server_url: str, name: str) -> str:
    """Create database ``name`` on a running server; its URL."""
    import psycopg

    plain = server_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(f"{plain}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url}/{name}"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A running PostgreSQL: the URL of its server, without a database name."""
    with running_postgres() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A new, empty database on the session's PostgreSQL, for one test."""
    return new_postgres_database(postgres_server, f"sosgame_test_{os.getpid()}_{next(_databases)}")


_redis_databases = itertools.count(0)
REDIS_DATABASES = 16


@contextlib.contextmanager
def running_redis(port: int | None = None) -> Iterator[str]:
    """A Redis server (on ``port``, or a free one), running until the block ends: its URL,
    without a database number."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        pytest.fail("Redis is not installed: `make test` installs Debian's redis-server")
    folder = Path(tempfile.mkdtemp(prefix="sosgame-redis-"))
    port = free_port() if port is None else port
    options = ["--save", "", "--appendonly", "no", "--databases", str(REDIS_DATABASES)]
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until_listening(port, server, "Redis")
        yield f"redis://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    """A running Redis: its URL, without a database number."""
    with running_redis() as url:
        yield url


def new_redis_database(server_url: str) -> str:
    """The next database of a running Redis server, emptied: its URL."""
    import redis

    url = f"{server_url}/{next(_redis_databases) % REDIS_DATABASES}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    return url


@pytest.fixture
def redis_url(redis_server: str) -> str:
    """A Redis database of the session's server, emptied, for one test."""
    return new_redis_database(redis_server)
