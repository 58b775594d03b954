"""Correspondence games with a fake clock: days per move, the deadline each move resets,
running out of days (a loss with two seats, a seat out with three, an abort before every
seat has moved), the sweep of the store, and ``days`` refused when wrong."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

from sos_web import FakeTime, Seat, app_client
from sosgame.web import correspondence
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
