"""One game being played: the engine's :class:`Game`, its seats, clock and followers.

A room applies every move with the engine, writes it to the store, and only then tells its
channel. One lock per room puts its messages in order; rooms never wait for each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeAlias

from sosgame.errors import GameOverError, IllegalMoveError, InvalidMoveError, NothingToUndoError
from sosgame.game import Mode
from sosgame.levels import HINT_LEVEL
from sosgame.notation import Move
from sosgame.snapshot import Snapshot, build_game
from sosgame.table import PERSON, Seat, Table
from sosgame.web.computer.autoplay import ComputerTurns
from sosgame.web.live import clock as clocks
from sosgame.web.live import pauses, permissions
from sosgame.web.live.fairplay import FairMessage, FairPlay, ending_of
from sosgame.web.live.fanout import Connection, dumps
from sosgame.web.live.host import RoomHost
from sosgame.web.live.protocol import (
    PROTOCOL_VERSION,
    HelloMessage,
    HintMessage,
    MoveMessage,
    PingMessage,
    ProtocolError,
    RedoMessage,
    ResignMessage,
    UndoMessage,
    error_message,
)
from sosgame.web.people.tokens import seats_opened
from sosgame.web.storage.rows import Change, Job, SeatRow, StoredGame
from sosgame.web.storage.writer import StaleWriteError, StorageUnavailableError

__all__ = ["GameMessage", "Room", "RoomMessage"]

_log = logging.getLogger(__name__)


GameMessage: TypeAlias = MoveMessage | ResignMessage | UndoMessage | RedoMessage | FairMessage
"""The messages that change the game, carried out under the room's lock."""
RoomMessage: TypeAlias = PingMessage | HelloMessage | HintMessage | GameMessage
"""The messages a room answers (chat and rematches are the socket's)."""


def _table(stored: StoredGame) -> Table:
    """The stored game, replayed through the engine, at its seats."""
    mode: Mode = "simple" if stored.mode == "simple" else "general"
    snapshot = Snapshot(
        stored.rows, stored.cols, len(stored.seats), mode, stored.start, tuple(stored.actions)
    )
    return Table(build_game(snapshot), _seats(stored.seats))


def _seats(rows: list[SeatRow]) -> list[Seat]:
    return [Seat(row.name, row.kind) for row in rows]


class Room(FairPlay):
    """One game with its seats, clock, channel of followers and pending computer move."""

    def __init__(self, hub: RoomHost, stored: StoredGame, *, owner: str = "") -> None:
        self.hub = hub
        self.id = stored.id
        self.kind = stored.kind
        self.start = stored.start
        self.created_ms = stored.created_ms
        self._take(stored)
        # Whose queue the game's computer moves join and whose caps it counts for: its
        # creator's address, stored with the game (older games without one: the game's own).
        self.owner = owner or stored.owner or f"game:{stored.id}"
        self.table = _table(stored)
        """The game at its seats, with undo back to a person's turn and redo."""
        self.clock = stored.clock
        """Its ``since`` and ``waiting`` are the store's, whoever loads the game (a pause
        stored at a clean shutdown is resumed before: :mod:`sosgame.web.live.pauses`)."""
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
        self.start_fair(stored)

    # ------------------------------------------------------------------------- reading

    def controlled(self, *tokens: str | None) -> frozenset[int]:
        """The seats any of ``tokens`` may act for."""
        return seats_opened(self.seats, [token for token in tokens if token])

    @property
    def playable(self) -> bool:
        """Whether moves may be made now: every seat is filled and the game goes on."""
        return self.status == "playing" and not self.game.is_over

    @property
    def has_computer(self) -> bool:
        """Whether a seat is a computer player."""
        return self.table.has_computer

    @property
    def computers_only(self) -> bool:
        """Whether every seat is a computer player."""
        return not self.table.has_person

    @property
    def waits_for_computer(self) -> bool:
        """Whether a computer seat is to move (in a game with only computer seats, only
        while someone here watches)."""
        if not self.playable or not self.table.computer_to_move:
            return False
        return not self.computers_only or bool(len(self.channel))

    @property
    def queues_computer_moves(self) -> bool:
        """Whether the room's changes hand computer moves to the store's queue."""
        return self.has_computer

    @property
    def idle(self) -> bool:
        """Nobody follows it, no computer works on it, no clock runs (days: the sweep's)."""
        running = clocks.view(self.clock, self.game.turn if self.playable else None)
        timed = running is not None and running["running"] is not None
        return (
            not len(self.channel)
            and (self.days is not None or self.first_move_deadline() is None)
            and not self.computer.busy
            and (self.days is not None or not timed)
            and not self.lock.locked()
        )

    def snapshot(self) -> Snapshot:
        """The game as a worker process can rebuild it."""
        game = self.game
        return Snapshot(
            game.rows,
            game.cols,
            game.players,
            game.mode,
            self.start,
            tuple(str(action) for action in game.actions),
        )

    def result(self) -> dict[str, Any] | None:
        """The outcome as stored and sent, or ``None`` while the game goes on."""
        if self.ending is not None:
            return self.ending
        outcome = self.game.outcome
        if outcome is None:
            return None
        flagged = [] if self.clock is None else list(self.clock.get("flagged", []))
        result = {**outcome.to_dict(), "scores": list(self.game.scores), "flagged": flagged}
        last = str(self.game.actions[-1]) if self.game.actions else ""
        if result["termination"] == "resignation" and last in {f"resign:{n}" for n in flagged}:
            result["termination"] = "timeout"
        return result

    def clock_view(self) -> dict[str, Any] | None:
        """The clocks as of now: each seat's time left and whose clock is running."""
        return clocks.view(self.clock, self.game.turn if self.playable else None)

    def state(self) -> dict[str, Any]:
        """Everything a client draws, as one JSON-ready ``state`` message."""
        game = self.game
        connected = self.channel.connected_seats()
        active = set(game.active_seats)
        return {
            "v": PROTOCOL_VERSION,
            "type": "state",
            "game": {
                "id": self.id,
                "kind": self.kind,
                "rows": game.rows,
                "cols": game.cols,
                "mode": game.mode,
                "status": self.status,
                "public": self.public,
                "seats": [
                    {
                        "name": row.name,
                        "player": row.player,
                        "taken": row.kind != PERSON or row.token_hash is not None,
                        "connected": row.seat in connected,
                        "resigned": row.seat not in active,
                    }
                    for row in self.seats
                ],
                "board": game.position().split("/"),
                "scores": list(game.scores),
                "turn": game.turn,
                "ply": len(game.actions),
                "actions": [str(action) for action in game.actions],
                "lines": [line.to_dict() for line in game.lines],
                "extra_turn": game.extra_turn,
                "result": self.result(),
                "clock": self.clock_view(),
                "days": self.days,
                "deadline": clocks.iso(self.deadline()),
                "thinking": self.computer.thinking,
                "can_undo": self.kind == "local" and self.table.can_undo,
                "can_redo": self.kind == "local" and self.table.can_redo,
                "spectators": self.channel.spectators(),
                "rematch": self.rematch_id,
                "rated": self.rated,
                **self.fair_state(),
                "allowed": permissions.allowed(self),
            },
        }

    def state_text(self) -> str:
        """The state as sent to a newcomer; kept between changes while no clock runs, so
        a crowd arriving together costs one serialisation, not one each."""
        if self._state_text is not None:
            return self._state_text
        text = dumps(self.state())
        view = self.clock_view()
        if (view is None or view["running"] is None) and not self.changes_with_time:
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

    def join(self, connection: Connection, tokens: tuple[str, ...]) -> None:
        """A connection said hello: it holds the seats its tokens open, or watches.

        The newcomer gets the state; everyone else only a coalesced presence update.
        """
        connection.seats = self.controlled(*tokens)
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
        if self.note_presence():  # a player came back: everyone sees it
            self.arm_timer()  # what may be claimed changes with who is away
            self.publish_state()
        else:
            connection.deliver(self.state_text())
        if self.computers_only:
            self.computer.start()

    def leave(self, connection: Connection) -> None:
        """A connection went away."""
        self.channel.remove(connection)
        self.touched = time.monotonic()
        if self.note_presence():
            self.arm_timer()
            self.publish_state()

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
                        await self._act(connection, message)
        except ProtocolError as error:
            await connection.send(error_message(error.code, error.detail))

    async def _act(self, connection: Connection, message: GameMessage) -> None:
        held = connection.seats
        match message:
            case UndoMessage(ply=ply):
                permissions.check_steps(self, held, "undo", ply)
                await self._undo()
            case RedoMessage(ply=ply):
                permissions.check_steps(self, held, "redo", ply)
                await self._redo()
            case MoveMessage(move=text, ply=ply):
                await self._move(held, text, ply)
            case ResignMessage(seat=seat, ply=ply):
                await self.commit(f"resign:{permissions.check_resign(self, held, seat, ply)}")
            case _:
                await self.act(connection, message)

    async def _move(self, held: frozenset[int], text: str, ply: int) -> None:
        permissions.check_move(self, held, ply)
        try:
            move = Move.parse(text)
        except InvalidMoveError as error:
            raise ProtocolError("bad_move", str(error)) from None
        await self.commit(str(move))

    async def commit(self, text: str, *, flagged: int | None = None) -> None:
        """Apply one action with the engine, store it, then tell everybody (under the lock)."""
        game = self.game
        now = clocks.now_ms()
        clock, text, flagged = clocks.charge(self.clock, game.turn, text, now, flagged)
        try:
            self.table.play(text)
        except IllegalMoveError as error:
            code = "game_over" if isinstance(error, GameOverError) else "illegal_move"
            raise ProtocolError(code, str(error)) from None
        except InvalidMoveError as error:
            raise ProtocolError("bad_move", str(error)) from None
        if clock is not None:
            self.settle_clock(clock, now)
        before = self.clock
        self.clock = clock
        change = self._change(clock, now, len(game.actions), texts=(text,))
        try:
            await self.hub.database.write(change)
        except StaleWriteError:
            self.table.retract()
            self.clock = before
            await self.reload()
            self.changed()
            raise ProtocolError(
                "stale",
                "another move was made first (through another server); nothing was changed",
            ) from None
        except Exception as error:
            self.table.retract()
            self.clock = before
            if not isinstance(error, StorageUnavailableError):  # an outage is logged once
                _log.error("game %s: could not store %s: %s", self.id, text, error)
            raise ProtocolError(
                "storage_failed", f"{text} could not be stored, so it was not played"
            ) from None
        self.status = self._status()
        self._stored(change)
        self.changed()

    def _change(
        self,
        clock: dict[str, Any] | None,
        now: int,
        first_ply: int,
        *,
        texts: tuple[str, ...] = (),
        keep: int | None = None,
        status: str | None = None,
    ) -> Change:
        """The change that stores the game as the table now has it, from ``first_ply`` on."""
        return Change(
            self.id,
            status=self._status() if status is None else status,
            result=self.result(),
            clock=clock,
            now_ms=now,
            first_ply=first_ply,
            texts=texts,
            keep=keep,
            version=self.version,
            job=self.next_job(now),
            hands_over=self.queues_computer_moves,
        )

    def next_job(self, now: int | None = None) -> Job | None:
        """The job a change leaves behind when a computer seat is to move next."""
        if not self.playable or not self.table.computer_to_move:
            return None
        return self.hub.jobs.job(
            clocks.now_ms() if now is None else now,
            computers_only=self.computers_only,
            watched_here=bool(len(self.channel)),
            pause=self.hub.computer_pause,
        )

    def _stored(self, change: Change) -> None:
        """A change of this room is in the store: the next version, told to the others
        with the state it leads to (by :meth:`publish_state`, called next)."""
        self.version += 1
        self._announcement = {
            "version": self.version,
            "keep": change.keep,
            "first": change.first_ply,
            "texts": list(change.texts),
            "status": change.status,
            "clock": change.clock,
            "result": change.result,
        }

    # ------------------------------------------------------- changes from other processes

    def hear(self, event: dict[str, Any]) -> None:
        """Another server process changed this game (catch up, in the order heard), or
        told who follows it there."""
        if "presence" in event:
            self.channel.heard(str(event.get("origin")), event["presence"])
            if self.note_presence():
                self.arm_timer()
                self.publish_state()
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
            if event.get("reload") or version != self.version + 1 or not self._replay(event):
                await self.reload()
                self.changed()
                return
            state = event.get("state")
            self.changed(state if isinstance(state, str) else None)

    def _replay(self, event: dict[str, Any]) -> bool:
        """Apply a heard change to the game; ``False`` if it does not fit (read it again)."""
        texts = event.get("texts")
        keep = event.get("keep")
        if not isinstance(texts, list) or event.get("first") != (
            len(self.game.actions) + 1 if keep is None else keep + 1
        ):
            return False
        try:
            if keep is not None:  # an undo there: what it took back, redo here gives back
                self.rewind(keep)
            for text in texts:
                self.table.play(str(text))
        except (IllegalMoveError, InvalidMoveError, NothingToUndoError):
            return False
        self.version = int(event["version"])
        self.status = str(event.get("status", self.status))
        clock = event.get("clock")
        self.clock = clock if isinstance(clock, dict) else None
        self.ending = ending_of(event.get("result"))
        return True

    async def reload(self) -> None:
        """Read the game again from the store (after another process changed it)."""
        stored = await self.hub.db(self.hub.store.load, self.id)
        if stored is not None:
            self.refresh(stored)
            self.checked = time.monotonic()

    def refresh(self, stored: StoredGame) -> None:
        """Take the stored game as it now is (another process changed it)."""
        actions = tuple(str(action) for action in self.game.actions)
        if tuple(stored.actions) != actions or stored.start != self.start:
            self.start = stored.start
            self.table = _table(stored)
        self.table.seats = _seats(stored.seats)
        self._take(stored)
        self.clock = pauses.taken(self, stored.clock)
        self.take_fair(stored)
        self._state_text = None

    def _take(self, stored: StoredGame) -> None:
        # What may change while the room is open: opening and refreshing both take it.
        self.seats = stored.seats
        self.status = stored.status
        self.public = stored.public
        self.rematch_id = stored.rematch
        self.version = stored.version

    def _status(self) -> str:
        return "finished" if self.game.is_over else self.status

    async def undo_to(self, keep: int) -> None:
        """Take back every action after the first ``keep`` (an accepted takeback)."""
        if not 0 <= keep < len(self.game.actions):
            raise ProtocolError("nothing_to_undo")
        self.computer.cancel()
        before = len(self.game.actions)
        self.rewind(keep)

        def back() -> None:
            while len(self.game.actions) < before:
                self.table.redo()

        await self._write_undo(back)

    async def _undo(self) -> None:
        self.computer.cancel()
        self.table.undo()
        await self._write_undo(self.table.redo)

    async def _write_undo(self, back: Callable[[], object]) -> None:
        """Store the undo just made at the table: the game goes on, whatever had ended it."""
        ending = self.ending
        self.ending = None
        now = clocks.now_ms()
        clock = self.clock
        status = self.status
        self.status = "playing"  # as the clock settles
        if clock is not None:
            flagged = [
                seat for seat in clock.get("flagged", []) if seat not in self.game.active_seats
            ]
            clock = {**clock, "flagged": flagged}
            self.settle_clock(clock, now)
        kept = len(self.game.actions)
        change = self._change(clock, now, kept + 1, keep=kept, status="playing")

        def undone_back() -> None:
            back()
            self.ending = ending
            self.status = status

        await self._write_steps(change, "nothing was undone", undone_back)

    async def _redo(self) -> None:
        self.computer.cancel()
        kept = len(self.game.actions)
        redone = self.table.redo()
        now = clocks.now_ms()
        clock = self.clock
        if clock is not None:  # redo costs the players no time
            clock = dict(clock)
            self.settle_clock(clock, now)
        change = self._change(clock, now, kept + 1, texts=tuple(str(a) for a in redone))
        await self._write_steps(change, "nothing was redone", self.table.undo)

    async def _write_steps(self, change: Change, nothing: str, back: Callable[[], object]) -> None:
        """Store an undo or a redo already made at the table; if it cannot be stored, ``back``
        (a redo after an undo, an undo after a redo) puts the table back as it was."""
        try:
            await self.hub.database.write(change)
        except StaleWriteError:
            back()
            await self.reload()
            self.changed()
            raise ProtocolError(
                "stale", f"the game changed meanwhile (through another server); {nothing}"
            ) from None
        except Exception as error:
            back()
            if not isinstance(error, StorageUnavailableError):
                _log.error("game %s: could not store an undo or redo: %s", self.id, error)
            raise ProtocolError("storage_failed", f"it could not be stored; {nothing}") from None
        self.status = change.status
        self.clock = change.clock
        self._stored(change)
        self.changed()

    async def _hint(self, connection: Connection) -> None:
        permissions.check_hint(self, connection.seats)
        ply = len(self.game.actions)
        text, proven = await self.hub.computers.suggest(
            HINT_LEVEL, self.snapshot(), owner=self.owner, interactive=True
        )
        await connection.send(
            {"v": PROTOCOL_VERSION, "type": "hint", "move": text, "ply": ply, "proven": proven}
        )

    # ------------------------------------------------------------------- what happens next

    def changed(self, state_text: str | None = None) -> None:
        """After any change: restart the clock timer, start a computer move, tell everybody
        (``state_text``: the state as the process that made the change sent it)."""
        self.touched = time.monotonic()
        self.arm_timer()
        self.computer.start()
        if self.computer.thinking is not None:
            state_text = None  # shown as awaited here, whatever the hub that changed it says
        self.publish_state(state_text)

    def arm_timer(self) -> None:
        """Make the seat to move lose on time when its clock runs out."""
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        view = self.clock_view()
        if view is None or view["running"] is None:
            self._timer = self.fair_timer()
            return
        left = view["remaining"][view["running"]]
        self._timer = asyncio.get_running_loop().create_task(
            self._flag_later(clocks.now_ms() + left, len(self.game.actions))
        )

    async def _flag_later(self, deadline: int, ply: int) -> None:
        await clocks.sleep_until(deadline)
        async with self.lock:
            view = self.clock_view()
            if len(self.game.actions) != ply or view is None or view["running"] is None:
                return
            seat = view["running"]
            if view["remaining"][seat] > 0:
                self.arm_timer()
                return
            with contextlib.suppress(ProtocolError):  # another process flagged it first
                await self.commit(f"resign:{seat}", flagged=seat)

    def close(self) -> None:
        """Stop this room's pending tasks."""
        self.computer.close()
        for task in (self._timer, *self._tasks):
            if task is not None:
                task.cancel()
        self.channel.close()
