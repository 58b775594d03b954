"""Letting newcomers in: new WebSocket sessions are paced (a burst at once, the rest at a
steady rate, round robin by client address, a clear refusal past the longest wait), a
newcomer joins the room the hub keeps, and what one client may make is capped (unfinished
games, lobby entries and computer games, counted by each game's stored owner)."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import test_web_store
from sosgame.web.guards.admission import Admission, BusyError
from sosgame.web.guards.fairqueue import FairQueue
from sosgame.web.live.fanout import PRESENCE_DELAY, presence_delay

pytestmark = pytest.mark.timeout(60)


url = test_web_store.url  # the fixture: a new database, SQLite and PostgreSQL


def test_a_burst_is_let_in_at_once_and_the_rest_wait_for_tokens() -> None:
    async def scenario() -> tuple[int, int]:
        # One token every 1000 s: nothing beyond the burst is let in during the test.
        admission = Admission(rate=0.001, burst=3, max_wait=10_000)
        for _ in range(3):
            await asyncio.wait_for(admission.enter("1.2.3.4"), timeout=5)
        waiting = asyncio.ensure_future(admission.enter("1.2.3.4"))
        await asyncio.sleep(0.05)
        queued = admission.queued()
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        return queued, admission.queued()

    queued, after_cancel = asyncio.run(scenario())
    assert queued == 1
    assert after_cancel == 0  # a client that gives up leaves the queue


def test_waiting_sessions_take_turns_between_addresses() -> None:
    async def scenario() -> list[str]:
        admission = Admission(rate=200, burst=1, max_wait=60)
        order: list[str] = []
        await admission.enter("crowd")

        async def session(address: str, name: str) -> None:
            await admission.enter(address)
            order.append(name)

        tasks = [asyncio.ensure_future(session("crowd", f"crowd {n}")) for n in range(4)]
        await asyncio.sleep(0)
        tasks.append(asyncio.ensure_future(session("elsewhere", "newcomer")))
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=30)
        return order

    order = asyncio.run(scenario())
    # The newcomer from another address goes second, not behind the whole crowd.
    assert order == ["crowd 0", "newcomer", "crowd 1", "crowd 2", "crowd 3"]


@given(st.lists(st.tuples(st.sampled_from("abc"), st.booleans()), max_size=30))
def test_the_fair_queue_serves_owners_in_turn_and_skips_what_was_given_up(
    pushes: list[tuple[str, bool]],
) -> None:
    queue: FairQueue[tuple[int, str, bool]] = FairQueue(lambda item: item[2])
    for number, (owner, live) in enumerate(pushes):
        queue.push(owner, (number, owner, live))
    served = []
    while (item := queue.pop()) is not None:
        served.append(item)
    assert len(queue) == 0
    # Round k serves each owner's k-th item, the owners in the order they first came; the
    # items given up (not live) are skipped.
    owners = list(dict.fromkeys(owner for owner, _live in pushes))
    rank = {
        number: sum(o == owner for o, _ in pushes[:number])
        for number, (owner, _) in enumerate(pushes)
    }
    expected = sorted(
        ((number, owner, live) for number, (owner, live) in enumerate(pushes) if live),
        key=lambda item: (rank[item[0]], owners.index(item[1])),
    )
    assert served == expected


def test_a_queue_longer_than_the_longest_wait_is_refused_with_a_reason() -> None:
    async def scenario() -> str:
        admission = Admission(rate=0.001, burst=1, max_wait=2000)  # room for 2 waiting
        await admission.enter("a")
        waiting = [asyncio.ensure_future(admission.enter("a")) for _ in range(2)]
        await asyncio.sleep(0.05)
        try:
            with pytest.raises(BusyError) as refused:
                await admission.enter("b")
            assert admission.queued() == 2  # the refusal changed nothing
        finally:
            for task in waiting:
                task.cancel()
            await asyncio.gather(*waiting, return_exceptions=True)
        return str(refused.value)

    assert "try again" in asyncio.run(scenario())


@pytest.mark.parametrize(
    ("rate", "burst", "max_wait"), [(0, 1, 1.0), (1.0, 0, 1.0), (1.0, 1, 0), (-1.0, 1, 1.0)]
)
def test_admission_rejects_limits_that_admit_nobody(
    rate: float, burst: int, max_wait: float
) -> None:
    with pytest.raises(ValueError, match="above 0"):
        Admission(rate=rate, burst=burst, max_wait=max_wait)


def test_a_crowd_gets_its_presence_less_often_than_a_small_game() -> None:
    assert presence_delay(2) == pytest.approx(PRESENCE_DELAY + 0.002)
    assert presence_delay(1000) >= 1.0
    assert presence_delay(1000) > presence_delay(10) > PRESENCE_DELAY


def test_the_server_refuses_a_session_it_cannot_admit_with_close_code_1013(
    tmp_path: Path,
) -> None:
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from sosgame.web import create_app
    from sosgame.web.config import ServerLimits

    # One session at once, then one a thousand seconds, and no queue: the second is refused.
    limits = ServerLimits(admissions_per_second=0.001, admission_burst=1, admission_max_wait=1)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", server_limits=limits)
    with TestClient(app) as client:
        seats = [{"name": "Ann"}, {"name": "Bao"}]
        game = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": seats}).json()
        url = f"/ws/games/{game['id']}"
        with client.websocket_connect(url) as first:
            first.send_json({"v": 1, "type": "hello", "tokens": [game["token"]]})
            assert _until(first, "state")["game"]["ply"] == 0
            with client.websocket_connect(url) as second:
                refused = second.receive_json()
                assert refused["type"] == "error"
                assert refused["code"] == "server_busy"
                assert "try again" in refused["message"]
                closed = second.receive()
                assert closed["code"] == 1013
            # The first session is untouched and still plays.
            first.send_json({"v": 1, "type": "move", "move": "Sa1", "ply": 0})
            assert _until(first, "state")["game"]["ply"] == 1


def _until(socket: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message among 20")


def test_a_newcomer_joins_the_room_the_hub_keeps_even_if_the_one_it_checked_was_forgotten(
    tmp_path: Path,
) -> None:
    pytest.importorskip("sqlalchemy")
    from sosgame.web.live.hub import Hub
    from sosgame.web.live.protocol import parse_new_game
    from sosgame.web.matchmaking import creation
    from sosgame.web.storage.store import Store

    async def scenario() -> tuple[bool, bool]:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"))
        try:
            first, _token, _seats = await creation.create(
                hub,
                parse_new_game({"rows": 3, "cols": 3, "seats": [{"name": "Ann"}, {"name": "Bao"}]}),
            )
            checks = []

            async def forgetting_check(room: Any) -> None:
                # What a change heard from another process does to a room nobody follows.
                checks.append(room)
                if len(checks) == 1:
                    hub._drop(room)

            hub.make_current = forgetting_check  # type: ignore[method-assign]
            joined = await hub.room_to_join(first.id)
            return joined is not first, joined is hub.rooms.get(first.id)
        finally:
            await hub.close()
            hub.store.close()

    replaced, kept = asyncio.run(scenario())
    assert replaced  # the forgotten room was not handed out ...
    assert kept  # ... but the one the hub now holds


def _client(tmp_path: Path, **limits: Any) -> Any:
    pytest.importorskip("starlette")
    pytest.importorskip("sqlalchemy")
    from sos_web import app_client

    return app_client(tmp_path / "games.sqlite3", **limits)


BOTS = [{"name": "Ann"}, {"name": "Bot", "player": "random"}]
PEOPLE = [{"name": "Ann"}, {"name": "Bao"}]


def _new(client: Any, seats: list[dict[str, str]], **settings: Any) -> Any:
    return client.post("/api/games", json={"rows": 3, "cols": 3, "seats": seats, **settings})


def test_the_computer_cap_and_fair_queue_know_a_games_owner_after_a_reload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sosgame.ai")
    from sos_web import resign
    from sosgame.web.computer.workers import ComputerPool

    owners: list[str] = []
    submit = ComputerPool._submit

    async def noting(self: ComputerPool, *args: Any) -> Any:
        owners.append(args[2])
        return await submit(self, *args)

    monkeypatch.setattr(ComputerPool, "_submit", noting)
    with _client(tmp_path, computer_games_per_address=2) as client:
        games = [_new(client, BOTS).json() for _ in range(2)]
        assert all("id" in game for game in games)
    # The server restarts (as when its rooms are dropped from memory): nothing is in memory.
    with _client(tmp_path, computer_games_per_address=2) as client:
        refused = _new(client, BOTS)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_games"
        with client.websocket_connect(f"/ws/games/{games[0]['id']}") as socket:
            socket.send_json({"v": 1, "type": "hello", "tokens": [games[0]["token"]]})
            socket.send_json({"v": 1, "type": "move", "move": "Sa1", "ply": 0})
            for _ in range(40):
                message = socket.receive_json()
                if message["type"] == "state" and message["game"]["ply"] >= 2:
                    break
            else:
                raise AssertionError("the computer did not reply")
        # Resigned or over, a game stops counting: the address may start another.
        resign(client, games[1]["id"], games[1]["token"])
        assert _new(client, BOTS).status_code == 201
    # The computer's move joined its creator's queue, not one of the game's own.
    assert owners and set(owners) == {"testclient"}


def test_lobby_entries_per_address_are_limited(tmp_path: Path) -> None:
    with _client(tmp_path, lobby_games_per_address=3) as client:
        for _ in range(3):
            assert _new(client, PEOPLE, kind="online", public=True).status_code == 201
        refused = _new(client, PEOPLE, kind="online", public=True)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_lobby_games"
        assert "3 public games" in refused.json()["error"]["message"]
        assert len(client.get("/api/lobby").json()["games"]) == 3
        # A private game takes no lobby entry.
        assert _new(client, PEOPLE, kind="online").status_code == 201


def test_unfinished_games_per_address_are_limited_until_one_ends(tmp_path: Path) -> None:
    from sos_web import resign

    with _client(tmp_path, games_per_address=4) as client:
        made = [_new(client, PEOPLE).json() for _ in range(4)]
        refused = _new(client, PEOPLE, rows=26, cols=26)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_games"
        assert "4 unfinished games" in refused.json()["error"]["message"]
        resign(client, made[0]["id"], made[0]["token"])
        assert _new(client, PEOPLE).status_code == 201


def test_unfinished_and_lobby_games_per_player_are_limited_from_any_address(
    tmp_path: Path,
) -> None:
    pytest.importorskip("argon2")
    from sosgame.web.people.accounts import COOKIE

    with _client(tmp_path, games_per_player=2, lobby_games_per_player=1) as client:
        claimed = client.post("/api/players", json={"name": "Ann", "password": "a good one!"})
        assert claimed.status_code == 201
        ann = {"cookie": f"{COOKIE}={client.cookies.get(COOKIE)}"}
        client.cookies.clear()
        body = {"rows": 3, "cols": 3, "seats": PEOPLE, "kind": "online", "public": True}
        assert client.post("/api/games", json=body, headers=ann).status_code == 201
        refused = client.post("/api/games", json=body, headers=ann)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_lobby_games"
        assert (
            client.post("/api/games", json={**body, "public": False}, headers=ann).status_code
            == 201
        )
        refused = client.post(
            "/api/games", json={"rows": 3, "cols": 3, "seats": PEOPLE}, headers=ann
        )
        assert refused.status_code == 429
        assert "you already have 2 unfinished games" in refused.json()["error"]["message"]
        # A guest at the same address is not that player.
        assert _new(client, PEOPLE).status_code == 201


def test_games_abandoned_long_ago_stop_counting(url: str) -> None:
    from sosgame.web.config import ServerLimits
    from sosgame.web.guards.gamecaps import Caps, Party, refusal
    from sosgame.web.storage.rows import SeatRow, StoredGame
    from sosgame.web.storage.store import Store

    store = Store(url)
    seats = [SeatRow(0, "Ann", "human", "h" * 64), SeatRow(1, "Bot", "easy")]
    for number, (status, public) in enumerate([("playing", False), ("open", True)]):
        store.create(
            StoredGame(
                f"g{number}",
                "online",
                3,
                3,
                "general",
                seats,
                status,
                1000,
                1000,
                public=public,
                owner="1.2.3.4",
                owner_player=7,
            )
        )
    loaded = store.load("g0")
    assert loaded is not None and (loaded.owner, loaded.owner_player) == ("1.2.3.4", 7)
    two = ServerLimits(
        computer_games_per_address=2, games_per_address=2, games_per_player=2,
        lobby_games_per_address=1, lobby_games_per_player=1,
    )  # fmt: skip

    def passed(caps: Caps, party: Party, **game: bool) -> str | None:
        with store.engine.begin() as db:
            return refusal(db, caps, party, **game)

    lately, long_ago = Caps(two, 1000, 1000), Caps(two, 1001, 1001)
    ann, guest, other = Party("1.2.3.4", 7), Party("1.2.3.4"), Party("5.6.7.8", 8)
    assert passed(lately, ann, computer=True) == "computer_address"
    assert passed(lately, ann, lobby=True) == "address"
    assert passed(lately, other, lobby=True) is None
    # Changed before the window, the games count no more (the account's neither).
    assert passed(long_ago, guest, computer=True, lobby=True) is None
    assert passed(long_ago, Party("9.9.9.9", 7)) is None
    store.close()
