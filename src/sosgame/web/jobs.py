"""The shared computer moves: who makes a game's next computer move when several server
processes serve it.

Each move a computer seat owes is a job in the store's queue (:mod:`sosgame.web.store`): the
process that left it holds it under a lease while it thinks, renews the lease every sweep,
and any process that makes computer moves takes over a job whose lease ran out.
"""

from __future__ import annotations

from typing import Final

from sosgame.web import clock as clocks
from sosgame.web.bus import Bus
from sosgame.web.rows import Job
from sosgame.web.store import Store
from sosgame.web.writer import Database

__all__ = ["LEASE_MS", "SharedJobs"]

LEASE_MS: Final = 5000
"""How long a process holds a computer move before others may take it, unless it renews
the lease (it does so every sweep, about once a second, while it thinks)."""


class SharedJobs:
    """This process's side of the store's queue of computer moves."""

    def __init__(self, store: Store, database: Database, bus: Bus, *, makes_moves: bool) -> None:
        self.store = store
        self.database = database
        self.bus = bus
        self.makes_moves = makes_moves
        """Whether this process makes computer moves (or only leaves them to others)."""

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
        store = self.store
        if mine and await self.database.run(
            store.claim_job, game_id, version, origin, now, LEASE_MS
        ):
            return True
        job = self.job(now, watched=watched)
        offered = await self.database.run(store.offer_job, game_id, version, job)
        if not mine:
            self.bus.wake()  # the job is up (offered now, or left by the change): take it
        return bool(offered) and mine

    async def release(self, game_id: str) -> None:
        """Give back a job this process took but will not do (the game moved on)."""
        await self.database.run(self.store.release_job, game_id, self.bus.origin)

    async def renew(self, held: list[str], watched: list[str], now: int) -> None:
        """Renew the leases of the jobs this process works on, and mark the computer-only
        games watched here as watched."""
        if held or watched:
            await self.database.run(
                self.store.renew_jobs, self.bus.origin, held, watched, now, LEASE_MS
            )

    async def claim(self, now: int, limit: int) -> list[tuple[str, int]]:
        """Take up to ``limit`` jobs that are due and nobody holds: each game and the
        version its move is for."""
        claimed: list[tuple[str, int]] = await self.database.run(
            self.store.claim_due, self.bus.origin, now, LEASE_MS, limit
        )
        return claimed
