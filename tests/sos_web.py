"""Helpers shared by the web app's tests: an app on a fresh database with chosen limits, and
ending a game by resigning."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sosgame.web import create_app
from sosgame.web.config import ServerLimits


@contextmanager
def app_client(database: Path, **limits: Any) -> Iterator[TestClient]:
    """A client of a running app on the SQLite file ``database`` (computer moves in a
    thread), with these :class:`ServerLimits`."""
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(
        f"sqlite:///{database}",
        computer=executor,
        computer_pause=0.01,
        server_limits=ServerLimits(**limits),
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


def receive_type(socket: Any, kind: str, most: int = 50) -> dict[str, Any]:
    """The first message of type ``kind`` a test client's WebSocket gets (others skipped)."""
    for _ in range(most):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message came")
