"""A game's chat is limited per person, not per socket: rates per seat and per address, the
stored share per seat, a logout that ends free text on the sockets opened before it, and a
flood of chat that never closes an honest follower."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sos_web import app_client, receive_type
from sosgame.web.live.chat import keep_message
from sosgame.web.live.fanout import Connection
from sosgame.web.storage.rows import SeatRow, StoredGame
from sosgame.web.storage.store import Store
from test_web_accounts import claim
from test_web_chat import _game, _hello
from test_web_mygames import url

__all__ = ["url"]  # the store tests' fixture: SQLite and PostgreSQL


def _say(socket: Any, **said: Any) -> None:
    socket.send_json({"v": 1, "type": "chat", **said})


def _pong(socket: Any) -> list[dict[str, Any]]:
    """Every message the socket gets until the answer to a ping (its own messages handled)."""
    socket.send_json({"v": 1, "type": "ping"})
    got = []
    while (message := socket.receive_json())["type"] != "pong":
        got.append(message)
    return got


def _codes(socket: Any) -> list[str]:
    """The codes of the errors the socket gets until the answer to a ping."""
    return [m["code"] for m in _pong(socket) if m["type"] == "error"]


def test_free_text_ends_on_a_socket_opened_before_its_session_logged_out(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        cookie = claim(client, "Ann")
        game, ann_token, bao_token = _game(client, cookie)
        url = f"/ws/games/{game}"
        with (
            client.websocket_connect(url, headers=cookie) as ann,
            client.websocket_connect(url) as bao,
        ):
            _hello(ann, ann_token)
            _hello(bao, bao_token)
            _say(ann, text="hi")
            assert receive_type(bao, "chat")["text"] == "hi"
            assert client.delete("/api/session", headers=cookie).status_code == 200
            _say(ann, text="still me")
            assert _codes(ann) == ["account_needed"]
            _say(ann, phrase="thanks")  # quick phrases stay open to everyone
            assert receive_type(bao, "chat")["phrase"] == "thanks"


def test_the_sockets_of_one_seat_share_its_chat_rate(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3", chat_burst=2, chat_per_second=0.01) as client:
        game, ann_token, bao_token = _game(client)
        url = f"/ws/games/{game}"
        with (
            client.websocket_connect(url) as bao,
            client.websocket_connect(url) as first,
            client.websocket_connect(url) as second,
            client.websocket_connect(url) as third,
        ):
            _hello(bao, bao_token)
            answers = []
            for socket in (first, second, third):
                _hello(socket, ann_token)
                _say(socket, phrase="hello")
                answers.append([m["type"] for m in _pong(socket) if m["type"] in ("chat", "error")])
            assert answers == [["chat"], ["chat"], ["error"]]
            _say(bao, phrase="hello")  # the other seat's rate is its own
            heard = [(m["type"], m.get("seat")) for m in _pong(bao) if m["type"] != "state"]
            assert heard[-1] == ("chat", 1) and ("error", None) not in heard


def test_the_spectators_of_one_address_share_its_chat_rate(tmp_path: Path) -> None:
    limits = {"chat_per_address_burst": 3, "chat_per_address_per_second": 0.01}
    with app_client(tmp_path / "games.sqlite3", **limits) as client:
        game, _ann_token, _bao_token = _game(client)
        url = f"/ws/games/{game}"
        sockets = [client.websocket_connect(url) for _ in range(5)]
        opened = [socket.__enter__() for socket in sockets]
        try:
            kinds = []
            for socket in opened:
                _hello(socket, None)
                _say(socket, phrase="hello")
                kinds.append([m["type"] for m in _pong(socket) if m["type"] == "error"])
            assert kinds == [[], [], [], ["error"], ["error"]]
        finally:
            for socket in reversed(sockets):
                socket.__exit__(None, None, None)


def test_one_seat_cannot_use_the_other_seats_share_of_the_stored_chat(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3", chat_per_game=4, chat_burst=10) as client:
        game, ann_token, bao_token = _game(client)
        url = f"/ws/games/{game}"
        with client.websocket_connect(url) as ann, client.websocket_connect(url) as bao:
            _hello(ann, ann_token)
            _hello(bao, bao_token)
            for _ in range(2):
                _say(ann, phrase="hello")
                receive_type(ann, "chat")
            _say(ann, phrase="hello")
            assert _codes(ann) == ["chat_full"]
            for _ in range(2):
                _say(bao, phrase="thanks")
                assert _codes(bao) == []


def test_the_store_keeps_each_seats_share_of_a_games_chat(url: str) -> None:
    store = Store(url)
    try:
        seats = [SeatRow(0, "Ann", "human"), SeatRow(1, "Bao", "human")]
        store.create(StoredGame("g1", "online", 3, 3, "general", seats, "playing", 1, 1))
        ann = {"seat": 0, "name": "Ann", "at": 1_000, "phrase": "hello"}
        bao = {"seat": 1, "name": "Bao", "at": 2_000, "phrase": "thanks"}
        kept = [keep_message(store.engine, "g1", ann, most=2) for _ in range(3)]
        assert kept == [True, True, False]
        assert keep_message(store.engine, "g1", bao, most=2)
    finally:
        store.close()


def test_a_burst_of_chat_never_closes_a_follower_that_reads_its_messages() -> None:
    async def scenario() -> None:
        sent: list[str] = []
        closed: list[int] = []

        async def send(text: str) -> None:
            sent.append(text)

        async def close(code: int, reason: str) -> None:
            closed.append(code)

        connection = Connection(send, close, backlog=8, chat_backlog=4)
        # 199 chat messages arrive in one turn of the event loop, before it may send any.
        for number in range(199):
            connection.deliver(f'{{"chat":{number}}}', chat=True)
        connection.deliver('{"state":1}')
        await connection.flush()
        assert not closed and not connection.closed
        assert sent[-1] == '{"state":1}' and len(sent) == 5  # the chat past 4 was dropped
        # The messages it must have still close it when too far behind.
        for number in range(9):
            connection.deliver(f'{{"state":{number}}}')
        await asyncio.sleep(0)
        assert connection.closed

    asyncio.run(scenario())
