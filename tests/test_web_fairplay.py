"""Fair play between people, over the WebSocket with a fake clock: honest clocks, aborts (by
button and by the first-move timer), offers of a draw, a takeback and a rematch (accepted,
declined, withdrawn, lapsed), claims against an absent player, and which games are rated."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

from sos_web import FakeTime, Message, Seat, app_client
from sosgame.record import Record

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Client = Any


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return FakeTime.install(monkeypatch)


@pytest.fixture
def client(tmp_path: Path, fake_time: FakeTime) -> Iterator[Client]:
    with app_client(tmp_path / "games.sqlite3") as test_client:
        yield test_client


def online(client: Client, players: int = 2, headers: Any = None, **settings: Any) -> list[str]:
    """An online game of people; every seat's token (the first the creator's)."""
    body = {
        "rows": 4,
        "cols": 4,
        "kind": "online",
        "seats": [{"name": f"P{n}"} for n in range(players)],
        **settings,
    }
    created = client.post("/api/games", json=body, headers=headers)
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = [game["id"], game["token"]]
    for seat in range(1, players):
        invite = game["links"]["seats"][seat].rsplit("/", 1)[1]
        taken = client.post(f"/api/games/{game['id']}/seats/{seat}", json={"invite": invite})
        assert taken.status_code == 200, taken.text
        tokens.append(taken.json()["token"])
    return tokens


def seated(stack: ExitStack, client: Client, game: str, *tokens: str) -> list[Seat]:
    """A connection for each token, greeted."""
    seats = []
    for token in tokens:
        seat = Seat(stack.enter_context(client.websocket_connect(f"/ws/games/{game}")))
        seat.send(type="hello", token=token)
        seat.wait("welcome")
        seat.state()
        seats.append(seat)
    return seats


def play(seats: list[Seat], mover: int, move: str, ply: int) -> Message:
    """``mover`` plays ``move``; the state everyone then has."""
    seats[mover].send(type="move", move=move, ply=ply)
    states = [seat.state(lambda g, n=ply + 1: g["ply"] == n) for seat in seats]
    return states[0]


def offers(state: Message) -> list[tuple[str, int, list[int]]]:
    return [(item["offer"], item["from"], item["accepted"]) for item in state["offers"]]


# ----------------------------------------------------------------------- honest clocks


def test_no_clock_runs_until_every_seat_has_made_its_first_move(
    client: Client, fake_time: FakeTime
) -> None:
    game, ann, bao = online(client, clock={"initial": 60, "increment": 2})
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        state = client.get(f"/api/games/{game}").json()
        assert state["clock"]["running"] is None
        assert state["can_abort"] is True
        assert state["first_move"]["seat"] == 0
        fake_time.advance(20)
        state = play(seats, 0, "Sa1", 0)
        # Twenty seconds went by, but no time was spent and no increment given.
        assert state["clock"]["remaining"] == [60_000, 60_000]
        assert state["clock"]["running"] is None
        assert state["first_move"] == {"seat": 1, "left": 30_000}
        fake_time.advance(29)
        state = play(seats, 1, "Ob1", 1)
        assert state["clock"]["remaining"] == [60_000, 60_000]
        assert state["clock"]["running"] == 0
        assert state["can_abort"] is False and state["first_move"] is None
        fake_time.advance(5)
        state = play(seats, 0, "Sc1", 2)
        assert state["clock"]["remaining"] == [57_000, 60_000]


@pytest.mark.parametrize("moves", [0, 1])
def test_a_seat_that_misses_its_first_move_aborts_the_game(
    client: Client, fake_time: FakeTime, moves: int
) -> None:
    game, ann, bao = online(client, clock={"initial": 60, "increment": 0})
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        if moves:
            play(seats, 0, "Sa1", 0)
        fake_time.advance(29)
        seats[0].send(type="ping")
        seats[0].wait("pong")
        assert client.get(f"/api/games/{game}").json()["result"] is None
        fake_time.advance(2)
        state = seats[1].state(lambda g: g["result"] is not None)
    assert state["status"] == "finished"
    assert state["result"]["termination"] == "aborted"
    assert state["result"]["winners"] == []
    assert state["clock"]["running"] is None


def test_any_player_aborts_until_every_seat_has_moved(client: Client) -> None:
    game, ann, bao = online(client)
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        play(seats, 0, "Sa1", 0)
        play(seats, 1, "Ob1", 1)
        seats[0].send(type="abort", ply=2)
        assert seats[0].error()["code"] == "not_allowed"
    game, ann, bao = online(client)
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        play(seats, 0, "Sa1", 0)
        seats[1].send(type="abort", ply=1)
        state = seats[0].state(lambda g: g["result"] is not None)
        assert state["result"]["termination"] == "aborted"
        seats[0].send(type="move", move="Sd4", ply=1)
        assert seats[0].error()["code"] == "game_over"
    # The record of an aborted game says so, and loads again as that finished game.
    data = client.get(f"/api/games/{game}/record").json()
    assert data["result"] == {"termination": "aborted", "winners": [], "scores": [0, 0]}
    assert Record.from_dict(data).moves == ["Sa1"]
    uploaded = client.post("/api/records", json=data)
    assert uploaded.status_code == 201, uploaded.text
    state = client.get(f"/api/games/{uploaded.json()['id']}").json()
    assert state["status"] == "finished"
    assert state["result"]["termination"] == "aborted"


# ------------------------------------------------------------------------------ offers


def test_a_draw_offer_is_declined_withdrawn_lapses_and_is_accepted(client: Client) -> None:
    game, ann, bao = online(client)
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        spectator = seated(stack, client, game, "")[0]
        play(seats, 0, "Sa1", 0)
        # Declined.
        seats[0].send(type="offer", offer="draw", ply=1)
        shown = spectator.state(lambda g: bool(g["offers"]))
        assert offers(shown) == [("draw", 0, [0])]
        seats[0].send(type="offer", offer="draw", ply=1)
        assert seats[0].error()["code"] == "not_allowed"  # it stands already
        seats[1].send(type="answer", offer="draw", accept=False, ply=1)
        assert spectator.state(lambda g: not g["offers"])["result"] is None
        # Withdrawn (only by whoever made it).
        seats[0].send(type="offer", offer="draw", ply=1)
        spectator.state(lambda g: bool(g["offers"]))
        seats[1].send(type="withdraw", offer="draw", ply=1)
        assert seats[1].error()["code"] == "not_your_seat"
        seats[0].send(type="withdraw", offer="draw", ply=1)
        spectator.state(lambda g: not g["offers"])
        # Lapses when the position changes.
        seats[0].send(type="offer", offer="draw", ply=1)
        spectator.state(lambda g: bool(g["offers"]))
        assert play([*seats, spectator], 1, "Ob1", 1)["offers"] == []
        seats[0].send(type="answer", offer="draw", accept=True, ply=2)
        assert seats[0].error()["code"] == "no_offer"
        # Accepted: every active seat agreed.
        seats[1].send(type="offer", offer="draw", ply=2)
        seats[0].state(lambda g: bool(g["offers"]))
        seats[0].send(type="answer", offer="draw", accept=True, ply=2)
        state = spectator.state(lambda g: g["result"] is not None)
    assert state["result"]["termination"] == "agreement"
    assert state["result"]["winners"] == [0, 1]
    assert state["offers"] == []


def test_a_takeback_undoes_back_to_the_askers_last_move(client: Client) -> None:
    game, ann, bao = online(client)
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        seats[1].send(type="offer", offer="takeback", ply=0)
        assert seats[1].error()["code"] == "nothing_to_undo"
        play(seats, 0, "Sa1", 0)
        play(seats, 1, "Ob1", 1)
        play(seats, 0, "Sc1", 2)  # an SOS: Ann moves again
        play(seats, 0, "Od4", 3)
        seats[1].send(type="offer", offer="takeback", ply=4)
        seats[0].state(lambda g: offers(g) == [("takeback", 1, [1])])
        seats[0].send(type="answer", offer="takeback", accept=True, ply=4)
        state = seats[1].state(lambda g: g["ply"] == 1)
    # Bao's last move and everything after it are taken back: Bao is to move again.
    assert state["actions"] == ["Sa1"]
    assert state["turn"] == 1
    assert state["offers"] == []


def test_a_draw_among_three_needs_every_active_seat(client: Client) -> None:
    game, *tokens = online(client, players=3)
    with ExitStack() as stack:
        seats = seated(stack, client, game, *tokens)
        seats[2].send(type="offer", offer="draw", ply=0)
        seats[0].state(lambda g: offers(g) == [("draw", 2, [2])])
        seats[0].send(type="answer", offer="draw", accept=True, ply=0)
        state = seats[1].state(lambda g: offers(g) == [("draw", 2, [0, 2])])
        assert state["result"] is None
        seats[1].send(type="offer", offer="draw", ply=0)  # the same offer: an acceptance
        state = seats[2].state(lambda g: g["result"] is not None)
    assert state["result"]["termination"] == "agreement"
    assert state["result"]["winners"] == [0, 1, 2]


def test_offers_are_for_the_players_of_an_online_game(client: Client) -> None:
    game, *_ = online(client)
    with ExitStack() as stack:
        spectator = seated(stack, client, game, "")[0]
        spectator.send(type="offer", offer="draw", ply=0)
        assert spectator.error()["code"] == "not_your_seat"
    body = {"rows": 3, "cols": 3, "seats": [{"name": "A"}, {"name": "B"}]}
    local = client.post("/api/games", json=body).json()
    with ExitStack() as stack:
        seat = seated(stack, client, local["id"], local["token"])[0]
        seat.send(type="offer", offer="draw", ply=0)
        assert seat.error()["code"] == "not_allowed"


def test_a_rematch_waits_for_everyone_and_its_clock_for_the_players(
    client: Client, fake_time: FakeTime
) -> None:
    game, ann, bao = online(client, clock={"initial": 60, "increment": 2})
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann, bao)
        seats[0].send(type="offer", offer="rematch")
        assert seats[0].error()["code"] == "not_allowed"  # the game goes on
        play(seats, 0, "Sa1", 0)
        play(seats, 1, "Ob1", 1)
        seats[0].send(type="resign", ply=2)
        seats[1].state(lambda g: g["result"] is not None)
        # Offered, then lapsed after a while.
        seats[0].send(type="offer", offer="rematch")
        state = seats[1].state(lambda g: bool(g["offers"]))
        assert offers(state) == [("rematch", 0, [0])]
        assert state["offers"][0]["lapses"] == 120_000
        fake_time.advance(121)
        seats[1].state(lambda g: not g["offers"])
        seats[1].send(type="answer", offer="rematch", accept=True)
        assert seats[1].error()["code"] == "no_offer"
        # Offered and declined.
        seats[0].send(type="offer", offer="rematch")
        seats[1].state(lambda g: bool(g["offers"]))
        seats[1].send(type="answer", offer="rematch", accept=False)
        seats[0].state(lambda g: not g["offers"])
        # Offered over HTTP and accepted over the WebSocket: made only now.
        asked = client.post(
            f"/api/games/{game}/rematch", headers={"authorization": f"Bearer {ann}"}
        )
        assert asked.status_code == 202
        assert client.get(f"/api/games/{game}").json()["rematch"] is None
        seats[1].state(lambda g: bool(g["offers"]))
        seats[1].send(type="answer", offer="rematch", accept=True)
        new = seats[0].wait("rematch")["game"]
    state = client.get(f"/api/games/{new}").json()
    assert [seat["name"] for seat in state["seats"]] == ["P1", "P0"]
    assert state["clock"]["running"] is None
    assert state["clock"]["remaining"] == [60_000, 60_000]
    assert (state["clock"]["initial"], state["clock"]["increment"]) == (60_000, 2_000)
    # Its first-move timer waits for the seat to move (P1, now seat 0) to open it: a
    # spectator, or the other player, starts nothing.
    assert state["first_move"] is None
    with ExitStack() as stack:
        watcher = seated(stack, client, new, "")[0]
        seated(stack, client, new, ann)
        fake_time.advance(31)
        assert client.get(f"/api/games/{new}").json()["first_move"] is None
        seated(stack, client, new, bao)
        shown = watcher.state(lambda g: g["first_move"] is not None)
        assert shown["first_move"] == {"seat": 0, "left": 30_000}
        # P1 opened it but does not move: the rematch is aborted, and nobody lost any time.
        fake_time.advance(31)
        over = watcher.state(lambda g: g["result"] is not None)
    assert over["result"]["termination"] == "aborted"
    assert over["clock"]["remaining"] == [60_000, 60_000]


# -------------------------------------------------------------------------- abandonment


def comes_and_goes(client: Client, game: str, token: str, other: Seat) -> Message:
    """The seat of ``token`` connects, then leaves; the state ``other`` then gets."""
    with client.websocket_connect(f"/ws/games/{game}") as leaving:
        Seat(leaving).send(type="hello", token=token)
        other.state(lambda g: g["abandon"]["away"] == [None, None])
    return other.state(lambda g: g["abandon"]["away"][1] is not None)


def test_a_player_left_claims_the_win_once_the_other_has_been_away_long_enough(
    client: Client, fake_time: FakeTime
) -> None:
    game, ann, bao = online(client)
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann)
        state = comes_and_goes(client, game, bao, seats[0])
        assert state["abandon"]["after"] == 60_000
        assert state["abandon"]["away"][0] is None
        fake_time.advance(30)
        seats[0].send(type="claim", claim="win", ply=0)
        assert seats[0].error()["code"] == "not_abandoned"
        fake_time.advance(31)
        seats[0].send(type="claim", claim="win", ply=0)
        state = seats[0].state(lambda g: g["result"] is not None)
    assert state["result"]["termination"] == "abandoned"
    assert state["result"]["winners"] == [0]
    assert state["actions"] == ["resign:1"]


def test_a_player_back_in_time_sees_how_long_they_were_away(
    client: Client, fake_time: FakeTime
) -> None:
    game, ann, bao = online(client)
    with ExitStack() as stack:
        seats = seated(stack, client, game, ann)
        comes_and_goes(client, game, bao, seats[0])
        fake_time.advance(45)
        back = seated(stack, client, game, bao)[0]
        state = seats[0].state(lambda g: g["abandon"]["back"][1] is not None)
        assert state["abandon"]["back"] == [None, 45_000]
        assert state["abandon"]["away"] == [None, None]
        # A claim now is refused: nobody is away.
        seats[0].send(type="claim", claim="win", ply=0)
        assert seats[0].error()["code"] == "not_abandoned"
        # Once the game moves on, it is no longer said.
        assert play([*seats, back], 0, "Sa1", 0)["abandon"]["back"] == [None, None]


def test_with_three_the_absent_seat_resigns_and_the_game_goes_on(
    client: Client, fake_time: FakeTime
) -> None:
    game, *tokens = online(client, players=3)
    with ExitStack() as stack:
        seats = seated(stack, client, game, *tokens[:2])
        fake_time.advance(61)
        seats[1].send(type="claim", claim="win", ply=0)
        state = seats[0].state(lambda g: g["ply"] == 1)
        assert state["result"] is None
        assert [seat["resigned"] for seat in state["seats"]] == [False, False, True]
    # A game with a clock is never claimed: its clock decides.
    game, ann, _ = online(client, clock={"initial": 60, "increment": 0})
    with ExitStack() as stack:
        seat = seated(stack, client, game, ann)[0]
        fake_time.advance(20)
        seat.send(type="claim", claim="draw", ply=0)
        assert seat.error()["code"] == "not_allowed"


def test_a_claimed_draw_ends_the_game_for_everyone(client: Client, fake_time: FakeTime) -> None:
    game, ann, _ = online(client)
    with ExitStack() as stack:
        seat = seated(stack, client, game, ann)[0]
        fake_time.advance(61)
        seat.send(type="claim", claim="draw", ply=0)
        state = seat.state(lambda g: g["result"] is not None)
    assert state["result"]["termination"] == "abandoned"
    assert state["result"]["winners"] == [0, 1]


# ------------------------------------------------------------------------------ ratings


def _named(client: Client, name: str) -> dict[str, str]:
    response = client.post("/api/players", json={"name": name, "password": "a good password"})
    assert response.status_code == 201, response.text
    cookie = client.cookies.get("sos_session")
    client.cookies.clear()
    return {"cookie": f"sos_session={cookie}"}


def _rated(client: Client, name: str, game: str, headers: Any) -> Any:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        games = client.get(f"/api/players/{name}", headers=headers).json()["games"]
        found = next(item for item in games if item["id"] == game)
        if found["rated"] is not None:
            return found["rated"]
        time.sleep(0.05)  # polling for an event (the rating done in the background)
    raise AssertionError("the game was never judged")


def _named_game(client: Client, ann: Any, bao: Any, **settings: Any) -> tuple[str, str, str]:
    body = {"rows": 4, "cols": 4, "kind": "online", "seats": [{"name": "x"}, {"name": "y"}]}
    created = client.post("/api/games", json={**body, **settings}, headers=ann).json()
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    taken = client.post(
        f"/api/games/{created['id']}/seats/1", json={"invite": invite}, headers=bao
    ).json()
    return created["id"], created["token"], taken["token"]


def test_aborted_agreed_early_and_casual_games_are_not_rated(client: Client) -> None:
    ann, bao = _named(client, "Ann"), _named(client, "Bao")
    moves = ["Sa1", "Ob1", "Sa4", "Sd1", "Od4"]
    for ending in ("abort", "agreement", "casual"):
        settings = {"rated": False} if ending == "casual" else {}
        game, one, two = _named_game(client, ann, bao, **settings)
        assert client.get(f"/api/games/{game}").json()["rated"] is (ending != "casual")
        with ExitStack() as stack:
            seats = seated(stack, client, game, one, two)
            played = 1 if ending == "abort" else (3 if ending == "agreement" else 5)
            for ply, move in enumerate(moves[:played]):
                play(seats, ply % 2, move, ply)
            if ending == "abort":
                seats[1].send(type="abort", ply=1)
            elif ending == "agreement":
                seats[1].send(type="offer", offer="draw", ply=played)
                seats[0].state(lambda g: bool(g["offers"]))
                seats[0].send(type="answer", offer="draw", accept=True, ply=played)
            else:
                seats[0].send(type="resign", ply=played)
            seats[0].state(lambda g: g["result"] is not None)
        assert _rated(client, "Ann", game, ann) is False, ending
    assert client.get("/api/players/Ann").json()["rated_games"] == 0


def test_the_lobby_says_whether_a_game_is_rated(client: Client) -> None:
    ann = _named(client, "Ann")
    body = {"rows": 3, "cols": 3, "kind": "online", "public": True}
    seats = [{"name": "x"}, {"name": "y"}]
    client.post("/api/games", json={**body, "seats": seats}, headers=ann)
    client.post("/api/games", json={**body, "seats": seats, "rated": False}, headers=ann)
    client.post("/api/games", json={**body, "seats": seats})  # a guest's: never rated
    listed = client.get("/api/lobby").json()["games"]
    assert sorted(item["rated"] for item in listed) == [False, False, True]
    refused = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": seats, "rated": True})
    assert refused.json()["error"]["code"] == "bad_field"


def test_fair_play_messages_with_bad_fields_are_refused(client: Client) -> None:
    game, ann, _ = online(client)
    with ExitStack() as stack:
        seat = seated(stack, client, game, ann)[0]
        for message in (
            {"type": "offer", "offer": "resign"},
            {"type": "answer", "offer": "draw", "accept": "yes"},
            {"type": "claim", "claim": "everything"},
            {"type": "offer"},
        ):
            seat.socket.send_text(json.dumps({"v": 1, **message}))
            assert seat.error()["code"] in ("bad_field", "bad_message")


def test_the_first_move_timer_stands_still_while_the_server_is_down(
    tmp_path: Path, fake_time: FakeTime
) -> None:
    database = tmp_path / "restart.sqlite3"
    with app_client(database) as first:
        game, ann, bao = online(first, clock={"initial": 60, "increment": 0})
        fake_time.advance(20)
    fake_time.advance(600)  # the server is down
    with app_client(database) as second, ExitStack() as stack:
        seats = seated(stack, second, game, ann, bao)
        state = second.get(f"/api/games/{game}").json()
        assert state["result"] is None
        assert state["first_move"] == {"seat": 0, "left": 30_000}
        fake_time.advance(31)
        over = seats[0].state(lambda g: g["result"] is not None)
    assert over["result"]["termination"] == "aborted"


def test_the_clocks_stand_still_while_the_server_is_down(
    tmp_path: Path, fake_time: FakeTime
) -> None:
    database = tmp_path / "restart.sqlite3"
    with app_client(database) as first, ExitStack() as stack:
        game, ann, bao = online(first, clock={"initial": 60, "increment": 0})
        seats = seated(stack, first, game, ann, bao)
        play(seats, 0, "Sa1", 0)
        play(seats, 1, "Ob1", 1)
        fake_time.advance(20)
    fake_time.advance(600)  # the server is down
    with app_client(database) as second, ExitStack() as stack:
        # The mover has the time it had left when the server stopped.
        clock = second.get(f"/api/games/{game}").json()["clock"]
        assert (clock["remaining"], clock["running"]) == ([40_000, 60_000], 0)
        seats = seated(stack, second, game, ann, bao)
        fake_time.advance(41)
        over = seats[1].state(lambda g: g["result"] is not None)
    assert over["result"]["termination"] == "timeout"
    assert over["result"]["winners"] == [1]
