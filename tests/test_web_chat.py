"""A game's chat: the players' and the spectators' apart, quick phrases for all, free text
for players with an account, rate limited, across hubs, and the players' chat in the record
only its players download."""

from __future__ import annotations

import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from sos_web import app_client, receive_type
from sosgame.record import Record
from sosgame.web.config import ServerLimits
from sosgame.web.guards.ratelimit import RateLimit
from sosgame.web.live.chat import CHAT_TAG, ChatRates, keep_message, record_tag, send_chat
from sosgame.web.live.protocol import MAX_CHAT_TEXT, ProtocolError, check_chat
from sosgame.web.storage.rows import SeatRow, StoredGame
from sosgame.web.storage.store import Store
from test_web_accounts import claim
from test_web_hubs import Client, new_game, run, two_hubs
from test_web_mygames import url

__all__ = ["url"]  # the store tests' fixture: SQLite and PostgreSQL

Message = dict[str, Any]


@pytest.mark.parametrize(
    ("text", "phrase", "code"),
    [
        (None, None, "bad_message"),
        ("hi", "hello", "bad_message"),
        (None, "hi there", "bad_field"),
        (None, 3, "bad_field"),
        ("x" * (MAX_CHAT_TEXT + 1), None, "bad_field"),
        (" \n\t ", None, "bad_field"),
        (7, None, "bad_field"),
    ],
)
def test_a_bad_chat_message_is_refused(text: object, phrase: object, code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        check_chat(text, phrase)
    assert refused.value.code == code


def test_chat_text_keeps_no_control_characters() -> None:
    assert check_chat("gg\nwp\u202e", None) == ("ggwp", None)
    assert check_chat("<b>hi</b>", None) == ("<b>hi</b>", None)  # the client shows it as text
    assert check_chat(None, "good_game") == (None, "good_game")


def _game(client: Any, headers: dict[str, str] | None = None) -> tuple[str, str, str]:
    body = {"rows": 3, "cols": 3, "kind": "online", "public": True}
    body["seats"] = [{"name": "Ann"}, {"name": "Bao"}]
    made = client.post("/api/games", json=body, headers=headers or {}).json()
    taken = client.post(f"/api/games/{made['id']}/seats/1", json={"name": "Bao"}).json()
    return made["id"], made["token"], taken["token"]


def _hello(socket: Any, token: str | None) -> None:
    socket.send_json({"v": 1, "type": "hello", "token": token})
    receive_type(socket, "welcome")


def test_players_and_spectators_each_have_their_own_chat(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        game, ann_token, bao_token = _game(client)
        url = f"/ws/games/{game}"
        with (
            client.websocket_connect(url) as ann,
            client.websocket_connect(url) as bao,
            client.websocket_connect(url) as watcher,
        ):
            for socket, token in ((ann, ann_token), (bao, bao_token), (watcher, None)):
                _hello(socket, token)
            ann.send_json({"v": 1, "type": "chat", "phrase": "good_luck"})
            for socket in (ann, bao):
                said = receive_type(socket, "chat")
                assert said["seat"] == 0 and said["name"] == "Ann"
                assert said["phrase"] == "good_luck" and "text" not in said
                assert isinstance(said["at"], int)
            watcher.send_json({"v": 1, "type": "chat", "phrase": "hello"})
            said = receive_type(watcher, "chat")
            # The spectator hears only the spectators' chat, not the players'.
            assert (said["seat"], said["phrase"]) == (None, "hello")
            # A guest spectator's name of their own, the same for each of their messages.
            assert re.fullmatch(r"Spectator \d{4}", said["name"])
            watcher.send_json({"v": 1, "type": "chat", "phrase": "thanks"})
            assert receive_type(watcher, "chat")["name"] == said["name"]
            bao.send_json({"v": 1, "type": "chat", "text": "hi"})
            assert receive_type(bao, "error")["code"] == "account_needed"
            bao.send_json({"v": 1, "type": "ping"})
            receive_type(bao, "pong")  # the spectator's message never reached the players
            bao.send_json({"v": 1, "type": "chat"})
            assert receive_type(bao, "error")["code"] == "bad_message"


def test_free_text_is_for_account_holders_and_chat_is_rate_limited(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3", chat_burst=2, chat_per_second=0.01) as client:
        cookie = claim(client, "Ann")
        game, ann_token, bao_token = _game(client, cookie)
        url = f"/ws/games/{game}"
        with (
            client.websocket_connect(url, headers=cookie) as ann,
            client.websocket_connect(url) as bao,
        ):
            _hello(ann, ann_token)
            _hello(bao, bao_token)
            ann.send_json({"v": 1, "type": "chat", "text": "<i>good luck</i>"})
            said = receive_type(bao, "chat")
            assert said["text"] == "<i>good luck</i>" and said["name"] == "Ann"
            ann.send_json({"v": 1, "type": "chat", "phrase": "thanks"})
            receive_type(bao, "chat")
            ann.send_json({"v": 1, "type": "chat", "phrase": "thanks"})
            assert receive_type(ann, "error")["code"] == "rate_limited"


async def _guest() -> None:
    return None


def test_a_chat_message_reaches_the_players_of_another_hub(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, two):
            game, token = await new_game(
                one, kind="local", seats=[{"name": "Ann"}, {"name": "Bao"}]
            )
            player, elsewhere, spectator = Client(one), Client(two), Client(two)
            await player.join(game, token)
            await elsewhere.join(game, token)
            await spectator.join(game)
            room = one.rooms[game]
            await send_chat(
                game,
                ["Ann", "Bao"],
                room.channel,
                one.bus,
                player.connection,
                None,
                "hello",
                account=_guest,
                limit=RateLimit(),
                rates=ChatRates(ServerLimits()),
                keep=partial(one.db, keep_message, one.store.engine, game, most=10),
            )
            said = await elsewhere.until(lambda m: m["type"] == "chat")
            assert (said["seat"], said["phrase"]) == (0, "hello")
            await spectator.send(type="ping")
            await spectator.until(lambda m: m["type"] == "pong")
            assert not [m for m in spectator.messages if m["type"] == "chat"]

    run(scenario)


def _record(client: Any, game: str, headers: dict[str, str] | None = None) -> Any:
    answer = client.get(f"/api/games/{game}/record", headers=headers or {})
    assert answer.status_code == 200, answer.text
    return answer


def _chat_of(client: Any, game: str, headers: dict[str, str] | None = None) -> Any:
    """The chat in the record of ``game`` as these headers download it, or ``None``."""
    tags = _record(client, game, headers).json()["meta"]["tags"]
    return json.loads(tags[CHAT_TAG]) if CHAT_TAG in tags else None


def test_the_players_chat_is_in_their_record_and_in_nobody_elses(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        ann_session = claim(client, "Ann")
        cay_session = claim(client, "Cay")
        game, ann_token, bao_token = _game(client, ann_session)
        _other, other_token, _ = _game(client)
        url = f"/ws/games/{game}"
        with (
            client.websocket_connect(url, headers=ann_session) as ann,
            client.websocket_connect(url) as bao,
            client.websocket_connect(url) as watcher,
        ):
            for socket, token in ((ann, ann_token), (bao, bao_token), (watcher, None)):
                _hello(socket, token)
            ann.send_json({"v": 1, "type": "chat", "text": "<i>gl</i> «hf»"})
            receive_type(bao, "chat")
            bao.send_json({"v": 1, "type": "chat", "phrase": "good_luck"})
            # Ann hears her own message too: wait for Bao's, stored before anyone hears it.
            while receive_type(ann, "chat").get("phrase") != "good_luck":
                pass
            watcher.send_json({"v": 1, "type": "chat", "phrase": "hello"})
            receive_type(watcher, "chat")
        said = _chat_of(client, game, {"Authorization": f"Bearer {bao_token}"})
        assert [{k: v for k, v in item.items() if k != "at"} for item in said] == [
            {"seat": 0, "name": "Ann", "text": "<i>gl</i> «hf»"},
            {"seat": 1, "name": "Bao", "phrase": "good_luck"},
        ]  # the spectator's "hello" is not the players'
        assert all(item["at"].endswith("+00:00") for item in said)
        # Ann's account took seat 0: her session is enough, without the token.
        assert _chat_of(client, game, ann_session) == said
        private = _record(client, game, {"Authorization": f"Bearer {ann_token}"})
        assert private.headers["cache-control"] == "no-store"
        # The public download, a spectator's (with another game's token, or another
        # account) never carry it.
        for headers in ({}, {"Authorization": f"Bearer {other_token}"}, cay_session):
            assert _chat_of(client, game, headers) is None
        assert "cache-control" not in _record(client, game).headers


def test_a_record_with_the_chat_loads_round_trips_and_is_taken_without_it(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        game, ann_token, _bao_token = _game(client)
        with client.websocket_connect(f"/ws/games/{game}") as ann:
            _hello(ann, ann_token)
            ann.send_json({"v": 1, "type": "move", "move": "Sa1", "ply": 0})
            receive_type(ann, "state")
            ann.send_json({"v": 1, "type": "chat", "phrase": "thanks"})
            receive_type(ann, "chat")
        text = _record(client, game, {"Authorization": f"Bearer {ann_token}"}).text
        record = Record.from_json(text)
        assert json.loads(record.meta["tags"][CHAT_TAG])[0]["phrase"] == "thanks"
        assert record.moves == ["Sa1"] and len(record.to_game().actions) == 1
        again = Record.from_json(record.to_json())
        assert (again.meta, again.moves, again.players) == (record.meta, ["Sa1"], ["Ann", "Bao"])
        uploaded = client.post("/api/records", json=json.loads(text))
        assert uploaded.status_code == 201, uploaded.text
        copy = uploaded.json()
        token = {"Authorization": f"Bearer {copy['token']}"}
        assert _chat_of(client, copy["id"], token) is None
        assert _chat_of(client, copy["id"]) is None


def test_a_games_players_chat_keeps_so_many_messages(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3", chat_per_game=4) as client:
        game, ann_token, _bao_token = _game(client)
        url = f"/ws/games/{game}"
        with client.websocket_connect(url) as ann, client.websocket_connect(url) as watcher:
            _hello(ann, ann_token)
            _hello(watcher, None)
            for phrase in ("hello", "good_luck"):
                ann.send_json({"v": 1, "type": "chat", "phrase": phrase})
                receive_type(ann, "chat")
            ann.send_json({"v": 1, "type": "chat", "phrase": "thanks"})
            assert receive_type(ann, "error")["code"] == "chat_full"
            watcher.send_json({"v": 1, "type": "chat", "phrase": "hello"})
            assert receive_type(watcher, "chat")["seat"] is None  # not kept, so never full
        said = _chat_of(client, game, {"Authorization": f"Bearer {ann_token}"})
        assert [item["phrase"] for item in said] == ["hello", "good_luck"]


def test_the_store_keeps_a_games_players_chat_in_order_up_to_its_most(url: str) -> None:
    store = Store(url)
    try:
        seats = [SeatRow(0, "Ann", "human"), SeatRow(1, "Bao", "human")]
        store.create(StoredGame("g1", "online", 3, 3, "general", seats, "playing", 1, 1))
        said = [
            {"seat": 1, "name": "Bao", "at": 2_000, "text": "ह ơ"},
            {"seat": 0, "name": "Ann", "at": 1_000, "phrase": "hello"},
        ]
        assert [keep_message(store.engine, "g1", item, most=1) for item in said] == [True, True]
        assert not keep_message(store.engine, "g1", said[1], most=1)
        tag = record_tag(store.engine, "g1")
        assert tag is not None
        assert json.loads(tag) == [
            {"seat": 0, "name": "Ann", "at": "1970-01-01T00:00:01+00:00", "phrase": "hello"},
            {"seat": 1, "name": "Bao", "at": "1970-01-01T00:00:02+00:00", "text": "ह ơ"},
        ]
        assert record_tag(store.engine, "g2") is None
    finally:
        store.close()


def test_players_storing_at_once_never_pass_a_games_most(url: str) -> None:
    store = Store(url)
    try:
        seats = [SeatRow(0, "Ann", "human"), SeatRow(1, "Bao", "human")]
        store.create(StoredGame("g1", "online", 3, 3, "general", seats, "playing", 1, 1))
        message = {"seat": 0, "name": "Ann", "at": 1_000, "phrase": "hello"}
        start = threading.Barrier(8)

        def keep_five() -> list[bool]:
            start.wait()
            return [keep_message(store.engine, "g1", message, most=10) for _ in range(5)]

        with ThreadPoolExecutor(8) as pool:
            kept = [done for result in pool.map(lambda _: keep_five(), range(8)) for done in result]
        tag = record_tag(store.engine, "g1")
        assert tag is not None
        assert kept.count(True) == len(json.loads(tag)) == 10
    finally:
        store.close()
