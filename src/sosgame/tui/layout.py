"""Where the board and the side panel go on a terminal of a given size, and how tight the
board's cells are: an 8x8 board fits a standard 80x24 terminal beside the panel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from sosgame.tui.widgets.board import COMPACT, WIDE, board_size

if TYPE_CHECKING:
    from textual.widget import Widget

    from sosgame.tui.widgets.board import Board

__all__ = [
    "MIN_WIDTH",
    "SIDE_WIDTH",
    "Arrangement",
    "arrange",
    "lay_out",
    "least_size",
    "needed_size",
]

MIN_WIDTH: Final = 40
"""The fewest columns a game or replay screen is drawn in."""
_MIN_HEIGHT_BESIDES_SEATS: Final = 14
"""The fewest lines a game or replay screen is drawn in, besides one line per seat."""

SIDE_WIDTH: Final = 40
"""The side panel's width (whose turn, the scores, the moves) beside the board."""
_NARROW_SIDE: Final = 34
"""The side panel's width when that leaves the board room enough beside it."""
_MIN_AREA: Final = 24
"""Below this much room beside the panel, the panel goes under the board instead."""
_CHROME_X: Final = 2 + 2 + 2
"""The board's border and padding and its area's padding, across."""
_CHROME_Y: Final = 2 + 1 + 2
"""The board's border, the title line and (at most widths) two lines of keys, down."""


class Arrangement(NamedTuple):
    """How to lay out a game screen: the cell spacing, whether the panel is beside the board
    and how wide it is there."""

    spacing: int
    beside: bool
    side: int = SIDE_WIDTH


def _outer(rows: int, cols: int, spacing: int, height: int) -> int:
    width, tall = board_size(rows, cols, spacing)
    scrollbar = 1 if tall + _CHROME_Y > height else 0
    return width + _CHROME_X + scrollbar


def arrange(width: int, height: int, rows: int, cols: int) -> Arrangement:
    """The layout for a ``rows`` x ``cols`` board on a ``width`` x ``height`` terminal: wide
    cells if the whole board fits beside the panel, else compact ones; the panel under a
    board that would have too little room beside it."""
    for side, spacing in ((SIDE_WIDTH, WIDE), (SIDE_WIDTH, COMPACT), (_NARROW_SIDE, COMPACT)):
        if _outer(rows, cols, spacing, height) <= width - side:
            return Arrangement(spacing, beside=True, side=side)
    return Arrangement(COMPACT, beside=width - SIDE_WIDTH >= _MIN_AREA)


def needed_size(rows: int, cols: int) -> tuple[int, int]:
    """The smallest terminal that shows the whole board, compact, beside the panel."""
    width, height = board_size(rows, cols, COMPACT)
    return width + _CHROME_X + _NARROW_SIDE, height + _CHROME_Y


def least_size(players: int) -> tuple[int, int]:
    """The smallest terminal a game of ``players`` is drawn in: below it, the board would
    show no more than a row or two, so the screen says the terminal is too small instead."""
    return MIN_WIDTH, _MIN_HEIGHT_BESIDES_SEATS + players


def lay_out(main: Widget, board: Board, width: int, height: int) -> Arrangement:
    """Arrange a game or replay screen for a ``width`` x ``height`` terminal: the board's
    spacing, and the class ``narrow`` on ``main`` when the panel goes under the board."""
    arrangement = arrange(width, height, board.game.rows, board.game.cols)
    board.set_spacing(arrangement.spacing)
    main.set_class(not arrangement.beside, "narrow")
    if arrangement.beside:
        main.query_one("#side").styles.width = arrangement.side
    return arrangement
