"""Quick pairing: the pools' configuration, who is paired with whom as the wait widens the
range, the computer offered after the wait, and pairing through two hubs over one store
(as two server processes), each entry at most once; the time is a fake clock."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from sos_web import TestClient, app_client, receive_type
from sosgame.web.app import create_app
from sosgame.web.config import ServerLimits
from sosgame.web.live.fanout import Connection
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.matchmaking.lobby import Lobby, LobbyClient
from sosgame.web.matchmaking.pools import (
    DEFAULT_POOLS,
    RANGE_BASE,
    Pool,
    PoolError,
    Waiting,
    compatible,
    computer_level,
    pairings,
    parse_pools,
    pools_from_environment,
    search_range,
)
from sosgame.web.storage.schema import games, players
from test_web_hubs import two_hubs

Message = dict[str, Any]
CASUAL = DEFAULT_POOLS[0].id
RATED = DEFAULT_POOLS[1].id


class FakeClock:
    """Milliseconds that move only when told."""

    def __init__(self) -> None:
        self.ms = 1_000_000_000

    def __call__(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += int(seconds * 1000)


class Player:
    """A lobby connection that keeps what it is sent."""

    def __init__(self, lobby: Lobby, name: str, *, account: int | None = None, rating: float = 25):
        self.lobby = lobby
        self.messages: list[Message] = []
        connection = Connection(self._send, address=f"10.0.0.{len(name)}")
        self.client = LobbyClient(connection, connection.address, name, account, rating)
        if account is not None:
            self.client.player = f"account:{account}"

    async def _send(self, text: str) -> None:
        self.messages.append(json.loads(text))

    async def enter(self, pool: str = CASUAL) -> None:
        await self.lobby.enter(self.client, pool)

    async def received(self, kind: str) -> list[Message]:
        await self.client.connection.flush()
        return [message for message in self.messages if message["type"] == kind]


@asynccontextmanager
async def lobbies(tmp_path: Path, clock: FakeClock) -> AsyncIterator[tuple[Lobby, Lobby]]:
    async with two_hubs(tmp_path) as (one, two):
        yield Lobby(one, DEFAULT_POOLS, now=clock), Lobby(two, DEFAULT_POOLS, now=clock)


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 120))


# ------------------------------------------------------------------------ configuration


def test_the_pools_come_from_the_environment_as_json() -> None:
    assert pools_from_environment({}) == DEFAULT_POOLS
    text = json.dumps([{"id": "4x4", "rows": 4, "cols": 4, "mode": "simple", "rated": True}])
    (pool,) = pools_from_environment({"SOSGAME_POOLS": text})
    assert pool == Pool("4x4", 4, 4, "simple", None, True)
    assert pool.to_json() == {
        "id": "4x4",
        "rows": 4,
        "cols": 4,
        "mode": "simple",
        "clock": None,
        "days": None,
        "rated": True,
    }


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("{", "not valid JSON"),
        ("[]", "list of 1 to"),
        ('[{"id": "A b", "rows": 5, "cols": 5}]', ".id"),
        ('[{"id": "a", "rows": 99, "cols": 5}]', "SOSGAME_POOLS[0]"),
        ('[{"id": "a", "rows": 5, "cols": 5, "colour": 1}]', "'colour'"),
        ('[{"id": "a", "rows": 5, "cols": 5, "clock": {"initial": 0}}]', "clock.initial"),
        ('[{"id": "a", "rows": 5, "cols": 5}, {"id": "a", "rows": 5, "cols": 5}]', "twice"),
    ],
)
def test_a_bad_pools_configuration_is_refused_naming_what_is_wrong(text: str, named: str) -> None:
    with pytest.raises(PoolError, match=named.replace("[", r"\[").replace(".", r"\.")):
        parse_pools(text)


def test_get_api_pools_lists_the_configured_pools(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", pools=DEFAULT_POOLS[:2])
    with TestClient(app) as client:
        answer = client.get("/api/pools")
    assert answer.status_code == 200
    assert answer.json() == {"pools": [pool.to_json() for pool in DEFAULT_POOLS[:2]]}


# ------------------------------------------------------------------------------ pairing


def test_the_range_widens_with_the_wait() -> None:
    near, far = Waiting("a", 25.0, 0), Waiting("b", 25.0 + RANGE_BASE + 10, 0)
    assert search_range(0) == RANGE_BASE
    assert search_range(10_000) > search_range(1_000) > search_range(0)
    assert not compatible(near, far, 0)
    assert not pairings([near, far], 5_000)
    assert pairings([near, far], 10_000) == [(near, far)]


def test_the_nearest_rating_is_chosen() -> None:
    first = Waiting("a", 25.0, 0)
    others = [Waiting("b", 27.0, 10), Waiting("c", 25.5, 20), Waiting("d", 24.0, 30)]
    assert pairings([first, *others], 1_000)[0] == (first, others[1])


entries = st.lists(
    st.builds(
        Waiting,
        st.text("abcdefgh", min_size=1, max_size=3),
        st.floats(-20, 60),
        st.integers(0, 60_000),
    ),
    max_size=12,
    unique_by=lambda entry: entry.id,
)


@given(entries, st.integers(0, 120_000))
def test_no_entry_is_ever_in_two_pairings_and_each_pair_accepts_each_other(
    waiting: list[Waiting], now: int
) -> None:
    pairs = pairings(waiting, now)
    ids = [entry.id for pair in pairs for entry in pair]
    assert len(ids) == len(set(ids))
    assert set(ids) <= {entry.id for entry in waiting}
    for first, second in pairs:
        assert compatible(first, second, now)
    # Nobody left over could have been paired with somebody else left over.
    left = [entry for entry in waiting if entry.id not in ids]
    assert not any(compatible(a, b, now) for a in left for b in left if a.id != b.id)


def test_the_computer_offered_is_the_level_nearest_the_rating() -> None:
    assert computer_level(-16) == "random"
    assert computer_level(12) == "easy"
    assert computer_level(46) == "perfect"


# ------------------------------------------------------------------------------ the lobby


def test_two_players_in_one_pool_through_two_hubs_land_in_one_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            ann, bao = Player(one, "Ann"), Player(two, "Bao")
            await ann.enter()
            await bao.enter()
            assert await ann.received("waiting") == [{"v": 1, "type": "waiting", "pool": CASUAL}]
            await one.sweep()  # pairs both, stores the game, tells Ann
            await two.sweep()  # tells Bao
            (for_ann,) = await ann.received("paired")
            (for_bao,) = await bao.received("paired")
            assert for_ann["game"] == for_bao["game"]
            assert {for_ann["seat"], for_bao["seat"]} == {0, 1}
            room = await two.hub.room(for_ann["game"])
            assert room is not None and room.status == "playing"
            assert room.controlled(for_ann["token"]) == {for_ann["seat"]}
            assert room.controlled(for_bao["token"]) == {for_bao["seat"]}
            assert room.seats[for_ann["seat"]].name == "Ann"
            assert room.clock is not None and room.clock["initial"] == 180_000
            # Nothing is left waiting, and further sweeps pair nobody again.
            assert not one.waiting and not two.waiting
            await one.sweep()
            await two.sweep()
            assert len(await ann.received("paired")) == 1
            assert await one.hub.db(one.entries.waiting, CASUAL, clock(), 15_000) == []

    run(scenario)


def test_players_far_apart_are_paired_only_once_the_range_has_widened(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            ann, bao = Player(one, "Ann", rating=20), Player(two, "Bao", rating=32)
            await ann.enter()
            await bao.enter()
            for seconds in (0, 4, 4):
                clock.advance(seconds)
                await one.sweep()
                await two.sweep()
                assert not await ann.received("paired")
            clock.advance(2)  # 10 s: both accept a gap of 13
            await one.sweep()
            await two.sweep()
            assert len(await ann.received("paired")) == len(await bao.received("paired")) == 1

    run(scenario)


def test_alone_past_the_wait_a_computer_is_offered_and_played(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, _two):
            ann = Player(one, "Ann", rating=36)
            await ann.enter()
            clock.advance(19.9)
            await one.sweep()
            assert not await ann.received("offer_computer")
            with pytest.raises(ProtocolError, match="no computer"):
                await one.play_computer(ann.client)
            clock.advance(0.1)
            await one.sweep()
            await one.sweep()
            offer = await ann.received("offer_computer")
            assert offer == [{"v": 1, "type": "offer_computer", "level": "medium"}]
            await one.play_computer(ann.client)
            (paired,) = await ann.received("paired")
            room = await one.hub.room(paired["game"])
            assert room is not None
            assert [seat.player for seat in room.seats] == ["human", "medium"]
            assert room.controlled(paired["token"]) == {0}
            assert not one.waiting

    run(scenario)


def test_the_wait_before_the_offer_is_a_server_limit() -> None:
    limits = ServerLimits.from_environment({"SOSGAME_POOL_FALLBACK_SECONDS": "5"})
    assert limits.pool_fallback_seconds == 5.0
    assert ServerLimits().pool_fallback_seconds == 20.0


def test_a_casual_pool_game_is_in_its_players_accounts_and_stays_unrated(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            store = one.hub.store
            with store.engine.begin() as db:
                db.execute(
                    players.insert(),
                    [
                        {"id": n, "key": f"p{n}", "name": f"P{n}", "password_hash": "-",
                         "mu": 25.0, "sigma": 8.3, "games": 0, "created_ms": 0}
                        for n in (7, 8)
                    ],
                )  # fmt: skip
            ann, bao = Player(one, "P7", account=7), Player(two, "P8", account=8)
            await ann.enter(CASUAL)
            await bao.enter(CASUAL)
            await one.sweep()
            (paired,) = await ann.received("paired")
            # Found by the account alone (no seat token), as My games and the profile find it.
            for account in (7, 8):
                mine = await one.hub.db(store.games_of, [], account, limit=10)
                assert [game.id for game in mine] == [paired["game"]]
            with store.engine.begin() as db:
                stored = db.execute(select(games.c.rated).where(games.c.id == paired["game"]))
                assert stored.scalar_one() is False

    run(scenario)


def test_guests_may_not_enter_rated_pools_and_nobody_waits_twice(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            guest = Player(one, "Ann")
            with pytest.raises(ProtocolError, match="account"):
                await guest.enter(RATED)
            with pytest.raises(ProtocolError, match="no pool"):
                await guest.enter("nowhere")
            named, again = Player(one, "Bao", account=7), Player(two, "Bao", account=7)
            await named.enter(RATED)
            with pytest.raises(ProtocolError, match="waiting in a pool already"):
                await again.enter(CASUAL)
            # Entering another pool leaves the first.
            await named.enter(CASUAL)
            assert await named.received("left") == [{"v": 1, "type": "left", "pool": RATED}]
            waiting = await one.hub.db(one.entries.waiting, RATED, clock(), 15_000)
            assert waiting == []

    run(scenario)


def test_leaving_or_closing_the_page_leaves_the_pool(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            ann, bao, cay = Player(one, "Ann"), Player(two, "Bao"), Player(two, "Cay")
            await ann.enter()
            await one.leave(ann.client)
            await bao.enter()
            await two.gone(bao.client)
            await cay.enter()
            await one.sweep()
            await two.sweep()
            assert not await cay.received("paired")
            left = await one.hub.db(one.entries.waiting, CASUAL, clock(), 15_000)
            assert [entry.name for entry in left] == ["Cay"]

    run(scenario)


def test_an_entry_whose_process_is_gone_is_not_paired(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            ghost, ann = Player(two, "Gus"), Player(one, "Ann")
            await ghost.enter()
            two.waiting.clear()  # its process stops renewing it
            clock.advance(16)
            await ann.enter()
            await one.sweep()
            assert not await ann.received("paired")

    run(scenario)


def test_many_players_entering_through_two_hubs_are_each_paired_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            players = [Player(one if n % 2 else two, f"P{n}", rating=20 + n % 7) for n in range(12)]
            for player in players:
                await player.enter()
            for _ in range(3):
                clock.advance(1)
                # Both hubs pair at once: each entry goes into one game only.
                await asyncio.gather(one.sweep(), two.sweep())
            games: dict[str, list[int]] = {}
            for player in players:
                (paired,) = await player.received("paired")
                games.setdefault(paired["game"], []).append(paired["seat"])
            assert len(games) == 6
            assert all(sorted(seats) == [0, 1] for seats in games.values())

    run(scenario)


def test_two_lobby_sockets_in_one_pool_land_in_one_game_they_can_play(tmp_path: Path) -> None:
    with (
        app_client(tmp_path / "games.sqlite3") as client,
        client.websocket_connect("/ws/lobby") as ann,
        client.websocket_connect("/ws/lobby") as bao,
    ):
        ann.send_json({"v": 1, "type": "pool", "pool": CASUAL})
        assert receive_type(ann, "error")["code"] == "hello_first"
        ann.send_json({"v": 1, "type": "hello", "name": "Ann"})
        welcome = receive_type(ann, "welcome")
        assert (welcome["player"], welcome["name"]) == (None, "Ann")
        bao.send_json({"v": 1, "type": "hello"})
        # A guest who gives no name gets one of their own, such as "Guest 4821".
        assert re.fullmatch(r"Guest \d{4}", receive_type(bao, "welcome")["name"])
        bao.send_json({"v": 1, "type": "pool", "pool": RATED})
        assert receive_type(bao, "error")["code"] == "account_needed"
        for socket in (ann, bao):
            socket.send_json({"v": 1, "type": "pool", "pool": CASUAL})
        paired = [receive_type(socket, "paired") for socket in (ann, bao)]
        assert paired[0]["game"] == paired[1]["game"]
        game = paired[0]["game"]
        first = next(p for p in paired if p["seat"] == 0)
        with client.websocket_connect(f"/ws/games/{game}") as player:
            player.send_json({"v": 1, "type": "hello", "token": first["token"]})
            assert receive_type(player, "welcome")["seats"] == [0]
            player.send_json({"v": 1, "type": "move", "move": "Sa1", "ply": 0})
            while receive_type(player, "state")["game"]["ply"] != 1:
                pass


def test_the_lobby_socket_refuses_bad_messages_by_name(tmp_path: Path) -> None:
    with (
        app_client(tmp_path / "games.sqlite3") as client,
        client.websocket_connect("/ws/lobby") as socket,
    ):
        for text, code in [
            ("nope", "bad_json"),
            ('{"v": 1, "type": "dance"}', "unknown_type"),
            ('{"v": 2, "type": "hello"}', "bad_version"),
            ('{"v": 1, "type": "hello", "colour": 1}', "unknown_field"),
            ('{"v": 1, "type": "hello", "name": ""}', "bad_field"),
        ]:
            socket.send_text(text)
            assert receive_type(socket, "error")["code"] == code
        socket.send_json({"v": 1, "type": "hello"})
        receive_type(socket, "welcome")
        for message, code in [
            ({"type": "pool"}, "bad_field"),
            ({"type": "pool", "pool": "nowhere"}, "no_pool"),
            ({"type": "play_computer"}, "no_offer"),
            ({"type": "hello"}, "hello_once"),
        ]:
            socket.send_json({"v": 1, **message})
            assert receive_type(socket, "error")["code"] == code
        socket.send_json({"v": 1, "type": "leave"})
        socket.send_json({"v": 1, "type": "ping"})
        receive_type(socket, "pong")


operations = st.lists(
    st.tuples(
        st.sampled_from(["enter", "leave", "gone", "sweep", "wait"]),
        st.integers(0, 5),
    ),
    max_size=30,
)


@settings(max_examples=25, deadline=None)
@given(operations)
def test_no_player_is_ever_paired_into_two_games(steps: list[tuple[str, int]]) -> None:
    import tempfile

    async def scenario(folder: Path) -> None:
        clock = FakeClock()
        async with lobbies(folder, clock) as hubs:
            # Six players, each an account, each connected to one hub or the other.
            players = [
                Player(hubs[n % 2], f"P{n}", account=n + 1, rating=15 + 4 * n) for n in range(6)
            ]
            entered = dict.fromkeys(range(6), 0)
            for action, who in steps:
                player = players[who]
                if action == "enter":
                    try:
                        await player.enter()
                        entered[who] += 1
                    except ProtocolError:
                        pass
                elif action == "leave":
                    await player.lobby.leave(player.client)
                elif action == "gone":
                    await player.lobby.gone(player.client)
                elif action == "sweep":
                    await asyncio.gather(hubs[0].sweep(), hubs[1].sweep())
                else:
                    clock.advance(5)
            await asyncio.gather(hubs[0].sweep(), hubs[1].sweep())
            seats: dict[str, list[str]] = {}
            for n, player in enumerate(players):
                paired = await player.received("paired")
                assert len(paired) <= entered[n]
                for message in paired:
                    seats.setdefault(message["game"], []).append(player.client.player)
            for game, people in seats.items():
                stored = hubs[0].hub.store.load(game)
                assert stored is not None
                # Each game has two different players; nobody is in two games at once.
                assert len(people) == len(set(people)) <= 2
            everyone = [person for people in seats.values() for person in people]
            assert len(everyone) == len(set(everyone)) or all(
                entered[n] > 1 for n, p in enumerate(players) if everyone.count(p.client.player) > 1
            )

    with tempfile.TemporaryDirectory() as folder:
        run(lambda: scenario(Path(folder)))


def test_every_seat_of_an_online_game_has_a_name_of_its_own(tmp_path: Path) -> None:
    from sosgame.web.people.names import distinct_names

    assert distinct_names(["Guest", "Guest", "Ann", "\u0410nn"]) == [
        "Guest",
        "Guest (2)",
        "Ann",
        "\u0410nn (2)",
    ]
    with app_client(tmp_path / "games.sqlite3") as client:
        body = {"rows": 3, "cols": 3, "kind": "online", "seats": [{"name": "Ann"}, {"name": "Ann"}]}
        created = client.post("/api/games", json=body).json()
        state = client.get(f"/api/games/{created['id']}").json()
        assert [seat["name"] for seat in state["seats"]] == ["Ann", "Ann (2)"]
        # At one screen too: the engine takes no name at two seats, so the record of the
        # game is one every program reads.
        created = client.post("/api/games", json={**body, "kind": "local"}).json()
        state = client.get(f"/api/games/{created['id']}").json()
        assert [seat["name"] for seat in state["seats"]] == ["Ann", "Ann (2)"]
