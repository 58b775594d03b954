"""``GET /api/my-games``: the caller's games by seat tokens and session, never another's."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sos_web import FakeTime, app_client, resign
from sosgame.web.endpoints.mine import MAX_TOKENS, PAGE_SIZE
from sosgame.web.live.room import Room
from sosgame.web.people.accounts import COOKIE
from sosgame.web.people.tokens import hash_token
from sosgame.web.storage.rows import SeatRow, StoredGame
from sosgame.web.storage.schema import player_seats, players
from sosgame.web.storage.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "games.sqlite3", reads_per_second=1000.0, read_burst=1000) as made:
        yield made


def new_game(client: TestClient, headers: dict[str, str] | None = None, **settings: Any) -> Any:
    body = {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}], **settings}
    response = client.post("/api/games", json=body, headers=headers or {})
    assert response.status_code == 201, response.text
    return response.json()


def mine(client: TestClient, *tokens: str, **headers: str) -> Any:
    lines = "\n".join(f"Bearer {token}" for token in tokens)
    response = client.get("/api/my-games", headers={"authorization": lines, **headers})
    assert response.status_code == 200, response.text
    return response.json()


def test_without_tokens_or_session_nothing_is_listed(client: TestClient) -> None:
    new_game(client)
    assert client.get("/api/my-games").json()["games"] == []


def test_the_tokens_list_only_their_own_games(client: TestClient) -> None:
    first, second, other = new_game(client), new_game(client), new_game(client)
    listed = mine(client, first["token"], second["token"])
    assert {game["id"] for game in listed["games"]} == {first["id"], second["id"]}
    assert other["id"] not in str(listed)
    game = listed["games"][0]
    assert game["players"] == ["Ann", "Bao"]
    assert (game["rows"], game["cols"], game["mode"]) == (3, 3, "general")
    assert game["state"] == "playing"
    assert game["seats"] == [0, 1]


def test_your_turn_comes_first_then_unfinished_then_finished(client: TestClient) -> None:
    finished = new_game(client)
    resign(client, finished["id"], finished["token"])
    online = new_game(client, kind="online")
    waiting = new_game(client, kind="online")
    invite = online["links"]["seats"][1].rsplit("/", 1)[1]
    joined = client.post(f"/api/games/{online['id']}/seats/1", json={"invite": invite}).json()
    creator = mine(client, finished["token"], online["token"], waiting["token"])
    order = [(game["id"], game["your_turn"]) for game in creator["games"]]
    assert order == [(online["id"], True), (waiting["id"], False), (finished["id"], False)]
    assert creator["your_turn"] == 1
    assert creator["games"][2]["result"] is not None
    other = mine(client, joined["token"])
    assert [(game["id"], game["your_turn"], game["seat"]) for game in other["games"]] == [
        (online["id"], False, 1)
    ]


def test_a_clock_gives_the_time_left_to_move(client: TestClient) -> None:
    clocked = new_game(client, clock={"initial": 60, "increment": 0})
    (game,) = mine(client, clocked["token"])["games"]
    assert game["your_turn"] is True
    assert 0 < game["time_left"] <= 60_000


def test_a_deadline_in_the_state_gives_the_time_left(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeTime.install(monkeypatch)
    state = Room.state

    def with_deadline(room: Room) -> dict[str, Any]:
        made = state(room)
        made["game"]["deadline"] = datetime.fromtimestamp(
            fake.now_ms() / 1000 + 3600, tz=UTC
        ).isoformat()
        return made

    monkeypatch.setattr(Room, "state", with_deadline)
    created = new_game(client)
    (game,) = mine(client, created["token"])["games"]
    assert game["time_left"] == 3_600_000
    assert game["deadline"].endswith("+00:00")


def test_games_are_paged(client: TestClient) -> None:
    tokens = [new_game(client)["token"] for _ in range(PAGE_SIZE + 1)]
    first = mine(client, *tokens)
    assert (len(first["games"]), first["more"]) == (PAGE_SIZE, True)
    response = client.get(
        "/api/my-games?page=2",
        headers={"authorization": ", ".join(f"Bearer {token}" for token in tokens)},
    )
    second = response.json()
    assert (len(second["games"]), second["more"]) == (1, False)
    ids = {game["id"] for game in first["games"] + second["games"]}
    assert len(ids) == PAGE_SIZE + 1


def test_an_account_lists_the_games_it_sat_in_from_any_browser(client: TestClient) -> None:
    client.post("/api/players", json={"name": "Ann", "password": "a good password"})
    session = client.cookies.get(COOKIE)
    client.cookies.clear()
    cookie = {"cookie": f"{COOKIE}={session}"}
    own = new_game(client, headers=cookie, kind="online")
    new_game(client)
    listed = client.get("/api/my-games", headers=cookie).json()
    assert [game["id"] for game in listed["games"]] == [own["id"]]


@pytest.mark.parametrize(
    "header",
    [
        "Basic abc",
        "Bearer",
        "Bearer a b",
        "Bearer <script>",
        "Bearer " + "x" * 65,
        "\n".join(["Bearer abc"] * (MAX_TOKENS + 1)),
    ],
)
def test_a_bad_authorization_is_refused_by_name(client: TestClient, header: str) -> None:
    response = client.get("/api/my-games", headers={"authorization": header})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_field"
    assert "Authorization" in error["message"]


@pytest.mark.parametrize("page", ["0", "x", "-1", "999", "\u00b2", "\u0663", "1" * 5000])
def test_a_bad_page_is_refused(client: TestClient, page: str) -> None:
    response = client.get(f"/api/my-games?page={page}")
    assert response.status_code == 400
    assert "page" in response.json()["error"]["message"]


def test_it_is_rate_limited_like_the_other_reads(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3", reads_per_second=0.01, read_burst=2) as client:
        codes = [client.get("/api/my-games").status_code for _ in range(3)]
        assert codes == [200, 200, 429]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    holders=st.lists(st.lists(st.integers(0, 3), min_size=2, max_size=2), min_size=1, max_size=6),
    asked=st.sets(st.integers(0, 3)),
)
def test_the_store_finds_exactly_the_games_of_the_tokens_asked(
    tmp_path_factory: pytest.TempPathFactory, holders: list[list[int]], asked: set[int]
) -> None:
    # Person n holds token n; each game's two seats are held by the people drawn.
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('store') / 'games.sqlite3'}")
    try:
        for number, (first, second) in enumerate(holders):
            rows = [
                SeatRow(0, "A", "human", hash_token(f"t{first}")),
                SeatRow(1, "B", "human", hash_token(f"t{second}")),
            ]
            store.create(
                StoredGame(f"g{number}", "online", 3, 3, "general", rows, "playing", 1, number)
            )
        found = store.games_of([hash_token(f"t{n}") for n in asked], None, limit=100)
        expected = {
            f"g{n}": sorted(s for s, who in enumerate(pair) if who in asked)
            for n, pair in enumerate(holders)
        }
        assert {game.id: game.seats for game in found} == {k: v for k, v in expected.items() if v}
    finally:
        store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    database: str = request.getfixturevalue("postgres_url")
    return database


def test_the_store_finds_an_accounts_seats_and_a_tokens_together(url: str) -> None:
    store = Store(url)
    try:
        for number in range(3):
            rows = [
                SeatRow(0, "Ann", "human", hash_token(f"t{number}")),
                SeatRow(1, "Bao", "human"),
            ]
            store.create(
                StoredGame(f"g{number}", "online", 3, 3, "general", rows, "playing", 1, number)
            )
        with store.engine.begin() as db:
            db.execute(
                players.insert().values(
                    id=7,
                    key="bao",
                    name="Bao",
                    password_hash="x",
                    mu=25.0,
                    sigma=8.3,
                    games=0,
                    created_ms=1,
                )
            )
            db.execute(player_seats.insert().values(game_id="g1", seat=1, player_id=7))
        found = store.games_of([hash_token("t2")], 7, limit=10)
        assert [(game.id, game.seats, game.names) for game in found] == [
            ("g2", [0], ["Ann", "Bao"]),
            ("g1", [1], ["Ann", "Bao"]),
        ]
        assert store.games_of([], 8, limit=10) == []
    finally:
        store.close()
