"""Helpers shared by the web app's tests: an app on a fresh database with chosen limits,
ending a game by resigning, and a clock the test moves on by hand."""

from __future__ import annotations

import asyncio
import json
import os
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sosgame.web import create_app
from sosgame.web.config import ServerLimits
from sosgame.web.live import clock as clocks
from sosgame.web.tournaments.schedule import Scheduled

Message = dict[str, Any]


class Seat:
    """A WebSocket connection with helpers to send and to wait for a message."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket

    def send(self, **message: Any) -> None:
        self.socket.send_text(json.dumps({"v": 1, **message}))

    def wait(self, kind: str, until: Callable[[Message], bool] = lambda _: True) -> Message:
        for _ in range(50):
            message: Message = self.socket.receive_json()
            if message["type"] == kind and until(message):
                return message
        raise AssertionError(f"no {kind!r} message arrived")

    def state(self, until: Callable[[Message], bool] = lambda _: True) -> Message:
        game: Message = self.wait("state", lambda m: until(m["game"]))["game"]
        return game

    def error(self) -> Message:
        return self.wait("error")


class FakeTime(clocks.Time):
    """The server's time as the test sets it: it stands still until :meth:`advance`, and a
    timer that sleeps on it wakes (within a few milliseconds) once it has been advanced
    past the timer's deadline."""

    def __init__(self) -> None:
        self.now = time.time_ns() // 1_000_000

    def now_ms(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)

    async def sleep(self, seconds: float) -> None:
        # Only a short pause of the event loop: the caller checks the fake time again.
        await asyncio.sleep(0.005)

    @classmethod
    def install(cls, monkeypatch: pytest.MonkeyPatch) -> FakeTime:
        """A fake time in the server's place for the rest of the test."""
        fake = cls()
        monkeypatch.setattr(clocks, "TIME", fake)
        return fake


@contextmanager
def app_client(
    database: Path, *, schedule: tuple[Scheduled, ...] = (), **limits: Any
) -> Iterator[TestClient]:
    """A client of a running app on the SQLite file ``database`` (computer moves in a
    thread), with these :class:`ServerLimits`, and none of the server's own scheduled
    tournaments unless ``schedule`` sets them."""
    for name in ("password_time_cost", "password_memory_kib"):
        cost = os.environ.get(f"SOSGAME_{name.upper()}")  # the tests' cheap hashes
        if cost is not None:
            limits.setdefault(name, int(cost))
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(
        f"sqlite:///{database}",
        computer=executor,
        computer_pause=0.01,
        server_limits=ServerLimits(**limits),
        schedule=schedule,
    )
    try:
        with TestClient(app) as client:
            yield client
    finally:
        executor.shutdown()


def resign(client: TestClient, game_id: str, token: str) -> None:
    """The first seat ``token`` opens resigns, which ends a game of two."""
    with client.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_text(json.dumps({"v": 1, "type": "hello", "token": token}))
        socket.send_text(json.dumps({"v": 1, "type": "resign", "ply": 0}))
        for _ in range(40):
            message = socket.receive_json()
            if message["type"] == "state" and message["game"]["status"] == "finished":
                return
    raise AssertionError("the game did not finish")


RECEIVE_SECONDS = 60.0
"""The longest a test waits for one message: a message that never comes fails the test with
what did come, instead of holding its worker until the test's time limit."""


def receive_json(socket: Any, seconds: float | None = None) -> dict[str, Any]:
    """The next message of a test client's WebSocket, within ``seconds`` (by default
    :data:`RECEIVE_SECONDS`)."""
    limit = RECEIVE_SECONDS if seconds is None else seconds
    stream = getattr(socket, "_send_rx", None)
    if stream is None:  # another version of the test client: wait as it does
        found: dict[str, Any] = socket.receive_json()
        return found

    async def within() -> Any:
        with anyio.fail_after(limit):
            return await stream.receive()

    message = socket.portal.call(within)
    socket._raise_on_close(message)
    text = message.get("text")
    loaded: dict[str, Any] = json.loads(text if text is not None else message["bytes"])
    return loaded


def receive_type(socket: Any, kind: str, most: int = 50) -> dict[str, Any]:
    """The first message of type ``kind`` a test client's WebSocket gets (others skipped)."""
    skipped: list[str] = []
    for _ in range(most):
        try:
            message = receive_json(socket)
        except TimeoutError:
            raise AssertionError(
                f"no {kind!r} message within {RECEIVE_SECONDS:.0f} s; came instead: {skipped}"
            ) from None
        if message["type"] == kind:
            return message
        skipped.append(str(message)[:300])
    raise AssertionError(f"no {kind!r} message came; came instead: {skipped}")
