"""Tournaments on the server: the store (settings read back, entrants joining, pausing and
withdrawing, a turn made once, a forfeit counted once), the endpoints with every refusal,
and a whole Arena run by the server over the ASGI app, its players simulated on WebSockets
with instant moves: no player in two games at once, no pair twice in a row while more than
two wait, and standings equal to a recount from the stored games."""

from __future__ import annotations

import itertools
import json
import random
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
pytest.importorskip("networkx")
pytest.importorskip("websockets")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import httpx
from sqlalchemy import create_engine, func, select
from websockets.sync import client as websockets_sync

from sos_web import app_client, receive_type
from sosgame.tournaments.arena_scoring import ArenaGame, Entrant, arena_standings
from sosgame.tournaments.settings import parse_settings
from sosgame.web.live import clock as clocks
from sosgame.web.people.accounts import COOKIE
from sosgame.web.storage.rows import HUMAN, SeatRow
from sosgame.web.storage.schema import (
    actions,
    games,
    players,
    tournament_entrants,
    tournament_games,
)
from sosgame.web.storage.store import Store
from sosgame.web.tournaments.store import Planned, TournamentStore
from test_web_accounts import claim, error
from test_web_bots import bot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Headers = dict[str, str]


def arena(starts_at: int, **more: Any) -> dict[str, Any]:
    """The body of a 5-minute 3x3 Arena of one minute a player."""
    return {
        "kind": "arena",
        "name": "Test Arena",
        "rows": 3,
        "cols": 3,
        "mode": "general",
        "clock": {"initial": 60, "increment": 0},
        "rated": False,
        "starts_at": starts_at,
        "minutes": 5,
        **more,
    }


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    database: str = request.getfixturevalue("postgres_url")
    return database


def _player(url: str, name: str) -> int:
    engine = create_engine(url)
    with engine.begin() as db:
        made = db.execute(
            players.insert().values(
                key=name.casefold(),
                name=name,
                password_hash="-",
                mu=25.0,
                sigma=8.3,
                games=0,
                created_ms=1,
            )
        )
        key = made.inserted_primary_key
        assert key is not None
        number: int = key[0]
    engine.dispose()
    return number


# --------------------------------------------------------------------------------- store


def test_the_store_reads_back_settings_entrants_and_makes_a_turn_once(url: str) -> None:
    Store(url).close()  # the migrations
    ann, bao = _player(url, "Ann"), _player(url, "Bao")
    store = TournamentStore(create_engine(url))
    settings = parse_settings(arena(1_000, bots=True, open=False))
    made = store.create(settings, ann, 500)
    assert made is not None
    found = store.get(made)
    assert found is not None and found.settings == settings and found.status == "created"
    assert found.creator_id == ann
    assert store.join(made, bao, 3, bot=False, now_ms=600) == "not_invited"
    store.invite(made, [bao])
    assert store.join(made, ann, 5, bot=False, now_ms=600) is None  # its creator
    assert store.join(made, bao, 3, bot=False, now_ms=700) is None
    assert store.leave(made, bao, withdraw=False, now_ms=800) is None
    snapshot = store.snapshot(made)
    assert snapshot is not None
    entrants = {one.name: one for one in snapshot.entrants}
    assert (entrants["Ann"].rating, entrants["Ann"].paused) == (5, False)
    assert (entrants["Bao"].rating, entrants["Bao"].paused) == (3, True)
    assert store.join(made, bao, 3, bot=False, now_ms=900) is None  # back from the pause
    assert store.due(999) == []
    assert store.due(1_000) == [made]

    def plan(_snapshot: Any) -> Planned:
        seats = [SeatRow(0, "Ann", HUMAN, "a" * 64), SeatRow(1, "Bao", HUMAN, "b" * 64)]
        from sosgame.web.matchmaking.creation import stored_game

        planned = Planned()
        game = stored_game(kind="online", rows=3, cols=3, mode="general", seats=seats)
        planned.games.append((game, ann, bao))
        planned.tokens.append(("a", "b"))
        return planned

    first = store.turn(made, 1, 1_000, plan)
    assert first is not None and len(first.games) == 1
    assert store.turn(made, 1, 1_001, plan) is None  # made once
    snapshot = store.snapshot(made)
    assert snapshot is not None and snapshot.turns == 1
    (game,) = snapshot.games
    assert (game.first_id, game.second_id, game.status) == (ann, bao, "playing")
    assert store.forfeit(game.game_id, ann, swiss=False)
    assert not store.forfeit(game.game_id, ann, swiss=False)  # counted once
    snapshot = store.snapshot(made)
    assert snapshot is not None
    assert {one.name: one.paused for one in snapshot.entrants} == {"Ann": True, "Bao": False}
    assert store.finish(made, 2_000) and not store.finish(made, 2_001)
    assert store.join(made, bao, 3, bot=False, now_ms=2_002) == "tournament_over"
    listed = store.listed()
    assert [(row.id, count) for row, count in listed["finished"]] == [(made, 2)]
    assert listed["upcoming"] == listed["playing"] == []


# ----------------------------------------------------------------------------- endpoints


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "games.sqlite3", tournament_tick_seconds=60.0) as client:
        yield client


def _entrants(client: TestClient, tournament_id: str) -> list[str]:
    shown = client.get(f"/api/tournaments/{tournament_id}").json()
    return sorted(line["name"] for line in shown["standings"])


def test_tournaments_are_created_listed_shown_and_joined(client: TestClient) -> None:
    ann = claim(client, "Ann")
    later = clocks.now_ms() + 3_600_000
    made = client.post("/api/tournaments", json=arena(later), headers=ann)
    assert made.status_code == 201, made.text
    tournament_id = made.json()["id"]
    listed = client.get("/api/tournaments").json()
    assert set(listed) == {"upcoming", "playing", "finished"}
    assert [one["id"] for one in listed["upcoming"]] == [tournament_id]
    assert client.post(f"/api/tournaments/{tournament_id}/join", headers=ann).status_code == 200
    shown = client.get(f"/api/tournaments/{tournament_id}").json()
    assert (shown["id"], shown["kind"], shown["status"]) == (tournament_id, "arena", "created")
    (line,) = shown["standings"]
    assert set(line) >= {"rank", "name", "rating", "score", "games", "fire"}
    assert (line["rank"], line["name"], line["score"], line["fire"]) == (1, "Ann", 0, False)
    assert client.post(f"/api/tournaments/{tournament_id}/pause", headers=ann).status_code == 200
    withdrawn = client.post(f"/api/tournaments/{tournament_id}/withdraw", headers=ann)
    assert withdrawn.status_code == 200
    assert _entrants(client, tournament_id) == []  # before the start: out of it


def test_every_refusal_has_its_code_and_changes_nothing(client: TestClient) -> None:
    ann, bao = claim(client, "Ann"), claim(client, "Bao")
    robot = bot(client, "Robot")
    later = clocks.now_ms() + 3_600_000
    error(client.post("/api/tournaments", json=arena(later)), 401, "not_logged_in")
    bearer = {"authorization": "Bearer sos_nothing"}
    error(client.post("/api/tournaments", json=arena(later), headers=bearer), 401, "bad_token")
    message = error(
        client.post("/api/tournaments", json=arena(later, minutes=3), headers=ann), 400, "bad_field"
    )
    assert "minutes" in message
    error(client.post("/api/tournaments", json=[1, 2], headers=ann), 400, "bad_field")
    error(
        client.post("/api/tournaments", json=arena(later, berserk=True), headers=ann),
        400,
        "bad_field",
    )
    assert client.get("/api/tournaments").json()["upcoming"] == []
    closed = client.post("/api/tournaments", json=arena(later, open=False), headers=ann).json()
    error(client.get("/api/tournaments/nothing"), 404, "no_tournament")
    error(client.post("/api/tournaments/nothing/join", headers=bao), 404, "no_tournament")
    error(client.post(f"/api/tournaments/{closed['id']}/join", headers=bao), 403, "not_invited")
    error(client.post(f"/api/tournaments/{closed['id']}/join"), 401, "not_logged_in")
    error(client.post(f"/api/tournaments/{closed['id']}/pause", headers=bao), 409, "not_entered")
    no_bots = client.post("/api/tournaments", json=arena(later), headers=ann).json()
    refused = client.post(f"/api/tournaments/{no_bots['id']}/join", headers=robot)
    error(refused, 403, "bots_not_allowed")
    assert _entrants(client, closed["id"]) == _entrants(client, no_bots["id"]) == []
    with_bots = client.post("/api/tournaments", json=arena(later, bots=True), headers=ann).json()
    assert client.post(f"/api/tournaments/{with_bots['id']}/join", headers=robot).status_code == 200
    assert _entrants(client, with_bots["id"]) == ["Robot"]
    for _ in range(2):
        client.post("/api/tournaments", json=arena(later), headers=ann)
    error(
        client.post("/api/tournaments", json=arena(later), headers=ann), 429, "too_many_tournaments"
    )
    upcoming = client.get("/api/tournaments").json()["upcoming"]
    # Five made, the one by invitation in no list.
    assert len(upcoming) == 4 and closed["id"] not in [shown["id"] for shown in upcoming]
    runner = client.app.state.tournaments  # type: ignore[attr-defined]
    client.portal.call(runner.store.finish, with_bots["id"], clocks.now_ms())  # type: ignore[union-attr]
    over = client.post(f"/api/tournaments/{with_bots['id']}/join", headers=bao)
    error(over, 409, "tournament_over")
    error(
        client.post(f"/api/tournaments/{with_bots['id']}/pause", headers=robot),
        409,
        "tournament_over",
    )


# ------------------------------------------------------------------------ a whole Arena


class Socket:
    """A real server's WebSocket with the test client's calls."""

    def __init__(self, url: str, session: Headers) -> None:
        self._socket = websockets_sync.connect(
            url, open_timeout=60, additional_headers=session, max_size=None
        )

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *_: object) -> None:
        self._socket.close()

    def send_text(self, text: str) -> None:
        self._socket.send(text)

    def receive_json(self) -> Any:
        return json.loads(self._socket.recv(timeout=60))


Opener = Callable[[str, Headers], Any]
"""Opens a WebSocket at a path with these headers (a test client's, or a real server's)."""


class Player(threading.Thread):
    """A player on the lobby's socket who plays each tournament game it is paired into at
    once (random letters in the first free cells), until told to stop."""

    def __init__(self, lobby: Opener, game: Opener, session: Headers, seed: int) -> None:
        super().__init__(daemon=True)
        self.lobby, self.game, self.session = lobby, game, session
        self.coin = random.Random(seed)
        self.stop = threading.Event()
        self.ready = threading.Event()
        """Set once the lobby's socket follows the account's games."""
        self.paired: list[dict[str, Any]] = []
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with self.lobby("/ws/lobby", self.session) as lobby:
                lobby.send_text(json.dumps({"v": 1, "type": "hello"}))
                lobby.send_text(json.dumps({"v": 1, "type": "ping"}))
                while lobby.receive_json()["type"] != "pong":
                    pass
                self.ready.set()
                while not self.stop.is_set():
                    lobby.send_text(json.dumps({"v": 1, "type": "ping"}))
                    news = []
                    # Until the answer (a pong, or an error past the socket's rate).
                    while (message := lobby.receive_json())["type"] not in ("pong", "error"):
                        if message["type"] == "paired":
                            news.append(message)
                    for paired in news:
                        self.paired.append(paired)
                        self.play(paired)
                    if not news:
                        time.sleep(0.1)
        except BaseException as failure:
            self.failure = failure

    def play(self, paired: dict[str, Any]) -> None:
        with self.game(f"/ws/games/{paired['game']}", {}) as socket:
            socket.send_text(json.dumps({"v": 1, "type": "hello", "token": paired["token"]}))
            while True:
                message = socket.receive_json()
                if message["type"] != "state":
                    continue
                game = message["game"]
                if game["status"] == "finished":
                    return
                if game["status"] == "playing" and game["turn"] == paired["seat"]:
                    free = [
                        f"{chr(97 + col)}{row + 1}"
                        for row, line in enumerate(game["board"])
                        for col, cell in enumerate(line)
                        if cell == "."
                    ]
                    move = self.coin.choice("SO") + free[0]
                    socket.send_text(
                        json.dumps({"v": 1, "type": "move", "move": move, "ply": game["ply"]})
                    )


def _recount(url: str, tournament_id: str, ends_at: int) -> list[dict[str, Any]]:
    """The standings worked out again from the rows of the stored games alone."""
    engine = create_engine(url)
    with engine.begin() as db:
        names = dict(db.execute(select(players.c.id, players.c.name)).all())
        entrants = db.execute(
            select(tournament_entrants).where(tournament_entrants.c.tournament_id == tournament_id)
        ).all()
        rows = db.execute(
            select(tournament_games, games.c.status, games.c.result, games.c.updated_ms)
            .join(games, games.c.id == tournament_games.c.game_id)
            .where(tournament_games.c.tournament_id == tournament_id)
        ).all()
        plies = {
            row.game_id: db.execute(
                select(func.count()).select_from(actions).where(actions.c.game_id == row.game_id)
            ).scalar_one()
            for row in rows
        }
    engine.dispose()
    played = []
    for row in rows:
        if row.status != "finished" or row.updated_ms > ends_at:
            continue
        result = json.loads(row.result)
        seats = (str(row.first_id), str(row.second_id))
        if row.forfeit is not None:
            won: str | None = seats[1] if row.forfeit == row.first_id else seats[0]
        elif result["termination"] == "aborted":
            continue
        else:
            won = seats[result["winners"][0]] if len(result["winners"]) == 1 else None
        played.append(
            ArenaGame(row.game_id, *seats, won, plies[row.game_id], 9, finished_at=row.updated_ms)
        )
    lines = arena_standings(
        [Entrant(str(one.player_id), names[one.player_id], one.rating) for one in entrants],
        played,
        over=True,
    )
    return [line.as_json() for line in lines]


def _games_of(url: str, tournament_id: str) -> list[Any]:
    engine = create_engine(url)
    with engine.begin() as db:
        found = db.execute(
            select(tournament_games, games.c.status, games.c.created_ms, games.c.updated_ms)
            .join(games, games.c.id == tournament_games.c.game_id)
            .where(tournament_games.c.tournament_id == tournament_id)
            .order_by(games.c.created_ms)
        ).all()
    engine.dispose()
    return list(found)


def arrive(crowd: list[Player]) -> None:
    """The crowd on their lobby sockets, before their tournament starts."""
    for one in crowd:
        one.start()
    for one in crowd:
        assert one.ready.wait(60), repr(one.failure)


def play_arena(
    crowd: list[Player], show: Callable[[], dict[str, Any]], minutes: float
) -> dict[str, Any]:
    """Let the crowd play until the tournament is over; what it shows then."""
    # The games under way at the end still finish: on a busy machine that takes a while.
    deadline = time.monotonic() + minutes * 60 + 90
    shown = show()
    while shown["status"] != "finished" and time.monotonic() < deadline:
        time.sleep(0.1)
        shown = show()
    for one in crowd:
        one.stop.set()
    for one in crowd:
        one.join(timeout=60)
        assert one.failure is None, repr(one.failure)
    return shown


def check_arena(url: str, shown: dict[str, Any], crowd: list[Player]) -> None:
    """What a whole Arena must be, from what it shows, what its players were told, and the
    store."""
    assert shown["status"] == "finished"
    assert {paired["tournament"] for one in crowd for paired in one.paired} == {shown["id"]}
    made_games = _games_of(url, shown["id"])
    assert len(made_games) >= len(crowd)  # every player played, most of them several times
    by_player: dict[int, list[Any]] = {}
    for game in made_games:
        for player in (game.first_id, game.second_id):
            by_player.setdefault(player, []).append(game)
    assert len(by_player) == len(crowd)
    for mine in by_player.values():
        for before, after in itertools.pairwise(mine):
            # Never in two games at once, and never the same opponent twice in a row.
            assert before.status == "finished" and before.updated_ms <= after.created_ms
            assert {before.first_id, before.second_id} != {after.first_id, after.second_id}
    assert shown["standings"] == _recount(url, shown["id"], shown["ends_at"])


def run_arena(tmp_path: Path, count: int, speed: float) -> None:
    """A 5-minute Arena of ``count`` players, its time ``speed`` times the wall clock's."""
    database = tmp_path / "games.sqlite3"
    limits = {
        "tournament_tick_seconds": 0.05,
        "tournament_speed": speed,
        # Every simulated player comes from the one address of the test client.
        "cold_loads_per_second": 1000.0,
        "cold_load_burst": 1000,
        "login_attempts_per_minute": count,
    }
    with app_client(database, **limits) as client:
        sessions = [claim(client, f"Player{number}") for number in range(count)]

        def opener(path: str, headers: Headers) -> Any:
            return client.websocket_connect(path, headers=headers)

        crowd = [Player(opener, opener, session, seed) for seed, session in enumerate(sessions)]
        arrive(crowd)
        made = client.post(
            "/api/tournaments", json=arena(clocks.now_ms() + 500), headers=sessions[0]
        )
        tournament_id = made.json()["id"]
        for session in sessions:
            joined = client.post(f"/api/tournaments/{tournament_id}/join", headers=session)
            assert joined.status_code == 200
        shown = play_arena(
            crowd, lambda: client.get(f"/api/tournaments/{tournament_id}").json(), 5 / speed
        )
    check_arena(f"sqlite:///{database}", shown, crowd)


def test_an_arena_runs_its_players_games_and_standings_from_the_store(tmp_path: Path) -> None:
    run_arena(tmp_path, 8, 60.0)


@pytest.mark.slow
def test_an_arena_of_sixty_players(tmp_path: Path) -> None:
    run_arena(tmp_path, 60, 20.0)


@pytest.mark.slow
def test_an_arena_of_sixty_players_on_two_processes_over_postgresql_and_redis(
    tmp_path: Path, postgres_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("redis")
    pytest.importorskip("psycopg")
    from test_web_shared import sosgame

    count, speed = 60, 20.0
    for name, value in {
        "TOURNAMENT_TICK_SECONDS": "0.05",
        "TOURNAMENT_SPEED": str(speed),
        "COLD_LOADS_PER_SECOND": "1000",
        "COLD_LOAD_BURST": "1000",
        "LOGIN_ATTEMPTS_PER_MINUTE": "1000",
    }.items():
        monkeypatch.setenv(f"SOSGAME_{name}", value)
    shared = ["--database", postgres_url, "--redis", redis_url]
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        servers = (one, two)
        sessions = []
        for number in range(count):
            claimed = httpx.post(
                f"{one.http}/api/players",
                json={"name": f"Player{number}", "password": "a good password"},
                timeout=60,
            )
            assert claimed.status_code == 201, claimed.text
            sessions.append({"Cookie": f"{COOKIE}={claimed.cookies[COOKIE]}"})

        def on(server: Any) -> Opener:
            return lambda path, headers: Socket(f"ws://127.0.0.1:{server.port}{path}", headers)

        # Each player's lobby socket on one process, its games' on the other.
        crowd = [
            Player(on(servers[number % 2]), on(servers[1 - number % 2]), session, number)
            for number, session in enumerate(sessions)
        ]
        arrive(crowd)
        # The Arena lasts 15 s from its start: the players join at once, through both
        # processes, so that all are in before it ends however busy the machine.
        made = httpx.post(
            f"{two.http}/api/tournaments",
            json=arena(clocks.now_ms() + 2000),
            headers=sessions[0],
            timeout=60,
        )
        assert made.status_code == 201, made.text
        tournament_id = made.json()["id"]

        def join(number: int) -> httpx.Response:
            return httpx.post(
                f"{servers[number % 2].http}/api/tournaments/{tournament_id}/join",
                headers=sessions[number],
                timeout=60,
            )

        with ThreadPoolExecutor(max_workers=12) as pool:
            for joined in pool.map(join, range(count)):
                assert joined.status_code == 200, joined.text

        def show() -> dict[str, Any]:
            found: dict[str, Any] = httpx.get(
                f"{one.http}/api/tournaments/{tournament_id}", timeout=60
            ).json()
            return found

        shown = play_arena(crowd, show, 5 / speed)
    check_arena(postgres_url, shown, crowd)


def paired_on(lobby: Any) -> dict[str, Any]:
    """The first ``paired`` a new lobby socket is told, by the time it answers a ping."""
    lobby.send_text(json.dumps({"v": 1, "type": "hello"}))
    lobby.send_text(json.dumps({"v": 1, "type": "ping"}))
    found = []
    while (message := lobby.receive_json())["type"] != "pong":
        if message["type"] == "paired":
            found.append(message)
    assert found, "no paired message"
    return found[0]


def test_a_game_is_handed_again_and_one_not_started_is_lost_and_paused(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    # The 5-minute Arena lasts 15 s, and a first move may wait 3 s: long enough for the first
    # mover to reach the board on a busy machine, and for the second's loss to count.
    limits = {"tournament_tick_seconds": 0.05, "tournament_speed": 20.0}
    with app_client(database, first_move_seconds=3.0, **limits) as client:
        ann, bao = claim(client, "Ann"), claim(client, "Bao")
        made = client.post("/api/tournaments", json=arena(clocks.now_ms()), headers=ann)
        tournament_id = made.json()["id"]
        for session in (ann, bao):
            assert client.post(f"/api/tournaments/{tournament_id}/join", headers=session).is_success
        for _ in range(200):
            if client.get(f"/api/tournaments/{tournament_id}").json()["games"]:
                break
            time.sleep(0.05)
        # On their lobby sockets only once paired: each is told of its game as it says
        # hello (a page opened anew), and only the first moves.
        with (
            client.websocket_connect("/ws/lobby", headers=ann) as one,
            client.websocket_connect("/ws/lobby", headers=bao) as two,
        ):
            told = [paired_on(socket) for socket in (one, two)]
        assert told[0]["game"] == told[1]["game"] and told[0]["tournament"] == tournament_id
        mover = next(paired for paired in told if paired["seat"] == 0)
        with client.websocket_connect(f"/ws/games/{mover['game']}") as socket:
            socket.send_text(json.dumps({"v": 1, "type": "hello", "token": mover["token"]}))
            receive_type(socket, "state")
            socket.send_text(json.dumps({"v": 1, "type": "move", "move": "Sa1", "ply": 0}))
            for _ in range(100):
                message = socket.receive_json()
                if message["type"] == "state" and message["game"]["status"] == "finished":
                    break
        for _ in range(400):
            shown = client.get(f"/api/tournaments/{tournament_id}").json()
            if any(line["games"] for line in shown["standings"]):
                break
            time.sleep(0.05)
        mover_name = "Ann" if mover is told[0] else "Bao"
        scores = {line["name"]: (line["score"], line["games"]) for line in shown["standings"]}
        assert scores[mover_name] == (2, [2])
        assert scores[({"Ann", "Bao"} - {mover_name}).pop()] == (0, [0])
        engine = create_engine(f"sqlite:///{database}")
        with engine.begin() as db:
            paused = dict(
                db.execute(
                    select(players.c.name, tournament_entrants.c.paused).join(
                        players, players.c.id == tournament_entrants.c.player_id
                    )
                ).all()
            )
        engine.dispose()
        assert paused == {mover_name: False, ({"Ann", "Bao"} - {mover_name}).pop(): True}


def test_a_swiss_pairs_each_round_once_the_last_is_over(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    limits = {"tournament_tick_seconds": 0.05, "cold_loads_per_second": 1000.0}
    with app_client(database, **limits) as client:
        sessions = [claim(client, f"Player{number}") for number in range(5)]

        def opener(path: str, headers: Headers) -> Any:
            return client.websocket_connect(path, headers=headers)

        crowd = [Player(opener, opener, session, seed) for seed, session in enumerate(sessions)]
        arrive(crowd)
        body = {**arena(clocks.now_ms() + 300, kind="swiss", rounds=3), "minutes": None}
        made = client.post("/api/tournaments", json=body, headers=sessions[0])
        assert made.status_code == 201, made.text
        tournament_id = made.json()["id"]
        for session in sessions:
            assert client.post(f"/api/tournaments/{tournament_id}/join", headers=session).is_success
        shown = play_arena(crowd, lambda: client.get(f"/api/tournaments/{tournament_id}").json(), 1)
    assert (shown["status"], shown["round"]) == ("finished", 3)
    made_games = _games_of(f"sqlite:///{database}", tournament_id)
    # Five players: two games and a bye a round, and nobody meets anyone twice.
    assert sorted(game.round for game in made_games) == [1, 1, 2, 2, 3, 3]
    pairs = [frozenset((game.first_id, game.second_id)) for game in made_games]
    assert len(set(pairs)) == len(pairs)
    for number in (1, 2):
        ended = max(game.updated_ms for game in made_games if game.round == number)
        began = min(game.created_ms for game in made_games if game.round == number + 1)
        assert ended <= began
    lines = shown["standings"]
    assert sorted(line["rank"] for line in lines) == [1, 2, 3, 4, 5]
    # An outcome a round for each (a game or the bye), and the points they make.
    points = {"win": 1.0, "draw": 0.5, "loss": 0.0, "bye": 1.0}
    for line in lines:
        assert len(line["games"]) == 3
        assert line["score"] == sum(points[outcome] for outcome in line["games"])
