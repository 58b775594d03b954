"""Requests bounded before they are parsed: the size of a request's line and headers, the
time its body may take, on both parsers uvicorn may use (httptools and h11).

Each test runs the real app on a real uvicorn server in a thread, on loopback, with the
protocol class ``sosgame serve`` hands uvicorn, and talks to it over raw sockets.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("httptools")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import uvicorn
    from starlette.testclient import TestClient

from sos_services import free_port
from sosgame import Game
from sosgame.record import Record
from sosgame.web import create_app
from sosgame.web.defaults import LOOPBACK_HOSTS
from sosgame.web.guards import deadlines

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PARSERS = ["httptools", "h11"]
LIMIT = 16384
WAIT_SECONDS = 30
"""A generous bound for an answer that should come at once: the machine may be busy."""


def _protocol(parser: str) -> type[asyncio.Protocol]:
    if parser == "h11":
        return deadlines.H11HeadersDeadline
    return deadlines.HttpToolsHeadersDeadline  # type: ignore[no-any-return]


@pytest.fixture
def limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The server's limits read again from the environment (as each process reads them)."""
    monkeypatch.setenv("SOSGAME_BODY_TIMEOUT", "1")
    for cached in (deadlines._limits, deadlines._headers_too_large, deadlines._body_timeout):
        cached.cache_clear()
    yield
    monkeypatch.undo()
    for cached in (deadlines._limits, deadlines._headers_too_large, deadlines._body_timeout):
        cached.cache_clear()


@pytest.fixture(params=PARSERS)
def port(request: pytest.FixtureRequest, tmp_path: Path, limits: None) -> Iterator[int]:
    """A uvicorn server of the app with the protocol class of one parser."""
    number = free_port()
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=LOOPBACK_HOSTS)
    config = uvicorn.Config(
        app, port=number, http=_protocol(request.param), log_level="warning", log_config=None
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)  # polling for an event (the server up), not waiting out time
        assert server.started
        yield number
    finally:
        server.should_exit = True
        thread.join(60)


def _answer(client: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    client.settimeout(WAIT_SECONDS)
    received = b""
    while chunk := client.recv(65536):
        received += chunk
    return received


def _response(client: socket.socket) -> bytes:
    """One whole answer on a connection kept open: its head and its Content-Length's body."""
    received = b""
    while b"\r\n\r\n" not in received:
        received += client.recv(65536)
    head, _, body = received.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += client.recv(65536)
    return head


def _request_line(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS)
    client.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return client


# ------------------------------------------------------------------------------ headers


@pytest.mark.parametrize("pieces", [1, 17], ids=["at once", "in pieces"])
def test_headers_over_the_limit_are_refused_with_431_and_the_connection_closed(
    port: int, pieces: int
) -> None:
    with _request_line(port) as client:
        # No end of the headers: the server must not wait for it.
        for _ in range(pieces):
            client.sendall(b"X-Big: " + b"a" * (LIMIT // pieces) + b"\r\n")
        answer = _answer(client)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b'"code": "headers_too_large"' in answer


def test_a_long_request_line_counts_too(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as client:
        client.sendall(b"GET /api/health?" + b"a" * LIMIT)
        answer = _answer(client)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]


def test_a_websocket_upgrade_with_headers_over_the_limit_is_refused(port: int) -> None:
    with _request_line(port) as client:
        client.sendall(
            b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        )
        # Lines short enough each: it is their sum that counts, before the headers end.
        for _ in range(3):
            client.sendall(b"Cookie: " + b"a" * (LIMIT // 3) + b"\r\n")
        answer = _answer(client)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b'"code": "headers_too_large"' in answer


def test_headers_within_the_limit_are_served_and_the_connection_kept(port: int) -> None:
    with _request_line(port) as client:
        header = b"X-Big: " + b"a" * (LIMIT - 200) + b"\r\n\r\n"
        client.sendall(header)
        first = _response(client)
        assert first.startswith(b"HTTP/1.1 200 "), first[:200]
        # The next request on the same connection has a whole allowance of its own.
        client.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header)
        assert _response(client).startswith(b"HTTP/1.1 200 ")


class _Transport(asyncio.Transport):
    """A transport that keeps what the protocol writes."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.closed = False
        self.eof = False

    def write(self, data: Any) -> None:
        assert not self.eof, "written after the writing side was shut"
        self.written += bytes(data)

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.eof = True

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5), "sockname": ("127.0.0.1", 80)}.get(name, default)


class _Parser:
    """httptools' parser, counting the bytes it is handed."""

    def __init__(self, parser: Any) -> None:
        self.parser = parser
        self.fed = 0

    def feed_data(self, data: Any) -> None:
        self.fed += len(data)
        self.parser.feed_data(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.parser, name)


def test_httptools_is_handed_no_more_than_the_limit_of_a_huge_header(limits: None) -> None:
    """However much a client sends (64 MiB here, as the server reads it: 256 KiB at a time),
    the parser sees at most one byte past the limit, so its cost is bounded."""
    from uvicorn.server import ServerState

    async def run() -> tuple[int, _Transport]:
        config = uvicorn.Config(create_app("sqlite:///:memory:"), log_config=None)
        protocol = deadlines.HttpToolsHeadersDeadline(config, ServerState(), {})
        transport = _Transport()
        protocol.connection_made(transport)
        counting = _Parser(protocol.parser)
        protocol.parser = counting  # type: ignore[assignment]
        protocol.data_received(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        chunk = b"a" * 262144
        for _ in range(256):
            if transport.closed:
                break
            protocol.data_received(chunk)
        protocol.connection_lost(None)
        return counting.fed, transport

    fed, transport = asyncio.run(run())
    assert fed <= LIMIT + 1
    assert transport.eof and transport.closed
    assert transport.written.startswith(b"HTTP/1.1 431 ")


# ------------------------------------------------------------------------------- bodies


def _post_head(length: int) -> bytes:
    return (
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % length
    )


def test_a_body_that_does_not_come_is_answered_408_and_the_connection_closed(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as client:
        client.sendall(_post_head(100) + b'{"rows": 3')
        answer = _answer(client)
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b'"code": "body_timeout"' in answer


def test_a_body_sent_a_byte_at_a_time_is_cut_off_all_the_same(port: int) -> None:
    """The body's time is counted from its headers on, not from its latest byte."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as client:
        client.sendall(_post_head(1000))
        client.setblocking(False)
        answer = b""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            try:
                chunk = client.recv(65536)
            except BlockingIOError:
                client.send(b" ")
                time.sleep(0.1)  # a slow client's pace, not waiting for an event
                continue
            except OSError:
                break
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]


def test_a_body_in_time_is_read(port: int) -> None:
    body = b'{"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}'
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as client:
        client.sendall(_post_head(len(body)) + body)
        assert _response(client).startswith(b"HTTP/1.1 201 ")


def test_a_client_that_hangs_up_mid_body_leaves_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The ASGI app as uvicorn calls it: the body's first bytes, then the client gone."""
    app = create_app("sqlite:///:memory:", allowed_hosts=LOOPBACK_HOSTS)
    arriving: list[dict[str, Any]] = [
        {"type": "http.request", "body": b'{"rows": 3', "more_body": True},
        {"type": "http.disconnect"},
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return arriving.pop(0) if arriving else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/games",
        "raw_path": b"/api/games",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    with caplog.at_level("WARNING"):
        asyncio.run(app(scope, receive, send))
    assert not [message for message in sent if message.get("status") == 500]
    assert not caplog.records, caplog.text


# ------------------------------------------------------------------------- JSON parsing


def test_long_bodies_are_parsed_off_the_event_loop_short_ones_on_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crowd of long bodies waits for the parsing thread, never holding the event loop
    that every game's moves go through."""
    from sosgame.web.guards import jsonsafe

    parsed_in: list[str] = []
    loads = jsonsafe.loads

    def watched(data: str | bytes, **options: Any) -> Any:
        parsed_in.append(threading.current_thread().name)
        return loads(data, **options)

    monkeypatch.setattr(jsonsafe, "loads", watched)
    game = '{"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}'
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=LOOPBACK_HOSTS)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        loop_thread = client.portal.call(lambda: threading.current_thread().name)  # type: ignore[union-attr]
        headers = {"content-type": "application/json"}
        padding = " " * (100 * 1024)
        assert client.post("/api/games", content=game, headers=headers).status_code == 201
        # Only an upload may be long: a long body anywhere else is refused unread.
        too_long = client.post("/api/games", content=game + padding, headers=headers)
        assert too_long.status_code == 413
        record = Record.from_game(Game(3, 3), players=["Ann", "Bao"]).to_json()
        assert (
            client.post("/api/records", content=record + padding, headers=headers).status_code
            == 201
        )
        # A long body's errors are the same as a short one's.
        refused = client.post("/api/records", content="[" * 20000, headers=headers)
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "bad_json"
    short, long, wrong = parsed_in
    assert short == loop_thread
    assert long != loop_thread and long.startswith("sos-parse")
    assert wrong.startswith("sos-parse")


def test_the_api_description_says_how_long_a_body_may_take(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    with TestClient(app) as client:
        paths = client.get("/openapi.json").json()["paths"]
    late = paths["/api/games"]["post"]["responses"]["408"]["description"]
    assert "30 s" in late and "body_timeout" in late


def test_long_bodies_wait_their_turn_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``long_bodies_at_once`` uploads being read and parsed, the next waits unread."""
    from concurrent.futures import ThreadPoolExecutor

    from sosgame.web.config import ServerLimits
    from sosgame.web.guards import bodies

    release, parsing = threading.Event(), threading.Event()
    reads: list[int] = []
    read_body, parse_json = bodies.read_body, bodies.parse_json

    async def counted(request: Any, limit: int) -> bytes:
        reads.append(limit)
        return await read_body(request, limit)

    def held(body: bytes, where: str) -> Any:
        parsing.set()
        release.wait(30)
        return parse_json(body, where)

    monkeypatch.setattr(bodies, "read_body", counted)
    monkeypatch.setattr(bodies, "parse_json", held)
    padding = " " * (20 * 1024)  # long enough to be parsed off the loop
    record = Record.from_game(Game(3, 3), players=["Ann", "Bao"]).to_json() + padding
    limits = ServerLimits(long_bodies_at_once=1)
    app = create_app(
        f"sqlite:///{tmp_path / 'g.sqlite3'}", allowed_hosts=LOOPBACK_HOSTS, server_limits=limits
    )
    headers = {"content-type": "application/json"}
    with (
        TestClient(app, base_url="http://127.0.0.1:8000") as client,
        ThreadPoolExecutor(max_workers=2) as requests,
    ):
        first = requests.submit(client.post, "/api/records", content=record, headers=headers)
        assert parsing.wait(30)
        second = requests.submit(client.post, "/api/records", content=record, headers=headers)
        time.sleep(0.3)  # the second request has arrived and waits for its turn
        read_while_held = len(reads)
        release.set()
        answers = [first.result(30).status_code, second.result(30).status_code]
    assert read_while_held == 1
    assert answers == [201, 201]
    assert len(reads) == 2
