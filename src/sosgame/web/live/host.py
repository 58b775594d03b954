"""What a room needs from the server that holds it, as a protocol: the room and its computer
turns depend on this, never on the hub (:class:`sosgame.web.live.hub.Hub` is the one host).
"""

from __future__ import annotations

from typing import Any, Protocol

from sosgame.web.computer.jobs import ComputerJobs
from sosgame.web.computer.workers import ComputerPool
from sosgame.web.config import ServerLimits
from sosgame.web.live.fanout import LocalChannel
from sosgame.web.network.bus import Bus
from sosgame.web.storage.store import Store
from sosgame.web.storage.writer import Database

__all__ = ["RoomHost"]


class RoomHost(Protocol):
    """The store, bus, computer players and queue of computer moves a room works with."""

    @property
    def store(self) -> Store: ...

    @property
    def database(self) -> Database: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def computers(self) -> ComputerPool: ...

    @property
    def jobs(self) -> ComputerJobs: ...

    @property
    def limits(self) -> ServerLimits:
        """The server's limits (the fair-play timers among them)."""
        ...

    @property
    def computer_pause(self) -> float:
        """Seconds a computer waits before it moves, so that people can follow."""
        ...

    def channel(self, game_id: str, seats: int) -> LocalChannel:
        """Where a room's messages go."""
        ...

    async def db(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call on the database thread."""
        ...
