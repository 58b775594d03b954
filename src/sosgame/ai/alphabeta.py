"""Iterative-deepening alpha-beta for two players, on the search core (:mod:`sosgame.search`).

Each iteration searches one quiet move deeper than the last. The compiled search pauses every
few thousand nodes so the driver can look at the clock and the node count; an iteration that
runs out of budget is dropped and the previous one's move stands, so a budget is always kept.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import cache
from typing import Final

from sosgame.ai.state import State
from sosgame.game import MODES
from sosgame.geometry import Geometry
from sosgame.kernel import JIT, compiling, tables, to_array
from sosgame.kernel import warm_up as kernel_warm_up
from sosgame.notation import EMPTY, S
from sosgame.search.keys import Keys, hashed_keys
from sosgame.search.leaves import INFINITY
from sosgame.search.negamax import (
    BEST,
    DONE,
    FULL_WIDTH,
    LIMIT,
    NODES,
    PARITY,
    SIMPLE,
    UNIT,
    VALUE_OUT,
    WIN,
    BoardArrays,
    TableArrays,
    Work,
    begin,
    new_work,
    search_heuristic,
)
from sosgame.search.table import TranspositionTable

__all__ = ["FULL_WIDTH_CELLS", "Result", "Searcher", "warm_up"]

FULL_WIDTH_CELLS: Final = 10
"""With this many empty cells or fewer the search tries every move, not only the sensible ones."""
PARITY_WEIGHT: Final = 1
"""The evaluation's safe-cell parity term, in quarter points."""
_TABLE_MB: Final = 24 if JIT else 2
"""The table's size: about a million entries when compiled."""
_SLICE: Final = 2048 if JIT else 256
"""Nodes searched between looks at the clock."""
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


class Searcher:
    """The search state one player keeps between moves: tables sized for one board.

    The transposition table survives from move to move of a game (its keys are whole boards),
    and is rebuilt when the board size or mode changes.
    """

    def __init__(self) -> None:
        self._shape: tuple[int, int, bool] | None = None
        # Made, and its memory mapped, now: the first move's search would pay for that.
        self._table = TranspositionTable(_TABLE_MB, typecode="i").prefault()
        self._work: Work | None = None

    def _prepare(self, shape: Geometry, simple: bool) -> tuple[TranspositionTable, Work]:
        wanted = (shape.rows, shape.cols, simple)
        if self._work is None or self._shape != wanted:
            if self._shape is not None:  # another board: forget the old one's positions
                self._table.clear()
                self._table.prefault()
            self._shape = wanted
            self._work = new_work(shape.size, shape.size)
        return self._table, self._work

    @staticmethod
    def _iterate(
        arrays: BoardArrays,
        keying: Keys,
        tt: TableArrays,
        work: Work,
        depth: int,
        empty: int,
        budget: tuple[int, int | None, float | None],
    ) -> int | None:
        """One iteration in slices of nodes, checking the clock; ``None`` if it ran out."""
        spent, nodes, deadline = budget
        registers = work[5]
        begin(work, -INFINITY, INFINITY, depth, empty)
        while True:
            step = _SLICE
            if nodes is not None:
                step = min(step, nodes - spent - registers[NODES])
                if step <= 0:
                    return None
            registers[LIMIT] = registers[NODES] + step
            if search_heuristic(arrays, keying, tt, work) == DONE:
                return int(registers[VALUE_OUT])
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
        table, work = self._prepare(shape, state.simple)
        board = to_array([_LETTER_CODE[letter] for letter in state.cells])
        keying = hashed_keys(board)
        order = list(range(shape.size))
        rng.shuffle(order)
        registers = work[5]
        registers[SIMPLE] = int(state.simple)
        registers[FULL_WIDTH] = FULL_WIDTH_CELLS
        registers[PARITY] = PARITY_WEIGHT
        arrays = (board, tables(shape.rows, shape.cols).table, to_array(order))
        tt = (table.keys, table.data)
        deadline = None if seconds is None else start + seconds
        spent = 0
        last_time = 0.0
        result: Result | None = None
        maximum = depth_limit if depth_limit is not None else state.empty
        for depth in range(1, maximum + 1):
            began = time.perf_counter()
            if result is not None and deadline is not None and began + 2 * last_time > deadline:
                break  # the next iteration would almost surely not finish
            value = self._iterate(
                arrays, keying, tt, work, depth, state.empty, (spent, nodes, deadline)
            )
            spent += int(registers[NODES])
            if value is None:
                break
            last_time = time.perf_counter() - began
            code = int(registers[BEST])
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
    with compiling("search"):
        kernel_warm_up()
        if not JIT:
            return
        from sosgame.game import Game

        for mode in MODES:
            game = Game(3, 3, mode=mode)
            Searcher().search(State(game), random.Random(0), seconds=None, nodes=50)
