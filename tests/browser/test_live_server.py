"""The real server over real sockets: an acknowledged move survives ``kill -9``."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from sos_live_server import LiveServer, server_fixture  # noqa: F401 (a fixture)

websockets_sync = pytest.importorskip("websockets.sync.client")
websockets_exceptions = pytest.importorskip("websockets.exceptions")


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


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent has yet to reap it


def test_computer_workers_die_with_the_server_after_kill_9(server: LiveServer) -> None:
    pytest.importorskip("sosgame.ai")
    created = server.post(
        "/api/games",
        {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bot", "player": "easy"}]},
    )
    _play(server, created["id"], created["token"], ["Sb2"], 0)
    url = f"ws://127.0.0.1:{server.port}/ws/games/{created['id']}"
    with websockets_sync.connect(url) as socket:
        socket.send(json.dumps({"v": 1, "type": "hello", "token": created["token"]}))
        _until(socket, "state", lambda m: m["game"]["ply"] >= 2)
    assert server.process is not None
    workers = _children(server.process.pid)
    assert workers, "the computer move ran in no worker process"
    server.kill()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _alive(pid)]


def test_the_real_server_gives_one_answer_past_the_size_limit(server: LiveServer) -> None:
    created = server.post(
        "/api/games", {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    )
    url = f"ws://127.0.0.1:{server.port}/ws/games/{created['id']}"
    for size in (2100, 9000):  # just past the limit, and past the old transport limit
        with websockets_sync.connect(url) as socket:
            socket.send(json.dumps({"v": 1, "type": "hello", "token": None}))
            _until(socket, "state")
            socket.send(json.dumps({"v": 1, "type": "ping", "pad": "x" * size}))
            with pytest.raises(websockets_exceptions.ConnectionClosed) as closed:
                socket.recv(timeout=10)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1009
