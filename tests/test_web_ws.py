"""Live play over the WebSocket, against the real app: moves, errors, seats, clocks, restarts."""

from __future__ import annotations

import json
import threading
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
    from starlette.websockets import WebSocketDisconnect

from sos_web import FakeTime, Message, Seat
from sosgame import Game
from sosgame.solver import solve
from sosgame.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return FakeTime.install(monkeypatch)


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    executor = ThreadPoolExecutor(max_workers=1)
    with TestClient(create_app(database, computer=executor, computer_pause=0.01)) as test_client:
        yield test_client
    executor.shutdown()


def create(client: TestClient, **settings: Any) -> Message:
    body: Message = {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}
    body.update(settings)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: Message = response.json()
    return created


def invite(created: Message, seat: int) -> str:
    """The secret of a seat's invite link, as the creator was given it."""
    link: str = created["links"]["seats"][seat]
    return link.rsplit("/", 1)[1]


def join(client: TestClient, game_id: str, token: str | None) -> Iterator[Seat]:
    with client.websocket_connect(f"/ws/games/{game_id}") as socket:
        seat = Seat(socket)
        seat.send(type="hello", token=token)
        seat.wait("welcome")
        seat.state()
        yield seat


def test_a_local_game_is_played_to_the_end_by_the_engine(client: TestClient) -> None:
    created = create(client)
    moves = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]
    reference = Game(3, 3)
    for seat in join(client, created["id"], created["token"]):
        for move in moves:
            ply = len(reference.actions)
            reference.play(move)
            seat.send(type="move", move=move, ply=ply)
            state = seat.state(lambda g, n=ply + 1: g["ply"] == n)
            assert state["scores"] == list(reference.scores)
            assert state["turn"] == reference.turn
            assert state["extra_turn"] == reference.extra_turn
            assert state["board"] == reference.position().split("/")
        assert state["result"]["winners"] == list(reference.outcome.winners)  # type: ignore[union-attr]
        assert state["result"]["termination"] == "full-board"
        assert [line["cells"] for line in state["lines"]] == [
            [str(cell) for cell in line.cells] for line in reference.lines
        ]
    assert client.get(f"/api/games/{created['id']}").json()["status"] == "finished"


BAD_MESSAGES = [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    (json.dumps({"type": "move", "move": "Sa1", "ply": 1}), "bad_version"),
    (json.dumps({"v": 1, "type": "teleport"}), "unknown_type"),
    (json.dumps({"v": 1, "type": "move", "ply": 1}), "bad_message"),
    (json.dumps({"v": 1, "type": "move", "move": "Sa1", "ply": 1, "x": 1}), "unknown_field"),
    (json.dumps({"v": 1, "type": "move", "move": "Xa1", "ply": 1}), "bad_move"),
    (json.dumps({"v": 1, "type": "move", "move": "Sa1", "ply": "zero"}), "bad_field"),
    (json.dumps({"v": 1, "type": "move", "move": "Sz9", "ply": 1}), "illegal_move"),
    (json.dumps({"v": 1, "type": "move", "move": "Sb2", "ply": 3}), "stale"),
    (json.dumps({"v": 1, "type": "hello", "token": None}), "bad_message"),
    # A null stands for no value, in a required field too: no offer of nothing.
    (json.dumps({"v": 1, "type": "offer", "offer": None}), "bad_message"),
    (json.dumps({"v": 1, "type": "answer", "offer": "draw", "accept": None}), "bad_message"),
    (json.dumps({"v": 1, "type": "move", "move": None, "ply": 1}), "bad_message"),
    (json.dumps({"v": True, "type": "ping"}), "bad_version"),
    (json.dumps({"v": 1.0, "type": "ping"}), "bad_version"),
    ("[" * 1000 + "]" * 1000, "bad_json"),
    ('{"v": 1, "type": "ping", "x": ' + "[" * 600 + "]" * 600 + "}", "bad_json"),
]


def test_every_bad_message_gets_an_error_and_changes_nothing(client: TestClient) -> None:
    created = create(client)
    for seat in join(client, created["id"], created["token"]):
        seat.send(type="move", move="Sa1", ply=0)
        seat.state(lambda g: g["ply"] == 1)
        seat.send(type="move", move="Sa1", ply=1)
        error = seat.error()
        assert error["code"] == "illegal_move"
        assert "a1" in error["message"]
        for text, code in BAD_MESSAGES:
            seat.socket.send_text(text)
            error = seat.error()
            assert error["code"] == code, (text, error)
            assert error["message"]
        seat.socket.send_bytes(b"\x00\x01")
        assert seat.error()["code"] == "bad_message"
        seat.send(type="ping")
        seat.wait("pong")
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["actions"] == ["Sa1"]


def test_a_message_over_the_size_limit_closes_the_connection_with_1009(
    client: TestClient,
) -> None:
    created = create(client)
    for seat in join(client, created["id"], created["token"]):
        seat.send(type="move", move="Sa1", ply=0, pad="x" * 3000)
        closed = seat.socket.receive()
        assert closed["type"] == "websocket.close"
        assert closed["code"] == 1009
        assert "2048" in closed["reason"]
    assert client.get(f"/api/games/{created['id']}").json()["actions"] == []


def test_the_first_message_must_be_hello(client: TestClient) -> None:
    created = create(client)
    with client.websocket_connect(f"/ws/games/{created['id']}") as socket:
        seat = Seat(socket)
        seat.send(type="move", move="Sa1", ply=0)
        assert seat.error()["code"] == "hello_first"


def test_a_flood_is_rate_limited(client: TestClient) -> None:
    created = create(client)
    for seat in join(client, created["id"], created["token"]):
        for _ in range(60):
            seat.send(type="ping")
        replies = [seat.socket.receive_json() for _ in range(60)]
        limited = [reply for reply in replies if reply.get("code") == "rate_limited"]
        assert 20 <= len(limited) <= 40
        assert "second" in limited[0]["message"]


def test_a_foreign_origin_is_refused(client: TestClient) -> None:
    created = create(client)
    url = f"/ws/games/{created['id']}"
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(url, headers={"origin": "http://evil.example"}),
    ):
        pass
    assert refused.value.code == 1008
    with client.websocket_connect(url, headers={"origin": "http://testserver"}) as socket:
        Seat(socket).send(type="hello", token=None)
        assert socket.receive_json()["type"] == "welcome"


def test_an_unknown_game_gets_an_error(client: TestClient) -> None:
    with client.websocket_connect("/ws/games/nothing") as socket:
        assert socket.receive_json()["code"] == "no_game"


def test_online_players_move_only_for_their_own_seat(client: TestClient) -> None:
    created = create(client, kind="online")
    game_id = created["id"]
    for ann in join(client, game_id, created["token"]):
        ann.send(type="move", move="Sa1", ply=0)
        assert ann.error()["code"] == "waiting"
        second = client.post(
            f"/api/games/{game_id}/seats/1", json={"name": "Bao", "invite": invite(created, 1)}
        ).json()
        ann.state(lambda g: g["status"] == "playing")
        for bao in join(client, game_id, second["token"]):
            for watcher in join(client, game_id, None):
                presence = ann.wait("presence", lambda m: m["spectators"] == 1)
                assert presence["connected"] == [True, True]
                bao.send(type="move", move="Sa1", ply=0)
                assert bao.error()["code"] == "not_your_turn"
                watcher.send(type="move", move="Sa1", ply=0)
                assert watcher.error()["code"] == "not_your_turn"
                watcher.send(type="resign", seat=0, ply=0)
                assert watcher.error()["code"] == "not_your_seat"
                bao.send(type="resign", seat=0, ply=0)
                assert bao.error()["code"] == "not_your_seat"
                ann.send(type="undo", ply=0)
                assert ann.error()["code"] == "not_allowed"
                ann.send(type="move", move="Sb2", ply=0)
                for seat in (ann, bao, watcher):
                    state = seat.state(lambda g: g["ply"] == 1)
                    assert state["board"][1] == ".S."
                    assert [s["connected"] for s in state["seats"]] == [True, True]
                bao.send(type="resign", ply=1)
                for seat in (ann, bao, watcher):
                    state = seat.state(lambda g: g["result"] is not None)
                    assert state["result"]["winners"] == [0]
                    assert state["result"]["termination"] == "resignation"
            ann.wait("presence", lambda m: m["spectators"] == 0)


def test_undo_and_redo_in_a_local_game(client: TestClient) -> None:
    created = create(client)
    for seat in join(client, created["id"], created["token"]):
        for ply, move in enumerate(["Sa1", "Ob1", "Sc1"]):
            seat.send(type="move", move=move, ply=ply)
            seat.state(lambda g, n=ply + 1: g["ply"] == n)
        seat.send(type="undo", ply=3)
        state = seat.state(lambda g: g["ply"] == 2)
        assert state["scores"] == [0, 0]
        assert state["can_redo"] is True
        seat.send(type="undo", ply=2)
        seat.state(lambda g: g["ply"] == 1)
        seat.send(type="redo", ply=1)
        seat.state(lambda g: g["ply"] == 2)
        seat.send(type="redo", ply=2)
        state = seat.state(lambda g: g["ply"] == 3)
        assert state["scores"] == [1, 0]
        seat.send(type="redo", ply=3)
        assert seat.error()["code"] == "nothing_to_redo"
        seat.send(type="undo", ply=3)
        seat.state(lambda g: g["ply"] == 2)
        seat.send(type="move", move="Oc3", ply=2)
        state = seat.state(lambda g: g["ply"] == 3)
        assert state["can_redo"] is False
    assert client.get(f"/api/games/{created['id']}").json()["actions"] == ["Sa1", "Ob1", "Oc3"]


def test_undo_goes_back_to_the_person_and_never_to_a_computers_turn(client: TestClient) -> None:
    pytest.importorskip("sosgame.ai")
    seats = [{"name": "Bot", "player": "easy"}, {"name": "Ann"}]
    created = create(client, rows=4, cols=4, seats=seats)
    url, deadline = f"/api/games/{created['id']}", time.monotonic() + 60
    state = client.get(url).json()
    while state["ply"] == 0 and time.monotonic() < deadline:  # the computer opens
        time.sleep(0.01)
        state = client.get(url).json()
    opening = state["actions"][0]
    assert state["can_undo"] is False  # only the computer's opening move to take back
    for seat in join(client, created["id"], created["token"]):
        seat.send(type="undo", ply=1)
        assert seat.error()["code"] == "nothing_to_undo"
        move = next(cell for cell in ("a1", "d4") if cell not in opening)
        seat.send(type="move", move=f"S{move}", ply=1)
        state = seat.state(lambda g: g["ply"] >= 3 and g["turn"] == 1 and g["thinking"] is None)
        played = state["actions"]
        total = len(played)
        assert state["can_undo"] is True
        seat.send(type="undo", ply=total)
        state = seat.state(lambda g: g["ply"] == 1)
        assert state["actions"] == [opening] and state["turn"] == 1
        assert state["can_undo"] is False and state["can_redo"] is True
        seat.send(type="redo", ply=1)
        state = seat.state(lambda g, n=total: g["ply"] == n)
        assert state["actions"] == played and state["can_redo"] is False
    assert client.get(f"/api/games/{created['id']}").json()["actions"] == played


def test_a_computer_seat_moves_by_itself(client: TestClient) -> None:
    pytest.importorskip("sosgame.ai")
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bot", "player": "easy"}])
    for seat in join(client, created["id"], created["token"]):
        seat.send(type="move", move="Sb2", ply=0)
        seat.state(lambda g: g["ply"] == 1 and g["thinking"] == 1)
        state = seat.state(lambda g: g["ply"] >= 2 and g["turn"] == 0)
        assert state["thinking"] is None
        assert state["actions"][0] == "Sb2"
        reference = Game(3, 3, moves=state["actions"])
        assert state["scores"] == list(reference.scores)
        seat.send(type="hint")
        hint = seat.wait("hint")
        assert hint["move"] in reference.legal_moves
        # A 3x3 board a move in is within the solver's quick reach: the hint says if it is best.
        best = {str(move) for move in solve(reference).best_moves}
        assert hint["proven"] is (hint["move"] in best)


def test_a_player_out_of_time_loses_on_time(client: TestClient, fake_time: FakeTime) -> None:
    created = create(client, clock={"initial": 1, "increment": 0})
    for seat in join(client, created["id"], created["token"]):
        seat.send(type="move", move="Sb2", ply=0)
        state = seat.state(lambda g: g["ply"] == 1)
        # No clock runs until every seat has made its first move.
        assert state["clock"]["running"] is None
        seat.send(type="move", move="Oa1", ply=1)
        state = seat.state(lambda g: g["ply"] == 2)
        assert state["clock"]["running"] == 0
        assert state["clock"]["remaining"] == [1000, 1000]
        fake_time.advance(1.5)
        state = seat.state(lambda g: g["result"] is not None)
    assert state["result"]["termination"] == "timeout"
    assert state["result"]["winners"] == [1]
    assert state["result"]["flagged"] == [0]
    assert state["actions"] == ["Sb2", "Oa1", "resign:0"]
    assert state["clock"]["remaining"][0] == 0


def test_a_restarted_server_continues_the_game(database: str) -> None:
    with TestClient(create_app(database)) as first:
        created = create(first)
        for seat in join(first, created["id"], created["token"]):
            for ply, move in enumerate(["Sa1", "Ob1", "Sc1"]):
                seat.send(type="move", move=move, ply=ply)
                seat.state(lambda g, n=ply + 1: g["ply"] == n)
    with TestClient(create_app(database)) as second:
        for seat in join(second, created["id"], created["token"]):
            seat.send(type="move", move="Sa2", ply=3)
            state = seat.state(lambda g: g["ply"] == 4)
        assert state["actions"] == ["Sa1", "Ob1", "Sc1", "Sa2"]
        assert state["scores"] == [1, 0]
        assert state["turn"] == 1


class HeldSearches(ThreadPoolExecutor):
    """Runs each computer search only once the test lets it go, so the test, not the
    machine's speed, decides how long a search takes."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.started = threading.Event()
        self.release = threading.Event()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        def held() -> Any:
            self.started.set()
            if not self.release.wait(120):
                raise TimeoutError("the test never let the search go")
            return fn(*args, **kwargs)

        return super().submit(held)


def test_a_long_computer_search_does_not_hold_up_other_games(database: str) -> None:
    pytest.importorskip("sosgame.ai")
    searches = HeldSearches()
    with TestClient(create_app(database, computer=searches, computer_pause=0.0)) as client:
        slow = create(
            client,
            rows=7,
            cols=7,
            seats=[{"name": "Deep", "player": "hard"}, {"name": "Ann"}],
        )
        quick = create(client)
        for watcher in join(client, slow["id"], slow["token"]):
            assert searches.started.wait(120), "the computer never started thinking"
            assert client.get(f"/api/games/{slow['id']}").json()["thinking"] == 0
            for seat in join(client, quick["id"], quick["token"]):
                for ply, move in enumerate(["Sa1", "Ob1", "Sc1", "Sa2"]):
                    seat.send(type="move", move=move, ply=ply)
                    seat.state(lambda g, n=ply + 1: g["ply"] == n)
            # The other game went on from start to end while the search was still running.
            assert client.get(f"/api/games/{slow['id']}").json()["ply"] == 0
            searches.release.set()
            state = watcher.state(lambda g: g["ply"] == 1)
            assert state["thinking"] is None
            assert state["turn"] == 1
    searches.shutdown()
