"""Precomputed tables for one board size: which cells can form a line with which.

Everything here depends on the board's size only, so it is computed once per size and shared.
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

from sosgame.notation import Cell, Letter, Move, O, S, check_size

__all__ = ["DIRECTIONS", "Geometry", "LineCells", "Pattern", "Triple", "Writing", "geometry"]

DIRECTIONS: Final = ((0, 1), (1, 0), (1, 1), (1, -1))
"""The four axes a line can lie on: across, down, and the two diagonals."""

LineCells = tuple[Cell, Cell, Cell]
"""A line's three cells, ordered from the top-left end."""

Triple = tuple[int, int, LineCells]
"""A :class:`Pattern` as a plain tuple: ``(first, second, cells)``."""

Writing = tuple[Move, int, Letter, tuple[Triple, ...], Letter]
"""One of a board's own moves, ready to play: ``(move, cell index, letter, the patterns it may
complete, the letter each pattern's first cell needs)``."""


class Pattern(NamedTuple):
    """A line through a cell: it reads S-O-S once ``first`` and ``second`` hold their letters.

    For an S written at one end, ``first`` is the middle (needs O) and ``second`` the far end
    (needs S); for an O written in the middle, both are the ends (need S).
    """

    first: int
    second: int
    cells: LineCells


class Geometry:
    """The tables for a board of ``rows`` by ``cols``; get one with :func:`geometry`."""

    __slots__ = (
        "all_moves",
        "cells",
        "cols",
        "index_of",
        "lines",
        "moves",
        "o_patterns",
        "o_triples",
        "own_moves",
        "rows",
        "s_patterns",
        "s_triples",
        "size",
    )

    def __init__(self, rows: int, cols: int) -> None:
        check_size(rows, cols)
        self.rows = rows
        self.cols = cols
        self.size = rows * cols
        self.cells: tuple[Cell, ...] = tuple(Cell(r, c) for r in range(rows) for c in range(cols))
        self.index_of: dict[Cell, int] = {cell: index for index, cell in enumerate(self.cells)}
        self.moves: tuple[tuple[Move, Move], ...] = tuple(
            (Move(S, cell), Move(O, cell)) for cell in self.cells
        )
        self.all_moves: tuple[Move, ...] = tuple(move for pair in self.moves for move in pair)
        """Every move in board order, each cell with S then O: the empty board's legal moves."""
        lines: list[tuple[int, int, int]] = []
        for r in range(rows):
            for c in range(cols):
                for dr, dc in DIRECTIONS:
                    end_r, end_c = r + 2 * dr, c + 2 * dc
                    if 0 <= end_r < rows and 0 <= end_c < cols:
                        lines.append(
                            (self.index(r, c), self.index(r + dr, c + dc), self.index(end_r, end_c))
                        )
        self.lines: tuple[tuple[int, int, int], ...] = tuple(lines)
        s_patterns: list[list[Pattern]] = [[] for _ in range(self.size)]
        o_patterns: list[list[Pattern]] = [[] for _ in range(self.size)]
        for start, middle, end in lines:
            cells = (self.cells[start], self.cells[middle], self.cells[end])
            s_patterns[start].append(Pattern(middle, end, cells))
            s_patterns[end].append(Pattern(middle, start, cells))
            o_patterns[middle].append(Pattern(start, end, cells))
        self.s_patterns: tuple[tuple[Pattern, ...], ...] = tuple(map(tuple, s_patterns))
        self.o_patterns: tuple[tuple[Pattern, ...], ...] = tuple(map(tuple, o_patterns))
        # The same patterns as plain tuples, for the rules engine's hottest loop: CPython
        # unpacks a plain tuple faster than a named one.
        self.s_triples: tuple[tuple[Triple, ...], ...] = tuple(
            tuple((pattern.first, pattern.second, pattern.cells) for pattern in patterns)
            for patterns in self.s_patterns
        )
        self.o_triples: tuple[tuple[Triple, ...], ...] = tuple(
            tuple((pattern.first, pattern.second, pattern.cells) for pattern in patterns)
            for patterns in self.o_patterns
        )
        # Keyed by identity: the moves a game hands out are these objects, and an identity
        # lookup skips hashing the cell. The tables live as long as the process (`geometry` is
        # cached), so no other live object can share one of these ids.
        self.own_moves: dict[int, Writing] = {}
        for index, (s_move, o_move) in enumerate(self.moves):
            self.own_moves[id(s_move)] = (s_move, index, S, self.s_triples[index], O)
            self.own_moves[id(o_move)] = (o_move, index, O, self.o_triples[index], S)

    def index(self, row: int, col: int) -> int:
        """The row-major index of a cell."""
        return row * self.cols + col

    def contains(self, cell: Cell) -> bool:
        """Whether ``cell`` lies on this board."""
        return 0 <= cell.row < self.rows and 0 <= cell.col < self.cols


def geometry(rows: int, cols: int) -> Geometry:
    """The shared tables for a board of ``rows`` by ``cols``.

    :raises InvalidSettingsError: for a size the rules do not allow.
    """
    # Checked before the cache, which would otherwise take 3.0 or True for a cached 3 or 1.
    check_size(rows, cols)
    return _cached_geometry(rows, cols)


@cache
def _cached_geometry(rows: int, cols: int) -> Geometry:
    return Geometry(rows, cols)
