"""Per-size line tables packed into one flat integer array, the form kernel loops read.

Layout, for cell ``i`` with ``base = i * STRIDE``:

* ``table[base + S_COUNT]`` is how many lines an S written at ``i`` can complete (0..8), and
  ``table[base + S_PAIRS + 2 * k]``, ``table[base + S_PAIRS + 2 * k + 1]`` is the k-th pair
  (the line's middle, which needs an O; its far end, which needs an S);
* ``table[base + O_COUNT]`` is how many lines an O written at ``i`` can complete (0..4), and
  ``table[base + O_PAIRS + 2 * k]``, ``table[base + O_PAIRS + 2 * k + 1]`` is the k-th pair of
  the line's two ends (both need an S).

Each count sits just before its pairs (``S_PAIRS == S_COUNT + 1``, ``O_PAIRS == O_COUNT + 1``),
so a loop over a letter's pairs reads its count at ``table[base + PAIRS - 1]``.

``line_cells`` lists every line as (start, middle, end). The pairs are those of
:func:`sosgame.geometry.geometry`, in the same order.
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

from sosgame.geometry import geometry
from sosgame.kernel._jit import IntArray, to_array

__all__ = ["O_COUNT", "O_PAIRS", "STRIDE", "S_COUNT", "S_PAIRS", "Tables", "tables"]

S_COUNT: Final = 0
S_PAIRS: Final = 1
O_COUNT: Final = 17
O_PAIRS: Final = 18
STRIDE: Final = 26


class Tables(NamedTuple):
    """The kernel tables for one board size (see the module docstring for the layout)."""

    rows: int
    cols: int
    size: int
    table: IntArray
    lines: int
    """How many lines the board has in all: the most points a game can hand out."""
    line_cells: IntArray
    """Every line's three cells, flat: line ``k`` is ``line_cells[3k : 3k + 3]`` (ends last)."""


@cache
def tables(rows: int, cols: int) -> Tables:
    """The shared kernel tables for a board of ``rows`` by ``cols``.

    :raises InvalidSettingsError: for a size the rules do not allow.
    """
    shape = geometry(rows, cols)
    flat = [0] * (shape.size * STRIDE)
    for index in range(shape.size):
        base = index * STRIDE
        flat[base + S_COUNT] = len(shape.s_patterns[index])
        for k, pattern in enumerate(shape.s_patterns[index]):
            flat[base + S_PAIRS + 2 * k] = pattern.first
            flat[base + S_PAIRS + 2 * k + 1] = pattern.second
        flat[base + O_COUNT] = len(shape.o_patterns[index])
        for k, pattern in enumerate(shape.o_patterns[index]):
            flat[base + O_PAIRS + 2 * k] = pattern.first
            flat[base + O_PAIRS + 2 * k + 1] = pattern.second
    cells = [index for line in shape.lines for index in line]
    return Tables(rows, cols, shape.size, to_array(flat), len(shape.lines), to_array(cells))
