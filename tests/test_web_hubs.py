"""Two hubs in one process over one SQLite file, joined by the in-process bus.

A server alone runs the same code as several processes sharing PostgreSQL and Redis: only
the bus differs. Two hubs sharing an
:class:`~sosgame.web.network.bus.Exchange` are two such servers,
so these tests show, without either server, what several processes do: a move made through
one reaches the other's followers, a computer move is made once, a hub that missed a change
catches up from the store, games of computers only move while watched through either, and
a clock shows the same time through either (a clean shutdown pauses it only if the other
does not serve the game).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from sos_web import FakeTime
from sosgame.web.computer import jobs
from sosgame.web.live import hub as hubs
from sosgame.web.live.fanout import Connection
from sosgame.web.live.hub import Hub
from sosgame.web.live.protocol import (
    PROTOCOL_VERSION,
    ChatMessage,
    parse_client_message,
    parse_new_game,
)
from sosgame.web.live.room import Room
from sosgame.web.matchmaking.creation import create, take_seat
from sosgame.web.network.bus import Exchange, LocalBus
from sosgame.web.storage.store import Store

Message = dict[str, Any]
WAIT_SECONDS = 60.0
"""A generous bound for what should happen at once: the machine may be busy."""


class Searches(ThreadPoolExecutor):
    """Runs the computer players' searches in a thread, counting them."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.count = 0
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.count += 1
        return super().submit(fn, *args, **kwargs)


class Client:
    """A connection to one hub, as the WebSocket endpoint makes it, keeping what it gets."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.messages: list[Message] = []
        self.arrived = asyncio.Event()
        self.connection = Connection(self._send, address="127.0.0.1")
        self.room: Room | None = None

    async def _send(self, text: str) -> None:
        self.messages.append(json.loads(text))
        self.arrived.set()

    async def join(self, game_id: str, *tokens: str) -> Message:
        room = await self.hub.room_to_join(game_id)
        assert room is not None
        self.room = room
        room.join(self.connection, tokens)
        return await self.state(lambda _game: True)

    def leave(self) -> None:
        assert self.room is not None
        self.room.leave(self.connection)
        self.connection.stop()

    async def send(self, **fields: Any) -> None:
        assert self.room is not None
        message = parse_client_message(json.dumps({"v": PROTOCOL_VERSION, **fields}))
        assert not isinstance(message, ChatMessage)
        await self.room.handle(self.connection, message)

    async def state(self, check: Callable[[Message], bool]) -> Message:
        """The game of the first state message (from the start) that passes ``check``."""
        message = await self.until(lambda m: m["type"] == "state" and check(m["game"]))
        game: Message = message["game"]
        return game

    async def until(self, check: Callable[[Message], bool]) -> Message:
        """The first message (from the start) that passes ``check``."""
        seen = 0
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            for message in self.messages[seen:]:
                if check(message):
                    return message
            seen = len(self.messages)
            self.arrived.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such state came; the last: {self.messages[-1:]}")
            await asyncio.wait_for(self.arrived.wait(), left)


class Hubs(list[Hub]):
    """Hubs as server processes over one SQLite file, their buses joined by one exchange."""

    def __init__(self) -> None:
        super().__init__()
        self.stopped: set[int] = set()

    async def stop(self, hub: Hub) -> None:
        """Shut ``hub`` down cleanly, as its server process does when it is stopped."""
        if id(hub) in self.stopped:
            return
        self.stopped.add(id(hub))
        await hub.close()
        executor = hub.computers._executor
        assert executor is not None
        executor.shutdown()


@asynccontextmanager
async def some_hubs(tmp_path: Path, count: int) -> AsyncIterator[Hubs]:
    """``count`` hubs as server processes: each with its own store connection, searches and
    bus, the buses joined by one exchange."""
    exchange = Exchange()
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    stores = [Store(url) for _ in range(count)]
    hubs = Hubs()
    hubs.extend(
        Hub(store, computer=Searches(), computer_pause=0.0, bus=LocalBus(exchange))
        for store in stores
    )
    for hub in hubs:
        await hub.start()
    try:
        yield hubs
    finally:
        for hub in hubs:
            await hubs.stop(hub)
        for store in stores:
            store.close()


@asynccontextmanager
async def two_hubs(tmp_path: Path) -> AsyncIterator[tuple[Hub, Hub]]:
    """Two hubs as two server processes."""
    async with some_hubs(tmp_path, 2) as hubs:
        yield hubs[0], hubs[1]


def searches(*pair: Hub) -> int:
    """The computer searches the hubs ran."""
    return sum(getattr(hub.computers._executor, "count", 0) for hub in pair)


async def new_game(hub: Hub, **settings: Any) -> tuple[str, str]:
    """A new game made through ``hub``: its id and its creator's token."""
    room, token, _seats = await create(hub, parse_new_game({"rows": 3, "cols": 3, **settings}))
    return room.id, token


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 4 * WAIT_SECONDS))


def test_a_move_made_through_one_hub_reaches_a_spectator_of_the_other(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, two):
            game, token = await new_game(one, seats=[{"name": "Ann"}, {"name": "Bao"}])
            player, spectator = Client(one), Client(two)
            await player.join(game, token)
            await spectator.join(game)
            await player.send(type="move", move="Sa1", ply=0)
            seen = await spectator.state(lambda g: g["ply"] == 1)
            assert seen["actions"] == ["Sa1"]
            # The spectator got the state as the hub that made the change sent it.
            assert seen == await player.state(lambda g: g["ply"] == 1)
            await player.send(type="move", move="Ob1", ply=1)
            assert (await spectator.state(lambda g: g["ply"] == 2))["board"][0] == "SO."
            # Presence adds up the followers of both hubs.
            await Client(one).join(game)
            for client in (player, spectator):
                await client.until(lambda m: m["type"] == "presence" and m["spectators"] == 2)
            # Both rooms agree with the store.
            for hub in (one, two):
                assert hub.rooms[game].version == 2
                assert [str(a) for a in hub.rooms[game].game.actions] == ["Sa1", "Ob1"]

    run(scenario)


def test_a_computer_move_is_made_exactly_once_whichever_hub_hears_of_it(tmp_path: Path) -> None:
    pytest.importorskip("sosgame.ai")

    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, two):
            seats = [{"name": "Ann"}, {"name": "Bot", "player": "random"}]
            game, token = await new_game(one, seats=seats)
            player, spectator = Client(one), Client(two)
            await player.join(game, token)
            await spectator.join(game)
            state = await player.state(lambda g: True)
            while state["result"] is None:
                room = one.rooms[game]
                move = str(next(iter(room.game.legal_moves)))
                await player.send(type="move", move=move, ply=state["ply"])
                state = await player.state(_answered(state["ply"] + 1))
            seen = await spectator.state(lambda g: g["result"] is not None)
            stored = one.store.load(game)
            assert stored is not None
            assert seen["actions"] == state["actions"] == stored.actions
            # Each computer move was searched for once, by one hub of the two.
            made = _computer_moves(stored.actions, rows=3, cols=3)
            assert made >= 1
            assert searches(one, two) == made

    run(scenario)


def _answered(ply: int) -> Callable[[Message], bool]:
    """Whether a game is past ``ply`` and over, or waits for the person (seat 0)."""

    def check(game: Message) -> bool:
        waits = game["turn"] == 0 and game["thinking"] is None
        return bool(game["ply"] >= ply and (game["result"] is not None or waits))

    return check


def _computer_moves(actions: list[str], *, rows: int, cols: int) -> int:
    """How many of ``actions`` seat 1 made."""
    from sosgame.game import Game

    game = Game(rows, cols)
    made = 0
    for action in actions:
        made += game.turn == 1
        game.apply(action)
    return made


def test_a_hub_that_missed_a_change_catches_up_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, two):
            game, token = await new_game(one, seats=[{"name": "Ann"}, {"name": "Bao"}])
            player, watcher = Client(one), Client(two)
            await player.join(game, token)
            await watcher.join(game)
            # The change's announcement is lost on the way to hub two.
            bus = two.bus
            assert isinstance(bus, LocalBus)
            bus.exchange.followers[game].discard(bus)
            await player.send(type="move", move="Sa1", ply=0)
            await player.state(lambda g: g["ply"] == 1)
            assert two.rooms[game].version == 0
            # A newcomer through hub two sees the game as stored ...
            newcomer = Client(two)
            assert (await newcomer.join(game, token))["actions"] == ["Sa1"]
            await player.send(type="move", move="Ob1", ply=1)
            await player.state(lambda g: g["ply"] == 2)
            # ... and hub two's followers get it too, from its regular check.
            monkeypatch.setattr(hubs, "CHECK_SECONDS", 0.0)
            two._wake.set()
            seen = await watcher.state(lambda g: g["ply"] == 2)
            assert seen["actions"] == ["Sa1", "Ob1"]

    run(scenario)


@pytest.mark.parametrize("first", ["the same hub", "the other hub"])
def test_a_game_of_computers_only_moves_only_while_watched_through_either_hub(
    tmp_path: Path, first: str
) -> None:
    pytest.importorskip("sosgame.ai")

    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, other):
            # Watched first through the hub that made the game (as by a server alone), or
            # through the other one; then again through the first.
            two = one if first == "the same hub" else other
            bots = [{"name": "A", "player": "random"}, {"name": "B", "player": "random"}]
            game, _token = await new_game(one, rows=5, cols=5, seats=bots)
            # Nobody watches: it waits, and shows nobody thinking.
            room = one.rooms[game]
            assert (room.version, room.computer.thinking) == (0, None)
            assert one.store.queue.claim_due("anyone", 2**40, 1, 10) == []
            # A spectator: it moves.
            spectator = Client(two)
            await spectator.join(game)
            await spectator.state(lambda g: g["ply"] >= 1)
            # They leave: the move under way is the last, and nobody is shown thinking.
            spectator.leave()
            room = two.rooms[game]
            deadline = time.monotonic() + WAIT_SECONDS
            while room.computer.busy and time.monotonic() < deadline:
                await asyncio.sleep(0.01)  # polling for an event (the move finished)
            assert not room.computer.busy
            assert room.computer.thinking is None
            # Nobody takes its move once the watchers' mark runs out.
            later = 10 * jobs.LEASE_MS + int(time.time() * 1000)
            assert two.store.queue.claim_due("anyone", later, 1, 10) == []
            stopped = len(room.game.actions)
            # A spectator through the hub that made it: it moves again, to the end.
            again = Client(one)
            await again.join(game)
            over = await again.state(lambda g: g["result"] is not None)
            assert len(over["actions"]) > stopped
            assert over["thinking"] is None

    run(scenario)


# --------------------------------------------------------------------------- the clocks

CLOCK = {"initial": 60, "increment": 0}


async def running_clock(hub: Hub) -> tuple[str, Client]:
    """A game made through ``hub`` whose clocks run (each seat has made its first move):
    seat 0's, from now; its id and the player's client there."""
    game, token = await new_game(hub, seats=[{"name": "Ann"}, {"name": "Bao"}], clock=CLOCK)
    player = Client(hub)
    await player.join(game, token)
    await player.send(type="move", move="Sa1", ply=0)
    await player.send(type="move", move="Ob1", ply=1)
    assert (await player.state(lambda g: g["ply"] == 2))["clock"]["running"] == 0
    return game, player


async def first_move_waits(hub: Hub) -> tuple[str, Client]:
    """An online game made through ``hub`` whose every seat is taken: seat 0 waits for its
    first move from now; its id and seat 0's player there."""
    seats = [{"name": "Ann"}, {"name": "Bao"}]
    game, token = await new_game(hub, kind="online", public=True, seats=seats, clock=CLOCK)
    await take_seat(hub, hub.rooms[game], 1, None, None)
    player = Client(hub)
    state = await player.join(game, token)
    assert state["first_move"] == {"seat": 0, "left": 30_000}
    return game, player


async def time_left(hub: Hub, game: str) -> tuple[int, int]:
    """Seat 0's time left on its clock and for its first move, as ``hub`` shows the game
    (loading it if it has not)."""
    state = await Client(hub).join(game)
    assert state["clock"]["running"] in (0, None) and state["turn"] == 0
    first = state["first_move"]
    return state["clock"]["remaining"][0], -1 if first is None else first["left"]


def test_a_hub_that_loads_a_game_mid_turn_charges_the_mover_from_the_turns_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeTime.install(monkeypatch)

    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, two):
            game, _player = await running_clock(one)
            fake.advance(5)
            here = await time_left(one, game)
            assert here == (55_000, -1)
            # A connection that lands on the other process: the same time left.
            there = await time_left(two, game)
            assert abs(there[0] - here[0]) <= 100
            assert two.rooms[game].clock == one.rooms[game].clock

    run(scenario)


def test_a_hub_that_loads_a_game_counts_the_first_move_from_the_turns_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeTime.install(monkeypatch)

    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, two):
            game, _player = await first_move_waits(one)
            fake.advance(10)
            here = await time_left(one, game)
            assert here == (60_000, 20_000)
            there = await time_left(two, game)
            assert abs(there[1] - here[1]) <= 100
            # And it aborts the game there on time too.
            watcher = Client(two)
            await watcher.join(game)
            fake.advance(20)
            over = await watcher.state(lambda g: g["result"] is not None)
            assert over["result"]["termination"] == "aborted"

    run(scenario)


@pytest.mark.parametrize("timer", ["clock", "first move"])
def test_a_clean_restart_of_the_only_hub_serving_a_game_stops_its_timers_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, timer: str
) -> None:
    fake = FakeTime.install(monkeypatch)

    async def scenario() -> None:
        async with some_hubs(tmp_path, 3) as hubs:
            one, two, three = hubs
            game, _player = await (
                running_clock(one) if timer == "clock" else first_move_waits(one)
            )
            fake.advance(5)
            before = await time_left(one, game)
            await hubs.stop(one)
            fake.advance(600)  # the server is down
            # Back (the hub that loads it first resumes it, in the store for every other):
            # the mover has the time it had left; the first move, its whole time again.
            resumed = before if timer == "clock" else (60_000, 30_000)
            assert await time_left(two, game) == resumed
            assert await time_left(three, game) == resumed
            fake.advance(1)
            assert await time_left(three, game) == (
                (before[0] - 1000, -1) if timer == "clock" else (60_000, 29_000)
            )

    run(scenario)


def test_a_hub_that_shuts_down_while_another_serves_the_game_gives_no_time_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeTime.install(monkeypatch)

    async def scenario() -> None:
        async with some_hubs(tmp_path, 3) as hubs:
            one, two, three = hubs
            game, _player = await running_clock(one)
            await Client(two).join(game)
            fake.advance(5)
            await hubs.stop(one)  # the game is still served through two: no pause
            fake.advance(5)
            stored = one.store.load(game)
            assert stored is not None and stored.clock is not None
            assert "paused" not in stored.clock
            assert await time_left(two, game) == (50_000, -1)
            assert await time_left(three, game) == (50_000, -1)

    run(scenario)


def test_a_pause_that_reaches_a_hub_serving_the_game_is_forgotten_without_giving_time_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeTime.install(monkeypatch)

    async def scenario() -> None:
        async with some_hubs(tmp_path, 3) as hubs:
            one, two, three = hubs
            game, _player = await running_clock(one)
            watcher = Client(two)
            await watcher.join(game)
            fake.advance(5)

            # Hub two begins to serve the game as hub one shuts down: one thinks it alone.
            async def nobody_else(game_ids: Any) -> set[str]:
                return set()

            monkeypatch.setattr(one.bus, "shared", nobody_else)
            await hubs.stop(one)
            deadline = time.monotonic() + WAIT_SECONDS
            while two.rooms[game].version < 4 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)  # polling for an event (the pause forgotten)
            # Paused (version 3), then forgotten by hub two (version 4), in the store too.
            assert two.rooms[game].version == 4
            stored = two.store.load(game)
            assert stored is not None and stored.clock is not None
            assert "paused" not in stored.clock
            fake.advance(5)
            assert await time_left(two, game) == (50_000, -1)
            assert await time_left(three, game) == (50_000, -1)

    run(scenario)
