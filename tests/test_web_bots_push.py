"""The bot API's streams are pushed, and let go of at once: an account's event stream reads
the store only when it opens (challenges and games then come as notices, over the bus
across processes), says each thing once however it hears it, and a stream whose client goes
away is dropped at once (its seat away, its notices no longer kept), not at its next
keep-alive line."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from sos_services import free_port
from sos_web import app_client
from sosgame.web.app import create_app
from sosgame.web.config import ServerLimits
from sosgame.web.endpoints.botevents import Said
from sosgame.web.endpoints.botstreams import KEEP_ALIVE_SECONDS
from sosgame.web.live.notices import ACCEPTED, AccountNotices
from sosgame.web.live.waiting import next_within
from sosgame.web.people.apitokens import ApiTokens
from test_web_bots import bot, game_between
from test_web_bots_streams import GAME, Server, Stream

WAIT = 15.0
LET_GO = 30.0
"""Seconds a stream whose client went may take to end. A stream that noticed only at a
failed write would never end here (every write succeeds, the keep-alive's among them), so
the bound can leave room for a busy machine."""


class InProcess(Server):
    """The app served by uvicorn in a thread of the test's process (so that the test can
    look inside it), with :class:`Server`'s helpers."""

    def __init__(self, database: Path) -> None:
        self.app = create_app(f"sqlite:///{database}", server_limits=ServerLimits())
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(self.app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.http = httpx.Client(base_url=self.url, timeout=10)
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(15)

    @property
    def hub(self) -> Any:
        return self.app.state.hub


@pytest.fixture(name="inside")
def inside_fixture(tmp_path: Path) -> Iterator[InProcess]:
    server = InProcess(tmp_path / "games.sqlite3")
    try:
        yield server
    finally:
        server.stop()


def until(check: Any, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.05)


def test_the_event_stream_reads_the_store_only_when_it_opens(
    inside: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = inside.bot("Ana"), inside.bot("Ben")
    reads: list[int] = []
    seats = ApiTokens.seats

    def counted(self: ApiTokens, player_id: int, game_id: str | None = None) -> Any:
        if game_id is None:
            reads.append(player_id)
        return seats(self, player_id, game_id)

    monkeypatch.setattr(ApiTokens, "seats", counted)
    stream = Stream(inside, "/api/stream/event", two)
    try:
        until(lambda: len(reads) == 1)
        # Quiet for a while: a stream that polled would read the store again and again.
        time.sleep(2.5)
        assert len(reads) == 1
        # What happens now comes pushed: the challenge, then the game it makes.
        made = inside.post("/api/challenge/Ben", one, GAME)["challenge"]["id"]
        shown = stream.next("challenge")["challenge"]
        assert shown["id"] == made and shown["challenger"] == "Ana"
        game_id = inside.post(f"/api/challenge/{made}/accept", two)["game"]["id"]
        assert stream.next("gameStart")["game"] == {
            "id": game_id,
            "rows": 3,
            "cols": 3,
            "mode": "general",
            "rated": False,
            "seat": 1,
            "status": "playing",
        }
        inside.post(f"/api/bot/game/{game_id}/resign", one)
        assert stream.next("gameFinish")["game"]["status"] == "finished"
        assert len(reads) == 1
    finally:
        stream.close()


def connections(server: Server) -> int:
    found: int = server.http.get("/api/health").json()["connections"]
    return found


def test_an_event_stream_whose_client_goes_lets_go_of_the_account(inside: InProcess) -> None:
    one = inside.bot("Cai")
    stream = Stream(inside, "/api/stream/event", one)
    until(lambda: connections(inside) == 1)
    assert inside.hub.notices.streams == 1
    stream.close()
    # Its connection and its inbox both go (how soon: the ASGI tests below).
    until(lambda: connections(inside) == 0)
    assert inside.hub.notices.streams == 0


def test_an_event_stream_answers_at_once_a_client_that_takes_gzip(inside: InProcess) -> None:
    # Nothing to say yet: the headers still come at once (compressed, they waited for the
    # first line, a keep-alive seconds later), so the client knows it is connected.
    headers = {**inside.bot("Fay"), "accept-encoding": "gzip"}
    timeout = httpx.Timeout(10, read=2.0)
    with (
        httpx.Client(base_url=inside.url, timeout=timeout) as client,
        client.stream("GET", "/api/stream/event", headers=headers) as response,
    ):
        assert response.status_code == 200
        assert "content-encoding" not in response.headers


def _scope(path: str, headers: dict[str, str], spec_version: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": spec_version},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            *((key.encode(), value.encode()) for key, value in headers.items()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


@pytest.mark.parametrize("spec_version", ["2.3", "2.4"])
def test_a_game_stream_ends_when_its_client_disconnects_whatever_the_server(
    tmp_path: Path, spec_version: str
) -> None:
    """A server of ASGI 2.4 or later tells a disconnect only through ``receive``; a stream
    that waited for a failed write would keep the seat connected until its keep-alive."""
    with app_client(tmp_path / "games.sqlite3") as client:
        one, two = bot(client, "Gil"), bot(client, "Hal")
        game_id = game_between(client, one, two, "Hal")
        app = client.app
        path = f"/api/bot/game/stream/{game_id}"

        async def drive() -> tuple[bool, frozenset[int]]:
            gone = asyncio.Event()
            asked = False

            async def receive() -> dict[str, Any]:
                nonlocal asked
                if not asked:
                    asked = True
                    return {"type": "http.request", "body": b"", "more_body": False}
                await gone.wait()
                return {"type": "http.disconnect"}

            lines: list[bytes] = []

            async def send(message: dict[str, Any]) -> None:
                lines.append(message.get("body", b""))

            task = asyncio.ensure_future(app(_scope(path, two, spec_version), receive, send))
            rooms = app.state.hub.rooms  # type: ignore[attr-defined]
            for _ in range(1000):
                if game_id in rooms and 1 in rooms[game_id].channel.connected_seats():
                    break
                await asyncio.sleep(0.01)
            room = rooms[game_id]
            assert 1 in room.channel.connected_seats()
            gone.set()
            try:
                await asyncio.wait_for(asyncio.shield(task), LET_GO)
            except TimeoutError:
                task.cancel()
                return False, room.channel.connected_seats()
            return True, room.channel.connected_seats()

        ended, connected = client.portal.call(drive)  # type: ignore[union-attr]
        assert ended
        assert 1 not in connected


def test_a_notice_heard_twice_is_said_once() -> None:
    said = Said()
    game = {"id": "g", "rows": 3, "cols": 3, "mode": "general", "rated": False, "seat": 0}
    start = {"type": "gameStart", "game": {**game, "status": "playing"}}
    finish = {"type": "gameFinish", "game": {**game, "status": "finished"}}
    assert said.take(start) == [start]
    assert said.take(start) == []
    assert said.take(finish) == [finish]
    assert said.take(finish) == [] and said.take(start) == []
    shown = {"id": "c", "lapses_ms": 1000, "challenger": "Ana"}
    made = {"type": "challenge", "challenge": shown}
    assert said.take(made) == [made] and said.take(made) == []
    # An answer is said with the challenge as it was shown, once.
    declined = {"type": "challengeDeclined", "challenge": {"id": "c", "declineReason": "later"}}
    assert said.take(declined) == [
        {"type": "challengeDeclined", "challenge": {**shown, "declineReason": "later"}}
    ]
    assert said.take(declined) == [] and said.take(made) == []
    # An answer to a challenge never shown says nothing.
    assert said.take({"type": "challengeCanceled", "challenge": {"id": "x"}}) == []


def test_a_challenge_shown_lapses_once_unless_it_was_accepted() -> None:
    said = Said()
    for key, lapses in (("a", 1000), ("b", 2000)):
        said.take({"type": "challenge", "challenge": {"id": key, "lapses_ms": lapses}})
    assert said.next_lapse_ms() == 1000
    said.take({"type": ACCEPTED, "challenge": {"id": "a"}})
    assert said.lapsed(5000) == [
        {"type": "challengeCanceled", "challenge": {"id": "b", "lapses_ms": 2000}}
    ]
    assert said.lapsed(5000) == [] and said.next_lapse_ms() is None


class SlowBus:
    """A bus whose subscriptions take until the test lets them be made."""

    def __init__(self) -> None:
        self.made = asyncio.Event()
        self.heard: Any = None

    def on_notice(self, handler: Any) -> None:
        self.heard = handler

    async def follow_account(self, account: int) -> None:
        await self.made.wait()

    def notify(self, account: int, notice: dict[str, Any]) -> None:
        """Other processes' streams are not this test's."""


def test_a_second_stream_of_an_account_waits_for_its_subscription_too() -> None:
    """A stream reads the store once its account is followed: a second stream opened while
    the first's subscription is under way must not read it sooner (a notice published in
    between would be lost to it)."""

    async def scenario() -> None:
        bus = SlowBus()
        notices = AccountNotices(bus, None, None)  # type: ignore[arg-type]
        first = asyncio.create_task(notices.open(7))
        second = asyncio.create_task(notices.open(7))
        await asyncio.sleep(0.05)
        assert not first.done() and not second.done()
        bus.made.set()
        one, two = await asyncio.gather(first, second)
        notices.tell([7], {"type": "challenge", "challenge": {"id": "c"}})
        assert one.queue.qsize() == two.queue.qsize() == 1

    asyncio.run(scenario())


@pytest.mark.slow
def test_an_event_stream_hears_what_another_process_did(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    first = Server(postgres_url, redis_url, tmp_path / "first.log")
    second = Server(postgres_url, redis_url, tmp_path / "second.log")
    try:
        one, two = first.bot("Ivo"), second.bot("Jan")
        stream = Stream(first, "/api/stream/event", two)
        until(lambda: stream._response is not None)
        # Made, accepted and ended through the second process; told on the first.
        made = second.post("/api/challenge/Jan", one, GAME)["challenge"]["id"]
        assert stream.next("challenge")["challenge"]["id"] == made
        game_id = second.post(f"/api/challenge/{made}/accept", two)["game"]["id"]
        assert stream.next("gameStart")["game"]["id"] == game_id
        second.post(f"/api/bot/game/{game_id}/resign", one)
        assert stream.next("gameFinish")["game"]["id"] == game_id
        other = second.post("/api/challenge/Jan", one, GAME)["challenge"]["id"]
        assert stream.next("challenge")["challenge"]["id"] == other
        second.post(f"/api/challenge/{other}/decline", two, {"reason": "later"})
        declined = stream.next("challengeDeclined")["challenge"]
        assert declined["id"] == other and declined["declineReason"] == "later"
        stream.close()
    finally:
        first.stop()
        second.stop()


def test_a_stream_cancelled_as_a_message_arrives_ends() -> None:
    """A client that leaves just as a message comes for its stream (a presence change, say)
    ends the stream: Python 3.11's ``asyncio.wait_for`` would hand the message over and lose
    the cancellation, and the stream would follow its game on."""

    async def follow(queue: asyncio.Queue[str], heard: list[str]) -> None:
        while True:
            text = await next_within(queue, KEEP_ALIVE_SECONDS)
            if text is not None:
                heard.append(text)

    async def race() -> tuple[bool, list[str]]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        heard: list[str] = []
        stream = asyncio.ensure_future(follow(queue, heard))
        await asyncio.sleep(0.01)
        queue.put_nowait("presence")
        await asyncio.sleep(0)  # the queue has handed the message over; the stream not resumed
        stream.cancel()
        await asyncio.wait({stream}, timeout=1)
        ended = stream.cancelled()
        stream.cancel()
        await asyncio.wait({stream}, timeout=1)
        return ended, heard

    ended, heard = asyncio.run(race())
    assert ended
    assert heard in ([], ["presence"])
