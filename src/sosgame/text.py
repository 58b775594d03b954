"""A plain-text drawing of the board for terminals and documents.

Each completed line is drawn through its cells: ``-`` across, ``|`` down, ``\\`` and ``/`` on
the diagonals, and ``X`` where two diagonals cross::

       a   b   c
    1  S - O - S
           |
    2  .   O   .
           |
    3  .   S   .
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from sosgame.outcome import Line

__all__ = ["Drawable", "draw"]


class Drawable(Protocol):
    """What a drawing reads of a board: a :class:`~sosgame.game.Game`, which imports this."""

    @property
    def rows(self) -> int: ...

    @property
    def cols(self) -> int: ...

    @property
    def lines(self) -> Sequence[Line]: ...

    def position(self) -> str: ...


_CELL_WIDTH = 4
_MARGIN = 3


def draw(game: Drawable, *, coordinates: bool = True) -> str:
    """Draw ``game``'s board as text, with its lines and (by default) the cell names."""
    rows, cols = game.rows, game.cols
    canvas = [[" "] * ((cols - 1) * _CELL_WIDTH + 1) for _ in range(2 * rows - 1)]
    for index, letter in enumerate(game.position().replace("/", "")):
        row, col = divmod(index, cols)
        canvas[2 * row][col * _CELL_WIDTH] = letter
    for line in game.lines:
        for here, there in zip(line.cells, line.cells[1:], strict=False):
            text_row = here.row + there.row
            text_col = (here.col + there.col) * _CELL_WIDTH // 2
            if here.row == there.row:
                mark = "-"
            elif here.col == there.col:
                mark = "|"
            else:
                mark = "\\" if there.col > here.col else "/"
            present = canvas[text_row][text_col]
            crossing = {present, mark} == {"\\", "/"}
            canvas[text_row][text_col] = "X" if crossing else mark
    body = ["".join(row).rstrip() for row in canvas]
    if not coordinates:
        return "\n".join(body)
    width = len(str(rows)) + _MARGIN - 1
    header = " " * width + (" " * (_CELL_WIDTH - 1)).join(chr(ord("a") + c) for c in range(cols))
    labelled = [
        (f"{text_row // 2 + 1:>{len(str(rows))}}" if text_row % 2 == 0 else "").ljust(width) + row
        for text_row, row in enumerate(body)
    ]
    return "\n".join([header, *(row.rstrip() for row in labelled)])
