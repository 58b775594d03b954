"""Game analysis for the browser (``GET /api/games/{id}/analysis``).

Each analysis is :func:`sosgame.ai.analysis.analyze` (exact where the solver finishes, the
strongest search elsewhere) in a worker process of its own, so a long one never holds up the
server's event loop or its other games. At most ``max_running`` run at once (the others wait,
shown as queued, at most ``queue`` of them), one per game version, shared by everyone who
asks for it, and finished ones are kept, most recent first, for the next visitor. The worker
goes over the moves from the last (the late positions are solved at once and help the
earlier ones) within a few seconds' budget, and sends each move's report as soon as it is
known: until the whole is done, an answer carries the reports so far and the moves pending.

Clients poll for their analysis (the browser about every 0.7 s). Each client (address) waits
for one analysis at a time: asking for another while its first runs is refused
(``analysis_busy``), while it still waits replaces it. The queue takes turns by address, so
that a few addresses asking again and again never keep the others out: the next to run is
the one whose client was served least recently (never, first), and a client who finds the
queue full takes the place of one whose clients were all served more recently than it. An
analysis nobody has asked about for ``abandon_seconds`` is cancelled, its worker stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Final

from sosgame import kernel_cache
from sosgame.snapshot import Snapshot, build_game
from sosgame.web.live.protocol import ProtocolError

__all__ = ["Analyses", "analysis_budget", "analysis_json", "seconds_per_position"]

MAX_RUNNING: Final = 1
"""Analyses running at once across the server: each takes a whole core."""
CACHE_SIZE: Final = 64
"""Finished analyses kept in memory (a game's analysis is a few kilobytes)."""
BUDGET_SECONDS: Final = 60.0
"""Search time to spread over a game's estimated positions, so that a 26x26 game ends too."""
QUICK_SECONDS: Final = 2.0
"""The whole analysis's time for a game of up to 50 moves (a longer one gets 0.04 s a move),
past the worker's start: the solver's and the searches' to share."""
QUEUE: Final = 8
"""Analyses waiting for their turn; past it a new one is refused (``analysis_queue_full``)
unless it may take the place of one (see the module's text)."""
ABANDON_SECONDS: Final = 8.0
"""An analysis nobody has asked about for this long is cancelled (clients poll far more
often while they wait)."""
SERVED_CLIENTS: Final = 10_000
"""Clients whose last served analysis is remembered (the least recently served forgotten
first: they count as never served, as is their due by then anyway)."""
_MOST_SECONDS: Final = 0.5
_LEAST_SECONDS: Final = 0.02
_SECONDS_A_MOVE: Final = 0.04


def seconds_per_position(moves: int, budget: float = BUDGET_SECONDS) -> float:
    """The search time per estimated position for a game of ``moves`` moves."""
    return max(_LEAST_SECONDS, min(_MOST_SECONDS, budget / max(1, 2 * moves)))


def analysis_budget(moves: int) -> float:
    """The whole analysis's time for a game of ``moves`` moves (see :data:`QUICK_SECONDS`)."""
    return min(BUDGET_SECONDS, max(QUICK_SECONDS, _SECONDS_A_MOVE * moves))


def analysis_json(
    snapshot: Snapshot, seconds: float, *, budget: float | None = None
) -> dict[str, Any]:
    """Analyse the game of ``snapshot``: every move's report and each seat's summary, as JSON
    (``cost`` and the values are ``null`` where nothing is known)."""
    return _analyse(snapshot, seconds, budget, None)


def _analyse(
    snapshot: Snapshot, seconds: float, budget: float | None, pipe: Connection | None
) -> dict[str, Any]:
    from sosgame.ai.analysis import BLUNDER, MISTAKE, MoveReport, analyze, summarize

    game = build_game(snapshot)
    head = {
        "mode": game.mode,
        "thresholds": {"mistake": MISTAKE[game.mode], "blunder": BLUNDER[game.mode]},
    }
    if pipe is not None:
        pipe.send(("head", head))

    def report(made: MoveReport) -> None:
        if pipe is not None:
            pipe.send(("report", _report_json(made)))

    reports = analyze(game, seconds=seconds, budget=budget, report=report)
    return {
        **head,
        "moves": [_report_json(made) for made in reports],
        "players": [
            {
                "seat": summary.seat,
                "moves": summary.moves,
                "total_cost": summary.total_cost,
                "average_cost": summary.average_cost,
                "mistakes": summary.mistakes,
                "blunders": summary.blunders,
            }
            for summary in summarize(reports, game.players)
        ],
    }


def _report_json(report: Any) -> dict[str, Any]:
    """A :class:`~sosgame.ai.analysis.MoveReport` as the protocol's entry of ``moves``."""
    return {
        "ply": report.ply,
        "seat": report.seat,
        "played": str(report.played),
        "best": str(report.best),
        "best_value": report.best_value,
        "played_value": report.played_value,
        "cost": report.cost,
        "exact": report.exact,
        "flag": report.flag,
    }


def _serve(pipe: Connection, parent: int) -> None:
    """A worker process: its kernels loaded at once, then one analysis after another, each
    sending every move's report and then the result."""
    from sosgame.ai.alphabeta import warm_up
    from sosgame.processes import watch_parent
    from sosgame.solver import warm_up as warm_up_solver

    watch_parent(parent)
    warm_up()
    warm_up_solver()
    while True:
        try:
            snapshot, seconds, budget = pipe.recv()
            result = _analyse(snapshot, seconds, budget, pipe)
        except (EOFError, BrokenPipeError):  # the server stopped listening: nothing to do
            return
        except Exception as error:
            pipe.send(("failed", f"{type(error).__name__}: {error}"))
            continue
        pipe.send(("done", result))


class _Worker:
    """The server's handle on a worker process, which stays to take the next analysis."""

    def __init__(self) -> None:
        self.plain = not kernel_cache.ready()
        """Whether it began before the compiled kernels were built (it searches as plain
        Python, and gives way to a new worker once they are)."""
        context = multiprocessing.get_context("spawn")
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(theirs, os.getpid()), name="sos-analysis", daemon=True
        )
        self.process.start()
        theirs.close()

    async def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()  # ends the worker's side of the pipe, and any read of it
        await asyncio.to_thread(self.process.join, 5)
        self.pipe.close()


_Key = tuple[str, int]
"""A game's id and version (or, if no version is given, its number of actions)."""


@dataclass
class _Job:
    ply: int
    total: int
    order: int
    """Its place in the order of arrival (among clients served alike, the first goes first)."""
    done: int = 0
    head: dict[str, Any] = field(default_factory=dict)
    """The keys of the finished analysis known from its start: ``mode`` and ``thresholds``."""
    reports: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The moves' reports known so far, by ply."""
    status: str = "queued"
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    asked: dict[str, float] = field(default_factory=dict)
    """Each client waiting for it, and when it last asked."""
    go: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    """Set when its turn has come (its status is then ``running``)."""

    def awaited(self, now: float, abandon: float, *, besides: str | None = None) -> bool:
        """Whether anyone (but ``besides``) has asked about it within the last ``abandon``
        seconds."""
        return any(now - when < abandon for client, when in self.asked.items() if client != besides)


class Analyses:
    """The analyses of a server's games: started on request, bounded, shared, cached."""

    def __init__(
        self,
        *,
        max_running: int = MAX_RUNNING,
        cache_size: int = CACHE_SIZE,
        budget: float = BUDGET_SECONDS,
        queue: int = QUEUE,
        abandon_seconds: float = ABANDON_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._max_running = max_running
        self._running = 0
        self._arrivals = itertools.count()
        self._served: OrderedDict[str, float] = OrderedDict()
        """When each client's last analysis began to run, least recent first."""
        self._cache: OrderedDict[_Key, dict[str, Any]] = OrderedDict()
        self._cache_size = cache_size
        self._budget = budget
        self._queue = queue
        self._abandon = abandon_seconds
        self._clock = clock
        self._jobs: dict[_Key, _Job] = {}
        self._failed: dict[_Key, str] = {}
        self._waiting: dict[str, _Key] = {}
        """The analysis each client last asked for."""
        self._idle: list[_Worker] = []
        """Worker processes ready for an analysis (at most ``max_running``)."""
        self.cancelled = 0
        """How many analyses were cancelled because nobody waited for them any more."""

    def request(
        self, game_id: str, snapshot: Snapshot, *, version: int | None = None, client: str = ""
    ) -> dict[str, Any]:
        """The analysis of the game as it stands (at ``version``), if done; else its progress,
        starting it if nobody has yet. ``client`` (an address) then waits for it.

        :raises ProtocolError: ``analysis_busy`` if ``client`` still waits for another
            analysis, ``analysis_queue_full`` if too many wait for their turn.
        """
        ply = len(snapshot.actions)
        key = (game_id, ply if version is None else version)
        if key in self._cache:
            self._cache.move_to_end(key)
            if self._waiting.get(client) == key:
                del self._waiting[client]  # served: free to ask for another at once
            return {"status": "done", "game": game_id, "ply": ply, "pending": [],
                    **self._cache[key]}  # fmt: skip
        now = self._clock()
        job = self._jobs.get(key)
        if job is None:
            if key in self._failed:
                # Reported once; the next request tries again.
                return {"status": "failed", "game": game_id, "ply": ply,
                        "error": self._failed.pop(key)}  # fmt: skip
            self._check_room(client, key, now)
            total = sum(not action.startswith("resign") for action in snapshot.actions)
            job = self._jobs[key] = _Job(ply, total, next(self._arrivals))
            job.task = asyncio.get_running_loop().create_task(self._run(key, snapshot, job))
        else:
            self._check_room(client, key, now, queued=False)
        job.asked[client] = now
        self._waiting[client] = key
        self._start_next()
        return {
            "status": job.status,
            "game": game_id,
            "ply": job.ply,
            "done": job.done,
            "total": job.total,
            **job.head,
            "moves": [job.reports[ply] for ply in sorted(job.reports)],
            "pending": [ply for ply in range(1, job.total + 1) if ply not in job.reports],
        }

    def _check_room(self, client: str, key: _Key, now: float, *, queued: bool = True) -> None:
        """Refuse a client a second analysis while its first runs, or a new one past the
        queue unless it may take the place of one whose clients were served after it."""
        other = self._waiting.get(client)
        # A job whose result is kept already is over, though its task may not have seen so
        # yet: it holds nobody up.
        over = other is None or other == key or other in self._cache
        job = None if over or other is None else self._jobs.get(other)
        if job is not None and now - job.asked.get(client, -self._abandon) < self._abandon:
            if job.status != "queued" or job.awaited(now, self._abandon, besides=client):
                raise ProtocolError(
                    "analysis_busy",
                    "this address already waits for another analysis: one at a time, so ask"
                    " again once it is done or a few seconds after leaving it",
                )
            assert other is not None
            self._forget(other, job).cancel()  # its own, which nobody else waits for: replaced
        if not queued:
            return
        waiting = [item for item in self._jobs.items() if item[1].status == "queued"]
        if len(waiting) < self._queue:
            return
        last, latest = max(waiting, key=lambda item: self._turn(item[1]))
        if self._turn(latest)[0] > self._served.get(client, -math.inf):
            self._forget(last, latest).cancel()  # its clients were served after this one
            return
        raise ProtocolError(
            "analysis_queue_full",
            f"{self._queue} analyses already wait for their turn, the most the server"
            " takes; try again later",
        )

    def _turn(self, job: _Job) -> tuple[float, int]:
        """When the least recently served of the job's clients was served (``-inf``:
        never), then its arrival: the least goes first."""
        served = min(
            (self._served.get(client, -math.inf) for client in job.asked), default=math.inf
        )
        return served, job.order

    def _forget(self, key: _Key, job: _Job) -> asyncio.Task[None]:
        """Forget a job (a new one of the same key may follow at once); its task."""
        if self._jobs.get(key) is job:
            del self._jobs[key]
            for client in job.asked:
                if self._waiting.get(client) == key:
                    del self._waiting[client]
        assert job.task is not None
        return job.task

    def _start_next(self) -> None:
        """Start the queued analyses whose turn it is, while a slot is free."""
        while self._running < self._max_running:
            waiting = [job for job in self._jobs.values() if job.status == "queued"]
            if not waiting:
                return
            job = min(waiting, key=self._turn)
            job.status = "running"
            self._running += 1
            now = self._clock()
            for client in job.asked:
                self._served[client] = now
                self._served.move_to_end(client)
            while len(self._served) > SERVED_CLIENTS:
                self._served.popitem(last=False)
            job.go.set()

    async def _run(self, key: _Key, snapshot: Snapshot, job: _Job) -> None:
        """Run the analysis, and cancel it once nobody has asked about it for a while."""
        work = asyncio.ensure_future(self._work(key, snapshot, job))
        try:
            while not work.done():
                await asyncio.wait({work}, timeout=self._abandon / 4)
                if not work.done() and not job.awaited(self._clock(), self._abandon):
                    self.cancelled += 1
                    break
        finally:
            if not work.done():
                work.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await work
            self._forget(key, job)
            if job.status == "running":
                job.status = "ended"
                self._running -= 1
                self._start_next()

    async def _work(self, key: _Key, snapshot: Snapshot, job: _Job) -> None:
        try:
            await job.go.wait()
            result = await self._in_worker(snapshot, job)
            self._cache[key] = result
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        except (OSError, EOFError, RuntimeError) as error:
            if len(self._failed) >= self._cache_size:
                self._failed.clear()
            self._failed[key] = str(error) or type(error).__name__

    def prepare(self) -> None:
        """Start a worker process now, so that the first analysis finds its kernels loaded."""
        if not self._idle:
            self._idle.append(_Worker())

    async def _in_worker(self, snapshot: Snapshot, job: _Job) -> dict[str, Any]:
        worker = None
        while self._idle and worker is None:
            worker = self._idle.pop()
            if not worker.process.is_alive() or (worker.plain and kernel_cache.ready()):
                await worker.stop()
                worker = None
        if worker is None:
            worker = _Worker()
        seconds = seconds_per_position(job.total, self._budget)
        kept = False
        try:
            worker.pipe.send((snapshot, seconds, analysis_budget(job.total)))
            while True:
                # A blocking read in a thread: the event loop goes on serving games.
                message = await asyncio.to_thread(worker.pipe.recv)
                if message[0] == "head":
                    job.head = message[1]
                    continue
                if message[0] == "report":
                    job.reports[message[1]["ply"]] = message[1]
                    job.done = len(job.reports)
                    continue
                # Done or failed, the worker is ready for the next analysis.
                if len(self._idle) < self._max_running:
                    self._idle.append(worker)
                    kept = True
                if message[0] == "done":
                    result: dict[str, Any] = message[1]
                    return result
                raise RuntimeError(str(message[1]))
        finally:
            if not kept:
                await worker.stop()

    async def close(self) -> None:
        """Stop every analysis under way."""
        tasks = [job.task for job in self._jobs.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        idle, self._idle = self._idle, []
        for worker in idle:
            await worker.stop()
