"""Games being played: each is a :class:`Room` holding the engine's :class:`Game`.

A room applies every move with the engine, writes it to the store, and only then tells every
connected client. One lock per room puts its messages in order; rooms never wait for each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from typing import Any, Final, TypeVar

from sosgame.errors import GameOverError, IllegalMoveError, InvalidMoveError, NothingToUndoError
from sosgame.notation import Move
from sosgame.record import Record
from sosgame.web.computer import Position, build_game, choose_move
from sosgame.web.protocol import (
    PROTOCOL_VERSION,
    ClientMessage,
    NewGame,
    ProtocolError,
    error_message,
)
from sosgame.web.store import Change, SeatRow, Store, StoredGame

__all__ = ["Client", "Hub", "Room", "hash_token", "now_ms"]

_log = logging.getLogger(__name__)
_T = TypeVar("_T")
HINT_LEVEL: Final = "medium"
HUMAN: Final = "human"


def now_ms() -> int:
    """Wall-clock time in milliseconds."""
    return time.time_ns() // 1_000_000


def hash_token(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh secret seat token."""
    return secrets.token_urlsafe(24)


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Client:
    """One WebSocket connection: how to send to it and the seats its token controls."""

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self._send = send
        self.seats: frozenset[int] = frozenset()
        self.greeted = False

    async def send_text(self, text: str) -> None:
        """Send already encoded JSON; a client that has gone is ignored."""
        with contextlib.suppress(Exception):
            await self._send(text)

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message."""
        await self.send_text(_dumps(message))


class Room:
    """One game with its seats, clock, connected clients and pending computer move."""

    def __init__(self, hub: Hub, stored: StoredGame) -> None:
        self.hub = hub
        self.id = stored.id
        self.kind = stored.kind
        self.seats = stored.seats
        self.start = stored.start
        self.status = stored.status
        self.created_ms = stored.created_ms
        self.game = build_game(
            Position(
                stored.rows,
                stored.cols,
                len(stored.seats),
                "simple" if stored.mode == "simple" else "general",
                stored.start,
                tuple(stored.actions),
            )
        )
        self.clock = stored.clock
        if self.clock is not None and self.clock.get("since") is not None:
            # The clocks stand still while the server is down.
            self.clock["since"] = now_ms()
        self.redo: list[str] = []
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.thinking: int | None = None
        self._computer: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------------- reading

    def controlled(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` may act for (compared in constant time)."""
        if not token:
            return frozenset()
        digest = hash_token(token)
        return frozenset(
            row.seat
            for row in self.seats
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, digest)
        )

    @property
    def playable(self) -> bool:
        """Whether moves may be made now: every seat is filled and the game goes on."""
        return self.status == "playing" and not self.game.is_over

    def position(self) -> Position:
        """The game as a worker process can rebuild it."""
        game = self.game
        return Position(
            game.rows,
            game.cols,
            game.players,
            game.mode,
            self.start,
            tuple(str(action) for action in game.actions),
        )

    def result(self) -> dict[str, Any] | None:
        """The outcome as stored and sent, or ``None`` while the game goes on."""
        outcome = self.game.outcome
        if outcome is None:
            return None
        flagged = [] if self.clock is None else list(self.clock.get("flagged", []))
        return {
            "termination": outcome.termination.value,
            "winners": list(outcome.winners),
            "scores": list(self.game.scores),
            "flagged": flagged,
        }

    def clock_view(self) -> dict[str, Any] | None:
        """The clocks as of now: each seat's time left and whose clock is running."""
        if self.clock is None:
            return None
        remaining = list(self.clock["remaining"])
        running = None
        since = self.clock.get("since")
        if since is not None and self.playable:
            running = self.game.turn
            remaining[running] = max(0, remaining[running] - (now_ms() - since))
        return {
            "initial": self.clock["initial"],
            "increment": self.clock["increment"],
            "remaining": remaining,
            "running": running,
        }

    def state(self) -> dict[str, Any]:
        """Everything a client draws, as one JSON-ready ``state`` message."""
        game = self.game
        connected = set().union(*(client.seats for client in self.clients))
        spectators = sum(1 for client in self.clients if not client.seats)
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
                "seats": [
                    {
                        "name": row.name,
                        "player": row.player,
                        "taken": row.player != HUMAN or row.token_hash is not None,
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
                "lines": [
                    {
                        "owner": line.owner,
                        "ply": line.ply,
                        "cells": [str(cell) for cell in line.cells],
                    }
                    for line in game.lines
                ],
                "extra_turn": game.extra_turn,
                "result": self.result(),
                "clock": self.clock_view(),
                "thinking": self.thinking,
                "can_undo": self.kind == "local" and bool(game.actions),
                "can_redo": self.kind == "local" and bool(self.redo),
                "spectators": spectators,
            },
        }

    async def broadcast(self, message: dict[str, Any]) -> None:
        """Send one message to every connected client at once."""
        text = _dumps(message)
        await asyncio.gather(*(client.send_text(text) for client in list(self.clients)))

    async def broadcast_state(self) -> None:
        """Send the state to every connected client."""
        await self.broadcast(self.state())

    # ---------------------------------------------------------------------- connections

    async def join(self, client: Client, token: str | None) -> None:
        """A client said hello: it controls the seats its token opens, or watches."""
        client.seats = self.controlled(token)
        client.greeted = True
        self.clients.add(client)
        await client.send(
            {
                "v": PROTOCOL_VERSION,
                "type": "welcome",
                "game": self.id,
                "seats": sorted(client.seats),
            }
        )
        await self.broadcast_state()

    async def leave(self, client: Client) -> None:
        """A client went away."""
        if client in self.clients:
            self.clients.discard(client)
            if not self.clients and self.game.is_over:
                # Nothing more can happen here: let the store be the only copy.
                self.hub.rooms.pop(self.id, None)
                return
            # In a task of its own: the leaving connection's handler may be cancelled.
            task = asyncio.get_running_loop().create_task(self.broadcast_state())
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------------------ messages

    async def handle(self, client: Client, message: ClientMessage) -> None:
        """Carry out one checked message, or answer with an error that names the problem."""
        try:
            if message.type == "ping":
                await client.send({"v": PROTOCOL_VERSION, "type": "pong"})
            elif message.type == "hello":
                raise ProtocolError("bad_message", "this connection has already said hello")
            elif message.type == "hint":
                await self._hint(client)
            else:
                async with self.lock:
                    await self._act(client, message)
        except ProtocolError as error:
            await client.send(error_message(error.code, error.message))

    def _check_ply(self, message: ClientMessage) -> None:
        current = len(self.game.actions)
        if message.ply is not None and message.ply != current:
            raise ProtocolError(
                "stale",
                f"the message is for ply {message.ply} but the game is at ply {current};"
                " nothing was changed",
            )

    async def _act(self, client: Client, message: ClientMessage) -> None:
        if message.type in ("undo", "redo"):
            if self.kind != "local":
                raise ProtocolError("not_allowed", f"{message.type} is for local games only")
            if not client.seats:
                raise ProtocolError("not_your_seat", "only a player of this game may do that")
            self._check_ply(message)
            await (self._undo() if message.type == "undo" else self._redo())
            return
        if self.game.is_over:
            raise ProtocolError("game_over", "the game is over")
        if self.status != "playing":
            raise ProtocolError("waiting", "the game waits for every seat to be taken")
        self._check_ply(message)
        if message.type == "move":
            seat = self.game.turn
            if seat not in client.seats:
                raise ProtocolError(
                    "not_your_turn",
                    f"it is seat {seat}'s turn ({self.seats[seat].name}) and this connection"
                    " does not hold that seat",
                )
            text = message.move or ""
            try:
                move = Move.parse(text)
            except InvalidMoveError as error:
                raise ProtocolError("bad_move", str(error)) from None
            await self.commit(str(move))
        elif message.type == "resign":
            resigner = message.seat
            if resigner is None:
                local = self.kind == "local"
                resigner = self.game.turn if local else min(client.seats, default=-1)
            if resigner not in client.seats:
                raise ProtocolError(
                    "not_your_seat", f"this connection does not hold seat {resigner}"
                )
            await self.commit(f"resign:{resigner}")

    async def commit(self, text: str, *, redo: bool = False, flagged: int | None = None) -> None:
        """Apply one action with the engine, store it, then tell everybody (under the lock)."""
        game = self.game
        now = now_ms()
        clock = None if self.clock is None else json.loads(json.dumps(self.clock))
        if clock is not None and clock.get("since") is not None and flagged is None:
            mover = game.turn
            clock["remaining"][mover] -= now - clock["since"]
            if clock["remaining"][mover] <= 0:
                # The flag fell before the move arrived: the timer's resignation stands.
                text, flagged = f"resign:{mover}", mover
            elif not text.startswith("resign"):
                clock["remaining"][mover] += clock["increment"]
        if flagged is not None and clock is not None:
            clock["remaining"][flagged] = 0
            clock["flagged"] = [*clock.get("flagged", []), flagged]
        try:
            game.apply(text)
        except IllegalMoveError as error:
            code = "game_over" if isinstance(error, GameOverError) else "illegal_move"
            raise ProtocolError(code, str(error)) from None
        except InvalidMoveError as error:
            raise ProtocolError("bad_move", str(error)) from None
        if clock is not None:
            clock["since"] = None if game.is_over else now
        before = self.clock
        self.clock = clock
        try:
            await self.hub.write(
                Change(
                    self.id,
                    status=self._status(),
                    result=self.result(),
                    clock=clock,
                    now_ms=now,
                    first_ply=len(game.actions),
                    texts=(text,),
                )
            )
        except Exception as error:
            game.undo()
            self.clock = before
            _log.error("game %s: could not store %s: %s", self.id, text, error)
            raise ProtocolError(
                "storage_failed", f"{text} could not be stored, so it was not played"
            ) from None
        if not redo:
            self.redo.clear()
        self.status = self._status()
        await self.changed()

    def _status(self) -> str:
        return "finished" if self.game.is_over else self.status

    async def _undo(self) -> None:
        game = self.game
        if not game.actions:
            raise ProtocolError("nothing_to_undo", "there is nothing to undo")
        self._cancel_computer()
        taken: list[str] = []
        with contextlib.suppress(NothingToUndoError):
            taken.append(str(game.undo()))
            while game.actions and self.seats[game.turn].player != HUMAN:
                taken.append(str(game.undo()))
        if self.clock is not None:
            self.clock["flagged"] = [
                seat for seat in self.clock.get("flagged", []) if seat not in game.active_seats
            ]
            self.clock["since"] = now_ms()
        self.status = "playing"
        await self.hub.write(
            Change(
                self.id,
                status=self.status,
                result=None,
                clock=self.clock,
                now_ms=now_ms(),
                keep=len(game.actions),
            )
        )
        self.redo.extend(taken)
        await self.changed()

    async def _redo(self) -> None:
        if not self.redo:
            raise ProtocolError("nothing_to_redo", "there is nothing to redo")
        self._cancel_computer()
        await self.commit(self.redo.pop(), redo=True)
        while self.redo and self.playable and self.seats[self.game.turn].player != HUMAN:
            await self.commit(self.redo.pop(), redo=True)

    async def _hint(self, client: Client) -> None:
        if self.kind != "local":
            raise ProtocolError("not_allowed", "hints are for local games only")
        if self.game.turn not in client.seats or not self.playable:
            raise ProtocolError("not_your_turn", "a hint is for the player to move")
        ply = len(self.game.actions)
        text = await self.hub.think(HINT_LEVEL, self.position())
        await client.send({"v": PROTOCOL_VERSION, "type": "hint", "move": text, "ply": ply})

    # ------------------------------------------------------------------- what happens next

    async def changed(self) -> None:
        """After any change: restart the clock timer, start a computer move, tell everybody."""
        self._arm_timer()
        self._start_computer()
        await self.broadcast_state()

    def _arm_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        view = self.clock_view()
        if view is None or view["running"] is None:
            return
        left = view["remaining"][view["running"]]
        self._timer = asyncio.get_running_loop().create_task(
            self._flag_later(left / 1000, len(self.game.actions))
        )

    async def _flag_later(self, delay: float, ply: int) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            view = self.clock_view()
            if len(self.game.actions) != ply or view is None or view["running"] is None:
                return
            seat = view["running"]
            if view["remaining"][seat] > 0:
                self._arm_timer()
                return
            await self.commit(f"resign:{seat}", flagged=seat)

    def _cancel_computer(self) -> None:
        if self._computer is not None and self._computer is not asyncio.current_task():
            self._computer.cancel()
        self._computer = None
        self.thinking = None

    def _start_computer(self) -> None:
        current = asyncio.current_task()
        if (
            self._computer is not None
            and self._computer is not current
            and not self._computer.done()
        ):
            return
        self._computer = None
        if not self.playable or self.seats[self.game.turn].player == HUMAN:
            self.thinking = None
            return
        self.thinking = self.game.turn
        self._computer = asyncio.get_running_loop().create_task(
            self._computer_move(len(self.game.actions))
        )

    async def _computer_move(self, ply: int) -> None:
        seat = self.game.turn
        await asyncio.sleep(self.hub.computer_pause)
        try:
            text = await self.hub.think(self.seats[seat].player, self.position())
        except ProtocolError as error:
            _log.warning("computer move in game %s failed: %s", self.id, error.message)
            self.thinking = None
            await self.broadcast(error_message(error.code, error.message))
            await self.broadcast_state()
            return
        async with self.lock:
            if len(self.game.actions) != ply or not self.playable or self.game.turn != seat:
                return
            self.thinking = None
            try:
                await self.commit(text)
            except ProtocolError as error:
                _log.error("computer move %s in game %s refused: %s", text, self.id, error)

    def close(self) -> None:
        """Stop this room's pending tasks."""
        for task in (self._computer, self._timer):
            if task is not None:
                task.cancel()


class Hub:
    """Every room the server has open, the store behind them and the computer players' pool."""

    def __init__(
        self,
        store: Store,
        *,
        computer: Executor | None = None,
        computer_pause: float = 0.6,
    ) -> None:
        self.store = store
        self.computer_pause = computer_pause
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sosgame-db")
        self._computer = computer
        self._own_computer = computer is None
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self._pending: list[tuple[Change, asyncio.Future[None]]] = []
        self._flushing = False
        self._flusher: asyncio.Task[None] | None = None

    async def db(self, function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run a store call on the one database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, partial(function, *args, **kwargs))

    async def write(self, change: Change) -> None:
        """Commit one change; returns once it is in the database.

        Changes that arrive while a commit is under way wait for the next one and share it
        (a group commit), so a busy server commits far less often than it moves.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((change, done))
        if not self._flushing:
            self._flushing = True
            self._flusher = loop.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    await self.db(self.store.write, [change for change, _ in batch])
                except Exception:
                    # One bad change must not sink the others: retry them one by one.
                    for change, done in batch:
                        try:
                            await self.db(self.store.write, [change])
                        except Exception as error:
                            done.set_exception(error)
                        else:
                            done.set_result(None)
                else:
                    for _, done in batch:
                        done.set_result(None)
        finally:
            self._flushing = False

    def _computer_pool(self) -> Executor:
        if self._computer is None:
            from concurrent.futures import ProcessPoolExecutor
            from multiprocessing import get_context

            self._computer = ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn"))
        return self._computer

    async def think(self, level: str, position: Position) -> str:
        """A computer player's move, worked out off the event loop."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._computer_pool(), partial(choose_move, level, position)
            )
        except ImportError:
            raise ProtocolError("unavailable", "computer players are not installed") from None
        except (ValueError, RuntimeError, OSError) as error:
            raise ProtocolError("unavailable", f"the computer player failed: {error}") from None

    async def room(self, game_id: str) -> Room | None:
        """The open room of a game, loaded from the store if needed; ``None`` if unknown."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(game_id)
            if room is None:
                stored = await self.db(self.store.load, game_id)
                if stored is None:
                    return None
                room = Room(self, stored)
                self.rooms[game_id] = room
                room._arm_timer()
                room._start_computer()
        return room

    async def create(self, settings: NewGame) -> tuple[Room, str, list[int]]:
        """Store a new game; returns its room, the creator's token and the seats it opens.

        A local game's token opens every human seat; an online game's opens the first.
        """
        token = new_token()
        digest = hash_token(token)
        humans = [seat for seat, row in enumerate(settings.seats) if row.player == HUMAN]
        mine = humans if settings.kind == "local" else humans[:1]
        rows = [
            SeatRow(seat, row.name, row.player, digest if seat in mine else None)
            for seat, row in enumerate(settings.seats)
        ]
        status = "playing" if len(mine) == len(humans) else "open"
        clock = None
        if settings.clock is not None:
            clock = {
                "initial": settings.clock.initial_ms,
                "increment": settings.clock.increment_ms,
                "remaining": [settings.clock.initial_ms] * len(rows),
                "since": now_ms() if status == "playing" else None,
                "flagged": [],
            }
        room = await self._store_new(
            kind=settings.kind,
            rows=settings.rows,
            cols=settings.cols,
            mode=settings.mode,
            seats=rows,
            status=status,
            clock=clock,
        )
        return room, token, mine

    async def create_from_record(self, record: Record) -> tuple[Room, str, list[int]]:
        """A local game that continues (or, if over, replays) an uploaded record."""
        token = new_token()
        digest = hash_token(token)
        rows = [SeatRow(seat, name[:40], HUMAN, digest) for seat, name in enumerate(record.players)]
        start = None
        if record.start is not None:
            start = {"position": record.start.position, "turn": record.start.turn}
            if record.start.scores is not None:
                start["scores"] = list(record.start.scores)
        game = record.to_game()
        room = await self._store_new(
            kind="local",
            rows=record.rows,
            cols=record.cols,
            mode=record.mode,
            seats=rows,
            status="finished" if game.is_over else "playing",
            clock=None,
            start=start,
            actions=list(record.moves),
        )
        return room, token, list(range(len(rows)))

    async def rematch(self, room: Room, seats: frozenset[int]) -> tuple[Room, str, list[int]]:
        """The same settings again; the asker keeps their seats, the others are open again."""
        token = new_token()
        digest = hash_token(token)
        mine = sorted(seats)
        if room.kind == "local":
            mine = [row.seat for row in room.seats if row.player == HUMAN]
        rows = [
            SeatRow(row.seat, row.name, row.player, digest if row.seat in mine else None)
            for row in room.seats
        ]
        humans = [row.seat for row in rows if row.player == HUMAN]
        status = "playing" if set(humans) <= set(mine) else "open"
        clock = None
        if room.clock is not None:
            initial = room.clock["initial"]
            clock = {
                "initial": initial,
                "increment": room.clock["increment"],
                "remaining": [initial] * len(rows),
                "since": now_ms() if status == "playing" else None,
                "flagged": [],
            }
        new = await self._store_new(
            kind=room.kind,
            rows=room.game.rows,
            cols=room.game.cols,
            mode=room.game.mode,
            seats=rows,
            status=status,
            clock=clock,
        )
        await room.broadcast({"v": PROTOCOL_VERSION, "type": "rematch", "game": new.id})
        return new, token, mine

    async def _store_new(
        self,
        *,
        kind: str,
        rows: int,
        cols: int,
        mode: str,
        seats: list[SeatRow],
        status: str,
        clock: dict[str, Any] | None,
        start: dict[str, Any] | None = None,
        actions: list[str] | None = None,
    ) -> Room:
        now = now_ms()
        stored = StoredGame(
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
        )
        room = Room(self, stored)
        if room.game.is_over:
            stored.result = room.result()
        await self.db(self.store.create, stored)
        self.rooms[stored.id] = room
        room._arm_timer()
        room._start_computer()
        return room

    async def take_seat(self, room: Room, seat: int, name: str | None) -> str:
        """Give a free human seat of an online game to whoever asks first."""
        async with room.lock:
            if not 0 <= seat < len(room.seats):
                raise ProtocolError("bad_field", f"the game has no seat {seat}")
            row = room.seats[seat]
            if row.player != HUMAN:
                raise ProtocolError("not_allowed", f"seat {seat} is a computer player")
            if row.token_hash is not None:
                raise ProtocolError("seat_taken", f"seat {seat} is already taken")
            token = new_token()
            digest = hash_token(token)
            if not await self.db(self.store.take_seat, room.id, seat, name, digest):
                raise ProtocolError("seat_taken", f"seat {seat} is already taken")
            row.token_hash = digest
            if name is not None:
                row.name = name
            if room.status == "open" and all(
                other.token_hash is not None for other in room.seats if other.player == HUMAN
            ):
                room.status = "playing"
                if room.clock is not None:
                    room.clock["since"] = now_ms()
                await self.write(
                    Change(
                        room.id, status=room.status, result=None, clock=room.clock, now_ms=now_ms()
                    )
                )
            await room.changed()
            return token

    async def close(self) -> None:
        """Stop every room's tasks and the worker pools."""
        for room in self.rooms.values():
            room.close()
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await self._flusher
        self._db.shutdown(wait=True)
        if self._own_computer and self._computer is not None:
            self._computer.shutdown(wait=True, cancel_futures=True)
