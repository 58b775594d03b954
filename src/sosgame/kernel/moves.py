"""Kernel move primitives over a flat board (0 empty, 1 S, 2 O) and its packed tables."""

from __future__ import annotations

from typing import Final

from sosgame.kernel._jit import IntArray, jit
from sosgame.kernel.tables import O_COUNT, O_PAIRS, S_COUNT, S_PAIRS, STRIDE

__all__ = [
    "EMPTY",
    "O",
    "S",
    "apply_move",
    "count_lines",
    "count_openings",
    "has_scoring_move",
    "next_turn",
    "undo_move",
]

EMPTY: Final = 0
S: Final = 1
O: Final = 2  # noqa: E741 (the letter O is the name the game gives it)


@jit
def count_lines(board: IntArray, table: IntArray, cell: int, letter: int) -> int:
    """How many lines writing ``letter`` (1 = S, 2 = O) into empty ``cell`` would complete."""
    completed = 0
    if letter == S:
        base = cell * STRIDE + S_PAIRS
        for k in range(table[cell * STRIDE + S_COUNT]):
            if board[table[base + 2 * k]] == O and board[table[base + 2 * k + 1]] == S:
                completed += 1
    else:
        base = cell * STRIDE + O_PAIRS
        for k in range(table[cell * STRIDE + O_COUNT]):
            if board[table[base + 2 * k]] == S and board[table[base + 2 * k + 1]] == S:
                completed += 1
    return completed


@jit
def count_openings(board: IntArray, table: IntArray, cell: int, letter: int) -> int:
    """How many lines through ``cell`` a single further letter would complete after this move.

    These are the SOS chances writing ``letter`` into ``cell`` hands the next player (0 means
    the move gives nothing away, if the position offered no SOS before it).
    """
    openings = 0
    if letter == S:
        base = cell * STRIDE + S_PAIRS
        for k in range(table[cell * STRIDE + S_COUNT]):
            middle = board[table[base + 2 * k]]
            far = board[table[base + 2 * k + 1]]
            if (middle == O and far == EMPTY) or (middle == EMPTY and far == S):
                openings += 1
    else:
        base = cell * STRIDE + O_PAIRS
        for k in range(table[cell * STRIDE + O_COUNT]):
            first = board[table[base + 2 * k]]
            second = board[table[base + 2 * k + 1]]
            if (first == S and second == EMPTY) or (first == EMPTY and second == S):
                openings += 1
    return openings


@jit
def has_scoring_move(board: IntArray, table: IntArray) -> bool:
    """Whether some empty cell takes a letter that completes a line."""
    for cell in range(len(board)):
        if board[cell] == EMPTY and (
            count_lines(board, table, cell, S) > 0 or count_lines(board, table, cell, O) > 0
        ):
            return True
    return False


@jit
def apply_move(
    board: IntArray, scores: IntArray, table: IntArray, seat: int, cell: int, letter: int
) -> int:
    """Write ``letter`` into empty ``cell`` for ``seat``; adds and returns the lines completed."""
    completed = count_lines(board, table, cell, letter)
    board[cell] = letter
    scores[seat] += completed
    return completed


@jit
def undo_move(board: IntArray, scores: IntArray, seat: int, cell: int, completed: int) -> None:
    """Take back :func:`apply_move` (``completed`` is what it returned)."""
    board[cell] = EMPTY
    scores[seat] -= completed


@jit
def next_turn(next_seat: IntArray, seat: int, completed: int) -> int:
    """The seat to move after ``seat`` completed ``completed`` lines: itself again if any."""
    return seat if completed > 0 else next_seat[seat]
