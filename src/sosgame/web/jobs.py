"""Who makes a game's next computer move: the queue of computer moves, as one protocol with
two implementations, so that a room's computer turns run the same code either way.

With one server process, :class:`LocalJobs`: this process makes every move, and a game with
only computer seats moves while someone here watches it. With several, :class:`SharedJobs`:
each move a computer seat owes is a job in the database's queue (:mod:`sosgame.web.jobqueue`); the
process that left it holds it under a lease while it thinks, renews the lease every sweep,
and any process that makes computer moves takes over a job whose lease ran out.
"""

from __future__ import annotations

from typing import Final, Protocol

from sosgame.web import clock as clocks
from sosgame.web.bus import Bus
from sosgame.web.jobqueue import JobQueue
from sosgame.web.rows import Job
from sosgame.web.writer import Database

__all__ = ["LEASE_MS", "ComputerJobs", "LocalJobs", "SharedJobs"]

LEASE_MS: Final = 5000
"""How long a process holds a computer move before others may take it, unless it renews
the lease (it does so every sweep, about once a second, while it thinks)."""


class ComputerJobs(Protocol):
    """The queue of computer moves, as a room's computer turns and the hub's sweep use it."""

    @property
    def hands_over(self) -> bool:
        """Whether a change hands the move it leaves over to the store's queue."""
        ...

    def watched(self, here: int) -> bool:
        """Whether a game with only computer seats, followed by ``here`` connections in this
        process, may move now (it moves only while someone watches it)."""
        ...

    def job(self, now: int, *, watched: bool, pause: float = 0.0) -> Job | None:
        """The job a change leaves for the computer move a game waits for, if queued."""
        ...

    async def take(self, game_id: str, version: int, *, watched: bool) -> bool:
        """Whether this process makes the computer move a game waits for at ``version``."""
        ...

    async def release(self, game_id: str) -> None:
        """Give back a job this process took but will not do (the game moved on)."""
        ...

    async def renew(self, held: list[str], watched: list[str], now: int) -> None:
        """Renew the leases of the jobs this process works on (and the computer-only games
        watched here)."""
        ...

    async def claim(self, now: int, limit: int) -> list[tuple[str, int]]:
        """Take up to ``limit`` jobs nobody holds: each game and its version."""
        ...


class LocalJobs:
    """The queue of the only server process: it makes every computer move itself, so there
    is nothing to store, hold or take over."""

    hands_over = False

    def watched(self, here: int) -> bool:
        return here > 0

    def job(self, now: int, *, watched: bool, pause: float = 0.0) -> Job | None:
        return None

    async def take(self, game_id: str, version: int, *, watched: bool) -> bool:
        return True

    async def release(self, game_id: str) -> None:
        return None

    async def renew(self, held: list[str], watched: list[str], now: int) -> None:
        return None

    async def claim(self, now: int, limit: int) -> list[tuple[str, int]]:
        return []


class SharedJobs:
    """This process's side of the store's queue of computer moves."""

    hands_over = True

    def __init__(self, queue: JobQueue, database: Database, bus: Bus, *, makes_moves: bool) -> None:
        self.queue = queue
        self.database = database
        self.bus = bus
        self.makes_moves = makes_moves
        """Whether this process makes computer moves (or only leaves them to others)."""

    def watched(self, here: int) -> bool:
        # The job's watch time knows whether anyone watches, in any process.
        return True

    def job(self, now: int, *, watched: bool, pause: float = 0.0) -> Job:
        """The job for the computer move a game waits for, held by this process if it
        makes computer moves (``watched``: the game has only computer seats, which move
        while someone watches)."""
        mine = self.makes_moves
        return Job(
            ready_ms=now + int(pause * 1000),
            holder=self.bus.origin if mine else None,
            lease_ms=now + LEASE_MS if mine else 0,
            watched_ms=now + LEASE_MS if watched else None,
        )

    async def take(self, game_id: str, version: int, *, watched: bool) -> bool:
        """Whether this process makes the computer move a game waits for at ``version``:
        only if it takes the game's job (offered now, if the change left none)."""
        now = clocks.now_ms()
        origin = self.bus.origin
        mine = self.makes_moves
        queue = self.queue
        if mine and await self.database.run(queue.claim, game_id, version, origin, now, LEASE_MS):
            return True
        job = self.job(now, watched=watched)
        offered = await self.database.run(queue.offer, game_id, version, job)
        if not mine:
            self.bus.wake()  # the job is up (offered now, or left by the change): take it
        return bool(offered) and mine

    async def release(self, game_id: str) -> None:
        """Give back a job this process took but will not do (the game moved on)."""
        await self.database.run(self.queue.release, game_id, self.bus.origin)

    async def renew(self, held: list[str], watched: list[str], now: int) -> None:
        """Renew the leases of the jobs this process works on, and mark the computer-only
        games watched here as watched."""
        if held or watched:
            await self.database.run(self.queue.renew, self.bus.origin, held, watched, now, LEASE_MS)

    async def claim(self, now: int, limit: int) -> list[tuple[str, int]]:
        """Take up to ``limit`` jobs that are due and nobody holds: each game and the
        version its move is for."""
        claimed: list[tuple[str, int]] = await self.database.run(
            self.queue.claim_due, self.bus.origin, now, LEASE_MS, limit
        )
        return claimed
