"""The computer moves of one game: when to make one, who makes it, and playing it.

The room's own task asks the queue of computer moves (:mod:`sosgame.web.computer.jobs`) whether it
makes the move: whichever hub takes the game's job makes it (a server alone takes every
one), and the others show the seat as thinking and hear the move when it is made.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Final, Protocol

from sosgame.game import Game
from sosgame.snapshot import Snapshot
from sosgame.web.live.fanout import LocalChannel
from sosgame.web.live.host import RoomHost
from sosgame.web.live.protocol import ProtocolError, error_message
from sosgame.web.storage.rows import HUMAN, SeatRow

__all__ = ["ComputerTurns", "Table"]

_log = logging.getLogger(__name__)
ASK_AGAIN: Final = 5.0
"""Seconds before a hub asks again for a computer move it did not get."""


class Table(Protocol):
    """What the computer turns read and do of their room (:class:`sosgame.web.live.room.Room`)."""

    @property
    def id(self) -> str: ...

    @property
    def owner(self) -> str: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def version(self) -> int: ...

    @property
    def game(self) -> Game: ...

    @property
    def seats(self) -> list[SeatRow]: ...

    @property
    def channel(self) -> LocalChannel: ...

    @property
    def playable(self) -> bool: ...

    @property
    def computers_only(self) -> bool: ...

    def snapshot(self) -> Snapshot: ...

    def forget_state(self) -> None: ...

    def publish_state(self, text: str | None = None) -> None: ...

    async def commit(self, text: str) -> None: ...

    async def reload(self) -> None: ...


class ComputerTurns:
    """Makes a room's computer moves, one at a time."""

    def __init__(self, room: Table, host: RoomHost) -> None:
        self.room = room
        self.host = host
        self.thinking: int | None = None
        """The computer seat whose move is awaited (by this hub or another)."""
        self._task: asyncio.Task[None] | None = None
        self._holding = False
        self._asked = 0.0

    @property
    def busy(self) -> bool:
        """Whether a computer move is under way here."""
        return self._task is not None and not self._task.done()

    @property
    def computing(self) -> bool:
        """Whether this hub makes (or is about to make) the room's computer move."""
        return self._holding

    def cancel(self) -> None:
        """Give up the move under way (the position changed)."""
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = None
        self.thinking = None

    def start(self, *, taken: bool = False) -> None:
        """Start the computer move if a computer seat is to move (``taken``: this hub
        already holds the game's job).

        A game with only computer seats moves only while someone watches it: a hub starts
        its move only while its own connections watch it, or once it took the job from the
        queue (which hands it out only while someone watches it, through any hub).
        """
        room = self.room
        task = self._task
        if task is not None and task is not asyncio.current_task() and not task.done():
            return
        self._task = None
        if not room.playable or room.seats[room.game.turn].player == HUMAN:
            self.thinking = None
            return
        if room.computers_only and not len(room.channel) and not taken:
            self.thinking = None
            return
        self.thinking = room.game.turn
        room.forget_state()
        self._task = asyncio.get_running_loop().create_task(
            self._move(len(room.game.actions), taken=taken)
        )

    def retry(self) -> None:
        """Ask again for the computer move the room waits for, unless asked a moment ago
        (its holder may have died, or a watcher arrived)."""
        if time.monotonic() - self._asked >= ASK_AGAIN and not self.computing:
            self.start()

    async def take_over(self, version: int) -> None:
        """This hub took the game's job from the queue: make the move."""
        room = self.room
        async with room.lock:
            if room.version != version:
                await room.reload()
        if room.version == version:
            self.cancel()
            self.start(taken=True)
        else:
            await self.host.jobs.release(room.id)

    async def _move(self, ply: int, *, taken: bool) -> None:
        seat = self.room.game.turn
        if not taken:
            self._asked = time.monotonic()
            if not await self._take():
                return  # another hub makes it (``thinking`` stays shown)
        self._holding = True
        try:
            await self._think_and_play(ply, seat, pause=not taken)
        finally:
            self._holding = False

    async def _take(self) -> bool:
        """Whether this hub makes the computer move the room waits for now (only if it
        takes the game's job)."""
        room = self.room
        return await self.host.jobs.take(
            room.id,
            room.version,
            computers_only=room.computers_only,
            watched_here=bool(len(room.channel)),
        )

    async def _think_and_play(self, ply: int, seat: int, *, pause: bool) -> None:
        room = self.room
        if pause:
            await asyncio.sleep(self.host.computer_pause)
        try:
            text = await self.host.computers.think(
                room.seats[seat].player,
                room.snapshot(),
                owner=room.owner,
                interactive=not room.computers_only,
            )
        except ProtocolError as error:
            _log.warning("computer move in game %s failed: %s", room.id, error.message)
            self.thinking = None
            room.channel.publish(error_message(error.code, error.detail))
            room.publish_state()
            return
        async with room.lock:
            game = room.game
            if len(game.actions) != ply or not room.playable or game.turn != seat:
                return
            self.thinking = None
            try:
                await room.commit(text)
            except ProtocolError as error:
                _log.info("computer move %s in game %s refused: %s", text, room.id, error)

    def close(self) -> None:
        """Stop the move under way."""
        if self._task is not None:
            self._task.cancel()
