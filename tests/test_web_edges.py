"""The server's edges: host and cross-site checks, headers, slow clients, processes started
together, and storage that goes away and comes back.

The checks of requests run through the real ASGI app; slow clients, start-up and storage
outages through real ``sosgame serve`` processes on loopback, with a real PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import httpx
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from sos_services import new_postgres_database, stoppable_postgres
from sosgame.cli import main
from sosgame.web import create_app
from sosgame.web.defaults import LOOPBACK_HOSTS
from test_web_shared import at_ply, sosgame, until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SITE = "http://127.0.0.1:8000"
EVIL = "http://evil.example"
GAME = {"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}
SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options")


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TestClient]:
    """The app as ``sosgame serve`` sets it up, reached at 127.0.0.1:8000."""
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        computer=executor,
        computer_pause=0.01,
        allowed_hosts=LOOPBACK_HOSTS,
        allowed_origins=("https://friend.example",),
    )
    with TestClient(app, base_url=SITE) as client:
        yield client
    executor.shutdown()


def _refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    for name in SECURITY_HEADERS:
        assert name in response.headers


# ------------------------------------------------------------------ cross-site requests


def test_a_login_from_another_sites_page_is_refused_without_a_cookie(site: TestClient) -> None:
    claimed = site.post("/api/players", json={"name": "Ann", "password": "correct horse 42"})
    assert claimed.status_code == 201, claimed.text
    site.cookies.clear()
    # A form (text/plain, so no preflight) posted by a page of another site.
    forged = site.post(
        "/api/session",
        content=json.dumps({"name": "Ann", "password": "correct horse 42"}),
        headers={"content-type": "text/plain", "origin": EVIL},
    )
    _refused(forged, 403, "bad_origin")
    assert "set-cookie" not in forged.headers
    assert site.get("/api/session").json()["player"] is None


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/games"),
        ("POST", "/api/records"),
        ("POST", "/api/players"),
        ("DELETE", "/api/session"),
        ("PUT", "/api/games"),
        ("PATCH", "/api/games"),
    ],
)
def test_every_state_changing_request_checks_its_origin(
    site: TestClient, method: str, path: str
) -> None:
    forged = site.request(method, path, json=GAME, headers={"origin": EVIL})
    _refused(forged, 403, "bad_origin")
    null = site.request(method, path, json=GAME, headers={"origin": "null"})
    _refused(null, 403, "bad_origin")


def test_a_cross_site_fetch_without_an_origin_is_refused(site: TestClient) -> None:
    forged = site.post("/api/games", json=GAME, headers={"sec-fetch-site": "cross-site"})
    _refused(forged, 403, "bad_origin")
    assert site.get("/api/health", headers={"sec-fetch-site": "cross-site"}).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"origin": SITE},
        {"origin": SITE, "sec-fetch-site": "same-origin"},
        {"origin": "https://friend.example", "sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ],
)
def test_the_apps_own_pages_allowed_origins_and_other_clients_may_post(
    site: TestClient, headers: dict[str, str]
) -> None:
    assert site.post("/api/games", json=GAME, headers=headers).status_code == 201


# ---------------------------------------------------------------------------- hosts


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "[::2]:8000", ""]
)
def test_a_request_for_another_host_is_refused(site: TestClient, host: str) -> None:
    _refused(site.get("/api/health", headers={"host": host}), 400, "bad_host")
    _refused(site.post("/api/games", json=GAME, headers={"host": host}), 400, "bad_host")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost:9", "LOCALHOST", "[::1]:8000", "[::1]"])
def test_the_loopback_names_are_served_on_any_port(site: TestClient, host: str) -> None:
    assert site.get("/api/health", headers={"host": host}).status_code == 200


def test_a_websocket_for_another_host_is_refused(site: TestClient) -> None:
    game = site.post("/api/games", json=GAME).json()["id"]
    with (
        pytest.raises(WebSocketDisconnect),
        site.websocket_connect(f"/ws/games/{game}", headers={"host": "evil.example"}) as ws,
    ):
        ws.receive_text()


def test_wildcards_allow_a_domains_names_or_every_name(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    for allowed, host, status in [
        (["*.example.org"], "play.example.org", 200),
        (["*.example.org"], "a.b.example.org:443", 200),
        (["*.example.org"], "example.org.evil", 400),
        (["sos.example.org"], "sos.example.org.", 200),
        (["*"], "anything.example", 200),
    ]:
        with TestClient(create_app(database, allowed_hosts=allowed)) as client:
            assert client.get("/api/health", headers={"host": host}).status_code == status


# -------------------------------------------------------------------------- headers


def test_answers_that_carry_tokens_or_invites_are_not_stored(site: TestClient) -> None:
    created = site.post("/api/games", json={**GAME, "kind": "online", "public": True})
    assert created.headers["cache-control"] == "no-store"
    game, token = created.json()["id"], created.json()["token"]
    invites = site.get(f"/api/games/{game}/invites", headers={"authorization": f"Bearer {token}"})
    assert invites.status_code == 200
    assert invites.headers["cache-control"] == "no-store"
    taken = site.post(f"/api/games/{game}/seats/1", json={"name": "Chi"})
    assert taken.status_code == 200
    assert taken.headers["cache-control"] == "no-store"
    rematch = site.post(f"/api/games/{game}/rematch", headers={"authorization": f"Bearer {token}"})
    assert rematch.headers["cache-control"] == "no-store"
    record = site.get(f"/api/games/{game}/record").json()
    uploaded = site.post("/api/records", json=record)
    assert uploaded.status_code == 201
    assert uploaded.headers["cache-control"] == "no-store"
    claimed = site.post("/api/players", json={"name": "Dan", "password": "correct horse 42"})
    assert claimed.headers["cache-control"] == "no-store"
    login = site.post("/api/session", json={"name": "Dan", "password": "correct horse 42"})
    assert login.status_code == 200
    assert login.headers["cache-control"] == "no-store"
    # What anyone may see is not marked so.
    assert "no-store" not in site.get(f"/api/games/{game}").headers.get("cache-control", "")


def test_security_headers_come_with_every_answer_errors_included(site: TestClient) -> None:
    answers = [
        site.get("/api/games/nothing"),  # 404
        site.get("/no/such/page"),  # 404 of the router
        site.post("/api/games", content=b"{"),  # 400
        site.get("/api/games", headers={"host": "evil.example"}),  # 400, refused early
        site.get("/"),
    ]
    assert [answer.status_code for answer in answers] == [404, 404, 400, 400, 200]
    for answer in answers:
        for name in SECURITY_HEADERS:
            assert name in answer.headers, (answer.status_code, name)


# --------------------------------------------------------------------- slow clients


def _drip(sockets: list[socket.socket], opened: float, deadline: float) -> dict[int, float]:
    """Send each open socket of the odd ones one more header byte about every second (as a
    client that sends its headers slowly does; the even ones stay silent) until the
    server closes them all or the deadline passes; the seconds after ``opened`` at which
    each was closed."""
    closed: dict[int, float] = {}
    dripped = 0.0
    while len(closed) < len(sockets) and time.monotonic() < deadline:
        now = time.monotonic()
        drip = now - dripped >= 1
        for number, client in enumerate(sockets):
            if number in closed:
                continue
            try:
                if client.recv(1024) == b"":
                    closed[number] = now - opened
                    continue
                if drip and number % 2:
                    client.send(b"x")
            except BlockingIOError:
                if drip and number % 2:
                    client.send(b"x")
            except OSError:
                closed[number] = now - opened
        if drip:
            dripped = now
        time.sleep(0.05)  # polling the sockets for their end, not waiting out time
    return closed


def _slow_clients_are_cut_off(port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    game = httpx.post(f"{base}/api/games", json=GAME, timeout=5).json()["id"]
    with connect(f"ws://127.0.0.1:{port}/ws/games/{game}", open_timeout=30) as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "tokens": []}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
        _cut_off(base)
        # The WebSocket opened before them all is not timed: it is open still.
        ws.send(json.dumps({"v": 1, "type": "ping"}))
        assert any(json.loads(ws.recv(timeout=30))["type"] == "pong" for _ in range(5))


def _cut_off(base: str) -> None:
    port = int(base.rpartition(":")[2])
    sockets = []
    opened = time.monotonic()
    for number in range(40):
        client = socket.create_connection(("127.0.0.1", port), timeout=10)
        if number % 2:
            client.send(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        client.setblocking(False)
        sockets.append(client)
    # Meanwhile the server answers others at once.
    for _ in range(3):
        assert httpx.get(f"{base}/api/health", timeout=5).status_code == 200
    closed = _drip(sockets, opened, opened + 40)
    for client in sockets:
        client.close()
    assert len(closed) == len(sockets), f"{len(sockets) - len(closed)} slow sockets still open"
    print(f"slow clients cut off after {min(closed.values()):.1f}-{max(closed.values()):.1f} s")
    # 10 s, and a margin for a busy machine.
    assert min(closed.values()) > 9 and max(closed.values()) < 15
    assert httpx.get(f"{base}/api/health", timeout=5).status_code == 200


def test_clients_that_send_their_headers_slowly_are_cut_off_while_others_are_served(
    tmp_path: Path,
) -> None:
    with sosgame(tmp_path, "serve", "--database", f"sqlite:///{tmp_path / 'g.sqlite3'}") as server:
        _slow_clients_are_cut_off(server.port)


def test_the_h11_parser_cuts_slow_clients_off_too(tmp_path: Path) -> None:
    import threading

    import uvicorn

    from sos_services import free_port
    from sosgame.web.guards.deadlines import H11HeadersDeadline

    port = free_port()
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=LOOPBACK_HOSTS)
    config = uvicorn.Config(app, port=port, http=H11HeadersDeadline, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)  # polling for an event (the server up), not waiting out time
        assert server.started
        _slow_clients_are_cut_off(port)
    finally:
        server.should_exit = True
        thread.join(60)


# ------------------------------------------------------------------- starting together

_OPEN_STORE = """
import pathlib, sys, time
from sosgame.web.storage.store import Store
go = pathlib.Path(sys.argv[2])
print("ready", flush=True)
while not go.exists():
    time.sleep(0.005)  # polling for the start signal, not waiting out time
Store(sys.argv[1]).close()
print("migrated", flush=True)
"""


def _open_at_once(url: str, tmp_path: Path, processes: int = 6) -> None:
    """Start processes that each open (so migrate) the store at the same moment."""
    go = tmp_path / f"go-{time.monotonic_ns()}"
    started = [
        subprocess.Popen(
            [sys.executable, "-c", _OPEN_STORE, url, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    try:
        for process in started:
            assert process.stdout is not None
            assert process.stdout.readline().strip() == "ready"
        go.touch()
        outcomes = [process.communicate(timeout=300) for process in started]
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
    for process, (output, error) in zip(started, outcomes, strict=True):
        assert process.returncode == 0, error[-3000:]
        assert output.strip() == "migrated"


def _migrate_to(url: str, revision: str) -> None:
    from importlib import resources

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    config = Config()
    engine = create_engine(url)
    with resources.as_file(resources.files("sosgame.web.storage") / "migrations") as folder:
        config.set_main_option("script_location", str(folder))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    engine.dispose()


def _head_and_usable(url: str) -> None:
    from sqlalchemy import create_engine, text

    from sosgame.web.storage.store import Store

    engine = create_engine(url)
    with engine.connect() as connection:
        versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    engine.dispose()
    assert [row[0] for row in versions] == ["0019"]
    store = Store(url)
    assert store.summaries(["open"]) == []
    store.close()


def test_processes_started_together_on_a_new_postgresql_database_all_start(
    tmp_path: Path,
    postgres_url: str,
) -> None:
    _open_at_once(postgres_url, tmp_path)
    _head_and_usable(postgres_url)


def test_processes_started_together_on_an_older_postgresql_database_all_start(
    tmp_path: Path,
    postgres_url: str,
) -> None:
    _migrate_to(postgres_url, "0003")
    _open_at_once(postgres_url, tmp_path)
    _head_and_usable(postgres_url)


@pytest.mark.parametrize("older", [None, "0003"])
def test_processes_started_together_on_a_sqlite_file_all_start(
    tmp_path: Path, older: str | None
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    if older is not None:
        _migrate_to(url, older)
    _open_at_once(url, tmp_path)
    _head_and_usable(url)


def test_serve_processes_started_at_the_same_moment_on_a_new_database_all_serve(
    tmp_path: Path,
    postgres_url: str,
    redis_url: str,
) -> None:
    from sos_services import free_port

    ports = [free_port() for _ in range(3)]
    logs = [tmp_path / f"serve-{port}.log" for port in ports]
    options = ["--database", postgres_url, "--redis", redis_url]
    processes = []
    for port, log in zip(ports, logs, strict=True):
        with log.open("wb") as output:
            command = [sys.executable, "-m", "sosgame", "serve", "--port", str(port), *options]
            processes.append(subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT))
    try:
        waiting = set(ports)
        deadline = time.monotonic() + 120
        while waiting and time.monotonic() < deadline:
            for port, process, log in zip(ports, processes, logs, strict=True):
                assert process.poll() is None, log.read_text()[-3000:]
                if port in waiting:
                    try:
                        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
                    except httpx.HTTPError:
                        continue
                    if health.status_code == 200:
                        waiting.discard(port)
            time.sleep(0.1)  # polling for an event (each server up), not waiting out time
        assert not waiting, [log.read_text()[-2000:] for log in logs]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(60)


# ------------------------------------------------------------------- the command line


def test_a_database_url_of_no_known_kind_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--database", "bogus://x"]) == 1
    error = capsys.readouterr().err
    assert "'bogus://x'" in error
    assert error.count("\n") == 1


def test_an_unreachable_database_is_named_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from sos_services import free_port

    url = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nothing"
    assert main(["serve", "--database", url]) == 1
    error = capsys.readouterr().err
    assert url in error
    assert error.count("\n") == 1


def test_serve_with_other_hosts_answers_for_them_only(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with sosgame(tmp_path, "serve", "--database", database) as default:
        url = f"{default.http}/api/health"
        assert httpx.get(url, timeout=5).status_code == 200
        assert httpx.get(url, headers={"host": "localhost"}, timeout=5).status_code == 200
        refused = httpx.get(url, headers={"host": "evil.example"}, timeout=5)
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "bad_host"
    hosts = "127.0.0.1,sos.example.org"
    with sosgame(tmp_path, "serve", "--database", database, "--allowed-hosts", hosts) as server:
        url = f"{server.http}/api/health"
        assert httpx.get(url, headers={"host": "sos.example.org"}, timeout=5).status_code == 200
        assert httpx.get(url, headers={"host": "localhost"}, timeout=5).status_code == 400


# --------------------------------------------------------------------- storage down


@pytest.mark.parametrize("shared", [False, True], ids=["one process", "with redis"])
def test_while_postgresql_is_down_http_answers_503_and_the_health_check_says_so(
    tmp_path: Path, shared: bool, request: pytest.FixtureRequest
) -> None:
    with stoppable_postgres() as postgres:
        url = new_postgres_database(postgres.url, "sosgame_down")
        options = ["--database", url]
        if shared:
            options += ["--redis", request.getfixturevalue("redis_url")]
        with sosgame(tmp_path, "serve", *options) as server:
            base = server.http
            created = httpx.post(f"{base}/api/games", json=GAME, timeout=30)
            assert created.status_code == 201
            game = created.json()["id"]
            health = httpx.get(f"{base}/api/health", timeout=30).json()
            assert health["ok"] and health["database"] == "ok"
            assert health["redis"] == ("ok" if shared else None)
            with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game}") as player:
                token = created.json()["token"]
                player.send(json.dumps({"v": 1, "type": "hello", "tokens": [token]}))
                until(player, lambda message: message["type"] == "state", "the state")
                postgres.stop()
                # A move is refused, and the game goes on once the database is back.
                for _ in range(3):
                    player.send(json.dumps({"v": 1, "type": "move", "move": "Sa1", "ply": 0}))
                    refused = until(player, lambda message: message["type"] == "error", "refusal")
                    assert refused["code"] == "storage_failed"
                for answer in (
                    httpx.post(f"{base}/api/games", json=GAME, timeout=30),
                    httpx.get(f"{base}/api/games?list=open", timeout=30),
                    httpx.get(f"{base}/api/games/nothing", timeout=30),
                    httpx.get(f"{base}/api/players", timeout=30),
                ):
                    _refused(answer, 503, "storage_unavailable")
                down = httpx.get(f"{base}/api/health", timeout=30)
                assert down.status_code == 503
                assert down.json()["database"] == "unavailable"
                assert not down.json()["ok"]
                assert {"protocol", "rooms", "connections", "redis"} <= set(down.json())
                # A game not in memory cannot be joined meanwhile: the client is told so.
                with connect(f"ws://127.0.0.1:{server.port}/ws/games/another") as newcomer:
                    told = json.loads(newcomer.recv(timeout=30))
                    assert told["type"] == "error" and told["code"] == "storage_unavailable"
                # The game in memory is still shown.
                assert httpx.get(f"{base}/api/games/{game}", timeout=30).is_success
                postgres.start()
                deadline = time.monotonic() + 60
                while httpx.get(f"{base}/api/health", timeout=30).status_code != 200:
                    assert time.monotonic() < deadline, "PostgreSQL is back, the server says not"
                    time.sleep(0.1)  # polling for an event (the database back)
                assert httpx.post(f"{base}/api/games", json=GAME, timeout=30).status_code == 201
                player.send(json.dumps({"v": 1, "type": "move", "move": "Sa1", "ply": 0}))
                assert until(player, at_ply(1), "the move")["game"]["actions"] == ["Sa1"]
        log = server.log.read_text()
    assert "Traceback" not in log, log[-3000:]
    assert log.count("the database is unreachable") == 1, log[-3000:]
    assert log.count("the database answers again") == 1, log[-3000:]
    assert "could not store" not in log


def _unreachable() -> Exception:
    from sqlalchemy.exc import OperationalError

    return OperationalError(
        "SELECT 1", {}, ConnectionRefusedError("down"), connection_invalidated=True
    )


def test_calls_back_off_while_the_database_is_away_and_the_outage_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from sosgame.web.storage.store import Store
    from sosgame.web.storage.writer import MAX_BACKOFF_SECONDS, Database, StorageUnavailableError

    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    database = Database(store)
    up = [False]

    def call() -> str:
        if not up[0]:
            raise _unreachable()
        return "answered"

    async def scenario() -> tuple[list[float], str, float]:
        waits = []
        for _ in range(8):
            with pytest.raises(StorageUnavailableError):
                await database.run(call)
            waits.append(database.backoff(1.0))
        up[0] = True
        answer = await database.run(call)
        return waits, answer, database.backoff(1.0)

    waits, answer, after = asyncio.run(scenario())
    store.close()
    assert waits == [2, 4, 8, MAX_BACKOFF_SECONDS, *[MAX_BACKOFF_SECONDS] * 4]
    assert answer == "answered" and after == 1.0
    lines = [record.getMessage() for record in caplog.records]
    assert sum("the database is unreachable" in line for line in lines) == 1
    assert sum("the database answers again" in line for line in lines) == 1


def test_the_bus_reconnects_less_and_less_often_and_reloads_the_games_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from sosgame.web.network import bus as buses

    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(buses.Backoff, "sleep", staticmethod(sleep))

    class Away:
        """A subscription whose server is away for five tries, then back."""

        tries = 0

        async def listen(self) -> Any:
            if self.tries < 5:
                raise ConnectionError("Redis is away")
            await asyncio.Event().wait()
            yield {}

        async def subscribe(self, *_channels: str) -> None:
            self.tries += 1
            if self.tries < 5:
                raise ConnectionError("Redis is away")

    lost: list[int] = []

    async def scenario() -> None:
        bus = buses.RedisBus("redis://127.0.0.1:1/0")
        bus._pubsub = Away()
        bus._on_lost = lambda: lost.append(1)
        reader = asyncio.get_running_loop().create_task(bus._read())
        while not lost:
            await real_sleep(0.01)  # polling for an event (the reconnection)
        reader.cancel()

    asyncio.run(scenario())
    assert lost == [1]  # one reload of every game, once Redis is back
    assert waits == [0.5, 1, 2, 4, 8, 15, 15, 15, 15][: len(waits)] and len(waits) >= 5
    lines = [record.getMessage() for record in caplog.records]
    assert sum("lost the connection to Redis" in line for line in lines) == 1


def test_the_sweep_backs_off_while_the_database_is_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from sosgame.web.live import hub as hubs
    from sosgame.web.storage.store import Store
    from sosgame.web.storage.writer import MAX_BACKOFF_SECONDS

    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    tries: list[int] = []

    def away(*_args: Any, **_kwargs: Any) -> Any:
        tries.append(1)
        raise _unreachable()

    monkeypatch.setattr(store.queue, "claim_due", away)
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(hubs, "asyncio", SimpleNamespace(**{**vars(asyncio), "sleep": sleep}))

    async def scenario() -> None:
        executor = ThreadPoolExecutor(max_workers=1)
        hub = hubs.Hub(store, computer=executor)
        await hub.start()
        hub._wake.set()  # sweep at once
        deadline = time.monotonic() + 30
        while len(waits) < 8 and time.monotonic() < deadline:
            await real_sleep(0.01)  # polling for an event (the sweeps), not waiting out time
        await hub.close()
        executor.shutdown()

    asyncio.run(scenario())
    store.close()
    # Each sweep tries once, and waits twice as long after each failure, up to the cap.
    assert waits[:5] == [2, 4, 8, MAX_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS]
    assert len(tries) in (len(waits), len(waits) + 1)
