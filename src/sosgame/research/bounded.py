"""A split solve by null-window tests of its pieces, each with the bound it needs.

Solving every piece exactly costs far more than one alpha-beta search of the root, which
proves most moves good or bad enough with null-window tests and never needs their exact
values. :func:`solve_bounded` runs that search over the moves above the pieces (MTD(f): is the
root worth at least ``t``? then ``t + 1``? ...), with each piece test ("is this piece worth at
least ``t``?", :func:`~sosgame.research.pieces.bound_piece`) sent to an executor and its bound
kept in the store at once. Run again, it reads the bounds back and goes on; as the bounds only
narrow, no test is ever repeated. Up to ``parallel`` tests run at a time: the one the search
needs next, and those it needs if that one does not cut it short (:func:`.goals.needed`).
The best moves are settled the same way: for each first move, is it worth the root's value?
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from sosgame.game import Mode
from sosgame.notation import Move
from sosgame.research.goals import Goal, needed, status
from sosgame.research.pieces import PieceStore, bound_piece, interval
from sosgame.research.split import Interval, Plan, root_interval

__all__ = ["BoundedResult", "Progress", "solve_bounded"]

Progress = Callable[[dict[str, Any], int, str], None]
"""Told of every finished test: its result, the tests the search sees ahead, a note."""


class BoundedResult(NamedTuple):
    """The root's value and best moves, and how many tests this run made."""

    value: int
    best_moves: tuple[Move, ...]
    tests: int


def solve_bounded(
    plan: Plan,
    store: PieceStore,
    pool: Executor,
    *,
    memory_mb: int,
    parallel: int,
    progress: Progress,
    guess: int = 0,
) -> BoundedResult:
    """Settle the root of ``plan`` (value, then best moves) with piece tests run on ``pool``.

    ``guess`` is the first value tested (the closer, the fewer tests).
    """
    search = _Driver(plan, store, pool, memory_mb, max(1, parallel), progress)
    value = guess
    while True:
        low, high = root_interval(plan, search.known)
        if low == high:
            break
        # MTD(f): test the guess; the bound a test returns is the next guess.
        target = min(max(value, low + 1), high)
        search.settle([Goal(plan.root, target)], f"value in [{low}, {high}], is it >= {target}?")
        low, high = root_interval(plan, search.known)
        value = low if low >= target else high
    value = low
    reaches = {(step.child, step.lines): Goal((step,), value) for step in plan.root if step.child}
    search.settle(list(reaches.values()), f"value {value}: which first moves reach it?")
    best = [
        step.move
        for step in plan.root
        if status(plan, search.known, Goal((step,), value)) is not False
    ]
    search.finish()
    return BoundedResult(value, tuple(sorted(best, key=Move.sort_key)), search.tests)


@dataclass
class _Driver:
    """The bounds known of the pieces and the tests running, kept in step with the store."""

    plan: Plan
    store: PieceStore
    pool: Executor
    memory_mb: int
    parallel: int
    progress: Progress
    known: dict[str, Interval] = field(default_factory=dict)
    running: dict[Future[dict[str, Any]], str] = field(default_factory=dict)
    tests: int = 0

    def __post_init__(self) -> None:
        self.mode = cast(Mode, self.plan.mode)
        for board in self.plan.pieces:
            result = self.store.load(board)
            if result is not None:
                self._learn(result)

    def _learn(self, result: dict[str, Any]) -> None:
        self.known[result["board"]] = interval(result)

    def settle(self, goals: list[Goal], note: str) -> None:
        """Run piece tests until every goal has its answer."""
        while True:
            open_goals = [goal for goal in goals if status(self.plan, self.known, goal) is None]
            if not open_goals:
                return
            busy = set(self.running.values())
            ahead = 0
            for goal in open_goals:
                for board, target in needed(self.plan, self.known, goal):
                    ahead += 1
                    if board in busy or len(self.running) >= self.parallel:
                        continue
                    future = self.pool.submit(bound_piece, board, self.mode, self.memory_mb, target)
                    self.running[future] = board
                    busy.add(board)
            if not self.running:
                raise RuntimeError(f"no piece test can settle {open_goals[0]}")  # a bug
            self._collect(ahead, note)

    def _collect(self, ahead: int, note: str) -> None:
        done, _ = wait(self.running, return_when=FIRST_COMPLETED)
        for future in done:
            del self.running[future]
            found = future.result()
            self._learn(self.store.add_bound(found))
            self.tests += 1
            # The test's own result: the stored one adds up the piece's earlier tests too.
            self.progress(found, max(ahead - 1, 0), note)

    def finish(self) -> None:
        """Wait for the tests still running (their bounds are kept for later runs)."""
        while self.running:
            self._collect(len(self.running), "finishing the tests under way")
