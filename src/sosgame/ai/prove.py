"""Simple-mode proofs move by move: which root moves win, which lose, within a small budget.

In simple mode a position is worth +1, 0 or -1, and a player needs less than its exact
value: a move proven to win, or, when none does, a move proven not to lose. Each of those
is one null-window test of the position after the move (:meth:`Search.value` with the
window ``(0, 1)``: does the opponent win? then ``(-1, 0)``: does the opponent lose?), and
the tests of different moves cost very different amounts: in drawn positions with 18 to 20
empty cells the drawing move is typically proven in a few tens of thousands of nodes, while
showing that a losing move loses can take a million. So the moves race: every open question
gets a node allowance in turn, the allowance doubles each round, and a question that runs out
is asked again next round (its work stays in the table). A win ends the race at once; once a
move is proven not to lose, only the question "does it win?" is left for the others.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from sosgame.game import Game
from sosgame.kernel import EMPTY, IntArray
from sosgame.solver import NodeLimitError, Search, TimeLimitError, TranspositionTable

__all__ = ["FIRST_ALLOWANCE", "Proofs", "prove_moves"]

FIRST_ALLOWANCE: Final = 2048
"""The nodes each open question gets in the first round (doubled every round)."""
FAVOURED: Final = 5
"""The first moves in the search's order get 2**(FAVOURED - place) times the allowance."""
_UNKNOWN: Final = 2  # an open bound: values lie in -1..1


@dataclass
class Proofs:
    """What the race proved about each root move ``(cell, letter)``, for the side to move.

    ``lower[move]`` and ``upper[move]`` bound the move's value (-1, 0 or 1; ``lower`` is -2
    and ``upper`` 2 while nothing is known). ``nodes`` is the work spent.
    """

    lower: dict[tuple[int, int], int] = field(default_factory=dict)
    upper: dict[tuple[int, int], int] = field(default_factory=dict)
    nodes: int = 0

    def wins(self) -> list[tuple[int, int]]:
        """The moves proven to win."""
        return [move for move, low in self.lower.items() if low >= 1]

    def not_losing(self) -> list[tuple[int, int]]:
        """The moves proven to win or draw."""
        return [move for move, low in self.lower.items() if low >= 0]

    def open_or_better(self) -> list[tuple[int, int]]:
        """The moves not proven to lose."""
        return [move for move, high in self.upper.items() if high >= 0]

    def safest(self) -> int:
        """The best value some move is proven to reach (-2 when none is proven)."""
        return max(self.lower.values(), default=-_UNKNOWN)

    def solved(self) -> bool:
        """Whether the best move is known: no move can beat the best proven one."""
        top = self.safest()
        return top > -_UNKNOWN and all(min(high, 1) <= top for high in self.upper.values())

    def best(self) -> list[tuple[int, int]]:
        """The moves proven to reach :meth:`safest` (the best moves, once :meth:`solved`)."""
        top = self.safest()
        return [move for move, low in self.lower.items() if low == top]


def prove_moves(
    game: Game,
    table: TranspositionTable,
    *,
    deadline: float | None,
    nodes: int | None,
    order: Sequence[tuple[int, int]] = (),
) -> Proofs:
    """Race null-window tests of every move of a simple-mode ``game`` (two seats, not over).

    Stops at a proven win, when every move's value is known, at the ``deadline`` (a
    :func:`time.perf_counter` time) or after ``nodes`` nodes, whichever comes first. Each
    round tests the moves in ``order`` first (the likeliest to be good), then the others.
    Moves leading to symmetric positions are tested once.
    """
    run = Search(game, table, None, deadline)
    proofs = Proofs()
    children: dict[int, list[tuple[int, int]]] = {}  # a child's key: the moves reaching it
    for cell in range(run.size):
        if run.board[cell] != EMPTY:
            continue
        for letter in (1, 2):
            if run.play(cell, letter):
                run.unplay(cell, letter)
                proofs.lower[cell, letter] = proofs.upper[cell, letter] = 1
                return proofs
            children.setdefault(run.key(), []).append((cell, letter))
            run.unplay(cell, letter)
    rank = {move: place for place, move in enumerate(order)}
    groups = sorted(
        children.values(), key=lambda moves: min(rank.get(move, len(rank)) for move in moves)
    )
    for moves in groups:
        moves.sort(key=lambda move: rank.get(move, len(rank)))
        for move in moves:
            proofs.lower[move] = -_UNKNOWN
            proofs.upper[move] = _UNKNOWN
    allowance = FIRST_ALLOWANCE
    failed = 0  # the nodes of tests that ran out (the search counts finished ones only)
    while True:
        for place, moves in enumerate(groups):
            cell, letter = moves[0]
            low, high = proofs.lower[cell, letter], proofs.upper[cell, letter]
            if low == high or high <= proofs.safest():
                continue
            # First "does the move lose?"; once a move is known not to, only "does it win?".
            # A test of the position after the move with the window (floor, floor + 1).
            floor = -1 if proofs.safest() >= 0 else 0
            # The likeliest moves get more: a proof the search's favourite needs is found
            # before every other move has been given as much.
            share = allowance << max(0, FAVOURED - place)
            step = share if nodes is None else min(share, nodes - proofs.nodes)
            if step <= 0:
                return proofs
            run.node_limit = run.nodes + step
            run.play(cell, letter)
            board, keys = run.board.copy(), run.keys.keys.copy()
            try:
                value = run.value(floor, floor + 1)
            except NodeLimitError:
                failed += step
                proofs.nodes = run.nodes + failed
                continue
            except TimeLimitError as late:
                proofs.nodes = run.nodes + failed + late.nodes
                return proofs
            finally:
                # A search stopped halfway leaves its moves on the board and in the keys.
                _restore(run.board, board)
                _restore(run.keys.keys, keys)
                run.unplay(cell, letter)
            proofs.nodes = run.nodes + failed
            if value <= floor:  # the opponent's value is at most this
                low = max(low, -value)
            else:  # at least this
                high = min(high, -value)
            if high <= -1:
                low = -1
            if low >= 1:
                high = 1
            for move in moves:
                proofs.lower[move], proofs.upper[move] = low, high
            if low >= 1:
                return proofs
        if proofs.solved():
            return proofs
        if deadline is not None and time.perf_counter() >= deadline:
            return proofs
        allowance *= 2


def _restore(array: IntArray, saved: IntArray) -> None:
    for index in range(len(saved)):
        array[index] = saved[index]
