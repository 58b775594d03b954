"""A bot's account is marked wherever a game shows its players: the game's state (its page,
its spectators, its replay and its end), the lists of games, "My games", a player's page and
the bot game stream's ``gameFull``; a seat a bot takes in a game already open shows it at
once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sos_web import TestClient, app_client, receive_type
from test_web_accounts import claim
from test_web_bots import bot, game_between, state, token

Headers = dict[str, str]


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Any:
    with app_client(tmp_path / "games.sqlite3") as client:
        yield client


def person_against_bot(client: TestClient) -> tuple[str, Headers, Headers, Headers]:
    """A game of Ann (a person, seat 0) against Robo (a bot, seat 1): its id, Ann's session,
    Ann's token and Robo's token."""
    robo = bot(client, "Robo")
    ann_session = claim(client, "Ann")
    ann = token(client, ann_session)
    return game_between(client, ann, robo, "Robo"), ann_session, ann, robo


def test_the_game_state_marks_the_bot_s_seat(client: TestClient) -> None:
    game_id, _, ann, _ = person_against_bot(client)
    seats = state(client, game_id)["seats"]
    assert [(seat["name"], seat["bot"]) for seat in seats] == [("Ann", False), ("Robo", True)]
    # Its end too: the finished game's state says the same.
    assert client.post(f"/api/board/game/{game_id}/resign", headers=ann).status_code == 200
    finished = state(client, game_id)
    assert finished["status"] == "finished"
    assert [seat["bot"] for seat in finished["seats"]] == [False, True]


def test_the_lists_of_games_mark_the_bots(client: TestClient) -> None:
    game_id, ann_session, _, robo = person_against_bot(client)
    mine = client.get("/api/my-games", headers=ann_session).json()["games"]
    assert [(game["id"], game["players"], game["bots"]) for game in mine] == [
        (game_id, ["Ann", "Robo"], [False, True])
    ]
    page = client.get("/api/players/Ann").json()
    assert [(game["names"], game["bots"]) for game in page["games"]] == [
        (["Ann", "Robo"], [False, True])
    ]
    page = client.get("/api/players/Robo").json()
    assert [game["bots"] for game in page["games"]] == [[False, True]]
    # A public game a bot offers, in the public lists.
    body = {
        "kind": "online",
        "rows": 3,
        "cols": 3,
        "public": True,
        "seats": [{"name": "a"}, {"name": "b"}],
    }
    session = client.post("/api/session", json={"name": "Robo", "password": "a good password"})
    assert session.status_code == 200
    assert client.post("/api/games", json=body).status_code == 201
    client.cookies.clear()
    (offered,) = client.get("/api/games?list=open").json()["games"]
    assert offered["names"][0] == "Robo" and offered["bots"] == [True, False]
    assert robo  # the bot's own token plays on; only its session offered the game


def test_a_seat_a_bot_takes_in_an_open_game_is_marked_at_once(client: TestClient) -> None:
    bot(client, "Robo")
    body = {
        "kind": "online",
        "rows": 3,
        "cols": 3,
        "public": True,
        "seats": [{"name": "a"}, {"name": "b"}],
    }
    made = client.post("/api/games", json=body).json()
    assert [seat["bot"] for seat in state(client, made["id"])["seats"]] == [False, False]
    session = client.post("/api/session", json={"name": "Robo", "password": "a good password"})
    assert session.status_code == 200
    taken = client.post(f"/api/games/{made['id']}/seats/1", json={})
    assert taken.status_code == 200, taken.text
    client.cookies.clear()
    seats = state(client, made["id"])["seats"]
    assert [(seat["name"], seat["bot"]) for seat in seats] == [
        (seats[0]["name"], False),
        ("Robo", True),
    ]
    # A spectator's socket is told too.
    with client.websocket_connect(f"/ws/games/{made['id']}") as socket:
        socket.send_text(json.dumps({"v": 1, "type": "hello", "tokens": []}))
        for _ in range(10):
            message = socket.receive_json()
            if message["type"] == "state":
                break
        assert [seat["bot"] for seat in message["game"]["seats"]] == [False, True]


def test_the_game_stream_s_game_full_says_which_players_are_bots(client: TestClient) -> None:
    game_id, _, ann, robo = person_against_bot(client)
    assert client.post(f"/api/board/game/{game_id}/resign", headers=ann).status_code == 200
    # A finished game's stream says the whole game and ends.
    with client.stream("GET", f"/api/bot/game/stream/{game_id}", headers=robo) as answer:
        lines = [json.loads(line) for line in answer.iter_lines() if line.strip()]
    full = lines[0]
    assert full["type"] == "gameFull"
    assert [(one["name"], one["bot"]) for one in full["players"]] == [
        ("Ann", False),
        ("Robo", True),
    ]


def test_a_bot_s_chat_says_it_is_a_bot_in_the_spectators_room(client: TestClient) -> None:
    game_id, _, ann, robo = person_against_bot(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as watcher:
        watcher.send_json({"v": 1, "type": "hello", "token": None})
        receive_type(watcher, "welcome")
        said = client.post(
            f"/api/bot/game/{game_id}/chat",
            json={"room": "spectator", "text": "hi all"},
            headers=robo,
        )
        assert said.status_code == 200
        heard = receive_type(watcher, "chat")
        # Not in a seat in the spectators' room: only the flag says it is the bot's.
        assert (heard["seat"], heard["name"], heard.get("bot")) == (None, "Robo", True)
        # A person's message through the board API is no bot's.
        said = client.post(
            f"/api/board/game/{game_id}/chat",
            json={"room": "spectator", "text": "hello"},
            headers=ann,
        )
        assert said.status_code == 200
        heard = receive_type(watcher, "chat")
        assert (heard["name"], "bot" in heard) == ("Ann", False)


def test_the_game_s_record_names_the_seats_a_bot_played(client: TestClient) -> None:
    game_id, ann_session, _, _ = person_against_bot(client)
    record = client.get(f"/api/games/{game_id}/record", headers=ann_session)
    assert record.status_code == 200, record.text
    tags = record.json()["meta"]["tags"]
    assert record.json()["players"] == ["Ann", "Robo"]
    assert tags["sosgame.bots"] == "1"
    # Between people, no such tag.
    body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "Cy"}, {"name": "Di"}]}
    made = client.post("/api/games", json=body).json()
    plain = client.get(
        f"/api/games/{made['id']}/record", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert plain.status_code == 200, plain.text
    assert "sosgame.bots" not in plain.json()["meta"]["tags"]
