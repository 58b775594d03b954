"""Seeks: a game offered in the lobby fills as players join it, starts for all of them at
once, shows only to those who may take it, and dies with its creator's connection."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from sos_web import app_client, receive_type
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.matchmaking.seeks import parse_seek, seat_token

Message = dict[str, Any]
WAIT_SECONDS = 60


def _hello(socket: Any, name: str) -> str:
    socket.send_json({"v": 1, "type": "hello", "name": name})
    secret: str = receive_type(socket, "welcome")["lobby"]
    return secret


def _seeks(client: Any) -> list[Message]:
    answer = client.get("/api/seeks")
    assert answer.status_code == 200
    found: list[Message] = answer.json()["seeks"]
    return found


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"rows": 5, "cols": 5, "players": 9}, "players"),
        ({"rows": 5, "cols": 5, "players": True}, "players"),
        ({"rows": 99, "cols": 5}, "rows"),
        ({"rows": 5, "cols": 5, "rating": {"min": 5, "max": 1}}, "min is above max"),
        ({"rows": 5, "cols": 5, "rating": {"min": "a"}}, "rating.min"),
        ({"rows": 5, "cols": 5, "colour": 1}, "colour"),
        ({"rows": 5, "cols": 5, "clock": {"initial": 0}}, "clock.initial"),
        ({"rows": 5, "cols": 5, "rated": "yes"}, "rated"),
    ],
)
def test_a_bad_seek_is_refused_naming_what_is_wrong(body: Message, named: str) -> None:
    with pytest.raises(ProtocolError, match=named):
        parse_seek(body)


def test_a_seek_fills_and_the_game_starts_for_all_its_players(tmp_path: Path) -> None:
    with (
        app_client(tmp_path / "games.sqlite3") as client,
        client.websocket_connect("/ws/lobby") as ann,
        client.websocket_connect("/ws/lobby") as bao,
        client.websocket_connect("/ws/lobby") as cay,
    ):
        secret = _hello(ann, "Ann")
        bao_secret = _hello(bao, "Bao")
        _hello(cay, "Cay")
        body = {"rows": 5, "cols": 6, "mode": "simple", "players": 3, "name": "Ann"}
        body["clock"] = {"initial": 60, "increment": 1}
        refused = client.post("/api/seeks", json=body)
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "no_lobby"
        made = client.post("/api/seeks", json=body, headers={"Authorization": f"Bearer {secret}"})
        assert made.status_code == 201, made.text
        seek = made.json()["id"]
        (listed,) = _seeks(client)
        assert listed == {
            "id": seek,
            "rows": 5,
            "cols": 6,
            "mode": "simple",
            "players": 3,
            "joined": 1,
            "clock": {"initial": 60, "increment": 1},
            "days": None,
            "rated": False,
            "rating": None,
            "name": "Ann",
        }
        bao.send_json({"v": 1, "type": "join_seek", "seek": seek})
        joined = receive_type(bao, "joined")
        assert (joined["seek"], joined["token"]) == (seek, seat_token(bao_secret, seek))
        bao.send_json({"v": 1, "type": "join_seek", "seek": seek})
        assert receive_type(bao, "error")["code"] == "already_joined"
        assert _seeks(client)[0]["joined"] == 2
        cay.send_json({"v": 1, "type": "join_seek", "seek": seek})
        paired = [receive_type(socket, "paired") for socket in (ann, bao, cay)]
        assert len({message["game"] for message in paired}) == 1
        assert [message["seat"] for message in paired] == [0, 1, 2]
        # Each was told their seat's token before: the creator when making the seek.
        assert paired[0]["token"] == made.json()["token"]
        assert paired[1]["token"] == joined["token"]
        game = paired[0]["game"]
        state = client.get(f"/api/games/{game}").json()
        assert state["status"] == "playing"
        assert [seat["name"] for seat in state["seats"]] == ["Ann", "Bao", "Cay"]
        assert (state["rows"], state["cols"], state["mode"]) == (5, 6, "simple")
        for message in paired:
            with client.websocket_connect(f"/ws/games/{game}") as player:
                player.send_json({"v": 1, "type": "hello", "token": message["token"]})
                assert receive_type(player, "welcome")["seats"] == [message["seat"]]
        assert _seeks(client) == []
        ann.send_json({"v": 1, "type": "join_seek", "seek": seek})
        assert receive_type(ann, "error")["code"] == "no_seek"


def test_a_seek_shows_only_to_those_who_may_take_it(tmp_path: Path) -> None:
    with (
        app_client(tmp_path / "games.sqlite3") as client,
        client.websocket_connect("/ws/lobby") as ann,
        client.websocket_connect("/ws/lobby") as bao,
    ):
        secret = _hello(ann, "Ann")
        _hello(bao, "Bao")
        headers = {"Authorization": f"Bearer {secret}"}
        ranged = {"rows": 5, "cols": 5, "rating": {"min": 10, "max": 40}}
        seek = client.post("/api/seeks", json=ranged, headers=headers).json()["id"]
        # A guest's shown rating is 0, below the range.
        assert _seeks(client) == []
        bao.send_json({"v": 1, "type": "join_seek", "seek": seek})
        assert receive_type(bao, "error")["code"] == "not_for_you"
        rated = client.post(
            "/api/seeks", json={"rows": 5, "cols": 5, "rated": True}, headers=headers
        )
        assert rated.status_code == 403 and rated.json()["error"]["code"] == "account_needed"


def test_a_seek_dies_with_its_creators_connection_or_when_withdrawn(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        with client.websocket_connect("/ws/lobby") as ann:
            headers = {"Authorization": f"Bearer {_hello(ann, 'Ann')}"}
            body = {"rows": 5, "cols": 5}
            first = client.post("/api/seeks", json=body, headers=headers).json()["id"]
            other = {"Authorization": "Bearer someone.else"}
            assert client.delete(f"/api/seeks/{first}", headers=other).status_code == 404
            assert client.delete(f"/api/seeks/{first}", headers=headers).status_code == 200
            assert _seeks(client) == []
            client.post("/api/seeks", json=body, headers=headers)
            assert len(_seeks(client)) == 1
        deadline = time.monotonic() + WAIT_SECONDS
        while _seeks(client) and time.monotonic() < deadline:
            time.sleep(0.01)  # polling for the event (the connection's end), not waiting out time
        assert _seeks(client) == []


def test_seeks_per_address_are_limited(tmp_path: Path) -> None:
    with (
        app_client(tmp_path / "games.sqlite3", seeks_per_address=2) as client,
        client.websocket_connect("/ws/lobby") as ann,
    ):
        headers = {"Authorization": f"Bearer {_hello(ann, 'Ann')}"}
        body = {"rows": 5, "cols": 5}
        for _ in range(2):
            assert client.post("/api/seeks", json=body, headers=headers).status_code == 201
        refused = client.post("/api/seeks", json=body, headers=headers)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_seeks"


def test_a_casual_seek_game_is_in_its_players_accounts(tmp_path: Path) -> None:
    from test_web_accounts import claim

    with app_client(tmp_path / "games.sqlite3") as client:
        ann_cookie, bao_cookie = claim(client, "Ann"), claim(client, "Bao")
        with (
            client.websocket_connect("/ws/lobby", headers=ann_cookie) as ann,
            client.websocket_connect("/ws/lobby", headers=bao_cookie) as bao,
        ):
            headers = {"Authorization": f"Bearer {_hello(ann, 'Ann')}", **ann_cookie}
            _hello(bao, "Bao")
            seek = client.post("/api/seeks", json={"rows": 5, "cols": 5}, headers=headers)
            assert seek.status_code == 201, seek.text
            bao.send_json({"v": 1, "type": "join_seek", "seek": seek.json()["id"]})
            game = receive_type(bao, "paired")["game"]
        # By the session alone, without a seat token: My games lists it for both.
        for cookie in (ann_cookie, bao_cookie):
            mine = client.get("/api/my-games", headers=cookie).json()["games"]
            assert [listed["id"] for listed in mine] == [game]
