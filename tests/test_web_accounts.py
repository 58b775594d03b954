"""Named players over HTTP, through the real app: claiming a name, logging in, sessions the
server ends (log out, everywhere, a new password), bad input, names that look blank or like
a claimed one, the login rate limit, seats taken by named players, rated games and those
too short or too often repeated to count, the leaderboard, a player's page and the lobby."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sos_play import QUIET_MOVES, play_then_resign
from sosgame.limits import WEB_MAX_NAME
from sosgame.web import create_app
from sosgame.web.config import ServerLimits
from sosgame.web.guards.limits import MAX_PASSWORD, MIN_PASSWORD
from sosgame.web.people.accounts import COOKIE
from sosgame.web.people.ratings import COMPUTER_RATINGS, NEW_PLAYER

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ATTEMPTS = 6


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    executor = ThreadPoolExecutor(max_workers=1)
    caps = ServerLimits(login_attempts_per_minute=ATTEMPTS)
    app = create_app(database, computer=executor, computer_pause=0.01, server_limits=caps)
    with TestClient(app) as test_client:
        yield test_client
    executor.shutdown()


def claim(client: TestClient, name: str, password: str = "a good password") -> dict[str, str]:
    """Claim a name; the cookie header of its session (the client keeps no cookie)."""
    return session_of(client, "/api/players", 201, name, password)


def browser(client: TestClient, name: str, password: str = "a good password") -> dict[str, str]:
    """Log in as another browser would: the cookie header of a new session."""
    return session_of(client, "/api/session", 200, name, password)


def session_of(
    client: TestClient, path: str, status: int, name: str, password: str
) -> dict[str, str]:
    response = client.post(path, json={"name": name, "password": password})
    assert response.status_code == status, response.text
    session = client.cookies.get(COOKIE)
    client.cookies.clear()
    assert session
    return {"cookie": f"{COOKIE}={session}"}


def error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()["error"]
    assert body["code"] == code
    message: str = body["message"]
    return message


def play_to_resignation(
    client: TestClient, game_id: str, token: str, *others: str, moves: tuple[str, ...] = ()
) -> None:
    """Play ``moves`` (with the tokens of every seat they need), then seat 0 resigns."""
    with client.websocket_connect(f"/ws/games/{game_id}") as socket:
        play_then_resign(socket.send_text, socket.receive_json, [token, *others], moves)


def online_game(client: TestClient, creator: dict[str, str], *, public: bool) -> Any:
    """A 3x3 online game of two seats, made by a logged-in player (who takes seat 0)."""
    body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "x"}, {"name": "y"}]}
    if public:
        body["public"] = True
    response = client.post("/api/games", json=body, headers=creator)
    assert response.status_code == 201, response.text
    return response.json()


def wait_for(client: TestClient, path: str, until: Any) -> Any:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        body = client.get(path).json()
        if until(body):
            return body
        time.sleep(0.05)  # polling for an event (the rating done in the background)
    raise AssertionError(f"{path} never showed it")


def test_claiming_a_name_logs_in_and_the_session_survives(client: TestClient) -> None:
    assert client.get("/api/session").json() == {"player": None}
    response = client.post("/api/players", json={"name": "  Ann  ", "password": "a good one!"})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert response.json()["player"]["name"] == "Ann"
    assert "hash" not in json.dumps(response.json())
    assert client.get("/api/session").json()["player"]["name"] == "Ann"
    assert client.delete("/api/session").json() == {"player": None}
    assert client.get("/api/session").json() == {"player": None}
    login = client.post("/api/session", json={"name": "ANN", "password": "a good one!"})
    assert login.status_code == 200
    assert client.get("/api/session").json()["player"]["name"] == "Ann"


def test_a_forged_or_foreign_cookie_is_a_guest(client: TestClient) -> None:
    headers = claim(client, "Ann")
    forged = headers["cookie"][:-3] + "abc"
    assert client.get("/api/session", headers={"cookie": forged}).json() == {"player": None}
    assert client.get("/api/session", headers=headers).json()["player"]["name"] == "Ann"


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        ({"name": "Ann", "password": "short"}, 400, "weak_password", f"at least {MIN_PASSWORD}"),
        ({"name": "Ann", "password": "x" * (MAX_PASSWORD + 1)}, 400, "weak_password", "too long"),
        ({"name": "Annabelle", "password": "ANNABELLE"}, 400, "weak_password", "the name"),
        ({"name": "Ann", "password": "aaaaaaaaaa"}, 400, "weak_password", "repeated"),
        (
            {"name": "A" * (WEB_MAX_NAME + 1), "password": "a good password"},
            400,
            "bad_field",
            "name",
        ),
        ({"name": "", "password": "a good password"}, 400, "bad_field", "name"),
        ({"name": "An\u202en", "password": "a good password"}, 400, "bad_field", "control"),
        ({"name": "Ann"}, 400, "bad_field", "password"),
        ({"name": "Ann", "password": 12345678}, 400, "bad_field", "password"),
    ],
)
def test_bad_claims_are_refused_with_clear_errors(
    client: TestClient, body: dict[str, Any], status: int, code: str, words: str
) -> None:
    message = error(client.post("/api/players", json=body), status, code)
    assert words in message
    assert client.get("/api/players").json()["players"] == []
    assert client.get("/api/session").json() == {"player": None}


def test_a_taken_name_and_a_wrong_password_are_refused(client: TestClient) -> None:
    claim(client, "Ann")
    message = error(
        client.post("/api/players", json={"name": "ann", "password": "another password"}),
        409,
        "name_taken",
    )
    assert "taken" in message
    wrong = client.post("/api/session", json={"name": "Ann", "password": "not the password"})
    assert error(wrong, 401, "wrong_password") == "wrong name or password"
    nobody = client.post("/api/session", json={"name": "Nobody", "password": "whatever it is"})
    assert error(nobody, 401, "wrong_password") == "wrong name or password"
    assert client.get("/api/session").json() == {"player": None}


def test_logins_are_rate_limited_per_address(client: TestClient) -> None:
    claim(client, "Ann")  # one attempt
    for _ in range(ATTEMPTS - 1):
        wrong = client.post("/api/session", json={"name": "Ann", "password": "guess guess"})
        error(wrong, 401, "wrong_password")
    right = client.post("/api/session", json={"name": "Ann", "password": "a good password"})
    message = error(right, 429, "rate_limited")
    assert f"at most {ATTEMPTS} a minute" in message
    assert client.get("/api/session").json() == {"player": None}


def test_a_game_between_named_players_is_rated_and_listed(client: TestClient) -> None:
    ann, bao = claim(client, "Ann"), claim(client, "Bao")
    created = online_game(client, ann, public=True)
    game = created["id"]
    (listed,) = client.get("/api/lobby").json()["games"]
    assert listed["id"] == game and listed["open_seats"] == [1]
    assert listed["seats"][0]["name"] == "Ann"  # the named player's seat has their name
    assert listed["seats"][0]["rating"]["rating"] == 0.0
    taken = client.post(f"/api/games/{game}/seats/1", json={"name": "ignored"}, headers=bao)
    assert taken.status_code == 200
    assert client.get(f"/api/games/{game}").json()["seats"][1]["name"] == "Bao"
    assert client.get("/api/lobby").json()["games"] == []  # no free seat any more
    bao_token = taken.json()["token"]
    play_to_resignation(client, game, created["token"], bao_token, moves=QUIET_MOVES)  # Ann resigns
    page = wait_for(client, "/api/players/bao", lambda body: body["rated_games"] == 1)
    # Both new: provisional, so off the leaderboard (the computer levels are on it).
    board = client.get("/api/players").json()
    assert board["players"] == []
    assert {computer["level"] for computer in board["computers"]} == set(COMPUTER_RATINGS)
    assert page["name"] == "Bao" and page["provisional"] is True
    assert client.get("/api/session", headers=ann).json()["player"]["provisional"] is True
    assert [(item["id"], item["rated"]) for item in page["games"]] == [(game, True)]
    assert [point["game"] for point in page["history"]] == [game]
    assert page["history"][0]["rating"] == page["rating"] > 0
    error(client.get("/api/players/Nobody"), 404, "no_player")
    error(client.get("/api/players/%ED%A0%80"), 404, "no_player")  # not UTF-8
    # The rematch, once both accept, seats the same named players: it is rated too.
    offered = client.post(
        f"/api/games/{game}/rematch", headers={"authorization": f"Bearer {created['token']}"}
    )
    assert offered.status_code == 202
    assert offered.json()["offer"]["accepted"] == [0]
    again = client.post(
        f"/api/games/{game}/rematch", headers={"authorization": f"Bearer {bao_token}"}
    )
    assert again.status_code == 201
    rematch = again.json()["id"]
    play_to_resignation(client, rematch, created["token"], bao_token, moves=QUIET_MOVES)
    ann_page = wait_for(client, "/api/players/Ann", lambda body: len(body["history"]) == 2)
    # Each game says what it did to each player's rating: the rematch starts where the
    # first game left each of them.
    first = client.get(f"/api/games/{game}/ratings").json()
    second = client.get(f"/api/games/{rematch}/ratings").json()
    assert first["rated"] is True and second["rated"] is True
    assert [seat["before"]["rating"] for seat in first["seats"]] == [0.0, 0.0]
    by_seat = {seat["seat"]: seat for seat in first["seats"]}
    ann_after_first = ann_page["history"][0]
    assert by_seat[0]["after"]["mu"] == ann_after_first["mu"]
    assert by_seat[1]["after"]["rating"] == page["rating"]
    # The rematch swapped the seats: Ann now plays seat 1.
    assert second["seats"][1]["before"]["mu"] == ann_after_first["mu"]
    assert second["seats"][1]["after"]["mu"] == ann_page["history"][1]["mu"]


def test_a_guest_seat_leaves_the_game_unrated(client: TestClient) -> None:
    ann = claim(client, "Ann")
    created = online_game(client, ann, public=True)
    assert (
        client.post(f"/api/games/{created['id']}/seats/1", json={"name": "Guest"}).status_code
        == 200
    )
    play_to_resignation(client, created["id"], created["token"])
    page = wait_for(
        client, "/api/players/Ann", lambda body: body["games"][0]["status"] == "finished"
    )
    assert page["history"] == [] and page["rated_games"] == 0
    assert client.get("/api/players").json()["players"] == []
    found = client.get(f"/api/games/{created['id']}/ratings").json()
    # Not rated: Ann's rating is where every new player starts, before and after.
    assert found == {
        "rated": False,
        "seats": [{"seat": 0, "before": NEW_PLAYER.to_json(), "after": None}],
    }


def test_a_private_game_stays_out_of_the_lobby_and_needs_its_invite(client: TestClient) -> None:
    ann, bao = claim(client, "Ann"), claim(client, "Bao")
    body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "x"}, {"name": "y"}]}
    created = client.post("/api/games", json=body, headers=ann).json()
    assert client.get("/api/lobby").json()["games"] == []
    refused = client.post(f"/api/games/{created['id']}/seats/1", json={}, headers=bao)
    error(refused, 403, "bad_invite")
    invite = created["links"]["seats"][1].rsplit("/", 1)[1]
    taken = client.post(f"/api/games/{created['id']}/seats/1", json={"invite": invite}, headers=bao)
    assert taken.status_code == 200


def test_games_left_unrated_are_rated_at_the_next_start(database: str) -> None:
    executor = ThreadPoolExecutor(max_workers=1)
    caps = ServerLimits(established_opponents=0)  # nobody provisional: both are listed
    app = create_app(database, computer=executor, computer_pause=0.01, server_limits=caps)
    with TestClient(app) as client:
        ann, bao = claim(client, "Ann"), claim(client, "Bao")
        created = online_game(client, ann, public=True)
        taken = client.post(f"/api/games/{created['id']}/seats/1", json={}, headers=bao)
        play_to_resignation(
            client, created["id"], created["token"], taken.json()["token"], moves=QUIET_MOVES
        )
        wait_for(client, "/api/players", lambda body: len(body["players"]) == 2)
    # As if the process had stopped before rating it: the rating is undone in the database.
    from sqlalchemy import create_engine, text

    engine = create_engine(database)
    with engine.begin() as db:
        db.execute(text("DELETE FROM rated_games"))
        db.execute(text("DELETE FROM rating_history"))
        db.execute(text("UPDATE players SET games = 0, mu = 25.0, sigma = 8.333333333333334"))
    engine.dispose()
    with TestClient(
        create_app(database, computer=executor, computer_pause=0.01, server_limits=caps)
    ) as client:
        board = client.get("/api/players").json()["players"]
        assert [(player["name"], player["rated_games"]) for player in board] == [
            ("Bao", 1),
            ("Ann", 1),
        ]
    with TestClient(
        create_app(database, computer=executor, computer_pause=0.01, server_limits=caps)
    ) as client:
        board = client.get("/api/players").json()["players"]
        assert [player["rated_games"] for player in board] == [1, 1]  # not rated again
    executor.shutdown()


# ------------------------------------------------------------------- sessions the server ends


def who(client: TestClient, headers: dict[str, str]) -> str | None:
    player = client.get("/api/session", headers=headers).json()["player"]
    return None if player is None else str(player["name"])


def test_a_cookie_no_longer_works_once_logged_out(client: TestClient) -> None:
    old = claim(client, "Ann")
    other = browser(client, "Ann")
    assert who(client, old) == "Ann"
    response = client.delete("/api/session", headers=old)
    assert response.json() == {"player": None}
    assert COOKIE in response.headers["set-cookie"]  # removed from the browser too
    assert who(client, old) is None  # the cookie kept (or stolen) opens nothing
    assert who(client, other) == "Ann"  # another browser stays logged in
    # A game made with the old cookie is a guest's: no seat is linked to Ann.
    created = online_game(client, old, public=True)
    assert client.get("/api/lobby").json()["games"][0]["seats"][0]["named"] is False
    assert created["id"]


def test_logging_out_everywhere_ends_every_browsers_session(client: TestClient) -> None:
    here, there = claim(client, "Ann"), browser(client, "Ann")
    bao = claim(client, "Bao")
    error(client.delete("/api/sessions"), 401, "not_logged_in")
    response = client.delete("/api/sessions", headers=here)
    assert response.status_code == 200 and response.json() == {"player": None}
    assert who(client, here) is None
    assert who(client, there) is None
    assert who(client, bao) == "Bao"  # nobody else's
    assert who(client, browser(client, "Ann")) == "Ann"  # the password still logs in


def test_a_new_password_ends_every_session_and_the_old_one_no_longer_logs_in(
    client: TestClient,
) -> None:
    here, there = (
        claim(client, "Ann", "the old password"),
        browser(client, "Ann", "the old password"),
    )
    body = {"password": "the old password", "new_password": "the new password"}
    response = client.post("/api/session/password", json=body, headers=here)
    assert response.status_code == 200, response.text
    assert response.json()["player"]["name"] == "Ann"
    fresh = client.cookies.get(COOKIE)
    client.cookies.clear()
    assert fresh and "httponly" in response.headers["set-cookie"].lower()
    assert who(client, {"cookie": f"{COOKIE}={fresh}"}) == "Ann"  # this browser, anew
    assert who(client, here) is None and who(client, there) is None
    old = client.post("/api/session", json={"name": "Ann", "password": "the old password"})
    error(old, 401, "wrong_password")
    assert who(client, browser(client, "Ann", "the new password")) == "Ann"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (
            {"password": "not the password", "new_password": "the new password"},
            401,
            "wrong_password",
        ),
        ({"password": "a good password", "new_password": "short"}, 400, "weak_password"),
        ({"password": "a good password", "new_password": "Ann"}, 400, "weak_password"),
        ({"password": "a good password"}, 400, "bad_field"),
        ({"password": 5, "new_password": "the new password"}, 401, "wrong_password"),
        # Lone surrogates are refused with the JSON itself, before any field is looked at.
        ({"password": "\ud800", "new_password": "the new password"}, 400, "bad_json"),
        ({"password": "a good password", "new_password": "new \udfff password"}, 400, "bad_json"),
    ],
)
def test_a_refused_password_change_changes_nothing(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    here = claim(client, "Ann")
    text = json.dumps(body)  # escapes a lone surrogate as JSON may
    error(client.post("/api/session/password", content=text), 401, "not_logged_in")
    error(client.post("/api/session/password", content=text, headers=here), status, code)
    assert who(client, here) == "Ann"
    assert who(client, browser(client, "Ann")) == "Ann"


# ------------------------------------------------------------------------------ fair names


def test_names_that_look_like_a_claimed_one_are_refused(client: TestClient) -> None:
    claim(client, "alice")
    for name, code in [
        ("\u0430lice", "name_confusable"),  # a Cyrillic a
        ("\uff41\uff4c\uff49\uff43\uff45", "name_taken"),  # full width: "alice" itself
        ("ALICE", "name_taken"),
    ]:
        body = {"name": name, "password": "another password"}
        message = error(client.post("/api/players", json=body), 409, code)
        assert "alice" not in message or code == "name_taken"
    assert [claim(client, "Alicia")]  # a different name is fine
    login = client.post(
        "/api/session",
        json={"name": "\uff41\uff4c\uff49\uff43\uff45", "password": "a good password"},
    )
    assert login.status_code == 200 and login.json()["player"]["name"] == "alice"


def test_look_alikes_within_one_script_are_refused(client: TestClient) -> None:
    claim(client, "Alice")
    claim(client, "bob")
    for name in ("AIice", "b0b", "B0B"):  # a capital I for the l, a zero for the o
        body = {"name": name, "password": "another password"}
        error(client.post("/api/players", json=body), 409, "name_confusable")
    assert client.get("/api/players/AIice").status_code == 404


def test_a_claimed_name_is_stored_in_its_normal_form(client: TestClient) -> None:
    response = client.post(
        "/api/players", json={"name": "\uff22\uff41\uff4f", "password": "a good password"}
    )
    assert response.status_code == 201 and response.json()["player"]["name"] == "Bao"


@pytest.mark.parametrize(
    "name", ["\u3164", "\u2800", "\u3164\u3164 \u2800", "\u115f\u1160", "\u0301"]
)
def test_blank_looking_names_are_refused_for_accounts_and_seats(
    client: TestClient, name: str
) -> None:
    message = error(
        client.post("/api/players", json={"name": name, "password": "a good password"}),
        400,
        "bad_field",
    )
    assert "blank" in message
    seats = [{"name": name}, {"name": "Bao"}]
    refused = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": seats})
    assert refused.status_code == 400 and "blank" in refused.json()["error"]["message"]
    assert client.get("/api/session").json() == {"player": None}


# ---------------------------------------------------------------------------- fair ratings


def test_games_resigned_at_once_between_two_accounts_rate_nobody(client: TestClient) -> None:
    ann, alt = claim(client, "Ann"), claim(client, "Ann's other account")
    for _ in range(3):
        created = online_game(client, ann, public=False)
        invite = created["links"]["seats"][1].rsplit("/", 1)[1]
        client.post(f"/api/games/{created['id']}/seats/1", json={"invite": invite}, headers=alt)
        play_to_resignation(client, created["id"], created["token"])
    page = wait_for(
        client,
        "/api/players/Ann's other account",
        lambda body: len(body["games"]) == 3 and all(g["rated"] is False for g in body["games"]),
    )
    assert page["rating"] == 0 and page["rated_games"] == 0 and page["history"] == []
    assert client.get("/api/players").json()["players"] == []


def test_the_fourth_game_of_a_pair_in_a_day_leaves_the_ratings_alone(database: str) -> None:
    executor = ThreadPoolExecutor(max_workers=1)
    caps = ServerLimits(rated_games_per_pair_per_day=3)
    with TestClient(create_app(database, computer=executor, server_limits=caps)) as client:
        ann, bao = claim(client, "Ann"), claim(client, "Bao")
        for number in range(4):
            created = online_game(client, ann, public=True)
            taken = client.post(f"/api/games/{created['id']}/seats/1", json={}, headers=bao)
            play_to_resignation(
                client, created["id"], created["token"], taken.json()["token"], moves=QUIET_MOVES
            )
            page = wait_for(
                client,
                "/api/players/Bao",
                lambda body, n=number: (
                    len(body["games"]) == n + 1 and body["games"][0]["rated"] is not None
                ),
            )
            if number == 2:
                after_three = page["mu"], page["sigma"], page["rated_games"]
        assert [game["rated"] for game in page["games"]] == [False, True, True, True]
        assert (page["mu"], page["sigma"], page["rated_games"]) == after_three
    executor.shutdown()


def test_a_name_with_a_slash_has_its_page(client: TestClient) -> None:
    claim(client, "Tom/Jerry")
    found = client.get("/api/players/Tom%2FJerry")
    assert found.status_code == 200, found.text
    assert found.json()["name"] == "Tom/Jerry"
    assert client.get("/api/players/Tom%2FJerr").status_code == 404
