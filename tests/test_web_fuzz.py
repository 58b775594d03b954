"""Hostile input at every HTTP route and every WebSocket message type: arbitrary paths, JSON,
lone surrogates, huge integers and raw bytes. Each is answered with a clear error (never a
500 or a dropped connection) and leaves the games as they were.

The routes are read from the app's routing table, so a new route is covered without a change
here.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sos_strategies import examples

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.routing import Route
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from sosgame.web import create_app
from sosgame.web.live.protocol import (
    _FIELDS,
    MAX_MESSAGE_BYTES,
    OfferMessage,
    ProtocolError,
    ResignMessage,
    parse_client_message,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FUZZ = settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Field names the server reads somewhere, so that objects often hold the fields a handler
# looks at (with values of every kind) rather than only names it refuses at once.
KEYS = sorted(
    {
        *(key for fields in _FIELDS.values() for key in fields),
        *("v", "type", "rows", "cols", "mode", "kind", "seats", "clock", "public"),
        *("name", "player", "invite", "password", "initial", "increment"),
        *("version", "players", "moves", "start", "result", "meta", "board", "turn"),
    }
)

surrogate = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
# Text that may hold lone surrogates (which st.text() never makes).
hostile_text = st.lists(st.characters() | surrogate, max_size=12).map("".join)


def _string(value: str) -> str:
    return json.dumps(value)  # ASCII escapes: a lone surrogate becomes "\ud800"


# JSON texts, written directly so they can hold what json.dumps will not write: integers of
# thousands of digits, NaN and Infinity, numbers beyond a float's range.
json_leaf = st.one_of(
    st.sampled_from(["null", "true", "false", "NaN", "-Infinity", "1e999", "0", "-1", "1.5"]),
    st.integers().map(str),
    st.integers(min_value=4_000, max_value=6_000).map(lambda digits: "9" * digits),
    hostile_text.map(_string),
    st.sampled_from(KEYS).map(_string),
    surrogate.map(_string),
)


def _array(items: list[str]) -> str:
    return "[" + ",".join(items) + "]"


def _object(pairs: list[tuple[str, str]]) -> str:
    return "{" + ",".join(f"{key}:{value}" for key, value in pairs) + "}"


json_text = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4).map(_array)
        | st.lists(
            st.tuples(st.sampled_from(KEYS).map(_string) | hostile_text.map(_string), inner),
            max_size=4,
        ).map(_object)
    ),
    max_leaves=12,
)
body = st.one_of(
    json_text.map(str.encode),
    st.binary(max_size=64),
    st.sampled_from([b"", b"[" * 5000, b'"' + b'\\"' * 5000, b"\xed\xa0\x80"]),
)
path_part = st.one_of(
    hostile_text,
    st.sampled_from(["0", "1", "2", "\u00b2", "\u0661", "-1", "9" * 5000, "..", "%", ""]),
)
header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=40)


@dataclass
class Site:
    """The app under attack, with a game waiting for a player and a game under way."""

    client: TestClient
    waiting: str
    playing: str
    token: str
    """The seat token of the player not to move in the game under way."""

    def snapshot(self) -> list[Any]:
        """Both games as anyone sees them (without who happens to be connected, and for
        how long a seat has been away, so whether a claim is allowed yet)."""
        games = []
        for game_id in (self.waiting, self.playing):
            state = self.client.get(f"/api/games/{game_id}").json()
            for seat in state["seats"]:
                seat.pop("connected")
            for allowed in state["allowed"]:
                allowed.pop("can_claim")
            state.pop("abandon")
            games.append(state)
        return games


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    database = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'games.sqlite3'}"
    executor = ThreadPoolExecutor(max_workers=1)
    with TestClient(create_app(database, computer=executor, computer_pause=0.01)) as client:
        body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "A"}, {"name": "B"}]}
        waiting = client.post("/api/games", json=body).json()
        playing = client.post("/api/games", json=body).json()
        invite = playing["links"]["seats"][1].rsplit("/", 1)[1]
        joined = client.post(f"/api/games/{playing['id']}/seats/1", json={"invite": invite})
        assert joined.status_code == 200, joined.text
        yield Site(client, waiting["id"], playing["id"], joined.json()["token"])
    executor.shutdown()


def http_routes() -> list[tuple[str, str]]:
    """Every (method, path template) of the app's HTTP routes."""
    app = create_app("sqlite:///:memory:")
    found = []
    for route in app.routes:
        if isinstance(route, Route):
            found += [
                (method, route.path) for method in sorted(route.methods or ()) if method != "HEAD"
            ]
    return found


ROUTES = http_routes()
MESSAGE_TYPES = sorted(_FIELDS)


def assert_clear_error(response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        error = response.json()["error"]
        assert isinstance(error["code"], str) and error["code"]
        assert isinstance(error["message"], str)


def test_the_routes_are_read_from_the_app() -> None:
    assert ("POST", "/api/games/{game_id}/seats/{seat}") in ROUTES
    assert ("POST", "/api/session") in ROUTES
    assert len(ROUTES) >= 20


@pytest.mark.parametrize(("method", "template"), ROUTES, ids=[" ".join(r) for r in ROUTES])
@FUZZ
@given(data=st.data())
def test_every_route_answers_hostile_requests_with_a_clear_error(
    site: Site, method: str, template: str, data: st.DataObject
) -> None:
    before = site.snapshot()

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        real = {"game_id": [site.waiting, site.playing]}.get(name, [])
        value = data.draw(st.sampled_from(real) | path_part if real else path_part, label=name)
        return quote(value.encode("utf-8", "surrogatepass"), safe="")

    path = re.sub(r"\{(\w+)(?::\w+)?\}", fill, template)
    query = data.draw(st.dictionaries(st.sampled_from(["list", "page"]) | header_text, path_part))
    # The seat token only for reading: with it, a rematch may rightly change the game.
    tokens = [site.token] if method == "GET" else ["?"]
    headers = {
        "authorization": "Bearer " + data.draw(header_text | st.sampled_from(tokens)),
        "cookie": "sos_session=" + data.draw(header_text).replace(";", ""),
        "content-type": data.draw(st.sampled_from(["application/json", "text/plain"])),
    }
    content = data.draw(body) if method != "GET" else None
    params = {
        quote(key.encode("utf-8", "surrogatepass"), safe=""): quote(
            value.encode("utf-8", "surrogatepass"), safe=""
        )
        for key, value in query.items()
    }
    response = site.client.request(
        method,
        path,
        content=content,
        headers={name: value.encode("latin-1") for name, value in headers.items()},
        params=params,
    )
    assert_clear_error(response)
    assert site.snapshot() == before


@FUZZ
@given(
    path=st.lists(path_part.filter(bool), min_size=1, max_size=4),
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
)
def test_any_path_and_method_gets_a_json_answer(site: Site, path: list[str], method: str) -> None:
    parts = [quote(part.encode("utf-8", "surrogatepass"), safe="") for part in path]
    for start in ("/api/", "/api/games/", "/static/", "/ws/games/", "/"):
        response = site.client.request(method, start + "/".join(parts))
        assert_clear_error(response)


def test_an_unknown_path_or_method_is_a_json_error(site: Site) -> None:
    response = site.client.get("/api/nothing/here")
    assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")
    response = site.client.put("/api/games")
    assert (response.status_code, response.json()["error"]["code"]) == (405, "method_not_allowed")
    assert "GET" in response.headers["allow"]


def exchange(socket: Any, text: str, *, greeted: bool) -> list[dict[str, Any]]:
    """Send ``text`` and a ping; everything the server answers before the pong.

    On a connection that has not said hello yet, a hello goes between them (answered with an
    error if ``text`` was a hello that the server took), so that the ping is answered."""
    socket.send_text(text)
    if not greeted:
        socket.send_text(json.dumps({"v": 1, "type": "hello"}))
    socket.send_text(json.dumps({"v": 1, "type": "ping"}))
    answers = []
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == "pong":
            return answers
        answers.append(message)


def answer(socket: Any) -> dict[str, Any]:
    """The next message that answers this connection (not news of who is connected)."""
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] != "presence":
            return message


def greet(socket: Any, token: str | None) -> None:
    socket.send_text(json.dumps({"v": 1, "type": "hello", "token": token}))
    while socket.receive_json()["type"] != "state":
        pass


def fields_for(kind: str) -> st.SearchStrategy[str]:
    """A message of type ``kind`` whose fields hold anything at all."""
    own = st.sampled_from(_FIELDS[kind] or ("v",))
    keys = st.one_of(own, own, st.sampled_from(["v", "type"]), st.sampled_from(KEYS))
    pairs = st.lists(st.tuples(keys.map(_string), json_text), max_size=4)
    return pairs.map(lambda more: _object([('"v"', "1"), ('"type"', _string(kind)), *more]))


def send_hostile(site: Site, token: str | None, text: str) -> list[dict[str, Any]]:
    with site.client.websocket_connect(f"/ws/games/{site.playing}") as socket:
        if token is not None:
            greet(socket, token)
        try:
            answers = exchange(socket, text, greeted=token is not None)
        except WebSocketDisconnect as closed:
            # Only a message over the size limit closes the connection.
            assert closed.code == 1009
            assert len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES
            return []
    return answers


def changes_the_game(text: str) -> bool:
    """Whether ``text``, from the seat the fuzzing player holds, really changes the game: a
    valid resignation, abort (no seat has moved yet) or draw offer."""
    try:
        message = parse_client_message(text)
    except ProtocolError:
        return False
    if getattr(message, "ply", None) not in (None, 0):
        return False
    return (
        (isinstance(message, ResignMessage) and message.seat in (None, 1))
        or message.type == "abort"
        or (isinstance(message, OfferMessage) and message.offer == "draw")
    )


@pytest.mark.parametrize("kind", MESSAGE_TYPES)
@FUZZ
@given(data=st.data())
def test_every_message_type_answers_hostile_fields_with_an_error(
    site: Site, kind: str, data: st.DataObject
) -> None:
    text = data.draw(fields_for(kind))
    holder = data.draw(st.sampled_from([None, "", site.token]), label="greeted with")
    # The messages here that may change the game: the seat holder resigning, aborting or
    # offering a draw for real.
    assume(not (holder == site.token and changes_the_game(text)))
    before = site.snapshot()
    for reply in send_hostile(site, holder, text):
        assert reply["type"] in ("error", "welcome", "state", "presence", "hint"), reply
        if reply["type"] == "error":
            assert reply["code"] and reply["message"]
    assert site.snapshot() == before


@FUZZ
@given(text=st.one_of(json_text, hostile_text, st.binary(max_size=40).map(repr)))
def test_any_text_frame_gets_an_error_not_a_dropped_connection(site: Site, text: str) -> None:
    before = site.snapshot()
    # What a WebSocket carries is UTF-8, so a frame cannot hold a lone surrogate itself.
    frame = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    for holder in (None, site.token):
        for reply in send_hostile(site, holder, frame):
            assert reply["type"] in ("error", "welcome", "state", "presence"), reply
    assert site.snapshot() == before


@FUZZ
@given(frame=st.binary(max_size=64))
def test_a_binary_frame_gets_an_error_not_a_dropped_connection(site: Site, frame: bytes) -> None:
    with site.client.websocket_connect(f"/ws/games/{site.playing}") as socket:
        greet(socket, site.token)
        socket.send_bytes(frame)
        error = answer(socket)
        assert (error["type"], error["code"]) == ("error", "bad_message")
        socket.send_text(json.dumps({"v": 1, "type": "ping"}))
        assert answer(socket)["type"] == "pong"


# ------------------------------------------------------------------- known hostile inputs

SURROGATE = '"\\ud800"'


def post_text(site: Site, path: str, text: str) -> Any:
    return site.client.post(path, content=text.encode(), headers={"content-type": "text/json"})


@pytest.mark.parametrize(
    "seat",
    ["%C2%B2", "%D9%A1", "9" * 5000, "-1", "1.0"],
    ids=["²", "Arabic 1", "5000 digits", "-1", "1.0"],
)
def test_a_seat_path_that_is_not_ascii_digits_is_a_bad_field(site: Site, seat: str) -> None:
    response = site.client.post(f"/api/games/{site.waiting}/seats/{seat}", json={})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_field"


@pytest.mark.parametrize(
    ("path", "text", "why"),
    [
        ("/api/games/{waiting}/seats/1", '{"invite": ' + SURROGATE + "}", "surrogate"),
        ("/api/games/{waiting}/seats/1", '{"name": "a\\udfffb"}', "surrogate"),
        ("/api/players", '{"name": "Eve", "password": ' + SURROGATE + "}", "surrogate"),
        ("/api/session", '{"name": "Eve", "password": "x\\ud800y"}', "surrogate"),
        ("/api/session", '{"name": ' + SURROGATE + ', "password": "secret"}', "surrogate"),
        ("/api/games", '{"seats": [{"name": ' + SURROGATE + "}, {}]}", "surrogate"),
        ("/api/games", '{"rows": ' + "3" * 5000 + ', "cols": 3}', "at most 100 characters"),
        ("/api/records", '{"rows": ' + "1" * 4301 + "}", "at most 100 characters"),
        ("/api/games/{waiting}/seats/1", '{"invite": -' + "9" * 4400 + "}", "at most 100"),
        ("/api/session", '{"password": ' + "7" * 4050 + "}", "at most 100 characters"),
    ],
    ids=[
        *("invite", "seat name", "claim password", "login password", "login name", "new game"),
        *("huge rows", "huge record field", "huge invite", "huge password"),
    ],
)
def test_lone_surrogates_and_huge_integers_in_a_body_are_bad_json(
    site: Site, path: str, text: str, why: str
) -> None:
    response = post_text(site, path.format(waiting=site.waiting), text)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "bad_json"
    assert why in response.json()["error"]["message"]


@pytest.mark.parametrize(
    "text",
    [
        '{"v": 1, "type": "hello", "token": ' + SURROGATE + "}",
        '{"v": 1, "type": "hello", "tokens": ["ok", "\\udc00"]}',
        '{"v": 1, "type": "move", "move": "S\\ud800", "ply": 0}',
        '{"v": 1, "type": "move", "move": "Sa1", "ply": ' + "1" * 1500 + "}",
        '{"v": 1, "type": "undo", "ply": NaN}',
    ],
    ids=["token", "tokens", "move", "ply", "NaN"],
)
def test_a_websocket_message_with_a_lone_surrogate_or_huge_number_is_bad_json(
    site: Site, text: str
) -> None:
    for holder in (None, site.token):
        with site.client.websocket_connect(f"/ws/games/{site.playing}") as socket:
            if holder is not None:
                greet(socket, holder)
            socket.send_text(text)
            error = answer(socket)
            assert (error["type"], error["code"]) == ("error", "bad_json")
            # The connection stays open.
            socket.send_text(json.dumps({"v": 1, "type": "hello", "token": holder}))
            socket.send_text(json.dumps({"v": 1, "type": "ping"}))
            while socket.receive_json()["type"] != "pong":
                pass


MiB = 1024 * 1024


def stream(
    site: Site, method: str, path: str, size: int, headers: dict[str, str] | None = None
) -> tuple[httpx.Response, int]:
    """Send a body of ``size`` bytes in 64 KiB chunks with no Content-Length, as a client
    streaming a huge upload would; the answer, and how many bytes the server asked for."""
    chunk = 64 * 1024
    sent = 0

    async def body() -> Any:
        nonlocal sent
        while sent < size:
            sent += chunk
            yield b" " * chunk

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=site.client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            raw = {name: value.encode("latin-1") for name, value in (headers or {}).items()}
            return await client.request(method, path, content=body(), headers=raw)

    assert site.client.portal is not None
    return site.client.portal.call(send), sent


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        ("/api/session", 4096),
        ("/api/players", 4096),
        ("/api/games", 256 * 1024),
        ("/api/records", 256 * 1024),
        ("/api/games/{waiting}/seats/1", 256 * 1024),
    ],
)
def test_a_huge_streamed_body_is_refused_before_it_is_read(
    site: Site, path: str, limit: int
) -> None:
    response, sent = stream(site, "POST", path.format(waiting=site.waiting), 300 * MiB)
    # The server stopped reading at the first chunk past the endpoint's limit.
    assert sent <= limit + 64 * 1024
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert response.headers["connection"] == "close"


@pytest.mark.parametrize(
    "length",
    [str(300 * MiB), "9" * 5000, "\u00b2", "-1", "x"],
    ids=["300 MiB", "5000 digits", "superscript 2", "-1", "x"],
)
def test_a_content_length_over_the_limit_is_refused_before_any_of_the_body(
    site: Site, length: str
) -> None:
    headers = {"content-length": length}
    response, sent = stream(site, "POST", "/api/session", 300 * MiB, headers)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert sent == 0


def test_a_route_that_forgets_the_limit_is_still_guarded(site: Site) -> None:
    async def careless(receive: Any) -> int:
        size = 0
        while True:
            message = await receive()
            size += len(message.get("body", b""))
            if not message.get("more_body"):
                return size

    from sosgame.web.guards.bodies import BodyLimit

    read: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        read.append(await careless(receive))

    guarded = BodyLimit(app, limit=1000)

    async def chunks() -> Any:
        for _ in range(1000):
            yield b"x" * 100

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=guarded)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.post("/", content=chunks())

    assert site.client.portal is not None
    response = site.client.portal.call(send)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert read == []


def test_a_huge_password_change_is_refused_before_it_is_read(site: Site) -> None:
    claimed = site.client.post("/api/players", json={"name": "Vy", "password": "a good password"})
    assert claimed.status_code == 201, claimed.text
    cookie = f"sos_session={claimed.cookies['sos_session']}"
    response, sent = stream(site, "POST", "/api/session/password", 300 * MiB, {"cookie": cookie})
    assert sent <= 4096 + 64 * 1024
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
