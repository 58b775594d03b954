"""Every room the server has in memory, and the rules for letting people in.

The hub loads rooms from the store on demand and drops idle ones again, creates games
(new, from records, rematches), hands out seats, counts connections against their caps and
games with computer seats against theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from typing import Any, Final

from sosgame.record import Record
from sosgame.web import clock as clocks
from sosgame.web.admission import Admission
from sosgame.web.bus import Bus, LocalBus
from sosgame.web.config import ServerLimits
from sosgame.web.fanout import PRESENCE_TTL, Connection, LocalChannel
from sosgame.web.protocol import PROTOCOL_VERSION, NewGame, ProtocolError
from sosgame.web.room import HUMAN, Room
from sosgame.web.store import Change, Job, SeatRow, Store, StoredGame
from sosgame.web.tokens import hash_token, invite_matches, new_invite, new_token
from sosgame.web.workers import ComputerPool
from sosgame.web.writer import Database, StaleWriteError, StorageUnavailableError

__all__ = ["LEASE_MS", "Hub", "TooManyError"]

_log = logging.getLogger(__name__)

LEASE_MS: Final = 5000
"""How long a process holds a computer move before others may take it, unless it renews
the lease (it does so every sweep, about once a second, while it thinks)."""
JOIN_ATTEMPTS: Final = 5
"""Loads of a room for a newcomer before giving up on its being kept (each one is made
current first; the room is only forgotten if nobody follows it, which a newcomer ends)."""
SHARED_SWEEP_SECONDS: Final = 1.0
CHECK_SECONDS: Final = 5.0
"""How often a process compares its rooms' versions with the database's (with other
processes): a change whose announcement was lost (its process died just after writing it,
or Redis dropped it) is caught up within that time."""


class TooManyError(ProtocolError):
    """A cap was reached (answered with 429, or a WebSocket close with code 1013)."""


class Hub:
    """The rooms in memory, the store behind them and the computer players' pool.

    With a shared ``bus``, other server processes serve the same games: the hub follows
    the games it has in memory on the bus, and takes computer moves through the store's
    shared queue, so each is made once (by this process only if ``computers``).
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
        self.makes_computer_moves = computers
        self._wake = asyncio.Event()
        self.limits = limits or ServerLimits()
        self.admission = Admission(
            self.limits.admissions_per_second,
            self.limits.admission_burst,
            self.limits.admission_max_wait,
        )
        """Paces new WebSocket sessions (see :mod:`sosgame.web.admission`)."""
        self.computer_pause = computer_pause
        self.database = Database(store, on_finished=self._finished)
        self.finished_hooks: list[Callable[[str], Coroutine[Any, Any, None]]] = []
        """Run (in the background) for each game a change of this process finished."""
        self.computers = ComputerPool(self.limits.computer_workers, computer)
        self.rooms: dict[str, Room] = {}
        self._loads: dict[str, asyncio.Task[Room | None]] = {}
        self._per_game: Counter[str] = Counter()
        self._per_address: Counter[str] = Counter()
        self._sweeper: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._announced = 0.0
        self._checked = time.monotonic()
        self._creating = asyncio.Lock()
        """Held from counting an owner's games to storing the new one (so two requests at
        once cannot both pass a cap)."""

    # ------------------------------------------------------------------------ the seams

    def channel(self, game_id: str, seats: int) -> LocalChannel:
        """Where a room's messages go (with other processes, it announces its followers
        to them on the bus)."""
        if not self.bus.shared:
            return LocalChannel(game_id, seats)
        bus = self.bus
        return LocalChannel(
            game_id, seats, lambda presence: bus.publish(game_id, {"presence": presence})
        )

    def _finished(self, game_id: str) -> None:
        loop = asyncio.get_running_loop()
        for hook in self.finished_hooks:
            task = loop.create_task(hook(game_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def db(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call on the database thread."""
        return await self.database.run(function, *args, **kwargs)

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
        return Connection(send, close, address=address, backlog=self.limits.send_backlog)

    # ---------------------------------------------------------------------------- rooms

    async def start(self) -> None:
        """Connect to the bus and start the sweeps: idle rooms, and with other processes,
        the shared computer moves (call once the event loop runs)."""
        if self._sweeper is not None:
            return
        await self.bus.start(self._heard, self._wake.set, self._lost)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        period = min(5.0, max(0.05, self.limits.idle_seconds / 4))
        if self.bus.shared:
            period = min(period, SHARED_SWEEP_SECONDS)
        while True:
            if self.database.available:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), period)
            else:
                # While the database is away, try less and less often (calls are made
                # anyway when someone asks; the first that gets through ends the back-off).
                await asyncio.sleep(self.database.backoff(period))
            self._wake.clear()
            self.drop_idle()
            if self.bus.shared:
                try:
                    await self._share_computer_moves()
                except StorageUnavailableError:
                    pass  # logged once by the database, for the whole outage
                except Exception as error:  # the database may be back on the next sweep
                    _log.warning("sweep of the shared computer moves failed: %s", error)

    # ----------------------------------------------------------- other server processes

    def _heard(self, game_id: str, event: dict[str, Any]) -> None:
        room = self.rooms.get(game_id)
        if room is None:
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

    async def _share_computer_moves(self) -> None:
        """Renew the leases this process holds, keep watched computer-only games moving,
        and take over computer moves nobody holds (their process died, or none took them)."""
        now = clocks.now_ms()
        self._announce_presence()
        await self._check_versions()
        held = [room.id for room in self.rooms.values() if room.computer.computing]
        watched = [
            room.id for room in self.rooms.values() if room.computers_only and len(room.channel)
        ]
        if held or watched:
            await self.db(self.store.renew_jobs, self.bus.origin, held, watched, now, LEASE_MS)
        for room in list(self.rooms.values()):
            if room.waits_for_computer:
                room.computer.retry()
        if not self.makes_computer_moves:
            return
        room_for = max(0, 2 * self.computers.workers - len(held))
        if not room_for:
            return
        claimed = await self.db(self.store.claim_due, self.bus.origin, now, LEASE_MS, room_for)
        for game_id, version in claimed:
            taken = await self.room(game_id)
            if taken is not None:
                taken.later(taken.computer.take_over(version))

    def _announce_presence(self) -> None:
        """Every so often, tell the other processes again who follows which game here."""
        now = time.monotonic()
        if now - self._announced < PRESENCE_TTL / 3:
            return
        self._announced = now
        for room in self.rooms.values():
            if len(room.channel):
                room.channel.announce(again=True)

    async def take_computer_move(self, room: Room) -> bool:
        """Whether this process makes the computer move the room waits for now: always
        when it is the only process; otherwise only if it takes the game's shared job."""
        if not self.bus.shared:
            return True
        now = clocks.now_ms()
        origin = self.bus.origin
        mine = self.makes_computer_moves
        if mine and await self.db(
            self.store.claim_job, room.id, room.version, origin, now, LEASE_MS
        ):
            return True
        offered = await self.db(self.store.offer_job, room.id, room.version, self.job(room, now))
        if not mine:
            self.bus.wake()  # the job is up (offered now, or left by the change): take it
        return offered and mine

    def job(self, room: Room, now: int, *, pause: float = 0.0) -> Job:
        """The shared job for the computer move a room waits for, held by this process if
        it makes computer moves."""
        mine = self.makes_computer_moves
        return Job(
            ready_ms=now + int(pause * 1000),
            holder=self.bus.origin if mine else None,
            lease_ms=now + LEASE_MS if mine else 0,
            watched_ms=now + LEASE_MS if room.computers_only else None,
        )

    async def make_current(self, room: Room) -> None:
        """Before a newcomer sees a room: with other processes, compare its version with
        the database's and read the game again if it is behind. Newcomers that arrive
        while a check is under way share it (a crowd costs a few queries, not one each)."""
        if not self.bus.shared:
            return
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
            await self.reload(room)
        room.changed()

    async def reload(self, room: Room) -> None:
        """Read a room's game again from the store (after another process changed it)."""
        stored = await self.db(self.store.load, room.id)
        if stored is not None:
            room.refresh(stored)
            room.checked = time.monotonic()

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
        if self.bus.shared:
            task = asyncio.get_running_loop().create_task(self.bus.unfollow(room.id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def room(self, game_id: str) -> Room | None:
        """The room of a game, loaded from the store if needed; ``None`` if unknown."""
        room = self.rooms.get(game_id)
        if room is None:
            # One load per game at a time; loads of different games go on side by side.
            loading = self._loads.get(game_id)
            if loading is None:
                loading = asyncio.get_running_loop().create_task(self._load(game_id))
                self._loads[game_id] = loading
                loading.add_done_callback(lambda _done: self._loads.pop(game_id, None))
            room = await asyncio.shield(loading)
            if room is None:
                return None
        room.touched = time.monotonic()
        return room

    async def _load(self, game_id: str) -> Room | None:
        # Following first, then reading: no change can fall in between.
        await self.bus.follow(game_id)
        stored = await self.db(self.store.load, game_id)
        if stored is None:
            await self.bus.unfollow(game_id)
            return None
        room = self.rooms.get(game_id)
        if room is None:
            room = Room(self, stored)
            self.rooms[game_id] = room
            room.arm_timer()
            room.computer.start()
        return room

    async def _check_caps(
        self, seats: list[SeatRow], owner: str, player: int | None, *, lobby: bool
    ) -> None:
        """Refuse a new game (:class:`TooManyError`) past a cap: games with computer seats
        on the server and per address, unfinished games per address and per account, and
        lobby entries (public games waiting for players) per address and per account.

        The owner's games are counted in the store, so they survive their rooms being
        dropped from memory or the server restarting."""
        limits = self.limits
        computer = any(row.player != HUMAN for row in seats)
        live = [room for room in self.rooms.values() if room.has_computer and not room.game.is_over]
        if computer and len(live) >= limits.computer_games_total:
            raise TooManyError(
                "too_many_games",
                f"the server already runs {limits.computer_games_total} games with computer"
                " players, the most it takes; try again later",
            )
        since = clocks.now_ms() - int(limits.recent_games_seconds * 1000)
        by_address, by_player = await self.db(
            self.store.owned, owner=owner, player=player, since_ms=since
        )
        # Rooms in memory count too (one may be played without a change for a long time).
        in_memory = sum(1 for room in live if room.owner == owner)
        if computer and max(by_address.computer, in_memory) >= limits.computer_games_per_address:
            raise TooManyError(
                "too_many_games",
                f"this address already has {limits.computer_games_per_address} unfinished"
                " games with computer players, the most one address may have",
            )
        if by_address.unfinished >= limits.games_per_address:
            raise TooManyError(
                "too_many_games",
                f"this address already has {limits.games_per_address} unfinished games,"
                " the most one address may have; finish some or try again later",
            )
        if player is not None and by_player.unfinished >= limits.games_per_player:
            raise TooManyError(
                "too_many_games",
                f"you already have {limits.games_per_player} unfinished games, the most one"
                " player may have; finish some or try again later",
            )
        if lobby and by_address.lobby >= limits.lobby_games_per_address:
            raise TooManyError(
                "too_many_lobby_games",
                f"this address already has {limits.lobby_games_per_address} public games"
                " waiting for players, the most one address may have in the lobby",
            )
        if lobby and player is not None and by_player.lobby >= limits.lobby_games_per_player:
            raise TooManyError(
                "too_many_lobby_games",
                f"you already have {limits.lobby_games_per_player} public games waiting for"
                " players, the most one player may have in the lobby",
            )

    async def create(
        self, settings: NewGame, *, owner: str = "", player: int | None = None
    ) -> tuple[Room, str, list[int]]:
        """Store a new game; returns its room, the creator's token and the seats it opens.

        A local game's token opens every human seat; an online game's opens the first, and
        every other human seat gets an invite secret (none if the game is public). ``owner``
        (the client address) and ``player`` (its account, if logged in) are stored with it.
        """
        token = new_token()
        digest = hash_token(token)
        humans = [seat for seat, row in enumerate(settings.seats) if row.player == HUMAN]
        mine = humans if settings.kind == "local" else humans[:1]
        rows = [
            SeatRow(
                seat,
                row.name,
                row.player,
                digest if seat in mine else None,
                new_invite()
                if row.player == HUMAN and seat not in mine and not settings.public
                else None,
            )
            for seat, row in enumerate(settings.seats)
        ]
        status = "playing" if len(mine) == len(humans) else "open"
        clock = None
        if settings.clock is not None:
            clock = clocks.new_clock(
                settings.clock.initial_ms,
                settings.clock.increment_ms,
                len(rows),
                running=status == "playing",
            )
        stored = self._stored(
            kind=settings.kind,
            rows=settings.rows,
            cols=settings.cols,
            mode=settings.mode,
            seats=rows,
            status=status,
            clock=clock,
            public=settings.public,
            owner=owner,
            owner_player=player,
        )
        async with self._creating:
            await self._check_caps(rows, owner, player, lobby=settings.public and status == "open")
            room = await self._store_new(stored)
        return room, token, mine

    async def create_from_record(
        self, record: Record, *, owner: str = "", player: int | None = None
    ) -> tuple[Room, str, list[int]]:
        """A local game that continues (or, if over, replays) an uploaded, checked record."""
        token = new_token()
        digest = hash_token(token)
        rows = [SeatRow(seat, name, HUMAN, digest) for seat, name in enumerate(record.players)]
        start = None
        if record.start is not None:
            start = {"position": record.start.position, "turn": record.start.turn}
            if record.start.scores is not None:
                start["scores"] = list(record.start.scores)
        game = record.to_game()
        stored = self._stored(
            kind="local",
            rows=record.rows,
            cols=record.cols,
            mode=record.mode,
            seats=rows,
            status="finished" if game.is_over else "playing",
            clock=None,
            start=start,
            actions=list(record.moves),
            owner=owner,
            owner_player=player,
        )
        async with self._creating:
            if not game.is_over:
                await self._check_caps(rows, owner, player, lobby=False)
            room = await self._store_new(stored)
        return room, token, list(range(len(rows)))

    async def rematch(
        self, room: Room, token: str, *, owner: str = "", player: int | None = None
    ) -> tuple[Room, list[int], bool]:
        """The game again with the same settings and players: every seat's token opens the
        same seat in it, and everyone following the old game is told. Asked again (by
        anyone), the same rematch is the answer. Returns the room, the seats ``token``
        opens there and whether the rematch is new."""
        async with room.lock:
            if room.rematch_id is not None:
                existing = await self.room(room.rematch_id)
                if existing is not None:
                    return existing, sorted(existing.controlled(token)), False
            rows = [
                SeatRow(
                    row.seat,
                    row.name,
                    row.player,
                    row.token_hash,
                    new_invite()
                    if row.player == HUMAN and row.token_hash is None and not room.public
                    else None,
                )
                for row in room.seats
            ]
            humans = [row for row in rows if row.player == HUMAN]
            status = "playing" if all(row.token_hash for row in humans) else "open"
            clock = None
            if room.clock is not None:
                clock = clocks.new_clock(
                    room.clock["initial"],
                    room.clock["increment"],
                    len(rows),
                    running=status == "playing",
                )
            stored = self._stored(
                kind=room.kind,
                rows=room.game.rows,
                cols=room.game.cols,
                mode=room.game.mode,
                seats=rows,
                status=status,
                clock=clock,
                public=room.public,
                owner=owner,
                owner_player=player,
            )
            async with self._creating:
                await self._check_caps(rows, owner, player, lobby=room.public and status == "open")
                new = await self._store_linked(stored, rematch_of=room.id)
            if new is None:
                # Stored meanwhile by another server process: follow its link.
                again = await self.db(self.store.load, room.id)
                linked = None if again is None else again.rematch
                new = None if linked is None else await self.room(linked)
                if new is None:
                    raise ProtocolError("storage_failed", "the rematch could not be stored")
            room.rematch_id = new.id
            self.bus.publish(room.id, {"reload": True, "version": room.version})
            room.publish_state()
            room.channel.publish({"v": PROTOCOL_VERSION, "type": "rematch", "game": new.id})
            return new, sorted(new.controlled(token)), True

    def _stored(
        self,
        *,
        kind: str,
        rows: int,
        cols: int,
        mode: str,
        seats: list[SeatRow],
        status: str,
        clock: dict[str, Any] | None,
        public: bool = False,
        start: dict[str, Any] | None = None,
        actions: list[str] | None = None,
        owner: str = "",
        owner_player: int | None = None,
    ) -> StoredGame:
        now = clocks.now_ms()
        return StoredGame(
            id=secrets.token_urlsafe(9),
            kind=kind,
            rows=rows,
            cols=cols,
            mode=mode,
            seats=seats,
            status=status,
            created_ms=now,
            updated_ms=now,
            start=start,
            clock=clock,
            actions=list(actions or []),
            public=public,
            owner=owner or None,
            owner_player=owner_player,
        )

    async def _store_new(self, stored: StoredGame) -> Room:
        room = await self._store_linked(stored, rematch_of=None)
        assert room is not None  # only a rematch can find its link taken
        return room

    async def _store_linked(self, stored: StoredGame, *, rematch_of: str | None) -> Room | None:
        """Store a new game (as ``rematch_of``'s rematch, if given) and open its room;
        ``None`` if that game has a rematch already."""
        room = Room(self, stored)
        if room.game.is_over:
            stored.result = room.result()
        await self.bus.follow(stored.id)
        if not await self.db(self.store.create, stored, rematch_of=rematch_of):
            await self.bus.unfollow(stored.id)
            return None
        self.rooms[stored.id] = room
        room.arm_timer()
        room.computer.start()
        return room

    async def take_seat(self, room: Room, seat: int, name: str | None, invite: str | None) -> str:
        """Give a free human seat of an online game to whoever brings its invite first
        (anyone, in a public game)."""
        async with room.lock:
            if not 0 <= seat < len(room.seats):
                raise ProtocolError("bad_field", f"the game has no seat {seat}")
            row = room.seats[seat]
            if row.player != HUMAN:
                raise ProtocolError("not_allowed", f"seat {seat} is a computer player")
            if row.token_hash is not None:
                raise ProtocolError("seat_taken", f"seat {seat} is already taken")
            if not room.public and not invite_matches(row, invite):
                raise ProtocolError(
                    "bad_invite",
                    f"seat {seat} is taken only with its invite link; a spectator link gives"
                    " no seat",
                )
            token = new_token()
            digest = hash_token(token)
            if not await self.db(self.store.take_seat, room.id, seat, name, digest):
                raise ProtocolError("seat_taken", f"seat {seat} is already taken")
            # Read the game again: with other processes, other seats may have been taken.
            await self.reload(room)
            if room.status == "open" and all(
                other.token_hash is not None for other in room.seats if other.player == HUMAN
            ):
                room.status = "playing"
                if room.clock is not None:
                    room.clock["since"] = clocks.now_ms()
                try:
                    await self.database.write(
                        Change(
                            room.id,
                            status=room.status,
                            result=None,
                            clock=room.clock,
                            now_ms=clocks.now_ms(),
                            version=room.version,
                            job=room.next_job(),
                            hands_over=room.queues_computer_moves,
                        )
                    )
                except StaleWriteError:
                    await self.reload(room)  # the game was started by another process
                else:
                    room.version += 1
            self.bus.publish(room.id, {"reload": True, "version": room.version})
            room.changed()
            return token

    async def close(self) -> None:
        """Stop every room's tasks, the sweeper and the worker pools."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for room in self.rooms.values():
            room.close()
        if self._background:  # such as the rating of a game just finished
            await asyncio.wait(set(self._background), timeout=5)
        await self.database.close()
        await self.bus.close()
        self.computers.close()
