"""Kernel move primitives over a flat board (0 empty, 1 S, 2 O) and its packed tables."""

from __future__ import annotations

from typing import Final

from sosgame.kernel._jit import IntArray, jit
from sosgame.kernel.tables import O_PAIRS, S_PAIRS, STRIDE

__all__ = [
    "EMPTY",
    "O",
    "S",
    "apply_move",
    "count_lines",
    "count_openings",
    "has_scoring_move",
    "letter_lines",
    "next_turn",
    "undo_move",
]

EMPTY: Final = 0
S: Final = 1
O: Final = 2  # noqa: E741 (the letter O is the name the game gives it)


@jit
def letter_lines(board: IntArray, table: IntArray, cell: int, letter: int) -> tuple[int, int, int]:
    """What writing ``letter`` into empty ``cell`` does to the lines it would take part in.

    Those are the lines with ``cell`` at an end for an S, in the middle for an O. Returns
    ``(completed, opened, live)``: the lines the move completes; the lines it leaves one
    letter short of an SOS, with their other cell empty (the chances it hands the next
    player); and the lines that could still become an SOS with this letter in ``cell``.
    The search's move ordering and the solver's bounds take every count they need from this;
    :func:`count_lines` and :func:`count_openings` are its first two counts, each on a loop of
    its own because playouts ask them for every move (the tests check all three agree).
    """
    base = cell * STRIDE + (S_PAIRS if letter == S else O_PAIRS)
    need = O if letter == S else S  # what a pair's first cell needs (its second needs an S)
    completed = 0
    opened = 0
    live = 0
    for k in range(table[base - 1]):  # a letter's count of pairs sits just before them
        first = board[table[base + 2 * k]]
        far = board[table[base + 2 * k + 1]]  # always an end: it needs an S
        # Plain comparisons: a tuple test would cost the compiled loop an allocation.
        if (first == need or first == EMPTY) and (far == S or far == EMPTY):  # noqa: PLR1714, SIM109
            live += 1
            if first == need:
                if far == S:
                    completed += 1
                else:
                    opened += 1
            elif far == S:
                opened += 1
    return completed, opened, live


@jit
def count_lines(board: IntArray, table: IntArray, cell: int, letter: int) -> int:
    """How many lines writing ``letter`` (1 = S, 2 = O) into empty ``cell`` would complete.

    The first count of :func:`letter_lines`, on its own: every move played in a playout or a
    search asks it, and this loop, testing nothing else, is the fastest.
    """
    completed = 0
    base = cell * STRIDE + (S_PAIRS if letter == S else O_PAIRS)
    need = O if letter == S else S
    for k in range(table[base - 1]):
        if board[table[base + 2 * k]] == need and board[table[base + 2 * k + 1]] == S:
            completed += 1
    return completed


@jit
def count_openings(board: IntArray, table: IntArray, cell: int, letter: int) -> int:
    """How many lines through ``cell`` a single further letter would complete after this move.

    These are the SOS chances writing ``letter`` into ``cell`` hands the next player (0 means
    the move gives nothing away, if the position offered no SOS before it). The second count
    of :func:`letter_lines`, on its own loop for the playouts' sake, as :func:`count_lines`.
    """
    openings = 0
    base = cell * STRIDE + (S_PAIRS if letter == S else O_PAIRS)
    need = O if letter == S else S
    for k in range(table[base - 1]):
        first = board[table[base + 2 * k]]
        far = board[table[base + 2 * k + 1]]
        if (first == need and far == EMPTY) or (first == EMPTY and far == S):
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
