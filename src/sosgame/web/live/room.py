"""One game being played: the shell around the live game's machine.

The rules are :mod:`sosgame.web.live.machine`'s: a room holds the game's state, and for each
command takes its lock, applies the machine, stores what the outcome says to store, tells its
channel and the other processes, and arms the timer the outcome asks for. It also follows the
game as other processes change it, asks for computer moves and hints, and keeps its followers.
One lock per room puts its messages in order; rooms never wait for each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Coroutine
from typing import Any, TypeAlias

from sosgame.game import Game
from sosgame.levels import HINT_LEVEL
from sosgame.snapshot import Snapshot
from sosgame.table import Table
from sosgame.web.computer.autoplay import ComputerTurns
from sosgame.web.live import clock as clocks
from sosgame.web.live import pauses
from sosgame.web.live.fanout import Connection, dumps
from sosgame.web.live.host import RoomHost
from sosgame.web.live.machine import permissions
from sosgame.web.live.machine.apply import apply
from sosgame.web.live.machine.arrival import awaits_arrival
from sosgame.web.live.machine.clocks import clock_view, first_move_deadline, next_timer
from sosgame.web.live.machine.commands import (
    Arrived,
    Command,
    Fire,
    GameMessage,
    OffersWrite,
    Outcome,
    Play,
    Presence,
    Sent,
    Timer,
)
from sosgame.web.live.machine.heard import heard
from sosgame.web.live.machine.state import Clock, LiveState, Timings, evolve, load
from sosgame.web.live.machine.view import changes_with_time, fair, shown
from sosgame.web.live.machine.writes import offers_written, result
from sosgame.web.live.protocol import (
    PROTOCOL_VERSION,
    BerserkMessage,
    HelloMessage,
    HintMessage,
    PingMessage,
    ProtocolError,
    RedoMessage,
    error_message,
)
from sosgame.web.people.tokens import seats_opened
from sosgame.web.storage.rows import HUMAN, Change, Job, SeatRow, StoredGame
from sosgame.web.storage.writer import StaleWriteError, StorageUnavailableError

__all__ = ["GameMessage", "Room", "RoomMessage"]

_log = logging.getLogger(__name__)

RoomMessage: TypeAlias = PingMessage | HelloMessage | HintMessage | GameMessage
"""The messages a room answers (chat and rematches are the socket's)."""


class Room:
    """One game with its state, channel of followers, timer and pending computer move."""

    def __init__(self, hub: RoomHost, stored: StoredGame, *, owner: str = "") -> None:
        self.hub = hub
        self.id = stored.id
        self.created_ms = stored.created_ms
        # Whose queue the game's computer moves join and whose caps it counts for: its
        # creator's address, stored with the game (older games without one: the game's own).
        self.owner = owner or stored.owner or f"game:{stored.id}"
        self.tournament = stored.tournament
        self.live = load(stored, self._timings())
        """The game's state; its clock's ``since`` and ``waiting`` are the store's, whoever
        loads the game (a pause stored at a clean shutdown is resumed before:
        :mod:`sosgame.web.live.pauses`)."""
        self.channel = hub.channel(stored.id, len(stored.seats))
        self.lock = asyncio.Lock()
        self.checking: asyncio.Task[None] | None = None
        self.checked = time.monotonic()
        """When the room's version was last known to be the database's."""
        self.computer = ComputerTurns(self, hub)
        self.touched = time.monotonic()
        self._state_text: str | None = None
        self._announcement: dict[str, Any] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.live = self._machine(Presence(self.channel.connected_seats())).state

    # ------------------------------------------------------------------------- reading

    def _timings(self) -> Timings:
        limits = self.hub.limits
        return Timings(
            first_move_ms=int(limits.first_move_seconds * 1000),
            abandon_ms=int(limits.abandon_seconds * 1000),
            rematch_ms=int(limits.rematch_offer_seconds * 1000),
        )

    def _machine(self, command: Command) -> Outcome:
        """The machine's outcome of ``command`` now (with the server's limits as they are)."""
        timings = self._timings()
        if self.live.timings != timings:
            self.live = evolve(self.live, game=self.live.game, timings=timings)
        return apply(self.live, command, clocks.now_ms())

    @property
    def kind(self) -> str:
        """``local`` or ``online``."""
        return self.live.kind

    @property
    def start(self) -> dict[str, Any] | None:
        """The position the game started from, if not an empty board."""
        return self.live.start

    @property
    def game(self) -> Game:
        """The game as the engine has it (read only)."""
        return self.live.game

    @property
    def table(self) -> Table:
        """A copy of the game at its seats."""
        return self.live.table()

    @property
    def seats(self) -> list[SeatRow]:
        """The seats as stored."""
        return list(self.live.seats)

    @property
    def status(self) -> str:
        """``open``, ``playing`` or ``finished``."""
        return self.live.status

    @status.setter
    def status(self, status: str) -> None:
        self.live = evolve(self.live, game=self.live.game, status=status)

    @property
    def version(self) -> int:
        """The game's version in the store."""
        return self.live.version

    @version.setter
    def version(self, version: int) -> None:
        self.live = evolve(self.live, game=self.live.game, version=version)

    @property
    def clock(self) -> Clock | None:
        """The game's clock as stored."""
        return self.live.clock

    @clock.setter
    def clock(self, clock: Clock | None) -> None:
        self.live = evolve(self.live, game=self.live.game, clock=clock)

    @property
    def rematch_id(self) -> str | None:
        """The rematch, once made."""
        return self.live.rematch

    @rematch_id.setter
    def rematch_id(self, rematch: str | None) -> None:
        self.live = evolve(self.live, game=self.live.game, rematch=rematch)

    @property
    def public(self) -> bool:
        """Whether anyone may take an open seat."""
        return self.live.public

    @property
    def rated(self) -> bool:
        """Whether the game counts for the ratings."""
        return self.live.rated

    @property
    def days(self) -> int | None:
        """Days per move of a correspondence game, else ``None``."""
        return self.live.days

    def controlled(self, *tokens: str | None) -> frozenset[int]:
        """The seats any of ``tokens`` may act for."""
        return seats_opened(self.seats, [token for token in tokens if token])

    @property
    def playable(self) -> bool:
        """Whether moves may be made now: every seat is filled and the game goes on."""
        return self.live.playable

    @property
    def has_computer(self) -> bool:
        """Whether a seat is a computer player."""
        return any(row.player != HUMAN for row in self.live.seats)

    @property
    def computers_only(self) -> bool:
        """Whether every seat is a computer player."""
        return not self.live.people

    @property
    def waits_for_computer(self) -> bool:
        """Whether a computer seat is to move (in a game with only computer seats, only
        while someone here watches)."""
        if not self.playable or self.live.seats[self.game.turn].player == HUMAN:
            return False
        return not self.computers_only or bool(len(self.channel))

    @property
    def queues_computer_moves(self) -> bool:
        """Whether the room's changes hand computer moves to the store's queue."""
        return self.has_computer

    @property
    def idle(self) -> bool:
        """Nobody follows it, no computer works on it, no clock runs (days: the sweep's)."""
        view = clock_view(self.live, clocks.now_ms())
        timed = view is not None and view["running"] is not None
        untimed = first_move_deadline(self.live) is None and not timed
        return (
            not len(self.channel)
            and (self.days is not None or untimed)
            and not self.computer.busy
            and not self.lock.locked()
        )

    def snapshot(self) -> Snapshot:
        """The game as a worker process can rebuild it."""
        game = self.game
        return Snapshot(
            game.rows, game.cols, game.players, game.mode, self.start, self.live.actions
        )

    def result(self) -> dict[str, Any] | None:
        """The outcome as stored and sent, or ``None`` while the game goes on."""
        return result(self.live)

    def standing_offers(self, now: int | None = None) -> list[dict[str, Any]]:
        """The offers that still stand (at ``now``, by default now)."""
        return self.live.standing_offers(clocks.now_ms() if now is None else now)

    def fair_state(self) -> dict[str, Any]:
        """What the state says now of offers, the abort and absent seats."""
        return fair(self.live, clocks.now_ms())

    def state(self) -> dict[str, Any]:
        """Everything a client draws, as one JSON-ready ``state`` message."""
        live = self.live
        game = live.game
        connected = self.channel.connected_seats()
        active = set(game.active_seats)
        return {
            "v": PROTOCOL_VERSION,
            "type": "state",
            "game": {
                "id": self.id,
                "kind": live.kind,
                "rows": game.rows,
                "cols": game.cols,
                "mode": game.mode,
                "status": live.status,
                "public": live.public,
                "seats": [
                    {
                        "name": row.name,
                        "player": row.player,
                        "taken": row.player != HUMAN or row.token_hash is not None,
                        "connected": row.seat in connected,
                        "resigned": row.seat not in active,
                        "bot": row.bot,
                    }
                    for row in live.seats
                ],
                "board": game.position().split("/"),
                "scores": list(game.scores),
                "turn": game.turn,
                "ply": live.ply,
                "actions": list(live.actions),
                "lines": [line.to_dict() for line in game.lines],
                "extra_turn": game.extra_turn,
                "thinking": self.computer.thinking,
                "spectators": self.channel.spectators(),
                **shown(live, clocks.now_ms()),
                **({} if self.tournament is None else {"tournament": self.tournament}),
            },
        }

    def state_text(self) -> str:
        """The state as sent to a newcomer; kept between changes while nothing it shows
        counts down, so a crowd arriving together costs one serialisation, not one each."""
        if self._state_text is not None:
            return self._state_text
        text = dumps(self.state())
        if not changes_with_time(self.live, clocks.now_ms()):
            self._state_text = text
        return text

    def forget_state(self) -> None:
        """The cached state text is out of date (something it shows changed)."""
        self._state_text = None

    def publish_state(self, text: str | None = None) -> None:
        """Send the state, serialised once, to every follower (``text``: the state as
        another process already serialised it for the same change); a change this process
        stored is then told to the other processes, with that text, so that they need not
        build it again."""
        self._state_text = None
        if text is None:
            text = dumps(self.state())
        self.channel.publish_text(text)
        if self._announcement is not None:
            self.hub.bus.publish(self.id, {**self._announcement, "state": text})
            self._announcement = None

    # ---------------------------------------------------------------------- connections

    def join(
        self, connection: Connection, tokens: tuple[str, ...], seats: frozenset[int] | None = None
    ) -> None:
        """A connection said hello: it holds the seats its tokens open (or ``seats``, those
        its API token's account took), or watches.

        The newcomer gets the state; everyone else only a coalesced presence update.
        """
        connection.seats = self.controlled(*tokens) if seats is None else seats
        connection.greeted = True
        self.touched = time.monotonic()
        connection.deliver(
            dumps(
                {
                    "v": PROTOCOL_VERSION,
                    "type": "welcome",
                    "game": self.id,
                    "seats": sorted(connection.seats),
                }
            )
        )
        self.channel.add(connection)
        if not self._presence():  # a player came back: everyone saw it
            connection.deliver(self.state_text())
        if self.computers_only:
            self.computer.start()
        if connection.seats and awaits_arrival(self.live):
            self.later(self._arrive(frozenset(connection.seats)))

    async def _arrive(self, seats: frozenset[int]) -> None:
        """Players of a rematch opened it: its first-move timer may start (the machine's
        :mod:`~sosgame.web.live.machine.arrival`)."""
        # Stale: another process started it first, and this one reads the game again.
        async with self.lock:
            with contextlib.suppress(ProtocolError):
                await self.run(Arrived(seats))

    def leave(self, connection: Connection) -> None:
        """A connection went away."""
        self.channel.remove(connection)
        self.touched = time.monotonic()
        self._presence()

    def _presence(self) -> bool:
        """Take who is connected now; whether everybody was told (it mattered)."""
        outcome = self._machine(Presence(self.channel.connected_seats()))
        self.live = outcome.state
        if outcome.publish:
            self._arm(outcome.timer)  # what may be claimed changes with who is away
            self.publish_state()
        return outcome.publish

    # ------------------------------------------------------------------------ messages

    async def handle(self, connection: Connection, message: RoomMessage) -> None:
        """Carry out one checked message, or answer with an error that names the problem."""
        self.touched = time.monotonic()
        try:
            match message:
                case PingMessage():
                    await connection.send({"v": PROTOCOL_VERSION, "type": "pong"})
                case HelloMessage():
                    raise ProtocolError("bad_message", "this connection has already said hello")
                case HintMessage():
                    await self._hint(connection)
                case _:
                    async with self.lock:
                        await self.run(Sent(message, connection.seats))
        except ProtocolError as error:
            await connection.send(error_message(error.code, error.detail))

    async def commit(self, text: str) -> None:
        """Play a computer's move (under the lock)."""
        await self.run(Play(text))

    async def end_overdue(self) -> None:
        """Under the room's lock: abort the game if the seat to move missed its first move
        in time, or put it out if it ran out of days per move (nothing if neither)."""
        await self._fire(Timer("overdue", clocks.now_ms(), self.live.ply))

    async def store_offers(self, offers: list[dict[str, Any]]) -> None:
        """Store the standing offers (version-checked) and tell everybody (a rematch's)."""
        await self._carry_out(offers_written(self.live, offers, clocks.now_ms()))

    async def run(self, command: Command) -> None:
        """Apply ``command`` and carry out its outcome (under the room's lock)."""
        redone = isinstance(command, Sent) and isinstance(command.message, RedoMessage)
        await self._carry_out(self._machine(command), redone=redone)
        if isinstance(command, Sent) and isinstance(command.message, BerserkMessage):
            # The clock has it; the tournament's row makes the win worth a point more.
            await self.hub.db(self.hub.store.mark_berserk, self.id, min(command.held))

    async def _carry_out(self, outcome: Outcome, *, redone: bool = False) -> None:
        """Store what ``outcome`` stores, then take its state and tell everybody."""
        write = outcome.write
        if isinstance(write, Change):
            if write.keep is not None or (redone and write.texts):
                self.computer.cancel()  # the position it works on is gone
            job = self.next_job(outcome.state, write.now_ms)
            write = dataclasses.replace(write, job=job, hands_over=self.queues_computer_moves)
        if outcome.begun:
            await self.hub.db(self.hub.store.mark_begun, self.id)
        if isinstance(write, OffersWrite):
            if not await self.hub.db(
                self.hub.store.set_offers, self.id, write.version, list(write.offers)
            ):
                await self._stale()
        elif write is not None:
            await self._write(write)
        # Who is here may have changed while the change was being stored: that is kept.
        here = self.live
        self.live = evolve(
            outcome.state,
            game=outcome.state.game,
            away_since=here.away_since,
            came_back=here.came_back,
            seen=here.seen,
        )
        if outcome.announce is not None:
            self._announcement = outcome.announce
        if write is not None:
            self.changed()
        elif outcome.publish or outcome.timer is not None:
            self._arm(outcome.timer)
            if outcome.publish:
                self.publish_state()

    async def _write(self, change: Change) -> None:
        try:
            await self.hub.database.write(change)
        except StaleWriteError:
            await self._stale()
        except Exception as error:
            if not isinstance(error, StorageUnavailableError):  # an outage is logged once
                _log.error("game %s: could not store a change: %s", self.id, error)
            raise ProtocolError(
                "storage_failed", "it could not be stored, so nothing was changed"
            ) from None

    async def _stale(self) -> None:
        """Another process changed the game first: read it again and say so."""
        await self.reload()
        self.changed()
        raise ProtocolError(
            "stale", "the game changed meanwhile (through another server); nothing was changed"
        )

    def next_job(self, state: LiveState | None = None, now: int | None = None) -> Job | None:
        """The job a change leaves behind when a computer seat is to move next."""
        live = self.live if state is None else state
        if not live.playable or live.seats[live.game.turn].player == HUMAN:
            return None
        return self.hub.jobs.job(
            clocks.now_ms() if now is None else now,
            computers_only=not live.people,
            watched_here=bool(len(self.channel)),
            pause=self.hub.computer_pause,
        )

    async def _hint(self, connection: Connection) -> None:
        permissions.check_hint(self.live, connection.seats)
        ply = self.live.ply
        text, proven = await self.hub.computers.suggest(
            HINT_LEVEL, self.snapshot(), owner=self.owner, interactive=True
        )
        await connection.send(
            {"v": PROTOCOL_VERSION, "type": "hint", "move": text, "ply": ply, "proven": proven}
        )

    # ------------------------------------------------------- changes from other processes

    def hear(self, event: dict[str, Any]) -> None:
        """Another server process changed this game (catch up, in the order heard), or
        told who follows it there."""
        if "presence" in event:
            self.channel.heard(str(event.get("origin")), event["presence"])
            self._presence()
            return
        self.later(self._catch_up(event))

    def later(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of this room (stopped with it)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up(self, event: dict[str, Any]) -> None:
        async with self.lock:
            version = event.get("version")
            if isinstance(version, int) and version <= self.version:
                return  # this process made the change, or caught up already
            after = None
            if not event.get("reload") and version == self.version + 1:
                after = heard(self.live, event)
            if after is None:
                await self.reload()
                self.changed()
                return
            self.live = after
            state = event.get("state")
            self.changed(state if isinstance(state, str) else None)

    async def reload(self) -> None:
        """Read the game again from the store (after another process changed it)."""
        stored = await self.hub.db(self.hub.store.load, self.id)
        if stored is not None:
            self.refresh(stored)
            self.checked = time.monotonic()

    def refresh(self, stored: StoredGame) -> None:
        """Take the stored game as it now is (another process changed it)."""
        self.live = load(stored, self._timings(), previous=self.live)
        self.clock = pauses.taken(self, stored.clock)
        self._state_text = None

    # ------------------------------------------------------------------- what happens next

    def changed(self, state_text: str | None = None) -> None:
        """After any change: restart the timer, start a computer move, tell everybody
        (``state_text``: the state as the process that made the change sent it)."""
        self.touched = time.monotonic()
        self.arm_timer()
        self.computer.start()
        if self.computer.thinking is not None:
            state_text = None  # shown as awaited here, whatever the hub that changed it says
        self.publish_state(state_text)

    def arm_timer(self) -> None:
        """Wait for the next moment the game waits for (the machine says which)."""
        self._arm(next_timer(self.live, clocks.now_ms()))

    def _arm(self, timer: Timer | None) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        if timer is not None:
            self._timer = asyncio.get_running_loop().create_task(self._fire_at(timer))

    async def _fire_at(self, timer: Timer) -> None:
        await clocks.sleep_until(timer.when)
        if timer.kind == "refresh":
            await self._fire(timer)
            return
        async with self.lock:
            await self._fire(timer)

    async def _fire(self, timer: Timer) -> None:
        with contextlib.suppress(ProtocolError):  # another process ended it first
            await self.run(Fire(timer))

    def close(self) -> None:
        """Stop this room's pending tasks."""
        self.computer.close()
        for task in (self._timer, *self._tasks):
            if task is not None:
                task.cancel()
        self.channel.close()
