"""Who makes a game's next computer move: this hub's side of the store's queue of them.

Every server runs this same code, alone or as one of many processes: each move a computer
seat owes is a job in the database's queue (:mod:`sosgame.web.computer.jobqueue`). The hub whose
change leaves the move holds its job under a lease while it thinks (if it makes computer
moves at all), renews the lease every sweep, and any hub that makes computer moves takes
over a job whose lease ran out (its holder died, or there was none).

A game with only computer seats moves only while someone watches it, wherever: a hub whose
connections watch it marks its job watched (when it asks for the move, and every sweep);
a change made where nobody watches leaves its job to whoever does (no holder, and the
hubs are woken to look), and nobody takes a job that nobody watches.
"""

from __future__ import annotations

from typing import Final

from sosgame.web.computer.jobqueue import JobQueue
from sosgame.web.live import clock as clocks
from sosgame.web.network.bus import Bus
from sosgame.web.storage.rows import Job
from sosgame.web.storage.writer import Database

__all__ = ["LEASE_MS", "ComputerJobs"]

LEASE_MS: Final = 5000
"""How long a hub holds a computer move before others may take it, unless it renews the
lease (it does so every sweep, about once a second, while it thinks); also how long a game
with only computer seats counts as watched after a hub last said it was."""


class ComputerJobs:
    """This hub's side of the store's queue of computer moves."""

    def __init__(self, queue: JobQueue, database: Database, bus: Bus, *, makes_moves: bool) -> None:
        self.queue = queue
        self.database = database
        self.bus = bus
        self.makes_moves = makes_moves
        """Whether this hub makes computer moves (or only leaves them to others)."""

    def job(self, now: int, *, computers_only: bool, watched_here: bool, pause: float = 0.0) -> Job:
        """The job for the computer move a game waits for, due after ``pause`` seconds:
        held by this hub if it makes computer moves and, in a game with only computer
        seats (which moves only while watched), if ``watched_here`` (connections of this
        hub watch it); otherwise left to whoever takes it."""
        mine = self.makes_moves and (watched_here or not computers_only)
        return Job(
            ready_ms=now + int(pause * 1000),
            holder=self.bus.origin if mine else None,
            lease_ms=now + LEASE_MS if mine else 0,
            watched_ms=None if not computers_only else now + LEASE_MS if watched_here else 0,
        )

    async def take(
        self, game_id: str, version: int, *, computers_only: bool, watched_here: bool
    ) -> bool:
        """Whether this hub makes the computer move a game waits for at ``version``: only
        if it takes the game's job (offered now, if the change left none). A hub whose
        connections watch a game of computers only marks its job watched either way."""
        now = clocks.now_ms()
        origin = self.bus.origin
        mine = self.makes_moves
        queue = self.queue
        watching = computers_only and watched_here
        if mine and await self.database.run(
            queue.claim, game_id, version, origin, now, LEASE_MS, watching=watching
        ):
            return True
        job = self.job(now, computers_only=computers_only, watched_here=watched_here)
        offered = await self.database.run(queue.offer, game_id, version, job)
        if not mine:
            self.bus.wake()  # the job is up (offered now, or left by the change): take it
        return bool(offered) and mine

    async def release(self, game_id: str) -> None:
        """Give back a job this hub took but will not do (the game moved on)."""
        await self.database.run(self.queue.release, game_id, self.bus.origin)

    async def renew(self, held: list[str], watched: list[str], now: int) -> None:
        """Renew the leases of the jobs this hub works on, and mark the games with only
        computer seats watched here as watched."""
        if held or watched:
            await self.database.run(self.queue.renew, self.bus.origin, held, watched, now, LEASE_MS)

    async def claim(self, now: int, limit: int) -> list[tuple[str, int]]:
        """Take up to ``limit`` jobs that are due and nobody holds: each game and the
        version its move is for."""
        claimed: list[tuple[str, int]] = await self.database.run(
            self.queue.claim_due, self.bus.origin, now, LEASE_MS, limit
        )
        return claimed
