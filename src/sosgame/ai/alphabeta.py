"""Iterative-deepening alpha-beta for two players, on the compiled core in :mod:`.core`.

Each iteration searches one quiet move deeper than the last. The compiled search pauses every
few thousand nodes so the driver can look at the clock and the node count; an iteration that
runs out of budget is dropped and the previous one's move stands, so a budget is always kept.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from sosgame.ai.core import (
    BEST,
    COUNTERS,
    FIELDS,
    FULL_WIDTH,
    LIMIT,
    NODES,
    PARITY,
    PAUSED,
    SIMPLE,
    UNIT,
    WIN,
    Packed,
    negamax,
)
from sosgame.ai.state import State
from sosgame.game import MODES
from sosgame.geometry import Geometry
from sosgame.kernel import JIT, IntArray, new_array, tables, to_array
from sosgame.kernel import warm_up as kernel_warm_up
from sosgame.notation import EMPTY, S

__all__ = ["FULL_WIDTH_CELLS", "Result", "Searcher", "warm_up"]

FULL_WIDTH_CELLS: Final = 10
"""With this many empty cells or fewer the search tries every move, not only the sensible ones."""
PARITY_WEIGHT: Final = 1
"""The evaluation's safe-cell parity term, in quarter points."""
_INFINITY: Final = 1 << 30
_SLICE: Final = 2048 if JIT else 256
"""Nodes searched between looks at the clock."""
_KEY_SEED: Final = 20_240_601
_LETTER_CODE: Final = {EMPTY: 0, "S": 1, "O": 2}


@dataclass(frozen=True)
class Result:
    """What a search found: the move ``(index, letter)``, its value, and the effort spent.

    ``value`` is the mover's future points minus the opponent's (in simple mode +1 for a
    win, -1 for a loss, fractions for the evaluation's guess); ``depth`` is the number of quiet
    moves of the last completed iteration; ``exact`` says the value is the game-theoretic one
    (the search reached the end of the game without pruning anything that mattered).
    """

    index: int
    letter: str
    value: float
    depth: int
    nodes: int
    exact: bool


@cache
def _keys(size: int) -> IntArray:
    return to_array(random.Random(_KEY_SEED).choices(range(1, 1 << 62), k=3 * size))


class Searcher:
    """The search state one player keeps between moves: tables sized for one board.

    The transposition table survives from move to move of a game (its keys are whole boards),
    and is rebuilt when the board size or mode changes.
    """

    def __init__(self) -> None:
        self._shape: tuple[int, int, bool] | None = None
        self._tables: tuple[Any, ...] = ()
        self._buffers: tuple[Any, Any, Any] = ((), (), ())

    def _prepare(self, shape: Geometry, simple: bool) -> None:
        if self._shape == (shape.rows, shape.cols, simple):
            return
        self._shape = (shape.rows, shape.cols, simple)
        entries = 1 << (20 if JIT else 16)
        self._tables = tuple(new_array(entries) for _ in range(5))
        buffer = (shape.size + 1) * 6 * shape.size
        self._buffers = (
            new_array(buffer),
            new_array(buffer),
            new_array((shape.size + 2) * FIELDS),
        )

    @staticmethod
    def _iterate(
        board: IntArray,
        empty: int,
        key: int,
        depth: int,
        packed: Packed,
        spent: int,
        nodes: int | None,
        deadline: float | None,
    ) -> int | None:
        """One iteration in slices of nodes, checking the clock; ``None`` if it ran out."""
        counters = packed[2][3]
        counters[NODES] = 0
        counters[PAUSED] = 0
        while True:
            step = _SLICE
            if nodes is not None:
                step = min(step, nodes - spent - counters[NODES])
                if step <= 0:
                    return None
            counters[LIMIT] = counters[NODES] + step
            value = negamax(board, empty, key, depth, -_INFINITY, _INFINITY, packed)
            if not counters[PAUSED]:
                return int(value)
            if deadline is not None and time.perf_counter() >= deadline:
                return None

    def search(
        self,
        state: State,
        rng: random.Random,
        *,
        seconds: float | None,
        nodes: int | None,
        depth_limit: int | None = None,
    ) -> Result | None:
        """Search the position for the seat to move; ``None`` if not even depth 1 finished."""
        start = time.perf_counter()
        shape = state.shape
        self._prepare(shape, state.simple)
        board = to_array([_LETTER_CODE[letter] for letter in state.cells])
        key = 0
        keys = _keys(shape.size)
        for index, letter in enumerate(state.cells):
            if letter != EMPTY:
                key ^= int(keys[index * 3 + _LETTER_CODE[letter]])
        order = list(range(shape.size))
        rng.shuffle(order)
        counters = new_array(COUNTERS)
        counters[SIMPLE] = int(state.simple)
        counters[FULL_WIDTH] = FULL_WIDTH_CELLS
        counters[PARITY] = PARITY_WEIGHT
        packed = (
            (tables(shape.rows, shape.cols).table, keys, to_array(order)),
            self._tables,
            (*self._buffers, counters),
        )
        deadline = None if seconds is None else start + seconds
        spent = 0
        last_time = 0.0
        result: Result | None = None
        maximum = depth_limit if depth_limit is not None else state.empty
        for depth in range(1, maximum + 1):
            began = time.perf_counter()
            if result is not None and deadline is not None and began + 2 * last_time > deadline:
                break  # the next iteration would almost surely not finish
            value = self._iterate(board, state.empty, key, depth, packed, spent, nodes, deadline)
            spent += int(counters[NODES])
            if value is None:
                break
            last_time = time.perf_counter() - began
            code = int(counters[BEST])
            won = state.simple and abs(value) == WIN
            solved = depth >= state.empty or won
            result = Result(
                code >> 1,
                S if code & 1 == 0 else "O",
                (value // WIN) if state.simple and abs(value) == WIN else value / UNIT,
                depth,
                spent,
                won or (solved and (state.simple or state.empty <= FULL_WIDTH_CELLS)),
            )
            if solved:
                break
        return result


@cache
def warm_up() -> None:
    """Compile (or load from the disk cache) the kernels the search uses, once per process."""
    kernel_warm_up()
    if not JIT:
        return
    from sosgame.game import Game

    for mode in MODES:
        Searcher().search(State(Game(3, 3, mode=mode)), random.Random(0), seconds=None, nodes=50)
