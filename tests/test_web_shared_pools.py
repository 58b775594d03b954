"""Quick pairing across two ``sosgame serve`` processes on a real PostgreSQL and Redis: two
players waiting in one pool, each connected to another process, land in one game."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")
pytest.importorskip("psycopg")
pytest.importorskip("websockets")

from websockets.sync import client as websockets_sync

from test_web_shared import WAIT_SECONDS, Server, at_ply, hello, move, sosgame, until

POOL = "5x5-general-3+2"


def lobby(server: Server) -> Any:
    return websockets_sync.connect(f"ws://127.0.0.1:{server.port}/ws/lobby", open_timeout=60)


def test_two_players_waiting_through_two_processes_are_paired_into_one_game(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    shared = ["--database", postgres_url, "--redis", redis_url]
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        with lobby(one) as ann, lobby(two) as bao:
            for socket, name in ((ann, "Ann"), (bao, "Bao")):
                socket.send(json.dumps({"v": 1, "type": "hello", "name": name}))
                until(socket, lambda m: m["type"] == "welcome", "welcome")
            ann.send(json.dumps({"v": 1, "type": "pool", "pool": POOL}))
            until(ann, lambda m: m["type"] == "waiting", "in the pool")
            started = time.monotonic()
            bao.send(json.dumps({"v": 1, "type": "pool", "pool": POOL}))
            paired = [until(s, lambda m: m["type"] == "paired", "paired") for s in (ann, bao)]
            print(f"paired across processes in {1000 * (time.monotonic() - started):.0f} ms")
            assert time.monotonic() - started < WAIT_SECONDS
        assert paired[0]["game"] == paired[1]["game"]
        assert {paired[0]["seat"], paired[1]["seat"]} == {0, 1}
        game = paired[0]["game"]
        first, second = sorted(zip(paired, (one, two), strict=True), key=lambda p: p[0]["seat"])
        with first[1].ws(game) as mover, second[1].ws(game) as other:
            hello(mover, first[0]["token"])
            hello(other, second[0]["token"])
            move(mover, "Sa1", 0)
            assert until(other, at_ply(1), "the first move")["game"]["actions"] == ["Sa1"]
