"""The room registry: every room the server has in memory, and the connections to them.

The hub loads rooms from the store on demand, opens the rooms of new games
(:mod:`sosgame.web.matchmaking.creation` makes them),
drops idle rooms again, counts connections against
their caps, and sweeps: it checks its rooms against the store and hands out the computer
moves (:mod:`sosgame.web.computer.jobs`).
A server alone runs the same code as one of many processes:
only its bus differs (:mod:`sosgame.web.network.bus`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Executor
from typing import Any, Final

from sosgame.web.computer.jobs import ComputerJobs
from sosgame.web.computer.workers import ComputerPool
from sosgame.web.config import ServerLimits
from sosgame.web.guards.admission import Admission
from sosgame.web.guards.gamecaps import Caps
from sosgame.web.live import pauses
from sosgame.web.live.chat import deliver as deliver_chat
from sosgame.web.live.clock import now_ms
from sosgame.web.live.fanout import PRESENCE_TTL, Connection, LocalChannel
from sosgame.web.live.notices import AccountNotices
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.live.room import Room
from sosgame.web.network.bus import Bus, LocalBus
from sosgame.web.storage.rows import StoredGame
from sosgame.web.storage.store import Store
from sosgame.web.storage.writer import Database, StorageUnavailableError

__all__ = ["Hub", "TooManyError"]

_log = logging.getLogger(__name__)

JOIN_ATTEMPTS: Final = 5
"""Loads of a room for a newcomer before giving up on its being kept (each one is made
current first; the room is only forgotten if nobody follows it, which a newcomer ends)."""
PREPARE_COMPUTERS: Final = "SOSGAME_PREPARE_COMPUTERS"
"""The environment variable that, set to ``1`` (as ``sosgame serve`` does unless it is set),
starts the computer workers with the server, ready before the first computer move; otherwise
(an app made in a program, or a test server saving the CPU) they start with that move."""
SWEEP_SECONDS: Final = 1.0
"""The longest time between two sweeps (a wake on the bus starts one at once)."""
CHECK_SECONDS: Final = 5.0
"""How often a hub compares its rooms' versions with the database's: a change whose
announcement was lost (its process died just after writing it, or Redis dropped it) is
caught up within that time."""


class TooManyError(ProtocolError):
    """A cap was reached (answered with 429, or a WebSocket close with code 1013)."""


class Hub:
    """The rooms in memory, the store behind them and the computer players' pool.

    Other hubs (other server processes, or other hubs of this one) may serve the same
    games: the hub follows the games it has in memory on its ``bus`` (by default one of
    its own), and takes computer moves through the store's queue, so each is made once (by
    this hub only if ``computers``).
    """

    def __init__(
        self,
        store: Store,
        *,
        computer: Executor | None = None,
        computer_pause: float = 0.6,
        limits: ServerLimits | None = None,
        bus: Bus | None = None,
        computers: bool = True,
    ) -> None:
        self.store = store
        self.bus: Bus = bus or LocalBus()
        self._wake = asyncio.Event()
        self.limits = limits or ServerLimits()
        self.admission = Admission(
            self.limits.admissions_per_second,
            self.limits.admission_burst,
            self.limits.admission_max_wait,
        )
        """Paces new WebSocket sessions (see :mod:`sosgame.web.guards.admission`)."""
        self.computer_pause = computer_pause
        self.database = Database(store, on_finished=self._finished, on_unheld=self.bus.wake)
        self.notices = AccountNotices(self.bus, store.engine, self.db_aside)
        """The accounts' event streams of this process, and the notices pushed to them."""
        self.jobs = ComputerJobs(store.queue, self.database, self.bus, makes_moves=computers)
        self._makes_moves = computers
        self.finished_hooks: list[Callable[[str], Coroutine[Any, Any, None]]] = []
        """Run (in the background) for each game a change of this process finished."""
        self.sweep_hooks: list[Callable[[], Coroutine[Any, Any, None]]] = []
        """Run at each sweep (after a wake on the bus too), such as the pools' pairing."""
        self.computers = ComputerPool(self.limits.computer_workers, computer)
        self.rooms: dict[str, Room] = {}
        self._loads: dict[str, asyncio.Task[Room | None]] = {}
        self._charging: dict[str, asyncio.Future[bool]] = {}
        self._per_game: Counter[str] = Counter()
        self._per_address: Counter[str] = Counter()
        self._sweeper: asyncio.Task[None] | None = None
        self._preparing: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._announced = 0.0
        self._checked = time.monotonic()

    # ------------------------------------------------------------------------ the seams

    def channel(self, game_id: str, seats: int) -> LocalChannel:
        """Where a room's messages go; it announces its followers on the bus (to the other
        hubs, if there are any)."""
        bus = self.bus
        return LocalChannel(
            game_id, seats, lambda presence: bus.publish(game_id, {"presence": presence})
        )

    def _finished(self, game_id: str) -> None:
        loop = asyncio.get_running_loop()
        for hook in (self.notices.game, *self.finished_hooks):
            task = loop.create_task(hook(game_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def db(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call on the database thread."""
        return await self.database.run(function, *args, **kwargs)

    async def db_aside(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call that changes no game on the side thread, so that a crowd of
        them (loads, logins) never delays the moves' commits."""
        return await self.database.aside(function, *args, **kwargs)

    # ---------------------------------------------------------------------- connections

    @property
    def connections(self) -> int:
        """WebSockets open now."""
        return sum(self._per_address.values())

    def admit(self, game_id: str, address: str) -> None:
        """Count a new WebSocket, or raise :class:`TooManyError` naming the cap it would pass."""
        limits = self.limits
        if self._per_game[game_id] >= limits.max_connections_per_game:
            raise TooManyError(
                "too_many_connections",
                f"this game already has {limits.max_connections_per_game} connections,"
                " the most it takes",
            )
        if self._per_address[address] >= limits.max_connections_per_address:
            raise TooManyError(
                "too_many_connections",
                f"this address already has {limits.max_connections_per_address} connections"
                " open, the most one address may have",
            )
        self._per_game[game_id] += 1
        self._per_address[address] += 1

    def release(self, game_id: str, address: str) -> None:
        """A counted WebSocket closed."""
        for counter, key in ((self._per_game, game_id), (self._per_address, address)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def connection(self, send: Any, close: Any, address: str) -> Connection:
        """A connection with this server's send backlog."""
        return Connection(
            send,
            close,
            address=address,
            backlog=self.limits.send_backlog,
            chat_backlog=self.limits.chat_backlog,
        )

    # ---------------------------------------------------------------------------- rooms

    async def start(self) -> None:
        """Connect to the bus and start the sweeps: idle rooms, versions and the computer
        moves (call once the event loop runs)."""
        if self._sweeper is not None:
            return
        await self.bus.start(self._heard, self._wake.set, self._lost)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        if self._makes_moves and os.environ.get(PREPARE_COMPUTERS) == "1":
            self._preparing = asyncio.get_running_loop().create_task(self.computers.keep_ready())

    async def _sweep(self) -> None:
        period = min(SWEEP_SECONDS, max(0.05, self.limits.idle_seconds / 4))
        while True:
            if self.database.available:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(period):
                        await self._wake.wait()
            else:
                # While the database is away, try less and less often (calls are made
                # anyway when someone asks; the first that gets through ends the back-off).
                await asyncio.sleep(self.database.backoff(period))
            self._wake.clear()
            self.drop_idle()
            try:
                await self._share_computer_moves()
            except StorageUnavailableError:
                pass  # logged once by the database, for the whole outage
            except Exception as error:  # the database may be back on the next sweep
                _log.warning("sweep of the computer moves failed: %s", error)
            for hook in self.sweep_hooks:
                try:
                    await hook()
                except StorageUnavailableError:
                    pass
                except Exception as error:
                    _log.warning("sweep failed: %s", error)

    # ----------------------------------------------------------------------- other hubs

    def _heard(self, game_id: str, event: dict[str, Any]) -> None:
        room = self.rooms.get(game_id)
        if room is None:
            return
        if "chat" in event:
            deliver_chat(room.channel, event)
            return
        if room.idle:
            # Nobody here follows the game (it was created through this process, say, and is
            # played through another): forget it rather than replay every move it hears.
            self._drop(room)
            return
        room.hear(event)

    def _lost(self) -> None:
        for room in list(self.rooms.values()):
            room.hear({"reload": True})
        self.notices.lost()

    async def _share_computer_moves(self) -> None:
        """Renew the leases this hub holds, keep watched computer-only games moving, and
        take over computer moves nobody holds (their hub died, or none took them)."""
        now = now_ms()
        self._announce_presence()
        await self._check_versions()
        held = [room.id for room in self.rooms.values() if room.computer.computing]
        watched = [
            room.id for room in self.rooms.values() if room.computers_only and len(room.channel)
        ]
        await self.jobs.renew(held, watched, now)
        for room in list(self.rooms.values()):
            if room.waits_for_computer:
                room.computer.retry()
        if not self._makes_moves:
            return
        room_for = max(0, 2 * self.computers.workers - len(held))
        if not room_for:
            return
        for game_id, version in await self.jobs.claim(now, room_for):
            taken = await self.room(game_id)
            if taken is not None:
                taken.later(taken.computer.take_over(version))

    def _announce_presence(self) -> None:
        """Every so often, tell the other hubs again who follows which game here."""
        now = time.monotonic()
        if now - self._announced < PRESENCE_TTL / 3:
            return
        self._announced = now
        for room in self.rooms.values():
            if len(room.channel):
                room.channel.announce(again=True)

    async def make_current(self, room: Room) -> None:
        """Before a newcomer sees a room: compare its version with the database's and read
        the game again if it is behind (another hub changed it, and the news was lost).
        Newcomers that arrive while a check is under way share it (a crowd costs a few
        queries, not one each)."""
        if room.checking is None or room.checking.done():
            room.checking = asyncio.get_running_loop().create_task(self._check_room(room))
        await asyncio.shield(room.checking)

    async def room_to_join(self, game_id: str) -> Room | None:
        """The room a newcomer joins: loaded, made current, and still this hub's when it is
        returned (a room nobody followed may be forgotten while it is being checked)."""
        room = await self.room(game_id)
        for _ in range(JOIN_ATTEMPTS):
            if room is None:
                return None
            await self.make_current(room)
            if self.rooms.get(game_id) is room:
                return room
            room = await self.room(game_id)
        return room

    async def _check_room(self, room: Room) -> None:
        versions = await self.db(self.store.versions, [room.id])
        room.checked = time.monotonic()
        if versions.get(room.id, room.version) != room.version:
            await self._catch_up(room)

    async def _check_versions(self) -> None:
        """Catch up every room whose version is behind the database's."""
        now = time.monotonic()
        if now - self._checked < CHECK_SECONDS or not self.rooms:
            return
        self._checked = now
        rooms = list(self.rooms.values())
        versions = await self.db(self.store.versions, [room.id for room in rooms])
        for room in rooms:
            room.checked = now
            if versions.get(room.id, room.version) != room.version:
                await self._catch_up(room)

    async def _catch_up(self, room: Room) -> None:
        async with room.lock:
            await room.reload()
        room.changed()

    def drop_idle(self) -> int:
        """Drop rooms idle for longer than the limit (they stay in the store); how many."""
        now = time.monotonic()
        idle = [
            room
            for room in self.rooms.values()
            if room.idle and now - room.touched >= self.limits.idle_seconds
        ]
        for room in idle:
            self._drop(room)
        return len(idle)

    def _drop(self, room: Room) -> None:
        """Forget a room (its game stays in the store) and stop following its channel."""
        room.close()
        del self.rooms[room.id]
        task = asyncio.get_running_loop().create_task(self.bus.unfollow(room.id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def may_load(self, game_id: str, charge: Callable[[], Awaitable[bool]]) -> bool:
        """Whether a game may be asked for: at no cost if it is in memory or being loaded,
        else if ``charge()`` allows it, asked once for everyone who asks meanwhile (so a
        crowd opening one game pays for one load); once allowed, its load has begun."""
        if game_id in self.rooms or game_id in self._loads:
            return True
        charging = self._charging.get(game_id)
        if charging is None:
            charging = asyncio.ensure_future(charge())
            self._charging[game_id] = charging

            def charged(done: asyncio.Future[bool]) -> None:
                self._charging.pop(game_id, None)
                if not done.cancelled() and done.exception() is None and done.result():
                    self._loading(game_id)

            charging.add_done_callback(charged)
        return await asyncio.shield(charging)

    def _loading(self, game_id: str) -> asyncio.Task[Room | None]:
        """The load of a game from the store: one per game at a time (loads of different
        games go on side by side)."""
        loading = self._loads.get(game_id)
        if loading is None:
            loading = asyncio.get_running_loop().create_task(self._load(game_id))
            self._loads[game_id] = loading
            loading.add_done_callback(lambda _done: self._loads.pop(game_id, None))
        return loading

    async def room(self, game_id: str) -> Room | None:
        """The room of a game, loaded from the store if needed; ``None`` if unknown."""
        room = self.rooms.get(game_id)
        if room is None:
            room = await asyncio.shield(self._loading(game_id))
            if room is None:
                return None
        room.touched = time.monotonic()
        return room

    async def _load(self, game_id: str) -> Room | None:
        # Following first, then reading: no change can fall in between.
        await self.bus.follow(game_id)
        stored = await self.db_aside(self.store.load, game_id)
        if stored is None:
            await self.bus.unfollow(game_id)
            return None
        stored = await pauses.resume(self, stored)
        room = self.rooms.get(game_id)
        if room is None:
            room = Room(self, stored)
            self.rooms[game_id] = room
            room.arm_timer()
            room.computer.start()
        return room

    async def open(self, stored: StoredGame, *, caps: Caps | None = None) -> Room:
        """Store a new game (its owner within ``caps``, if given) and open its room."""
        room = await self.open_linked(stored, rematch_of=None, caps=caps)
        assert room is not None  # only a rematch can find its link taken
        return room

    async def open_linked(
        self, stored: StoredGame, *, rematch_of: str | None, caps: Caps | None = None
    ) -> Room | None:
        """Store a new game (as ``rematch_of``'s rematch, if given; its owner within
        ``caps``, if given, else :class:`~sosgame.web.guards.gamecaps.CapError`) and open its room;
        ``None`` if that game has a rematch already."""
        room = Room(self, stored)
        if room.game.is_over:
            stored.result = room.result()
        await self.bus.follow(stored.id)
        try:
            made = await self.db(self.store.create, stored, rematch_of=rematch_of, caps=caps)
        except BaseException:
            await self.bus.unfollow(stored.id)
            raise
        if not made:
            await self.bus.unfollow(stored.id)
            return None
        self.rooms[stored.id] = room
        room.arm_timer()
        room.computer.start()
        return room

    async def close(self) -> None:
        """Stop every room's tasks, the sweeper and the worker pools; pause the clocks of
        the games no other hub serves (:mod:`sosgame.web.live.pauses`)."""
        for task in (self._sweeper, self._preparing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room in self.rooms.values():
            room.close()
        await self._pause()
        if self._background:  # such as the rating of a game just finished
            await asyncio.wait(set(self._background), timeout=5)
        await self.database.close()
        await self.bus.close()
        self.computers.close()

    async def _pause(self) -> None:
        if not self.database.available:
            return  # the clocks run on, as after a crash
        try:
            paused = await pauses.pause_alone(self, list(self.rooms.values()))
        except Exception as error:
            _log.warning("could not pause the clocks: %s", error)
            return
        if paused:
            _log.info("paused the clocks of %d games until they are loaded again", len(paused))
