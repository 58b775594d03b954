"""Challenges across two ``sosgame serve`` processes on a real PostgreSQL and Redis: a
challenge made on one process is declined with a reason on the other, and the challenger's
socket is told why; the challenged player's limits, set through one process, refuse a
challenge made through the other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("redis")
pytest.importorskip("psycopg")
pytest.importorskip("websockets")

from websockets.sync import client as websockets_sync

from test_web_shared import WAIT_SECONDS, Server, sosgame, until

GAME = {"rows": 5, "cols": 5, "mode": "general", "clock": None, "rated": False}


def _claim(server: Server, name: str) -> str:
    answer = httpx.post(
        f"{server.http}/api/players", json={"name": name, "password": "a good password"}
    )
    assert answer.status_code == 201, answer.text
    return str(answer.cookies["sos_session"])


def _lobby(server: Server, session: str) -> Any:
    socket = websockets_sync.connect(
        f"ws://127.0.0.1:{server.port}/ws/lobby",
        open_timeout=WAIT_SECONDS,
        additional_headers={"cookie": f"sos_session={session}"},
    )
    socket.send(json.dumps({"v": 1, "type": "hello"}))
    until(socket, lambda m: m["type"] == "welcome", "welcome")
    return socket


def test_a_decline_s_reason_and_the_limits_cross_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    shared = ["--database", postgres_url, "--redis", redis_url]
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        ann, bao = _claim(one, "Ann"), _claim(two, "Bao")
        with _lobby(one, ann) as ann_socket, _lobby(two, bao) as bao_socket:
            ann_socket.send(json.dumps({"v": 1, "type": "challenge", "name": "Bao", **GAME}))
            made = until(ann_socket, lambda m: m["type"] == "challenge_sent", "sent")["challenge"]
            until(
                bao_socket,
                lambda m: m["type"] == "challenges" and len(m["challenges"]) == 1,
                "the challenge on the other process",
            )
            decline = {"v": 1, "type": "decline", "challenge": made, "reason": "later"}
            bao_socket.send(json.dumps(decline))
            told = until(ann_socket, lambda m: m["type"] == "challengeDeclined", "the reason")
            assert told["challenge"]["id"] == made and told["challenge"]["declineReason"] == "later"
            limits = httpx.put(
                f"{two.http}/api/account/challenge-limits",
                json={"accept": "nobody"},
                cookies={"sos_session": bao},
            )
            assert limits.status_code == 200, limits.text
            ann_socket.send(json.dumps({"v": 1, "type": "challenge", "name": "Bao", **GAME}))
            refused = until(ann_socket, lambda m: m["type"] == "error", "the refusal")
            assert refused["code"] == "challenge_refused" and refused["detail"] == "generic"
