"""Once every seat has made its first move the game has begun for good: a takeback of a
first move does not open the abort again, in this process, in another that has the game in
memory, or after a restart."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest

from sos_web import app_client
from sosgame.web.live.protocol import parse_new_game
from sosgame.web.matchmaking.creation import create, take_seat
from test_web_fairplay import offers, online, play, seated
from test_web_hubs import Client, run, two_hubs

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("clock", [None, {"initial": 60, "increment": 0}])
def test_a_takeback_of_the_second_seats_first_move_does_not_open_the_abort_again(
    tmp_path: Path, clock: dict[str, int] | None
) -> None:
    database = tmp_path / "games.sqlite3"
    with app_client(database) as client:
        game, ann, bao = online(client, **({"clock": clock} if clock else {}))
        with ExitStack() as stack:
            seats = seated(stack, client, game, ann, bao)
            play(seats, 0, "Sa1", 0)
            play(seats, 1, "Ob1", 1)
            seats[1].send(type="offer", offer="takeback", ply=2)
            seats[0].state(lambda g: offers(g) == [("takeback", 1, [1])])
            seats[0].send(type="answer", offer="takeback", accept=True, ply=2)
            state = seats[1].state(lambda g: g["ply"] == 1)
            assert state["can_abort"] is False and state["first_move"] is None
            if clock:  # the clocks run on: no first-move timer aborts it
                assert state["clock"]["running"] == 1
            seats[1].send(type="abort", ply=1)
            assert seats[1].error()["code"] == "not_allowed"
    # Loaded again from the store, as after a restart.
    with app_client(database) as client:
        state = client.get(f"/api/games/{game}").json()
        assert state["ply"] == 1 and state["status"] == "playing"
        assert state["can_abort"] is False
        with ExitStack() as stack:
            seats = seated(stack, client, game, ann, bao)
            seats[0].send(type="abort", ply=1)
            assert seats[0].error()["code"] == "not_allowed"


def test_another_process_with_the_game_in_memory_keeps_it_begun(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, two):
            settings = {"kind": "online", "seats": [{"name": "Ann"}, {"name": "Bao"}]}
            room, ann, _mine = await create(one, parse_new_game({"rows": 3, "cols": 3, **settings}))
            bao = await take_seat(one, room, 1, "Bao", room.seats[1].invite)
            first, second, elsewhere = Client(one), Client(one), Client(two)
            await first.join(room.id, ann)
            await second.join(room.id, bao)
            await elsewhere.join(room.id, ann)
            await first.send(type="move", move="Sa1", ply=0)
            await second.send(type="move", move="Ob1", ply=1)
            await elsewhere.state(lambda g: g["ply"] == 2)
            elsewhere.messages.clear()
            await second.send(type="offer", offer="takeback", ply=2)
            # It has read the offer before the takeback: it hears the takeback as a change.
            await elsewhere.state(lambda g: bool(g["offers"]))
            await first.send(type="answer", offer="takeback", accept=True, ply=2)
            await elsewhere.state(lambda g: g["ply"] == 1)
            assert two.rooms[room.id].fair_state()["can_abort"] is False
            await elsewhere.send(type="abort", ply=1)
            answer = await elsewhere.until(
                lambda m: m["type"] == "error" or (m["type"] == "state" and m["game"]["result"])
            )
            assert answer.get("code") == "not_allowed"

    run(scenario)
