"""A public server's defences: fan-out to a crowd, connection caps, computer-game limits,
idle rooms, hostile JSON, invites, rematches and uploaded records."""

from __future__ import annotations

import asyncio
import json
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sos_web import app_client
from sosgame import Game
from sosgame.record import Record
from sosgame.snapshot import Snapshot
from sosgame.web.computer.workers import ComputerPool
from sosgame.web.live.fanout import Connection, LocalChannel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Message = dict[str, Any]
TWO = [{"name": "Ann"}, {"name": "Bao"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "games.sqlite3") as test_client:
        yield test_client


def create(client: TestClient, **settings: Any) -> Message:
    body: Message = {"rows": 3, "cols": 3, "seats": TWO, **settings}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: Message = response.json()
    return created


def secret(created: Message, seat: int) -> str:
    link: str = created["links"]["seats"][seat]
    return link.rsplit("/", 1)[1]


def until(socket: Any, kind: str, check: Callable[[Message], bool] = lambda _: True) -> Message:
    for _ in range(100):
        message: Message = socket.receive_json()
        if message["type"] == kind and check(message):
            return message
    raise AssertionError(f"no {kind!r} message arrived")


def hello(socket: Any, *tokens: str) -> Message:
    socket.send_text(json.dumps({"v": 1, "type": "hello", "tokens": list(tokens)}))
    welcome = until(socket, "welcome")
    until(socket, "state")
    return welcome


# ------------------------------------------------------------------------------- fan-out


class Recorder:
    """A fake socket that keeps what it was sent."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send(self, text: str) -> None:
        self.texts.append(text)


def test_a_crowd_joining_at_once_shares_one_presence_message_and_one_encoding() -> None:
    async def scenario() -> list[Recorder]:
        channel = LocalChannel("g", 2)
        sockets = [Recorder() for _ in range(50)]
        connections = [Connection(socket.send) for socket in sockets]
        for connection in connections:
            channel.add(connection)
        while not all(socket.texts for socket in sockets):
            await asyncio.sleep(0.01)
        channel.publish({"v": 1, "type": "state", "game": {"ply": 1}})
        while not all(len(socket.texts) == 2 for socket in sockets):
            await asyncio.sleep(0.01)
        return sockets

    sockets = asyncio.run(asyncio.wait_for(scenario(), 10))
    for socket in sockets:
        assert [json.loads(text)["type"] for text in socket.texts] == ["presence", "state"]
    presence = json.loads(sockets[0].texts[0])
    assert presence["spectators"] == 50
    assert presence["connected"] == [False, False]
    # The state was serialised once: every connection was handed the very same text.
    assert len({id(socket.texts[1]) for socket in sockets}) == 1


def test_a_connection_that_falls_behind_is_closed_not_waited_for() -> None:
    closed: list[tuple[int, str]] = []

    async def scenario() -> None:
        stuck = asyncio.Event()

        async def never(_text: str) -> None:
            await stuck.wait()

        async def close(code: int, reason: str) -> None:
            closed.append((code, reason))

        slow = Connection(never, close, backlog=4)
        for number in range(10):
            slow.deliver(f"{number}")
        while not closed:
            await asyncio.sleep(0.01)
        assert slow.closed

    asyncio.run(asyncio.wait_for(scenario(), 10))
    assert closed[0][0] == 1008
    assert "too slow" in closed[0][1]


def test_joining_sends_the_others_presence_never_the_state(client: TestClient) -> None:
    created = create(client)
    with client.websocket_connect(f"/ws/games/{created['id']}") as ann:
        hello(ann, created["token"])
        with client.websocket_connect(f"/ws/games/{created['id']}") as watcher:
            hello(watcher)
            seen = []
            while True:
                message = ann.receive_json()
                seen.append(message["type"])
                if message["type"] == "presence":
                    break
            assert "state" not in seen
            assert message["spectators"] == 1
            assert message["connected"] == [True, True]  # a local token opens both


def test_one_browser_may_hold_several_seats_of_a_game(client: TestClient) -> None:
    created = create(client, kind="online")
    taken = client.post(
        f"/api/games/{created['id']}/seats/1", json={"invite": secret(created, 1)}
    ).json()
    with client.websocket_connect(f"/ws/games/{created['id']}") as socket:
        welcome = hello(socket, created["token"], taken["token"])
        assert welcome["seats"] == [0, 1]
        for ply, move in enumerate(["Sa1", "Ob2"]):
            socket.send_text(json.dumps({"v": 1, "type": "move", "move": move, "ply": ply}))
            until(socket, "state", lambda m, n=ply + 1: m["game"]["ply"] == n)


# ---------------------------------------------------------------------------------- caps


def test_connections_are_capped_per_game_and_per_address(tmp_path: Path) -> None:
    with app_client(
        tmp_path / "games.sqlite3", max_connections_per_game=2, max_connections_per_address=3
    ) as client:
        first, second = create(client), create(client)
        url = f"/ws/games/{first['id']}"
        with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
            hello(one)
            hello(two)
            with client.websocket_connect(url) as three:
                refused = three.receive_json()
                assert refused["code"] == "too_many_connections"
                assert "this game" in refused["message"]
                closed = three.receive()
                assert closed["code"] == 1013
                assert "2 connections" in closed["reason"]
            other = f"/ws/games/{second['id']}"
            with client.websocket_connect(other) as allowed:
                hello(allowed)
                with client.websocket_connect(other) as four:
                    refused = four.receive_json()
                    assert "this address" in refused["message"]
                    assert four.receive()["code"] == 1013
        # Once they have gone, the same address may connect again.
        with client.websocket_connect(url) as again:
            hello(again)


def test_games_with_computer_seats_are_limited_per_address_and_in_total(
    tmp_path: Path,
) -> None:
    bots = [{"name": "Ann"}, {"name": "Bot", "player": "easy"}]
    with app_client(
        tmp_path / "games.sqlite3", computer_games_per_address=2, computer_games_total=9
    ) as client:
        create(client, seats=bots)
        create(client, seats=bots)
        refused = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": bots})
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_games"
        assert "2 unfinished games" in refused.json()["error"]["message"]
        create(client)  # people only: not limited
    # The total is counted in the store: the games made before the restart (or by another
    # server process) count too.
    with app_client(
        tmp_path / "games.sqlite3", computer_games_per_address=9, computer_games_total=3
    ) as client:
        create(client, seats=bots)
        refused = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": bots})
        assert refused.status_code == 429
        assert "the server already runs 3" in refused.json()["error"]["message"]


def test_a_game_of_computers_only_plays_only_while_someone_watches(client: TestClient) -> None:
    pytest.importorskip("sosgame.ai")
    bots = [{"name": "A", "player": "random"}, {"name": "B", "player": "random"}]
    created = create(client, seats=bots)
    state = client.get(f"/api/games/{created['id']}").json()
    assert (state["ply"], state["thinking"]) == (0, None)
    with client.websocket_connect(f"/ws/games/{created['id']}") as watcher:
        hello(watcher)
        until(watcher, "state", lambda m: m["game"]["result"] is not None)


def test_the_computer_queue_serves_people_first_and_owners_in_turn() -> None:
    pytest.importorskip("sosgame.ai")
    snapshot = Snapshot(3, 3, 2, "general", None, ())

    async def scenario() -> list[str]:
        executor = ThreadPoolExecutor(max_workers=1)
        pool = ComputerPool(1, executor)
        finished: list[str] = []

        async def ask(name: str, owner: str, interactive: bool) -> None:
            await pool.think("random", snapshot, owner=owner, interactive=interactive)
            finished.append(name)

        tasks = [asyncio.ensure_future(ask("a1", "A", False))]
        await asyncio.sleep(0)  # a1 takes the only worker
        tasks += [
            asyncio.ensure_future(ask(name, owner, interactive))
            for name, owner, interactive in [
                ("a2", "A", False),
                ("a3", "A", False),
                ("c1", "C", False),
                ("person", "P", True),
            ]
        ]
        await asyncio.gather(*tasks)
        pool.close()
        executor.shutdown()
        return finished

    finished = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert finished[0] == "a1"
    assert finished[1] == "person"
    assert finished.index("c1") < finished.index("a3")


# ----------------------------------------------------------------------------- idle rooms


def test_idle_rooms_are_dropped_and_come_back_from_the_database(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3", idle_seconds=0.2) as client:
        created = create(client)
        with client.websocket_connect(f"/ws/games/{created['id']}") as socket:
            hello(socket, created["token"])
            socket.send_text(json.dumps({"v": 1, "type": "move", "move": "Sa1", "ply": 0}))
            until(socket, "state", lambda m: m["game"]["ply"] == 1)
            assert client.get("/api/health").json()["rooms"] == 1
        deadline = time.monotonic() + 20
        while client.get("/api/health").json()["rooms"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert client.get("/api/health").json()["rooms"] == 0
        with client.websocket_connect(f"/ws/games/{created['id']}") as socket:
            hello(socket, created["token"])
            socket.send_text(json.dumps({"v": 1, "type": "move", "move": "Ob1", "ply": 1}))
            state = until(socket, "state", lambda m: m["game"]["ply"] == 2)["game"]
        assert state["actions"] == ["Sa1", "Ob1"]


# --------------------------------------------------------------------------- hostile JSON


@pytest.mark.parametrize("path", ["/api/games", "/api/records", "/api/games/{id}/seats/1"])
def test_deeply_nested_json_is_a_json_error_over_http(client: TestClient, path: str) -> None:
    created = create(client, kind="online")
    body = b"[" * 5000 + b"]" * 5000
    response = client.post(path.format(id=created["id"]), content=body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_json"
    assert "nested" in response.json()["error"]["message"]


def test_deeply_nested_json_leaves_the_websocket_open(client: TestClient) -> None:
    created = create(client)
    with client.websocket_connect(f"/ws/games/{created['id']}") as socket:
        hello(socket, created["token"])
        socket.send_text("[" * 1000 + "]" * 1000)
        assert until(socket, "error")["code"] == "bad_json"
        socket.send_text(json.dumps({"v": 1, "type": "ping"}))
        until(socket, "pong")


# -------------------------------------------------------------------------------- invites


def test_free_seats_are_reached_only_through_their_invite(client: TestClient) -> None:
    created = create(client, kind="online", seats=[*TWO, {"name": "Chi"}])
    game_id = created["id"]
    invite = secret(created, 1)
    assert created["links"]["seats"][1].endswith(f"/#/join/{game_id}/1/{invite}")
    assert client.get("/api/games?list=open").json()["games"] == []
    public = client.get(f"/api/games/{game_id}")
    assert invite not in public.text
    assert public.json()["links"]["seats"] == [None, None, None]
    assert client.get(f"/api/games/{game_id}/invites").status_code == 403
    mine = client.get(
        f"/api/games/{game_id}/invites", headers={"authorization": f"Bearer {created['token']}"}
    ).json()
    assert mine["seats"] == [None, *created["links"]["seats"][1:]]
    url = f"/api/games/{game_id}/seats/1"
    wrong = [{}, {"name": "Eve"}, {"invite": "guess"}, {"invite": "é" * 12}]
    for body in [*wrong, {"invite": secret(created, 2)}]:
        refused = client.post(url, json=body)
        assert refused.status_code == 403, body
        assert refused.json()["error"]["code"] == "bad_invite"
    assert client.post(url, json={"invite": invite}).status_code == 200
    assert client.post(url, json={"invite": invite}).status_code == 409
    state = client.get(f"/api/games/{game_id}").json()
    assert [seat["taken"] for seat in state["seats"]] == [True, True, False]


def test_a_public_seat_may_be_taken_with_an_empty_body(client: TestClient) -> None:
    created = create(client, kind="online", public=True)
    response = client.post(f"/api/games/{created['id']}/seats/1", content=b"")
    assert response.status_code == 200, response.text
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["seats"][1]["name"] == "Bao"
    assert state["status"] == "playing"


# ------------------------------------------------------------------------------- rematch


def test_a_rematch_is_offered_to_everyone_and_keeps_every_seat(client: TestClient) -> None:
    created = create(client, kind="online")
    game_id = created["id"]
    bao = client.post(f"/api/games/{game_id}/seats/1", json={"invite": secret(created, 1)}).json()[
        "token"
    ]
    url = f"/ws/games/{game_id}"
    with client.websocket_connect(url) as second, client.websocket_connect(url) as watcher:
        hello(second, bao)
        hello(watcher)
        second.send_text(json.dumps({"v": 1, "type": "resign", "ply": 0}))
        until(watcher, "state", lambda m: m["game"]["result"] is not None)
        asked = client.post(
            f"/api/games/{game_id}/rematch",
            headers={"authorization": f"Bearer {created['token']}"},
        )
        # An offer, shown to everyone, until every player has accepted.
        assert asked.status_code == 202
        assert asked.json()["offer"]["accepted"] == [0]
        offers = until(watcher, "state", lambda m: bool(m["game"]["offers"]))["game"]["offers"]
        assert [(item["offer"], item["from"], item["accepted"]) for item in offers] == [
            ("rematch", 0, [0])
        ]
        second.send_text(json.dumps({"v": 1, "type": "answer", "offer": "rematch", "accept": True}))
        rematch = until(second, "rematch")["game"]
        assert until(watcher, "rematch")["game"] == rematch
    again = client.post(f"/api/games/{game_id}/rematch", headers={"authorization": f"Bearer {bao}"})
    assert again.status_code == 200
    assert again.json()["id"] == rematch
    # The seats rotate: the second seat moves first.
    assert again.json()["seats"] == [0]
    state = client.get(f"/api/games/{rematch}").json()
    assert state["status"] == "playing"
    assert state["offers"] == []
    assert client.get(f"/api/games/{game_id}").json()["rematch"] == rematch
    with client.websocket_connect(f"/ws/games/{rematch}") as socket:
        assert hello(socket, bao)["seats"] == [0]
    with client.websocket_connect(f"/ws/games/{rematch}") as socket:
        assert hello(socket, created["token"])["seats"] == [1]


# ------------------------------------------------------------------------------- records


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rows": 27, "cols": 3, "moves": []}, "rows"),
        ({"rows": 2, "cols": 2, "moves": []}, "rows"),
        ({"players": ["Ann", "Bao\u202e"]}, "players[1]"),
        ({"players": ["Ann", "\u0007"]}, "players[1]"),
        ({"players": ["Ann", "x" * 41]}, "players[1]"),
    ],
)
def test_an_uploaded_record_passes_the_checks_of_a_new_game(
    client: TestClient, change: Message, field: str
) -> None:
    data = Record.from_game(Game(3, 3, moves=["Sa1"]), players=["Ann", "Bao"]).to_dict()
    data.update(change)
    response = client.post("/api/records", json=data)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "bad_record"
    assert field in response.json()["error"]["message"]
    assert client.get("/api/games?list=playing").json()["games"] == []
