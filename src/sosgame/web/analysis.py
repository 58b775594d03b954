"""Game analysis for the browser (``GET /api/games/{id}/analysis``).

Each analysis is :func:`sosgame.ai.analysis.analyze` (exact where the solver finishes, the
strongest search elsewhere) in a worker process of its own, so a long one never holds up the
server's event loop or its other games. At most ``max_running`` run at once (the others wait,
shown as queued), at most one per game, and finished ones are kept, most recent first, for
the next visitor. Progress comes back from the worker after every move.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Final

from sosgame.position import Position, build_game

__all__ = ["Analyses", "analysis_json", "seconds_per_position"]

MAX_RUNNING: Final = 1
"""Analyses running at once across the server: each takes a whole core."""
CACHE_SIZE: Final = 64
"""Finished analyses kept in memory (a game's analysis is a few kilobytes)."""
BUDGET_SECONDS: Final = 60.0
"""Search time to spread over a game's estimated positions, so that a 26x26 game ends too."""
_MOST_SECONDS: Final = 0.5
_LEAST_SECONDS: Final = 0.02


def seconds_per_position(moves: int, budget: float = BUDGET_SECONDS) -> float:
    """The search time per estimated position for a game of ``moves`` moves."""
    return max(_LEAST_SECONDS, min(_MOST_SECONDS, budget / max(1, 2 * moves)))


def analysis_json(position: Position, seconds: float) -> dict[str, Any]:
    """Analyse the game at ``position``: every move's report and each seat's summary, as JSON
    (``cost`` and the values are ``null`` where nothing is known)."""
    return _analyse(position, seconds, None)


def _analyse(position: Position, seconds: float, pipe: Connection | None) -> dict[str, Any]:
    from sosgame.ai.analysis import BLUNDER, MISTAKE, analyze, summarize

    game = build_game(position)

    def progress(done: int, total: int) -> None:
        if pipe is not None:
            pipe.send(("progress", done, total))

    reports = analyze(game, seconds=seconds, progress=progress)
    return {
        "mode": game.mode,
        "thresholds": {"mistake": MISTAKE[game.mode], "blunder": BLUNDER[game.mode]},
        "moves": [
            {
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
            for report in reports
        ],
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


def _work(position: Position, seconds: float, pipe: Connection, parent: int) -> None:
    """The worker process: analyse, telling the parent the progress, then the result."""
    from sosgame.web.workers import watch_parent

    watch_parent(parent)
    try:
        result = _analyse(position, seconds, pipe)
    except BrokenPipeError:  # the server stopped listening: nothing to report to
        return
    except Exception as error:
        pipe.send(("failed", f"{type(error).__name__}: {error}"))
        return
    pipe.send(("done", result))


@dataclass
class _Job:
    ply: int
    total: int
    done: int = 0
    status: str = "queued"
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Analyses:
    """The analyses of a server's games: started on request, bounded, cached."""

    def __init__(
        self,
        *,
        max_running: int = MAX_RUNNING,
        cache_size: int = CACHE_SIZE,
        budget: float = BUDGET_SECONDS,
    ) -> None:
        self._slots = asyncio.Semaphore(max_running)
        self._cache: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._cache_size = cache_size
        self._budget = budget
        self._jobs: dict[str, _Job] = {}
        self._failed: dict[tuple[str, int], str] = {}

    def request(self, game_id: str, position: Position) -> dict[str, Any]:
        """The analysis of the game as it stands, if done; else its progress, starting it if
        no analysis of this game is under way (one per game at a time)."""
        ply = len(position.actions)
        key = (game_id, ply)
        if key in self._cache:
            self._cache.move_to_end(key)
            return {"status": "done", "game": game_id, "ply": ply, **self._cache[key]}
        job = self._jobs.get(game_id)
        if job is None:
            if key in self._failed:
                # Reported once; the next request tries again.
                return {"status": "failed", "game": game_id, "ply": ply,
                        "error": self._failed.pop(key)}  # fmt: skip
            total = sum(not action.startswith("resign") for action in position.actions)
            job = self._jobs[game_id] = _Job(ply, total)
            job.task = asyncio.get_running_loop().create_task(self._run(game_id, position, job))
        return {
            "status": job.status,
            "game": game_id,
            "ply": job.ply,
            "done": job.done,
            "total": job.total,
        }

    async def _run(self, game_id: str, position: Position, job: _Job) -> None:
        try:
            async with self._slots:
                job.status = "running"
                result = await self._in_worker(position, job)
            self._cache[(game_id, job.ply)] = result
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        except (OSError, EOFError, RuntimeError) as error:
            if len(self._failed) >= self._cache_size:
                self._failed.clear()
            self._failed[(game_id, job.ply)] = str(error) or type(error).__name__
        finally:
            del self._jobs[game_id]

    async def _in_worker(self, position: Position, job: _Job) -> dict[str, Any]:
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe(duplex=False)
        seconds = seconds_per_position(job.total, self._budget)
        process = context.Process(
            target=_work,
            args=(position, seconds, theirs, os.getpid()),
            name="sos-analysis",
            daemon=True,
        )
        process.start()
        theirs.close()
        try:
            while True:
                # A blocking read in a thread: the event loop goes on serving games.
                message = await asyncio.to_thread(mine.recv)
                if message[0] == "progress":
                    job.done, job.total = message[1], message[2]
                elif message[0] == "done":
                    result: dict[str, Any] = message[1]
                    return result
                else:
                    raise RuntimeError(str(message[1]))
        finally:
            if process.is_alive():
                process.terminate()  # ends the worker's side of the pipe, and any read of it
            await asyncio.to_thread(process.join, 5)
            mine.close()

    async def close(self) -> None:
        """Stop every analysis under way."""
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
