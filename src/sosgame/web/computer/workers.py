"""Computer players' searches in a bounded pool of worker processes with a fair queue.

Each request waits its turn in a queue per client address, served round robin, so one
client's games cannot push everyone else's back. Games a person is playing in go ahead of
games with only computer seats, and the latter never get every worker: one is kept for
people. The workers check every quarter second that the server that started them is still
alive and quit when it is not, so even ``kill -9`` of the server leaves no orphans.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from sosgame import kernel_cache
from sosgame.processes import watch_parent
from sosgame.snapshot import Snapshot
from sosgame.web.computer.computer import choose_move, prepare, suggest
from sosgame.web.guards.fairqueue import FairQueue
from sosgame.web.live.protocol import ProtocolError

__all__ = ["ComputerPool", "watch_parent"]

TASKS_PER_WORKER: Final = 200
"""Searches a worker process runs before it is replaced (so its memory is given back)."""
READY_POLL_SECONDS: Final = 2.0
"""How often a pool whose workers run plain Python looks for the built kernels."""


@dataclass
class _Job:
    level: str
    snapshot: Snapshot
    done: asyncio.Future[Any]
    interactive: bool
    owner: str = field(default="")
    work: Callable[[str, Snapshot], object] = choose_move


def _settle(job: _Job, outcome: object) -> None:
    if job.done.done():
        return
    if isinstance(outcome, ProtocolError):
        job.done.set_exception(outcome)
    else:
        job.done.set_result(outcome)


class ComputerPool:
    """Works out computer moves on ``workers`` processes (or on ``executor`` if given)."""

    def __init__(self, workers: int = 2, executor: Executor | None = None) -> None:
        self.workers = max(1, workers)
        self._executor = executor
        self._own = executor is None
        # Requests given up while queued are skipped.
        self._queues: dict[bool, FairQueue[_Job]] = {
            lane: FairQueue(lambda job: not job.done.done()) for lane in (True, False)
        }
        self._running = {True: 0, False: 0}
        self._plain = False  # whether the workers began before the compiled kernels were ready

    @property
    def queued(self) -> int:
        """Requests waiting for a worker."""
        return sum(len(lane) for lane in self._queues.values())

    async def keep_ready(self) -> None:
        """Start the workers and load their kernels before anyone asks, so that the first
        game's first move waits for nothing but its search; while they run plain Python
        (the compiled kernels being built), replace them, ready, once the build is done."""
        if not self._own:
            return
        loop = asyncio.get_running_loop()
        while True:
            pool = self._pool()
            await asyncio.gather(
                *(loop.run_in_executor(pool, prepare) for _ in range(self.workers)),
                return_exceptions=True,
            )
            if not self._plain or not kernel_cache.numba_wanted():
                return
            while not kernel_cache.ready():
                await asyncio.sleep(READY_POLL_SECONDS)

    def _pool(self) -> Executor:
        if self._own and self._executor is not None and self._plain and kernel_cache.ready():
            # Workers started before the compiled kernels were built search as plain Python:
            # new ones take over, the old ones finish what they hold and leave.
            self._executor.shutdown(wait=False)
            self._executor = None
        if self._executor is None:
            self._plain = not kernel_cache.ready()
            from concurrent.futures import ProcessPoolExecutor
            from multiprocessing import get_context

            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=get_context("spawn"),
                initializer=watch_parent,
                initargs=(os.getpid(),),
                max_tasks_per_child=TASKS_PER_WORKER,
            )
        return self._executor

    async def think(self, level: str, snapshot: Snapshot, *, owner: str, interactive: bool) -> str:
        """The move of computer ``level`` in ``snapshot``, once a worker is free for it.

        ``owner`` is whose queue the request joins (the client address of the game's
        creator); ``interactive`` requests (a person is waiting) go first.
        """
        text: str = await self._submit(level, snapshot, owner, interactive, choose_move)
        return text

    async def suggest(
        self, level: str, snapshot: Snapshot, *, owner: str, interactive: bool
    ) -> tuple[str, bool]:
        """As :meth:`think`, with whether the move is proven best (:func:`.computer.suggest`)."""
        found: tuple[str, bool] = await self._submit(level, snapshot, owner, interactive, suggest)
        return found

    async def _submit(
        self,
        level: str,
        snapshot: Snapshot,
        owner: str,
        interactive: bool,
        work: Callable[[str, Snapshot], object],
    ) -> Any:
        loop = asyncio.get_running_loop()
        job = _Job(level, snapshot, loop.create_future(), interactive, owner, work)
        self._queues[interactive].push(owner, job)
        self._dispatch()
        try:
            return await job.done
        finally:
            if not job.done.done():
                job.done.cancel()

    def _next(self) -> _Job | None:
        total = self._running[True] + self._running[False]
        if total >= self.workers:
            return None
        lanes = [True]
        if self._running[False] < max(1, self.workers - 1):
            lanes.append(False)
        for lane in lanes:
            job = self._queues[lane].pop()
            if job is not None:
                return job
        return None

    def _dispatch(self) -> None:
        while (job := self._next()) is not None:
            self._running[job.interactive] += 1
            asyncio.get_running_loop().create_task(self._run(job))

    async def _run(self, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        try:
            text = await loop.run_in_executor(
                self._pool(), partial(job.work, job.level, job.snapshot)
            )
        except ImportError:
            _settle(job, ProtocolError("unavailable", "computer players are not installed"))
        except Exception as error:
            _settle(job, ProtocolError("unavailable", f"the computer player failed: {error}"))
        else:
            _settle(job, text)
        finally:
            self._running[job.interactive] -= 1
            self._dispatch()

    def close(self) -> None:
        """Stop the worker processes this pool started."""
        for lane in self._queues.values():
            for job in lane.clear():
                job.done.cancel()
        if self._own and self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
