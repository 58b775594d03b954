"""Correspondence games with a fake clock: days per move, the deadline each move resets,
running out of days (a loss with two seats, a seat out with three, an abort before every
seat has moved), the sweep of the store, and ``days`` refused when wrong."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

from sos_web import FakeTime, Seat, app_client, receive_type
from sosgame.record import Record
from sosgame.web.live import correspondence
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.matchmaking.pools import (
    DEFAULT_POOLS,
    PoolError,
    parse_pools,
    pools_from_environment,
)
from sosgame.web.matchmaking.seeks import parse_seek
from test_web_fairplay import client, fake_time, online, play, seated

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Client = Any
DAY = 24 * 3600
__all__ = ["client", "fake_time"]  # the fair-play tests' fixtures, used here too


def test_each_move_resets_the_deadline_and_a_late_move_is_valid(
    client: Client, fake_time: FakeTime
) -> None:
    game, ann, bao = online(client, days=2)
    state = client.get(f"/api/games/{game}").json()
    assert (state["days"], state["deadline"], state["clock"]["running"]) == (2, None, None)
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        fake_time.advance(DAY)
        play(seats, 0, "Sa1", 0)
        fake_time.advance(DAY + 3600)
        state = play(seats, 1, "Ob1", 1)
        assert state["deadline"] is not None
        fake_time.advance(2 * DAY - 60)
        state = play(seats, 0, "Sd4", 2)
        assert state["result"] is None and state["turn"] == 1
        deadline = state["deadline"]
        fake_time.advance(DAY)
        state = play(seats, 1, "Od1", 3)
    assert state["deadline"] > deadline
    assert state["clock"]["remaining"] == [2 * DAY * 1000, 2 * DAY * 1000]


def started(stack: ExitStack, client: Client) -> tuple[str, list[Seat]]:
    """A game of one day per move, both seats connected, each of which has moved."""
    game, ann, bao = online(client, days=1)
    seats = seated(stack, client, game, ann, bao)
    play(seats, 0, "Sa1", 0)
    play(seats, 1, "Ob1", 1)
    return game, seats


def test_running_out_of_days_loses_with_two_seats(client: Client, fake_time: FakeTime) -> None:
    with ExitStack() as stack:
        _, seats = started(stack, client)
        fake_time.advance(DAY + 1)
        state = seats[1].state(lambda g: g["result"] is not None)
    assert state["result"]["termination"] == "timeout"
    assert state["result"]["winners"] == [1]
    assert state["deadline"] is None


def test_with_three_the_seat_out_of_days_is_out_and_the_game_goes_on(
    client: Client, fake_time: FakeTime
) -> None:
    game, *tokens = online(client, players=3, days=1)
    with ExitStack() as stack:
        seats = seated(stack, client, game, *tokens)
        play(seats, 0, "Sa1", 0)
        play(seats, 1, "Ob1", 1)
        play(seats, 2, "Sd4", 2)
        fake_time.advance(DAY + 1)
        state = seats[1].state(lambda g: g["seats"][0]["resigned"])
    assert state["result"] is None and state["turn"] == 1
    assert state["deadline"] is not None


def test_a_seat_that_misses_its_first_move_aborts_the_game(
    client: Client, fake_time: FakeTime
) -> None:
    game, ann, bao = online(client, days=3)
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        play(seats, 0, "Sa1", 0)
        fake_time.advance(3 * DAY - 10)
        seats[0].send(type="ping")
        seats[0].wait("pong")
        assert client.get(f"/api/games/{game}").json()["result"] is None
        fake_time.advance(11)
        state = seats[1].state(lambda g: g["result"] is not None)
    assert state["result"]["termination"] == "aborted"
    assert state["result"]["winners"] == []


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"days": 4}, "'days'"),
        ({"days": "3"}, "'days'"),
        ({"days": True}, "'days'"),
        ({"days": 3, "clock": {"initial": 60}}, "'days'"),
        ({"days": 3, "kind": "local"}, "'days'"),
    ],
)
def test_bad_days_are_refused_and_nothing_is_created(
    client: Client, settings: dict[str, Any], named: str
) -> None:
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    body = {"rows": 4, "cols": 4, "kind": "online", "public": True, "seats": seats, **settings}
    before = client.get("/api/lobby").json()
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_field"
    assert named in answer.json()["error"]["message"]
    assert client.get("/api/lobby").json() == before


def sweep(client: Client) -> None:
    """One sweep of the overdue games by this client's server process."""
    client.portal.call(correspondence.sweep, client.app.state.hub)


def test_the_sweep_ends_a_game_nobody_has_loaded_once(tmp_path: Path, fake_time: FakeTime) -> None:
    database = tmp_path / "games.sqlite3"
    with app_client(database) as first, ExitStack() as stack:
        game, _ = started(stack, first)
    fake_time.advance(DAY + 1)
    with app_client(database) as one, app_client(database) as other:
        sweep(one)
        sweep(other)
        sweep(one)
        state = other.get(f"/api/games/{game}").json()
    assert state["status"] == "finished"
    assert state["result"]["termination"] == "timeout"
    assert state["result"]["winners"] == [1]
    assert [action for action in state["actions"] if action.startswith("resign")] == ["resign:0"]
    assert state["deadline"] is None


def test_the_record_says_the_days_and_a_rematch_keeps_them(client: Client) -> None:
    game, ann, bao = online(client, days=5)
    record = client.get(f"/api/games/{game}/record").json()
    assert record["meta"]["tags"]["sosgame.days"] == "5"
    assert Record.from_json(json.dumps(record)).meta["tags"]["sosgame.days"] == "5"
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        play(seats, 0, "Sa1", 0)
        play(seats, 1, "Ob1", 1)
        seats[0].send(type="resign", ply=2)
        seats[1].state(lambda g: g["result"] is not None)
        seats[0].send(type="offer", offer="rematch")
        seats[1].state(lambda g: bool(g["offers"]))
        seats[1].send(type="answer", offer="rematch", accept=True)
        rematch = seats[0].wait("rematch")["game"]
    state = client.get(f"/api/games/{rematch}").json()
    assert (state["days"], state["clock"]["initial"]) == (5, 5 * DAY * 1000)


# --------------------------------------------------------------------- pools and seeks


def test_a_pool_of_days_is_configured_offered_and_pairs_into_a_correspondence_game(
    tmp_path: Path,
) -> None:
    text = '[{"id": "8x8-3d", "rows": 8, "cols": 8, "days": 3}]'
    (pool,) = pools_from_environment({"SOSGAME_POOLS": text})
    assert pool.to_json()["days"] == 3 and pool.clock is None
    assert [p.days for p in DEFAULT_POOLS if p.days] == [3]
    for bad, named in (('"days": 4', "days"), ('"days": 3, "clock": {"initial": 60}', "not both")):
        with pytest.raises(PoolError, match=named):
            parse_pools(f'[{{"id": "a", "rows": 5, "cols": 5, {bad}}}]')
    with (
        app_client(tmp_path / "games.sqlite3") as client,
        client.websocket_connect("/ws/lobby") as ann,
        client.websocket_connect("/ws/lobby") as bao,
    ):
        assert {"id": "8x8-general-3d", "days": 3, "clock": None}.items() <= next(
            item for item in client.get("/api/pools").json()["pools"] if item["days"]
        ).items()
        for socket in (ann, bao):
            socket.send_json({"v": 1, "type": "hello"})
            receive_type(socket, "welcome")
            socket.send_json({"v": 1, "type": "pool", "pool": "8x8-general-3d"})
        paired = [receive_type(socket, "paired") for socket in (ann, bao)]
        state = client.get(f"/api/games/{paired[0]['game']}").json()
    assert paired[0]["game"] == paired[1]["game"]
    assert (state["rows"], state["days"], state["clock"]["initial"]) == (8, 3, 3 * DAY * 1000)


def test_a_seek_with_days_lives_past_its_creators_disconnect_for_a_day(
    tmp_path: Path, fake_time: FakeTime
) -> None:
    with pytest.raises(ProtocolError, match="not both"):
        parse_seek({"rows": 5, "cols": 5, "days": 2, "clock": {"initial": 60}})
    with pytest.raises(ProtocolError, match="'days'"):
        parse_seek({"rows": 5, "cols": 5, "days": 6})
    with app_client(tmp_path / "games.sqlite3") as client:
        with client.websocket_connect("/ws/lobby") as ann:
            ann.send_json({"v": 1, "type": "hello", "name": "Ann"})
            headers = {"Authorization": f"Bearer {receive_type(ann, 'welcome')['lobby']}"}
            body = {"rows": 5, "cols": 5, "days": 7, "name": "Ann"}
            made = client.post("/api/seeks", json=body, headers=headers)
            assert made.status_code == 201, made.text
            client.post("/api/seeks", json={"rows": 5, "cols": 5}, headers=headers)
            assert len(client.get("/api/seeks").json()["seeks"]) == 2
        # The clock seek dies with the connection (at once), the correspondence one lives on.
        fake_time.advance(60)
        (seek,) = client.get("/api/seeks").json()["seeks"]
        assert (seek["id"], seek["days"], seek["clock"]) == (made.json()["id"], 7, None)
        with client.websocket_connect("/ws/lobby") as bao:
            bao.send_json({"v": 1, "type": "hello", "name": "Bao"})
            receive_type(bao, "welcome")
            bao.send_json({"v": 1, "type": "join_seek", "seek": seek["id"]})
            paired = receive_type(bao, "paired")
        state = client.get(f"/api/games/{paired['game']}").json()
        assert state["days"] == 7 and [s["name"] for s in state["seats"]] == ["Ann", "Bao"]
        client.post("/api/seeks", json=body, headers=headers)
        assert len(client.get("/api/seeks").json()["seeks"]) == 1
        fake_time.advance(DAY + 1)
        assert client.get("/api/seeks").json()["seeks"] == []


def test_a_correspondence_seek_filled_after_its_creator_left_is_theirs_in_my_games(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        with client.websocket_connect("/ws/lobby") as ann:
            ann.send_json({"v": 1, "type": "hello", "name": "Ann"})
            headers = {"Authorization": f"Bearer {receive_type(ann, 'welcome')['lobby']}"}
            body = {"rows": 5, "cols": 5, "days": 3, "name": "Ann"}
            made = client.post("/api/seeks", json=body, headers=headers).json()
        token = made["token"]
        mine = {"Authorization": f"Bearer {token}"}
        assert client.get("/api/my-games", headers=mine).json()["games"] == []
        with client.websocket_connect("/ws/lobby") as bao:
            bao.send_json({"v": 1, "type": "hello", "name": "Bao"})
            receive_type(bao, "welcome")
            bao.send_json({"v": 1, "type": "join_seek", "seek": made["id"]})
            game = receive_type(bao, "paired")["game"]
        listed = client.get("/api/my-games", headers=mine).json()
        assert listed["your_turn"] == 1
        (item,) = listed["games"]
        assert (item["id"], item["seat"], item["your_turn"], item["tokens"]) == (
            game,
            0,
            True,
            [token],
        )
        with client.websocket_connect(f"/ws/games/{game}") as player:
            player.send_json({"v": 1, "type": "hello", "token": token})
            assert receive_type(player, "welcome")["seats"] == [0]
            player.send_json({"v": 1, "type": "move", "move": "Sa1", "ply": 0})
            state = receive_type(player, "state")
            while state["game"]["ply"] == 0:
                state = receive_type(player, "state")
        assert state["game"]["turn"] == 1 and state["game"]["days"] == 3


def test_a_correspondence_room_nobody_follows_leaves_memory_and_the_sweep_still_ends_it(
    tmp_path: Path, fake_time: FakeTime
) -> None:
    with app_client(tmp_path / "games.sqlite3", idle_seconds=0.2) as client:
        with ExitStack() as stack:
            game, _ = started(stack, client)
        rooms = client.app.state.hub.rooms
        deadline = time.monotonic() + 60
        while game in rooms and time.monotonic() < deadline:
            time.sleep(0.01)  # polling for the event (the room dropped), not waiting out time
        assert game not in rooms
        fake_time.advance(DAY + 1)
        sweep(client)
        assert client.get(f"/api/games/{game}").json()["result"]["termination"] == "timeout"
