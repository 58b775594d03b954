"""The web app's HTTP endpoints, exercised through the real ASGI app."""

from __future__ import annotations

import json
import re
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sos_web import resign
from sosgame import Game
from sosgame.i18n import LANGUAGES
from sosgame.record import Record
from sosgame.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(
        f"sqlite:///{tmp_path / 'games.sqlite3'}", computer=executor, computer_pause=0.01
    )
    with TestClient(app) as test_client:
        yield test_client
    executor.shutdown()


def new_game(client: TestClient, **settings: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "rows": 3,
        "cols": 3,
        "seats": [{"name": "Ann"}, {"name": "Bao"}],
        **settings,
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_a_new_local_game_gives_one_token_for_every_human_seat(client: TestClient) -> None:
    created = new_game(client, seats=[{"name": "Ann"}, {"name": "Bot", "player": "easy"}])
    assert created["seats"] == [0]
    assert len(created["token"]) >= 32
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["board"] == ["...", "...", "..."]
    assert state["status"] == "playing"
    assert [seat["player"] for seat in state["seats"]] == ["human", "easy"]
    assert "token" not in json.dumps(state)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rows": 0, "cols": 3}, "rows"),
        ({"rows": 2, "cols": 2}, "rows"),
        ({"rows": 3, "cols": 27}, "cols"),
        ({"mode": "chess"}, "mode"),
        ({"kind": "mail"}, "kind"),
        ({"seats": [{"name": "Ann"}]}, "seats"),
        ({"seats": [{"name": f"P{n}"} for n in range(9)]}, "seats"),
        ({"seats": [{"name": "Ann"}, {"name": "Bot", "player": "genius"}]}, "seats[1].player"),
        ({"seats": [{"name": "Ann"}, {"name": "   "}]}, "seats[1].name"),
        ({"seats": [{"name": "Ann"}, {"name": "x" * 41}]}, "seats[1].name"),
        ({"seats": [{"name": "Ann"}, {"name": "a\u0000b"}]}, "seats[1].name"),
        ({"clock": {"initial": 0}}, "clock.initial"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    full = {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}], **body}
    response = client.post("/api/games", json=full)
    assert response.status_code == 400
    assert field in response.json()["error"]["message"]
    assert client.get("/api/games?list=playing").json()["games"] == []


@pytest.mark.parametrize(("rows", "cols"), [(1, 3), (3, 1), (2, 26), (26, 26)])
def test_new_games_and_uploads_take_every_size_the_engine_allows(
    client: TestClient, rows: int, cols: int
) -> None:
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    created = client.post("/api/games", json={"rows": rows, "cols": cols, "seats": seats})
    assert created.status_code == 201, created.json()
    state = client.get(f"/api/games/{created.json()['id']}").json()
    assert (state["rows"], state["cols"]) == (rows, cols)
    record = Record.from_game(Game(rows, cols), players=["Ann", "Bao"])
    assert client.post("/api/records", json=record.to_dict()).status_code == 201


def test_bad_json_and_oversized_bodies_are_refused(client: TestClient) -> None:
    response = client.post("/api/games", content=b"{not json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_json"
    response = client.post("/api/games", content=b" " * (300 * 1024))
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_every_response_carries_a_content_security_policy(client: TestClient) -> None:
    for path in ("/", "/api/i18n", "/static/app.js", "/api/games"):
        response = client.get(path)
        assert response.status_code == 200, path
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy
        assert "'unsafe-inline'" not in policy
        assert response.headers["x-content-type-options"] == "nosniff"


def test_names_are_kept_as_text_never_markup(client: TestClient) -> None:
    evil = '<img src=x onerror="alert(1)">'
    created = new_game(client, seats=[{"name": evil}, {"name": "Bao"}])
    response = client.get(f"/api/games/{created['id']}")
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["seats"][0]["name"] == evil
    page = client.get("/").text
    assert "innerHTML" not in client.get("/static/app.js").text
    assert evil not in page


def test_the_catalog_is_served_in_every_language(client: TestClient) -> None:
    data = client.get("/api/i18n").json()
    assert set(data["languages"]) == set(LANGUAGES)
    web_keys = [key for key in data["catalog"] if key.startswith("web.")]
    assert len(web_keys) > 50
    for key in [*web_keys, "rules", "winner", "to_move_again"]:
        assert set(data["catalog"][key]) == {"en", "vi", "hi"}, key
        for text in data["catalog"][key].values():
            forms = [text] if isinstance(text, str) else list(text.values())
            assert all(form.strip() for form in forms), key
    points = data["catalog"]["web.points"]
    assert points["en"] == {"one": "{name}: {count} point", "other": "{name}: {count} points"}


def test_every_web_text_has_the_same_placeholders_in_every_language(client: TestClient) -> None:
    import re

    catalog = client.get("/api/i18n").json()["catalog"]
    for key, texts in catalog.items():
        if key.startswith("web."):
            names = {
                language: set(re.findall(r"\{(\w+)\}", str(text)))
                for language, text in texts.items()
            }
            assert names["en"] == names["vi"] == names["hi"], key


def test_the_front_end_uses_only_catalog_keys_that_exist(client: TestClient) -> None:
    import re

    script = front_end_script(client)
    catalog = client.get("/api/i18n").json()["catalog"]
    used = set(re.findall(r'\bt\("([a-z_.]+)"', script))
    assert used, "the script translates nothing"
    assert sorted(used - set(catalog)) == []


def test_openapi_describes_every_http_endpoint(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    paths = set(schema["paths"])
    for route in client.app.routes:  # type: ignore[attr-defined]
        # Without Starlette's converters ({name:path}), as OpenAPI writes a parameter.
        path = re.sub(r":\w+\}", "}", getattr(route, "path", ""))
        if path.startswith("/api/"):
            assert path in paths, path


def test_openapi_lists_refusals_and_the_bearer_scheme(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert schema["components"]["securitySchemes"]["seatToken"]["scheme"] == "bearer"
    paths = schema["paths"]
    for path in ("/api/games/{game_id}/rematch", "/api/games/{game_id}/invites"):
        operation = next(iter(paths[path].values()))
        assert operation["security"] == [{"seatToken": []}], path
        assert "403" in operation["responses"], path
    assert {"400", "413", "429"} <= set(paths["/api/games"]["post"]["responses"])
    assert "413" in paths["/api/records"]["post"]["responses"]
    seat = paths["/api/games/{game_id}/seats/{seat}"]["post"]
    assert seat["requestBody"]["required"] is False
    assert {"403", "409", "413"} <= set(seat["responses"])


def test_a_server_failure_is_answered_with_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sosgame.web.storage.store import Store

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(Store, "summaries", broken)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    with TestClient(app, raise_server_exceptions=False) as test_client:
        response = test_client.get("/api/games?list=open")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal"
    assert "fire" not in response.text
    # Sent from outside the middleware, it carries the security headers all the same.
    assert "default-src 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"


def test_public_online_seats_are_taken_first_come_first_served(client: TestClient) -> None:
    created = new_game(client, kind="online", public=True)
    assert created["seats"] == [0]
    assert created["links"]["seats"][1].endswith(f"/#/join/{created['id']}/1")
    listed = client.get("/api/games?list=open").json()["games"]
    assert [game["id"] for game in listed] == [created["id"]]
    assert listed[0]["open_seats"] == [1]
    assert client.get(f"/api/games/{created['id']}").json()["status"] == "open"
    taken = client.post(f"/api/games/{created['id']}/seats/1", json={"name": "Chi"})
    assert taken.status_code == 200
    assert taken.json()["token"] != created["token"]
    again = client.post(f"/api/games/{created['id']}/seats/1", json={"name": "Dan"})
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "seat_taken"
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["status"] == "playing"
    assert state["seats"][1]["name"] == "Chi"
    assert client.get("/api/games?list=open").json()["games"] == []
    assert client.post(f"/api/games/{created['id']}/seats/7", json={}).status_code == 400


def test_unknown_games_are_404(client: TestClient) -> None:
    for path in ("/api/games/nope", "/api/games/nope/record", "/api/games/nope/replay"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "no_game"


def test_a_record_downloads_and_uploads_through_sosgame_record(client: TestClient) -> None:
    record = Record.from_game(Game(3, 3, moves=["Sa1", "Ob1", "Sc1"]), players=["Ann", "Bao"])
    response = client.post("/api/records", json=record.to_dict())
    assert response.status_code == 201, response.text
    created = response.json()
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["actions"] == ["Sa1", "Ob1", "Sc1"]
    assert state["scores"] == [1, 0]
    assert state["turn"] == 0
    assert state["status"] == "playing"
    download = client.get(f"/api/games/{created['id']}/record")
    assert "attachment" in download.headers["content-disposition"]
    again = Record.from_json(download.text)
    assert again.moves == ["Sa1", "Ob1", "Sc1"]
    assert again.players == ["Ann", "Bao"]


def test_a_record_keeps_its_computer_seats_through_download_and_upload(
    client: TestClient,
) -> None:
    pytest.importorskip("sosgame.ai")
    tags = {"sosgame.seats": "person,easy"}
    game = Game(4, 4, moves=["Sa1"])  # the computer's turn
    record = Record.from_game(game, players=["Ann", "Bot"], meta={"tags": tags})
    response = client.post("/api/records", json=record.to_dict())
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["seats"] == [0]  # the uploader holds the person's seat only
    deadline = time.monotonic() + 60
    state = client.get(f"/api/games/{created['id']}").json()
    while state["ply"] == 1 and time.monotonic() < deadline:  # the computer plays on
        time.sleep(0.01)
        state = client.get(f"/api/games/{created['id']}").json()
    assert [seat["player"] for seat in state["seats"]] == ["human", "easy"]
    assert state["ply"] > 1 and state["actions"][0] == "Sa1"
    download = Record.from_json(client.get(f"/api/games/{created['id']}/record").text)
    assert download.meta["tags"]["sosgame.seats"] == "person,easy"


def test_a_finished_record_replays_but_is_in_no_public_list(client: TestClient) -> None:
    game = Game(3, 3)
    for move in ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]:
        game.play(move)
    assert game.is_over
    record = Record.from_game(game, players=["Ann", "Bao"])
    created = client.post("/api/records", json=record.to_dict()).json()
    # An uploaded record is a local game: private, so listed nowhere.
    assert client.get("/api/games?list=archive").json()["games"] == []
    assert client.get(f"/api/games/{created['id']}").json()["result"]["scores"] == list(game.scores)
    replay = client.get(f"/api/games/{created['id']}/replay").json()
    assert len(replay["frames"]) == len(game.actions) + 1
    assert replay["frames"][0]["board"] == ["...", "...", "..."]
    assert replay["frames"][-1]["scores"] == list(game.scores)
    assert replay["frames"][-1]["lines"] == len(game.lines)
    assert replay["frames"][3]["scores"] == [1, 0]
    assert replay["frames"][3]["extra_turn"] is True


def test_a_bad_record_is_refused_naming_the_problem(client: TestClient) -> None:
    data = Record.from_game(Game(3, 3, moves=["Sa1"])).to_dict()
    data["moves"] = ["Sa1", "Oa1"]
    response = client.post("/api/records", json=data)
    assert response.status_code == 400
    assert "moves[1]" in response.json()["error"]["message"]


def test_a_rematch_needs_a_seat_token(client: TestClient) -> None:
    created = new_game(client)
    url = f"/api/games/{created['id']}/rematch"
    assert client.post(url).status_code == 403
    assert client.post(url, headers={"authorization": "Bearer wrong"}).status_code == 403
    mine = {"authorization": f"Bearer {created['token']}"}
    # Not while the game goes on.
    assert client.post(url, headers=mine).json()["error"]["code"] == "not_allowed"
    resign(client, created["id"], created["token"])
    response = client.post(url, headers=mine)
    assert response.status_code == 201
    rematch = response.json()
    assert rematch["id"] != created["id"]
    assert rematch["seats"] == [0, 1]
    state = client.get(f"/api/games/{rematch['id']}").json()
    # The seats rotate: the first seat moves last.
    assert [seat["name"] for seat in state["seats"]] == ["Bao", "Ann"]
    assert client.post(url, headers=mine).status_code == 200


def test_the_front_end_takes_levels_colours_and_limits_from_the_server(
    client: TestClient,
) -> None:
    from sosgame import limits
    from sosgame.levels import LEVELS
    from sosgame.seats import SEAT_COLOURS, SEAT_SYMBOLS

    config = client.get("/api/config").json()
    assert config["levels"] == list(LEVELS)
    assert config["seats"]["colours"] == list(SEAT_COLOURS)
    assert config["seats"]["symbols"] == list(SEAT_SYMBOLS)
    assert config["limits"]["min_side"] == limits.BOARD_MIN_SIDE
    assert config["limits"]["max_side"] == limits.BOARD_MAX_SIDE
    assert config["limits"]["min_long_side"] == limits.BOARD_MIN_LONG_SIDE
    assert config["limits"]["max_name"] == limits.WEB_MAX_NAME
    # The home page draws its pools from here at once: the same list as GET /api/pools.
    assert config["pools"] == client.get("/api/pools").json()["pools"]
    assert config["pools"]
    script = front_end_script(client)
    # Nothing the server owns is written into the script a second time.
    assert "#d1495b" not in script and '"perfect"' not in script
    assert "settings.config.levels" in script and "settings.config.seats.colours" in script


def test_the_front_end_is_modules_that_share_no_globals(client: TestClient) -> None:
    import re

    script = front_end_script(client)
    assert '"use strict"' not in script  # modules are strict already
    assert not re.search(r"\b(window|globalThis|self)\.\w+\s*=[^=]", script)
    assert "export function" in script and "import {" in script


def front_end_script(client: TestClient) -> str:
    """The text of every module the page loads: its entry module and all it imports."""
    import re

    page = client.get("/").text
    entries = re.findall(r'<script type="module" src="(/static/[\w.]+\.js)"></script>', page)
    assert entries == ["/static/app.js"]
    assert "<script>" not in page
    seen: dict[str, str] = {}
    waiting = list(entries)
    while waiting:
        path = waiting.pop()
        if path in seen:
            continue
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/javascript"), path
        seen[path] = response.text
        imported = re.findall(r'from "\./([\w.]+\.js)";', response.text)
        waiting += [f"/static/{name}" for name in imported]
    return "\n".join(seen.values())


def listed(client: TestClient, which: str) -> list[str]:
    return [game["id"] for game in client.get(f"/api/games?list={which}").json()["games"]]


def test_a_private_game_is_in_no_public_list_in_any_state(client: TestClient) -> None:
    private = new_game(client, kind="online")
    public = new_game(client, kind="online", public=True)
    local = new_game(client)
    assert listed(client, "open") == [public["id"]]
    invite = private["links"]["seats"][1].rsplit("/", 1)[1]
    taken = client.post(f"/api/games/{private['id']}/seats/1", json={"invite": invite})
    assert taken.status_code == 200
    assert client.post(f"/api/games/{public['id']}/seats/1", json={}).status_code == 200
    assert client.get(f"/api/games/{private['id']}").json()["status"] == "playing"
    assert listed(client, "playing") == [public["id"]]
    for game in (private, public, local):
        resign(client, game["id"], game["token"])
    assert listed(client, "archive") == [public["id"]]
    assert client.get("/api/lobby").json()["games"] == []
    # Whoever holds the link (the id) may still watch it and read it back.
    for path in ("", "/replay", "/record", "/moves"):
        assert client.get(f"/api/games/{private['id']}{path}").status_code == 200


def test_a_players_page_shows_private_games_without_their_link(client: TestClient) -> None:
    pytest.importorskip("argon2")
    from sosgame.web.people.accounts import COOKIE

    cookies = {}
    for name in ("Ann", "Bao"):
        claimed = client.post("/api/players", json={"name": name, "password": "a good password"})
        assert claimed.status_code == 201, claimed.text
        cookies[name] = {"cookie": f"{COOKIE}={client.cookies.get(COOKIE)}"}
        client.cookies.clear()
    seats = [{"name": "x"}, {"name": "y"}]
    ids = {}
    for public in (False, True):
        body = {"rows": 3, "cols": 3, "kind": "online", "seats": seats, "public": public}
        created = client.post("/api/games", json=body, headers=cookies["Ann"]).json()
        invite = created["links"]["seats"][1].rsplit("/", 1)[1]
        seat = client.post(
            f"/api/games/{created['id']}/seats/1",
            json={"invite": None if public else invite},
            headers=cookies["Bao"],
        )
        assert seat.status_code == 200, seat.text
        resign(client, created["id"], created["token"])
        ids[public] = created["id"]
    for name in ("Ann", "Bao"):
        page = client.get(f"/api/players/{name}").json()
        assert [(game["id"], game["public"]) for game in page["games"]] == [
            (ids[True], True),
            (None, False),
        ]
        assert ids[False] not in json.dumps(page)
        # The player themselves, logged in, sees the links of all their games.
        own = client.get(f"/api/players/{name}", headers=cookies[name]).json()
        assert [game["id"] for game in own["games"]] == [ids[True], ids[False]]
        other = "Bao" if name == "Ann" else "Ann"
        seen = client.get(f"/api/players/{name}", headers=cookies[other]).json()
        assert ids[False] not in json.dumps(seen)


def test_replays_records_and_moves_are_made_once_per_version_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from sosgame.web.endpoints import records

    made: list[bool] = []
    frames = records.replay_frames

    def noting(*args: Any) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            made.append(True)  # in a thread of its own
        else:
            made.append(False)  # on the event loop
        return frames(*args)

    monkeypatch.setattr(records, "replay_frames", noting)
    created = new_game(client)
    game_id = created["id"]
    paths = [f"/api/games/{game_id}/{kind}" for kind in ("replay", "record", "moves")]
    first = [client.get(path).content for path in paths]
    assert [client.get(path).content for path in paths] == first
    assert made == [True]
    with client.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"v": 1, "type": "hello", "tokens": [created["token"]]})
        socket.send_json({"v": 1, "type": "move", "move": "Sa1", "ply": 0})
        for _ in range(20):
            message = socket.receive_json()
            if message["type"] == "state" and message["game"]["ply"] == 1:
                break
    # A new version of the game is made anew.
    replay = client.get(paths[0]).json()
    assert replay["actions"] == ["Sa1"] and made == [True, True]
    assert client.get(paths[2]).json()["moves"][0]["action"] == "Sa1"
    assert Record.from_json(client.get(paths[1]).text).moves == ["Sa1"]


def test_replays_records_moves_and_analyses_are_rate_limited_per_client(tmp_path: Path) -> None:
    from sos_web import app_client

    with app_client(tmp_path / "games.sqlite3", reads_per_second=0.001, read_burst=5) as client:
        game_id = new_game(client)["id"]
        kinds = ["replay", "record", "moves", "replay", "moves"]
        assert [client.get(f"/api/games/{game_id}/{kind}").status_code for kind in kinds] == [
            200
        ] * 5
        for kind in ("replay", "record", "moves", "analysis"):
            refused = client.get(f"/api/games/{game_id}/{kind}")
            assert refused.status_code == 429
            assert refused.json()["error"]["code"] == "rate_limited"
        # Playing is not limited by it.
        assert client.get(f"/api/games/{game_id}").status_code == 200


def test_askers_of_one_answer_share_one_making() -> None:
    import asyncio
    import threading

    from sosgame.web.live.replay import Answers

    gate = threading.Event()
    calls: list[int] = []

    def make() -> bytes:
        calls.append(1)
        gate.wait(30)
        return b"answer"

    async def scenario() -> list[bytes]:
        answers = Answers(most_bytes=100)
        askers = [asyncio.ensure_future(answers.get("key", make)) for _ in range(5)]
        await asyncio.sleep(0)
        askers[0].cancel()  # one asker leaves: the others still get the answer
        gate.set()
        got = await asyncio.gather(*askers[1:])
        got.append(await answers.get("key", make))  # kept
        assert answers.made == 1
        return got

    assert asyncio.run(scenario()) == [b"answer"] * 5
    assert calls == [1]
