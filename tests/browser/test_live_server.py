"""The real server over real sockets: an acknowledged move survives ``kill -9``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sos_live_server import LiveServer, server_fixture  # noqa: F401 (a fixture)

websockets_sync = pytest.importorskip("websockets.sync.client")


def _until(socket: Any, kind: str, check: Any = lambda _: True) -> dict[str, Any]:
    for _ in range(50):
        message: dict[str, Any] = json.loads(socket.recv(timeout=10))
        if message["type"] == kind and check(message):
            return message
    raise AssertionError(f"no {kind!r} message")


def _play(server: LiveServer, game_id: str, token: str, moves: list[str], first: int) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
    with websockets_sync.connect(url) as socket:
        socket.send(json.dumps({"v": 1, "type": "hello", "token": token}))
        _until(socket, "welcome")
        for ply, move in enumerate(moves, start=first):
            socket.send(json.dumps({"v": 1, "type": "move", "move": move, "ply": ply}))
            _until(socket, "state", lambda m, n=ply + 1: m["game"]["ply"] == n)


def test_acknowledged_moves_survive_kill_9_and_the_game_goes_on(server: LiveServer) -> None:
    created = server.post(
        "/api/games", {"rows": 4, "cols": 4, "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    )
    _play(server, created["id"], created["token"], ["Sa1", "Ob1", "Sc1"], 0)
    server.restart()  # SIGKILL, then a new process on the same database
    state = server.get(f"/api/games/{created['id']}")
    assert state["actions"] == ["Sa1", "Ob1", "Sc1"]
    assert state["scores"] == [1, 0]
    _play(server, created["id"], created["token"], ["Sd4"], 3)
    server.restart()
    assert server.get(f"/api/games/{created['id']}")["actions"][-1] == "Sd4"
