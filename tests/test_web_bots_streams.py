"""The bot API's NDJSON streams against a real ``sosgame serve`` child: two bots play a
whole game through the event and game streams and the moves endpoint (the record is the
moves both saw), a stream opened again mid-game starts with the whole game, and the event
stream tells of challenges, their answers, and games starting and finishing, first with
everything already under way."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sos_services import free_port

Message = dict[str, Any]
GAME = {"rows": 3, "cols": 3, "mode": "general", "clock": None, "days": None, "rated": False}
WAIT = 15.0


class Server:
    """``sosgame serve`` in a child process, on the database ``database`` (a path: SQLite,
    or a URL) and, with ``redis``, joined to other processes over it."""

    def __init__(
        self,
        database: Path | str,
        redis: str | None = None,
        log: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.env = {**os.environ, "SOSGAME_PREPARE_COMPUTERS": "0", **(env or {})}
        self.url = f"http://127.0.0.1:{free_port()}"
        self.database = f"sqlite:///{database}" if isinstance(database, Path) else database
        self.redis = redis
        self.log = log or (
            database.with_suffix(".log") if isinstance(database, Path) else Path("serve.log")
        )
        self.http = httpx.Client(base_url=self.url, timeout=10)
        self.start()

    def start(self) -> None:
        command = [sys.executable, "-m", "sosgame", "serve", "--port", self.url.rsplit(":", 1)[1]]
        command += ["--database", self.database]
        if self.redis is not None:
            command += ["--redis", self.redis]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=self.env
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-2000:]
            try:
                if self.http.get("/api/health").status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 60 s")

    def kill(self) -> None:
        """Stop the server at once, as ``kill -9`` does."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        self.http.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def bot(self, name: str) -> dict[str, str]:
        """A new named player made a bot: the header of its API token (the client keeps the
        session cookie of the claim until the token is made)."""
        claimed = self.http.post("/api/players", json={"name": name, "password": "a good one!"})
        assert claimed.status_code == 201, claimed.text
        made = self.http.post(
            "/api/tokens",
            json={"description": name, "scopes": ["bot:play", "challenge:write"]},
        )
        assert made.status_code == 201, made.text
        self.http.cookies.clear()
        headers = {"authorization": f"Bearer {made.json()['token']}"}
        assert self.http.post("/api/bot/account/upgrade", headers=headers).status_code == 200
        return headers

    def post(self, path: str, headers: dict[str, str], body: Any = None) -> Any:
        answer = self.http.post(path, headers=headers, json=body)
        assert answer.status_code == 200, answer.text
        return answer.json()


class Stream:
    """An NDJSON stream read line by line in a thread; its objects in a queue (keep-alive
    lines counted apart)."""

    def __init__(self, server: Server, path: str, headers: dict[str, str]) -> None:
        self.lines: queue.Queue[Message] = queue.Queue()
        self.keep_alives = 0
        self._response: httpx.Response | None = None
        self._client = httpx.Client(base_url=server.url, timeout=httpx.Timeout(10, read=30))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(path, headers), daemon=True)
        self._thread.start()

    def _read(self, path: str, headers: dict[str, str]) -> None:
        try:
            with self._client.stream("GET", path, headers=headers) as response:
                self._response = response
                assert response.status_code == 200
                assert response.headers["content-type"].startswith("application/x-ndjson")
                for line in response.iter_lines():
                    if self._stop.is_set():
                        return
                    if not line.strip():
                        self.keep_alives += 1
                        continue
                    self.lines.put(json.loads(line))
        except (httpx.HTTPError, RuntimeError):
            return

    def next(self, kind: str | None = None) -> Message:
        """The next object (of type ``kind``: others are skipped)."""
        deadline = time.monotonic() + WAIT
        while True:
            message = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if kind is None or message["type"] == kind:
                return message

    def close(self) -> None:
        """Drop the connection, as a client that goes away does: its socket is shut at once
        (closed from this thread, it would wait for the reading thread's next line)."""
        self._stop.set()
        if self._response is not None:
            stream = self._response.extensions.get("network_stream")
            sock = None if stream is None else stream.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            self._response.close()
        self._client.close()


@pytest.fixture(name="server", scope="module")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("bots") / "games.sqlite3")
    try:
        yield server
    finally:
        server.stop()


def first_free(board: list[str]) -> str:
    """An ``S`` on the first empty cell (rows from the top, columns from ``a``)."""
    for row, text in enumerate(board):
        for col, cell in enumerate(text):
            if cell == ".":
                return f"S{chr(ord('a') + col)}{row + 1}"
    raise AssertionError("the board is full")


def challenge(server: Server, one: dict[str, str], two: dict[str, str], name: str) -> str:
    made = server.post(f"/api/challenge/{name}", one, GAME)["challenge"]["id"]
    game_id: str = server.post(f"/api/challenge/{made}/accept", two)["game"]["id"]
    return game_id


def play(server: Server, headers: dict[str, str], game_id: str, seen: list[list[str]]) -> None:
    """A bot on ``server``: follow the game's stream, move whenever its seat is to move,
    until the end; every list of moves it was shown goes in ``seen``."""
    stream = Stream(server, f"/api/bot/game/stream/{game_id}", headers)
    try:
        full = stream.next("gameFull")
        (seat,) = full["seats"]
        state = full["state"]
        while True:
            seen.append(state["moves"])
            if state["status"] == "finished":
                return
            if state["turn"] == seat:
                move = first_free(state["board"])
                answer = server.http.post(f"/api/bot/game/{game_id}/move/{move}", headers=headers)
                assert answer.status_code == 200, answer.text
            state = stream.next("gameState")
    finally:
        stream.close()


def test_two_bots_play_a_whole_game_and_the_record_is_what_both_saw(server: Server) -> None:
    one, two = server.bot("Uno"), server.bot("Dos")
    events = [Stream(server, "/api/stream/event", headers) for headers in (one, two)]
    try:
        game_id = challenge(server, one, two, "Dos")
        for stream in events:
            started = stream.next("gameStart")["game"]
            assert started["id"] == game_id
        seen: dict[str, list[list[str]]] = {"one": [], "two": []}
        threads = [
            threading.Thread(target=play, args=(server, headers, game_id, seen[key]))
            for key, headers in (("one", one), ("two", two))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        record = server.http.get(f"/api/games/{game_id}/record").json()
        moves = record["moves"] if "moves" in record else record["actions"]
        assert len(moves) == 9  # a 3x3 board filled
        # Each bot's last view is the whole record, and every view a prefix of it.
        for views in seen.values():
            assert views[-1] == moves
            assert all(view == moves[: len(view)] for view in views)
        for stream in events:
            assert stream.next("gameFinish")["game"]["id"] == game_id
    finally:
        for stream in events:
            stream.close()


def test_a_stream_opened_again_mid_game_starts_with_the_whole_game(server: Server) -> None:
    one, two = server.bot("Tres"), server.bot("Cuatro")
    game_id = challenge(server, one, two, "Cuatro")
    first = Stream(server, f"/api/bot/game/stream/{game_id}", one)
    assert first.next("gameFull")["state"]["moves"] == []
    server.post(f"/api/bot/game/{game_id}/move/Sa1", one)
    assert first.next("gameState")["moves"] == ["Sa1"]
    first.close()  # the connection drops
    server.post(f"/api/bot/game/{game_id}/move/Ob2", two)
    again = Stream(server, f"/api/bot/game/stream/{game_id}", one)
    try:
        full = again.next()
        assert full["type"] == "gameFull"
        assert full["id"] == game_id and full["state"]["moves"] == ["Sa1", "Ob2"]
        assert [player["name"] for player in full["players"]] == ["Tres", "Cuatro"]
        assert full["seats"] == [0] and full["state"]["turn"] == 0
        server.post(f"/api/bot/game/{game_id}/chat", two, {"room": "player", "text": "hi"})
        line = again.next("chatLine")
        assert line["text"] == "hi" and line["name"] == "Cuatro"
    finally:
        again.close()


def test_the_event_stream_starts_with_games_under_way_and_challenges_waiting(
    server: Server,
) -> None:
    one, two = server.bot("Cinco"), server.bot("Seis")
    game_id = challenge(server, one, two, "Seis")
    waiting = server.post("/api/challenge/Seis", one, GAME)["challenge"]["id"]
    stream = Stream(server, "/api/stream/event", two)
    try:
        assert stream.next()["type"] == "gameStart"
        listed = stream.next()
        assert listed["type"] == "challenge" and listed["challenge"]["id"] == waiting
        assert listed["challenge"]["challenger"] == "Cinco"
        # The challenger's own stream hears the answer.
        theirs = Stream(server, "/api/stream/event", one)
        assert theirs.next("gameStart")["game"]["id"] == game_id
        server.post(f"/api/challenge/{waiting}/decline", two, {"reason": "later"})
        declined = theirs.next("challengeDeclined")["challenge"]
        assert declined["id"] == waiting and declined["declineReason"] == "later"
        assert stream.next("challengeDeclined")["challenge"]["id"] == waiting
        other = server.post("/api/challenge/Seis", one, GAME)["challenge"]["id"]
        assert stream.next("challenge")["challenge"]["id"] == other
        server.post(f"/api/challenge/{other}/cancel", one)
        assert stream.next("challengeCanceled")["challenge"]["id"] == other
        server.post(f"/api/bot/game/{game_id}/resign", one)
        assert stream.next("gameFinish")["game"]["id"] == game_id
        theirs.close()
    finally:
        stream.close()


def test_a_game_stream_of_another_s_game_is_refused(server: Server) -> None:
    one, two, three = server.bot("Siete"), server.bot("Ocho"), server.bot("Nueve")
    game_id = challenge(server, one, two, "Ocho")
    answer = server.http.get(f"/api/bot/game/stream/{game_id}", headers=three)
    assert answer.status_code == 403
    assert answer.json()["error"]["code"] == "not_your_seat"
    assert server.http.get(f"/api/bot/game/stream/{game_id}").status_code == 401


def play_both(
    servers: tuple[Server, Server], bots: tuple[dict[str, str], ...], game_id: str
) -> list[list[list[str]]]:
    """Two bots play the game out, each through its own server; what each saw."""
    seen: list[list[list[str]]] = [[], []]
    threads = [
        threading.Thread(target=play, args=(server, headers, game_id, views))
        for server, headers, views in zip(servers, bots, seen, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    return seen


@pytest.mark.slow
def test_a_stream_resumes_after_the_server_is_killed_mid_game(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.sqlite3")
    try:
        one, two = server.bot("Diez"), server.bot("Once")
        game_id = challenge(server, one, two, "Once")
        server.post(f"/api/bot/game/{game_id}/move/Sa1", one)
        server.post(f"/api/bot/game/{game_id}/move/Ob2", two)
        stream = Stream(server, f"/api/bot/game/stream/{game_id}", one)
        assert stream.next("gameFull")["state"]["moves"] == ["Sa1", "Ob2"]
        server.kill()
        server.start()
        stream.close()
        seen = play_both((server, server), (one, two), game_id)
        for views in seen:
            assert views[0][:2] == ["Sa1", "Ob2"] and len(views[-1]) == 9
    finally:
        server.stop()


@pytest.mark.slow
def test_two_bots_on_two_processes_over_redis_play_a_whole_game(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    first = Server(postgres_url, redis_url, tmp_path / "first.log")
    second = Server(postgres_url, redis_url, tmp_path / "second.log")
    try:
        one, two = first.bot("Doce"), second.bot("Trece")
        game_id = challenge(first, one, two, "Trece")
        seen = play_both((first, second), (one, two), game_id)
        record = first.http.get(f"/api/games/{game_id}").json()["actions"]
        assert len(record) == 9
        for views in seen:
            assert views[-1] == record
            assert all(view == record[: len(view)] for view in views)
    finally:
        first.stop()
        second.stop()


@pytest.mark.slow
def test_an_opponent_gone_is_told_with_the_time_to_a_claim_and_the_claim_wins(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "games.sqlite3", env={"SOSGAME_ABANDON_SECONDS": "2"})
    try:
        one, two = server.bot("Catorce"), server.bot("Quince")
        game_id = challenge(server, one, two, "Quince")
        mine = Stream(server, f"/api/bot/game/stream/{game_id}", one)
        theirs = Stream(server, f"/api/bot/game/stream/{game_id}", two)
        mine.next("gameFull")
        theirs.next("gameFull")
        server.post(f"/api/bot/game/{game_id}/move/Sa1", one)
        server.post(f"/api/bot/game/{game_id}/move/Ob2", two)
        theirs.close()  # the opponent's connection drops
        gone = mine.next("opponentGone")
        while not gone["gone"]:  # it may first say the opponent came
            gone = mine.next("opponentGone")
        assert gone["gone"] is True and 0 <= gone["claimWinInSeconds"] <= 2
        # Nothing more happens for a while: the stream says it is alive with empty lines.
        deadline = time.monotonic() + 12
        while mine.keep_alives == 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert mine.keep_alives > 0
        # The server learns at once that the stream's client left, but the claim may still
        # come a moment before the seat has been away long enough: a bot claims again until
        # it may, as it would.
        deadline = time.monotonic() + 20
        while True:
            answer = server.http.post(f"/api/bot/game/{game_id}/claim-victory", headers=one)
            if answer.status_code == 200:
                break
            assert answer.json()["error"]["code"] == "not_abandoned", answer.text
            assert time.monotonic() < deadline, answer.text
            time.sleep(0.5)
        final = mine.next("gameState")
        assert final["status"] == "finished" and final["result"]["winners"] == [0]
        mine.close()
    finally:
        server.stop()
