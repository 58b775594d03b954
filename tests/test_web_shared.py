"""Several server processes serving the same games, on a real PostgreSQL and a real Redis.

Every server here is a real ``sosgame serve`` (or ``sosgame worker``) process; clients talk
to them over HTTP and WebSockets on loopback, as browsers would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")
pytest.importorskip("psycopg")
pytest.importorskip("httpx")
pytest.importorskip("websockets")

import httpx
from websockets.sync import client as websockets_sync

from sos_services import free_port, new_postgres_database, new_redis_database, running_redis
from sosgame.cli import main
from sosgame.web.storage.store import Store

Message = dict[str, Any]
START_SECONDS = 90
WAIT_SECONDS = 60
"""A generous bound for a message that should come at once: the machine may be busy."""


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game_id: str) -> Any:
        return websockets_sync.connect(
            f"ws://127.0.0.1:{self.port}/ws/games/{game_id}", open_timeout=WAIT_SECONDS
        )


def _wait_for_health(server: Server) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise AssertionError(f"the server stopped: {server.log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{server.http}/api/health", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)  # polling for an event (the server up), not waiting out time
    raise AssertionError(f"the server did not start: {server.log.read_text()[-2000:]}")


@contextmanager
def sosgame(
    tmp_path: Path, command: str, *arguments: str, port: int | None = None
) -> Iterator[Server]:
    """A ``sosgame serve`` or ``sosgame worker`` process, stopped (or found dead) afterwards."""
    port = free_port() if port is None else port
    log = tmp_path / f"{command}-{port}-{time.monotonic_ns()}.log"
    options = ["--port", str(port)] if command == "serve" else []
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "sosgame", command, *options, *arguments],
            stdout=output,
            stderr=subprocess.STDOUT,
            env={**os.environ, "SOSGAME_IDLE_SECONDS": "600"},
        )
    server = Server(process, port, log)
    try:
        if command == "serve":
            _wait_for_health(server)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def until(socket: Any, check: Callable[[Message], bool], what: str) -> Message:
    """The first message that passes ``check``."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        message: Message = json.loads(socket.recv(timeout=deadline - time.monotonic()))
        if check(message):
            return message
    raise AssertionError(f"no message arrived: {what}")


def at_ply(ply: int) -> Callable[[Message], bool]:
    return lambda message: message["type"] == "state" and message["game"]["ply"] >= ply


def counts_both_spectators(message: Message) -> bool:
    """A presence or state message counting two spectators and both players connected."""
    if message["type"] == "presence":
        return bool(message["spectators"] == 2 and message["connected"] == [True, True])
    if message["type"] != "state":
        return False
    game = message["game"]
    return bool(game["spectators"] == 2 and [s["connected"] for s in game["seats"]] == [1, 1])


def hello(socket: Any, *tokens: str) -> Message:
    socket.send(json.dumps({"v": 1, "type": "hello", "tokens": list(tokens)}))
    until(socket, lambda message: message["type"] == "welcome", "welcome")
    return until(socket, at_ply(0), "the first state")


def move(socket: Any, text: str, ply: int) -> None:
    socket.send(json.dumps({"v": 1, "type": "move", "move": text, "ply": ply}))


def create(server: Server, **settings: Any) -> Message:
    body = {"rows": 4, "cols": 4, **settings}
    response = httpx.post(f"{server.http}/api/games", json=body, timeout=WAIT_SECONDS)
    assert response.status_code == 201, response.text
    created: Message = response.json()
    return created


@pytest.fixture
def shared(postgres_url: str, redis_url: str) -> list[str]:
    """The options that make processes share games: one database, one Redis."""
    return ["--database", postgres_url, "--redis", redis_url]


@dataclass
class Pair:
    """Two ``sosgame serve`` processes sharing one database and one Redis, and those options."""

    one: Server
    two: Server
    shared: list[str]


@pytest.fixture(scope="module")
def pair(
    tmp_path_factory: pytest.TempPathFactory, postgres_server: str, redis_server: str
) -> Iterator[Pair]:
    """One pair of processes at the default settings for the module's tests that each play
    games of their own and read nothing else of the processes: two starts saved per test."""
    database = new_postgres_database(postgres_server, f"sosgame_pair_{os.getpid()}")
    shared = ["--database", database, "--redis", new_redis_database(redis_server)]
    folder = tmp_path_factory.mktemp("pair")
    with sosgame(folder, "serve", *shared) as one, sosgame(folder, "serve", *shared) as two:
        yield Pair(one, two, shared)


def test_a_move_made_through_one_process_reaches_the_others(
    pair: Pair,
) -> None:
    one, two = pair.one, pair.two
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    created = create(one, kind="online", seats=seats, public=True)
    game = created["id"]
    taken = httpx.post(f"{two.http}/api/games/{game}/seats/1", json={}, timeout=WAIT_SECONDS)
    assert taken.status_code == 200, taken.text
    with one.ws(game) as ann, two.ws(game) as bao, two.ws(game) as spectator:
        assert hello(ann, created["token"])["game"]["status"] == "playing"
        hello(bao, taken.json()["token"])
        hello(spectator)
        started = time.monotonic()
        move(ann, "Sa1", 0)
        seen = until(spectator, at_ply(1), "Ann's move, through the other process")
        print(f"fan-out across processes: {1000 * (time.monotonic() - started):.1f} ms")
        assert seen["game"]["actions"] == ["Sa1"]
        until(bao, at_ply(1), "Ann's move, at Bao's")
        move(bao, "Ob1", 1)
        assert until(ann, at_ply(2), "Bao's move")["game"]["actions"] == ["Sa1", "Ob1"]
        assert until(spectator, at_ply(2), "Bao's move")["game"]["board"][0] == "SO.."
        # Presence adds up the followers of every process.
        with one.ws(game) as other_spectator:
            hello(other_spectator)
            for socket in (ann, spectator):
                until(socket, counts_both_spectators, "both processes' spectators counted")
    # Both processes agree with the database.
    for server in (one, two):
        state = httpx.get(f"{server.http}/api/games/{game}", timeout=WAIT_SECONDS).json()
        assert state["actions"] == ["Sa1", "Ob1"]


def test_a_change_is_announced_with_its_state_which_the_other_processes_pass_on(
    pair: Pair,
) -> None:
    import redis

    from sosgame.web.network.bus import game_channel

    shared = pair.shared
    one, two = pair.one, pair.two
    created = create(one, seats=[{"name": "Ann"}, {"name": "Bao"}])
    game = created["id"]
    url, number = shared[3].rsplit("/", 1)
    listener = redis.Redis.from_url(url).pubsub()
    listener.subscribe(game_channel(game, int(number)))
    with one.ws(game) as player, two.ws(game) as spectator:
        hello(player, created["token"])
        hello(spectator)
        move(player, "Sa1", 0)
        sent = until(player, at_ply(1), "the move, where it was made")
        forwarded = until(spectator, at_ply(1), "the move, through the other process")
    announcement = None
    deadline = time.monotonic() + WAIT_SECONDS
    while announcement is None and time.monotonic() < deadline:
        heard = listener.get_message(timeout=1)
        if heard and heard["type"] == "message" and b'"texts"' in heard["data"]:
            origin, _, body = heard["data"].partition(b" ")
            announcement = json.loads(body)
            assert announcement["origin"] == origin.decode()
    listener.close()
    assert announcement is not None, "the move was not announced on Redis"
    assert announcement["texts"] == ["Sa1"]
    # The state travels with the change: the other process sends it as it is.
    assert json.loads(announcement["state"]) == sent
    assert forwarded == sent


def test_a_process_nobody_follows_a_game_on_forgets_it_instead_of_replaying_it(
    tmp_path: Path, shared: list[str]
) -> None:
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        # Created through one (which keeps the room), played only through two.
        created = create(one, seats=[{"name": "Ann"}, {"name": "Bao"}])
        game = created["id"]
        assert httpx.get(f"{one.http}/api/health", timeout=WAIT_SECONDS).json()["rooms"] == 1
        with two.ws(game) as player:
            hello(player, created["token"])
            move(player, "Sa1", 0)
            until(player, at_ply(1), "the move")
            deadline = time.monotonic() + WAIT_SECONDS
            while time.monotonic() < deadline:
                health = httpx.get(f"{one.http}/api/health", timeout=WAIT_SECONDS).json()
                if health["rooms"] == 0:
                    break
                time.sleep(0.05)  # polling for an event (the room dropped)
            assert health["rooms"] == 0
            # A visit to one later reads the game as it now is.
            with one.ws(game) as spectator:
                assert hello(spectator)["game"]["actions"] == ["Sa1"]


def test_a_change_whose_announcement_was_lost_is_caught_up_from_the_database(
    tmp_path: Path, shared: list[str]
) -> None:
    # Process two listens on another Redis database: it hears nothing of process one.
    database, heard = shared[:2], shared[3]
    server, number = heard.rsplit("/", 1)
    deaf = f"{server}/{(int(number) + 1) % 16}"
    with (
        sosgame(tmp_path, "serve", *database, "--redis", heard) as one,
        sosgame(tmp_path, "serve", *database, "--redis", deaf) as two,
    ):
        created = create(two, seats=[{"name": "Ann"}, {"name": "Bao"}])
        game, token = created["id"], created["token"]
        with two.ws(game) as watcher, one.ws(game) as player:
            hello(watcher)
            hello(player, token)
            move(player, "Sa1", 0)
            until(player, at_ply(1), "the move, where it was made")
            # A newcomer on process two sees the game as stored ...
            with two.ws(game) as newcomer:
                assert hello(newcomer, token)["game"]["actions"] == ["Sa1"]
            # ... and two's followers get it too, from its regular check.
            assert until(watcher, at_ply(1), "the move, caught up")["game"]["actions"] == ["Sa1"]


def test_the_processes_carry_on_when_redis_comes_back(
    tmp_path: Path,
    postgres_url: str,
) -> None:
    port = free_port()
    first: Any = running_redis(port)
    redis = first.__enter__()
    options = ["--database", postgres_url, "--redis", f"{redis}/0"]
    try:
        with (
            sosgame(tmp_path, "serve", *options) as one,
            sosgame(tmp_path, "serve", *options) as two,
        ):
            created = create(one, seats=[{"name": "Ann"}, {"name": "Bao"}])
            game, token = created["id"], created["token"]
            with one.ws(game) as player, two.ws(game) as watcher:
                hello(player, token)
                hello(watcher)
                move(player, "Sa1", 0)
                until(watcher, at_ply(1), "the first move")
                first.__exit__(None, None, None)
                first = None
                # Without Redis the database still takes moves ...
                move(player, "Ob1", 1)
                until(player, at_ply(2), "a move while Redis is away")
                with running_redis(port):
                    # ... and once it is back, the other process catches up and hears again.
                    until(watcher, at_ply(2), "the move made while Redis was away")
                    move(player, "Sc1", 2)
                    seen = until(watcher, at_ply(3), "a move through Redis again")
                    assert seen["game"]["actions"] == ["Sa1", "Ob1", "Sc1"]
    finally:
        if first is not None:
            first.__exit__(None, None, None)


def test_two_processes_never_both_accept_a_move_for_the_same_ply(
    pair: Pair,
) -> None:
    shared = pair.shared
    one, two = pair.one, pair.two
    created = create(one, rows=5, cols=5, seats=[{"name": "Ann"}, {"name": "Bao"}])
    game, token = created["id"], created["token"]
    answers: dict[int, list[Message]] = {0: [], 1: []}
    with one.ws(game) as first, two.ws(game) as second:
        hello(first, token)
        hello(second, token)
        cells = [f"{column}{row}" for row in range(1, 6) for column in "abcde"]
        for ply in range(10):
            # Both send a move for the same ply at once, each for another cell.
            barrier = threading.Barrier(2)

            def send(socket: Any, text: str, ply: int, barrier: threading.Barrier) -> None:
                barrier.wait()
                move(socket, text, ply)

            senders = [
                threading.Thread(
                    target=send, args=(socket, text + cells[2 * ply + number], ply, barrier)
                )
                for number, (socket, text) in enumerate(((first, "S"), (second, "O")))
            ]
            for sender in senders:
                sender.start()
            for sender in senders:
                sender.join()
            for number, socket in enumerate((first, second)):
                answers[number].append(
                    until(socket, at_ply(ply + 1), f"the state after ply {ply + 1}")
                )
            assert answers[0][-1]["game"]["actions"] == answers[1][-1]["game"]["actions"]
    stored = Store(shared[1]).load(game)
    assert stored is not None
    # Exactly one move per ply was stored, each one of the two sent for that ply.
    assert len(stored.actions) == 10
    for ply, action in enumerate(stored.actions):
        assert action in ("S" + cells[2 * ply], "O" + cells[2 * ply + 1])
    assert answers[0][-1]["game"]["actions"] == stored.actions


def test_kill_9_loses_no_acknowledged_move_and_another_process_makes_the_computer_move(
    tmp_path: Path, shared: list[str]
) -> None:
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        seats = [{"name": "Ann"}, {"name": "Bot", "player": "hard"}]
        created = create(one, rows=5, cols=5, seats=seats)
        game, token = created["id"], created["token"]
        with one.ws(game) as ann:
            hello(ann, token)
            move(ann, "Sc3", 0)
            acknowledged = until(ann, at_ply(1), "Ann's move stored")
            assert acknowledged["game"]["thinking"] == 1
            # Process one holds the computer move (it pauses, then thinks for a second):
            # it dies before making it.
            os.kill(one.process.pid, signal.SIGKILL)
            one.process.wait()
        with two.ws(game) as again:
            state = hello(again, token)
            assert state["game"]["actions"][:1] == ["Sc3"]
            answered = until(again, at_ply(2), "the computer's move, made by process two")
            assert answered["game"]["turn"] == 0 or answered["game"]["extra_turn"]
        stored = Store(shared[1]).load(game)
        assert stored is not None
        assert stored.actions[0] == "Sc3" and len(stored.actions) >= 2


def test_a_flag_that_falls_in_two_processes_is_written_once(
    pair: Pair,
) -> None:
    shared = pair.shared
    one, two = pair.one, pair.two
    created = create(
        one, seats=[{"name": "Ann"}, {"name": "Bao"}], clock={"initial": 1, "increment": 0}
    )
    game, token = created["id"], created["token"]
    with one.ws(game) as first, two.ws(game) as second:
        hello(first, token)
        hello(second, token)
        # The clocks start once each seat has made its first move.
        move(first, "Sa1", 0)
        until(second, at_ply(1), "the first move")
        move(second, "Ob1", 1)
        until(first, at_ply(2), "the second move")
        # Both processes have the game, and both arm its clock: Ann runs out of time.
        for socket in (first, second):
            over = until(
                socket,
                lambda message: (
                    message["type"] == "state" and message["game"]["result"] is not None
                ),
                "the flag",
            )
            assert over["game"]["result"]["flagged"] == [0]
    stored = Store(shared[1]).load(game)
    assert stored is not None
    assert stored.actions == ["Sa1", "Ob1", "resign:0"]
    assert stored.result is not None and stored.result["winners"] == [1]
    assert stored.result["termination"] == "timeout"


def test_a_worker_makes_the_computer_moves_of_web_processes_that_make_none(
    tmp_path: Path, shared: list[str]
) -> None:
    with (
        sosgame(tmp_path, "serve", *shared, "--no-computers") as web,
        sosgame(tmp_path, "worker", *shared) as worker,
    ):
        seats = [{"name": "Ann"}, {"name": "Bot", "player": "easy"}]
        created = create(web, rows=3, cols=3, seats=seats)
        with web.ws(created["id"]) as ann:
            hello(ann, created["token"])
            move(ann, "Sb2", 0)
            answered = until(ann, at_ply(2), "the worker's move")
            assert answered["game"]["actions"][0] == "Sb2"
        assert worker.process.poll() is None


def test_a_game_of_computers_only_moves_while_watched_through_a_web_process(
    tmp_path: Path, shared: list[str]
) -> None:
    with (
        sosgame(tmp_path, "serve", *shared, "--no-computers") as web,
        sosgame(tmp_path, "worker", *shared),
    ):
        seats = [{"name": "One", "player": "easy"}, {"name": "Two", "player": "random"}]
        created = create(web, rows=3, cols=3, seats=seats)
        with web.ws(created["id"]) as spectator:
            hello(spectator)
            finished = until(
                spectator,
                lambda message: (
                    message["type"] == "state" and message["game"]["result"] is not None
                ),
                "the end of the computers' game",
            )
        assert len(finished["game"]["actions"]) == 9


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def test_serve_workers_starts_processes_on_one_port_that_carry_on_after_kill_9(
    tmp_path: Path, shared: list[str]
) -> None:
    with sosgame(tmp_path, "serve", *shared, "--workers", "2") as site:
        deadline = time.monotonic() + START_SECONDS
        while len(workers := _children(site.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) >= 2, workers
        created = create(site, seats=[{"name": "Ann"}, {"name": "Bao"}])
        game, token = created["id"], created["token"]
        with site.ws(game) as socket:
            hello(socket, token)
            move(socket, "Sa1", 0)
            until(socket, at_ply(1), "the first move")
        os.kill(workers[0], signal.SIGKILL)
        # Whichever process answers now (the other one, or the one started in its place)
        # has the game as stored, and the game goes on.
        with site.ws(game) as socket:
            assert hello(socket, token)["game"]["actions"] == ["Sa1"]
            move(socket, "Ob1", 1)
            assert until(socket, at_ply(2), "the next move")["game"]["actions"] == ["Sa1", "Ob1"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["serve", "--workers", "0"], "--workers must be at least 1, not 0"),
        (["serve", "--workers", "2"], "--workers 2 needs --redis"),
        (["serve", "--no-computers"], "--no-computers needs --redis"),
        (["serve", "--redis", "localhost:6379"], "--redis 'localhost:6379' is not a Redis URL"),
        (["worker", "--redis", "http://x"], "--redis 'http://x' is not a Redis URL"),
    ],
)
def test_bad_process_options_are_refused_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(arguments) == 1
    error = capsys.readouterr().err
    assert message in error
    assert error.count("\n") == 1


@pytest.mark.parametrize(
    ("command", "variable", "value"),
    [
        ("serve", "SOSGAME_PASSWORD_MEMORY_KIB", "16"),
        ("serve", "SOSGAME_COMPUTER_WORKERS", "many"),
        ("serve", "SOSGAME_POOLS", "[{"),
        ("serve", "SOSGAME_TOURNAMENT_SCHEDULE", "hourly"),
        ("worker", "SOSGAME_FIRST_MOVE_SECONDS", "-1"),
    ],
)
def test_a_setting_of_the_environment_that_cannot_be_used_is_named_in_one_line(
    command: str,
    variable: str,
    value: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(variable, value)
    store = ["--database", "sqlite://"]
    if command == "worker":
        store += ["--redis", "redis://127.0.0.1:1/0"]  # never reached: the setting is refused first
    arguments = [command, *(["--port", "0"] if command == "serve" else []), *store]
    assert main(arguments) == 1
    error = capsys.readouterr().err
    assert f"a setting of the environment cannot be used: {variable}" in error, error
    assert "internal error" not in error
    assert error.count("\n") == 1


def test_an_unreachable_redis_is_named_before_serving(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    assert main(["serve", "--database", "sqlite://", "--redis", url]) == 1
    error = capsys.readouterr().err
    assert f"cannot reach Redis at {url}" in error
    assert error.count("\n") == 1


# ------------------------------------------------------------------------- fair play


def send(socket: Any, **message: Any) -> None:
    socket.send(json.dumps({"v": 1, **message}))


def result_is(termination: str) -> Callable[[Message], bool]:
    return lambda message: (
        message["type"] == "state"
        and (message["game"]["result"] or {}).get("termination") == termination
    )


def away_is(away: list[Any]) -> Callable[[Message], bool]:
    return lambda message: message["type"] == "state" and message["game"]["abandon"]["away"] == away


def two_seats(server: Server, other: Server, **settings: Any) -> tuple[str, str, str]:
    """An online game made on ``server`` whose second seat is taken through ``other``."""
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    created = create(server, kind="online", seats=seats, public=True, **settings)
    game = created["id"]
    taken = httpx.post(f"{other.http}/api/games/{game}/seats/1", json={}, timeout=WAIT_SECONDS)
    assert taken.status_code == 200, taken.text
    return game, created["token"], taken.json()["token"]


def test_offers_made_through_one_process_are_answered_through_another(
    tmp_path: Path, shared: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOSGAME_FIRST_MOVE_SECONDS", "2")
    monkeypatch.setenv("SOSGAME_FIRST_MOVE_GRACE_SECONDS", "1")
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        game, ann_token, bao_token = two_seats(one, two, clock={"initial": 600, "increment": 0})
        with one.ws(game) as ann, two.ws(game) as bao:
            hello(ann, ann_token)
            hello(bao, bao_token)
            move(ann, "Sa1", 0)
            state = until(bao, at_ply(1), "Ann's move")["game"]
            assert state["clock"]["running"] is None  # Bao has not moved yet
            move(bao, "Ob1", 1)
            assert until(ann, at_ply(2), "Bao's move")["game"]["clock"]["running"] == 0
            # A takeback asked through one process, accepted through the other.
            send(ann, type="offer", offer="takeback", ply=2)
            until(bao, lambda m: m["type"] == "state" and bool(m["game"]["offers"]), "the offer")
            send(bao, type="answer", offer="takeback", accept=True, ply=2)
            back = until(ann, lambda m: m["type"] == "state" and m["game"]["ply"] == 0, "undone")
            assert back["game"]["actions"] == []
            move(ann, "Sa1", 0)
            until(bao, at_ply(1), "Ann's move again")
            move(bao, "Ob1", 1)
            until(ann, at_ply(2), "Bao's move again")
            # A draw offered through one process, accepted through the other.
            send(bao, type="offer", offer="draw", ply=2)
            until(ann, lambda m: m["type"] == "state" and bool(m["game"]["offers"]), "the draw")
            send(ann, type="answer", offer="draw", accept=True, ply=2)
            for socket in (ann, bao):
                until(socket, result_is("agreement"), "the agreed draw")
        # The rematch: offered through one process, accepted through the other, made once.
        offered = httpx.post(
            f"{one.http}/api/games/{game}/rematch",
            headers={"authorization": f"Bearer {ann_token}"},
            timeout=WAIT_SECONDS,
        )
        assert offered.status_code == 202, offered.text
        accepted = httpx.post(
            f"{two.http}/api/games/{game}/rematch",
            headers={"authorization": f"Bearer {bao_token}"},
            timeout=WAIT_SECONDS,
        )
        assert accepted.status_code == 201, accepted.text
        rematch = accepted.json()["id"]
        assert accepted.json()["seats"] == [0]  # the seats rotate
        # Nobody opens it (a watcher starts no first-move timer): the sweep of unopened
        # games aborts it, once, whichever process sweeps first.
        with one.ws(rematch) as watcher:
            hello(watcher)
            until(watcher, result_is("aborted"), "the rematch aborted")
        stored = Store(shared[1]).load(rematch)
        assert stored is not None and stored.actions == []
        assert stored.clock is not None and stored.clock["remaining"] == [600_000, 600_000]


def test_an_abandoned_game_is_claimed_through_another_process(
    tmp_path: Path, shared: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOSGAME_ABANDON_SECONDS", "1")
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        game, ann_token, bao_token = two_seats(one, two)
        with one.ws(game) as ann:
            hello(ann, ann_token)
            with two.ws(game) as bao:
                hello(bao, bao_token)
                until(ann, away_is([None, None]), "Bao there")
            # Bao's process announces that Bao left; Ann's process starts counting.
            until(
                ann,
                lambda m: m["type"] == "state" and m["game"]["abandon"]["away"][1] is not None,
                "Bao away",
            )
            deadline = time.monotonic() + WAIT_SECONDS
            while time.monotonic() < deadline:
                send(ann, type="claim", claim="win", ply=0)
                answer = until(ann, lambda m: m["type"] in ("error", "state"), "the answer")
                if answer["type"] == "state" and answer["game"]["result"] is not None:
                    break
                assert answer["type"] == "state" or answer["code"] == "not_abandoned", answer
                time.sleep(0.2)  # polling for an event (the claim allowed), not waiting out time
            else:
                raise AssertionError("the claim was never allowed")
            assert answer["game"]["result"]["termination"] == "abandoned"
            assert answer["game"]["result"]["winners"] == [0]
        state = httpx.get(f"{two.http}/api/games/{game}", timeout=WAIT_SECONDS).json()
        assert state["result"]["termination"] == "abandoned"


def test_a_rematch_offer_lapses_for_the_followers_of_every_process(
    tmp_path: Path, shared: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOSGAME_REMATCH_OFFER_SECONDS", "2")
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        game, ann_token, bao_token = two_seats(one, two)
        with one.ws(game) as ann, two.ws(game) as bao:
            hello(ann, ann_token)
            hello(bao, bao_token)
            send(ann, type="resign", ply=0)
            until(bao, lambda m: m["type"] == "state" and m["game"]["result"] is not None, "over")
            send(ann, type="offer", offer="rematch")
            until(bao, lambda m: m["type"] == "state" and bool(m["game"]["offers"]), "offered")
            # Bao's process, which only read the offer, tells Bao when it lapses.
            until(bao, lambda m: m["type"] == "state" and not m["game"]["offers"], "lapsed")
            send(bao, type="answer", offer="rematch", accept=True)
            assert until(bao, lambda m: m["type"] == "error", "refused")["code"] == "no_offer"


CLOCK = {"initial": 60, "increment": 0}


def _shown(server: Server, game: str) -> Message:
    state: Message = httpx.get(f"{server.http}/api/games/{game}", timeout=WAIT_SECONDS).json()
    return state


def _both(first: Server, second: Server, game: str) -> tuple[Message, Message, float]:
    """The game as ``first`` then ``second`` show it, and the ms between the two asks."""
    started = time.monotonic()
    one, two = _shown(first, game), _shown(second, game)
    return one, two, 1000 * (time.monotonic() - started)


def _running(server: Server) -> tuple[str, Any]:
    """A game made through ``server`` whose clocks run (seat 0's, from now), and the
    player's open socket there."""
    created = create(server, seats=[{"name": "Ann"}, {"name": "Bao"}], clock=CLOCK)
    socket = server.ws(created["id"]).__enter__()
    hello(socket, created["token"])
    move(socket, "Sa1", 0)
    until(socket, at_ply(1), "the first move")
    move(socket, "Ob1", 1)
    assert until(socket, at_ply(2), "the second move")["game"]["clock"]["running"] == 0
    return created["id"], socket


def test_a_process_that_loads_a_game_mid_turn_charges_the_mover_from_the_turns_start(
    pair: Pair,
) -> None:
    one, two = pair.one, pair.two
    clocked, player = _running(one)
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    waiting = create(one, kind="online", public=True, seats=seats, clock=CLOCK)["id"]
    taken = httpx.post(f"{one.http}/api/games/{waiting}/seats/1", json={}, timeout=60)
    assert taken.status_code == 200, taken.text
    assert _shown(one, waiting)["first_move"]["seat"] == 0
    time.sleep(3)  # a real wait: the clock and the first-move timer run in process one
    # Each game loaded by process two now shows the time process one shows.
    here, there, between = _both(one, two, clocked)
    assert here["clock"]["remaining"][0] <= 57_000
    assert 0 <= here["clock"]["remaining"][0] - there["clock"]["remaining"][0] <= 100 + between
    here, there, between = _both(one, two, waiting)
    assert here["first_move"]["left"] <= 27_000
    assert 0 <= here["first_move"]["left"] - there["first_move"]["left"] <= 100 + between
    player.close()


def _stop(*servers: Server) -> None:
    """Stop the processes cleanly (SIGTERM), together."""
    for server in servers:
        server.process.terminate()
    for server in servers:
        server.process.wait(timeout=60)
        log = server.log.read_text()
        assert "Application shutdown complete" in log, log[-2000:]


def test_a_clean_shutdown_pauses_the_clocks_of_the_games_no_other_process_serves(
    tmp_path: Path, shared: list[str]
) -> None:
    store = Store(shared[1])
    with sosgame(tmp_path, "serve", *shared) as one, sosgame(tmp_path, "serve", *shared) as two:
        game, player = _running(one)
        with two.ws(game) as spectator:
            hello(spectator)
            # Process one stops while two still serves the game: its clock runs on.
            _stop(one)
            player.close()
            time.sleep(2)
            stored = store.load(game)
            assert stored is not None and stored.clock is not None
            assert "paused" not in stored.clock
            with sosgame(tmp_path, "serve", *shared) as three:
                served, loaded, between = _both(two, three, game)
                left = served["clock"]["remaining"][0]
                assert left <= 58_000
                assert 0 <= left - loaded["clock"]["remaining"][0] <= 100 + between
                spectator.close()
                # Every process that has the game stops at once: the last one pauses it.
                _stop(two, three)
    stored = store.load(game)
    assert stored is not None and stored.clock is not None
    clock = stored.clock
    at_pause = clock["remaining"][0] - (clock["paused"] - clock["since"])
    time.sleep(2)  # no process serves the game: its clock stands still
    with sosgame(tmp_path, "serve", *shared) as four:
        left = _shown(four, game)["clock"]["remaining"][0]
        assert at_pause - 100 <= left <= at_pause
    store.close()
