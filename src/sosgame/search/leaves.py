"""Positions the search values without searching them.

The last one or two empty cells (:func:`endgame`), a node that a child already in the shared
table cuts off (:func:`known_cut`, an enhanced transposition cut-off), and the lines that can
still become SOS, which bound the exact value (:func:`count_live`). Values are from the
mover's side, as in :mod:`sosgame.search.negamax`.
"""

from __future__ import annotations

from typing import Final

from sosgame.kernel import EMPTY, IntArray, O, S, count_lines, jit_borrowed, jit_inline
from sosgame.search.table import LOWER, UPPER, probe_word, word_kind, word_value

__all__ = ["INFINITY", "count_live", "endgame", "known_cut", "last_cell"]

INFINITY: Final = 1 << 30
"""Beyond any value of the search; ``-INFINITY`` is "no value yet"."""


@jit_borrowed
def count_live(board: IntArray, line_cells: IntArray) -> int:
    """How many lines can still become SOS: no letter in them is wrong, one cell is empty."""
    live = 0
    for line in range(len(line_cells) // 3):
        start = board[line_cells[3 * line]]
        middle = board[line_cells[3 * line + 1]]
        end = board[line_cells[3 * line + 2]]
        # Plain comparisons: a tuple test would cost the compiled loop an allocation.
        if start == O or end == O or middle == S:  # noqa: PLR1714
            continue
        if start == EMPTY or middle == EMPTY or end == EMPTY:  # noqa: PLR1714
            live += 1
    return live


@jit_inline
def known_cut(
    board: IntArray,
    table: IntArray,
    weights: IntArray,
    keys: IntArray,
    words: IntArray,
    size: int,
    beta: int,
    simple: int,
) -> int:
    """A move's value of at least ``beta`` that the table's entry for its child proves, or
    ``-INFINITY``."""
    for cell in range(size):
        if board[cell] != EMPTY:
            continue
        for letter in range(S, O + 1):
            lines = count_lines(board, table, cell, letter)
            if lines and simple:
                continue  # it wins at once: the move lists see that
            # The child's key, read off the keys without writing them (canonical's rule).
            child = keys[0] + letter * weights[cell]
            for sym in range(1, len(keys)):
                other = keys[sym] + letter * weights[sym * size + cell]
                child = min(child, other)
            word = probe_word(words, child + 1)
            if not word:
                continue
            stored = word_value(word)
            kind = word_kind(word)
            if lines:
                # The mover moves again: the child's lower bound is the move's, plus its lines.
                if kind != UPPER and lines + stored >= beta:
                    return lines + stored
            elif kind != LOWER and -stored >= beta:
                return -stored
    return -INFINITY


@jit_inline
def last_cell(board: IntArray, table: IntArray, cell: int, simple: int) -> int:
    """The value of filling the one empty ``cell``: the most lines a letter there completes."""
    on_s = count_lines(board, table, cell, S)
    on_o = count_lines(board, table, cell, O)
    best = max(on_s, on_o)
    return 1 if simple and best > 0 else best


@jit_inline
def endgame(board: IntArray, table: IntArray, size: int, empty: int, simple: int) -> int:
    """The exact value of a position with one or two empty cells."""
    first = -1
    second = -1
    for cell in range(size):
        if board[cell] == EMPTY:
            if first < 0:
                first = cell
            else:
                second = cell
                break
    if empty == 1:
        return last_cell(board, table, first, simple)
    best = -INFINITY
    for turn in range(2):
        cell = first if turn == 0 else second
        other = second if turn == 0 else first
        for letter in range(S, O + 1):
            lines = count_lines(board, table, cell, letter)
            if lines and simple:
                return 1
            board[cell] = letter
            after = last_cell(board, table, other, simple)
            board[cell] = EMPTY
            value = lines + after if lines else -after  # sosgame.solver.rule, compiled inline
            best = max(best, value)
    return best
