"""The board: letters, every SOS line in its owner's colour and stroke, a cursor, the mouse."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from sosgame.game import Game
from sosgame.notation import Cell
from sosgame.tui.seats import INK, PAPER, line_glyphs, seat_colour

__all__ = ["Board", "board_size"]

_CELL: Final = 4
"""Each cell takes three characters and a gap; the gap and the row below carry the lines."""
_EMPTY: Final = "·"
# The diagonal strokes, by code point (they look like / \ and X but are box-drawing characters).
_FALLING: Final = "\u2572"
_RISING: Final = "\u2571"
_CROSSING: Final = "\u2573"
_CURSOR: Final = Style(color=PAPER, bgcolor="#3b4a6b", bold=True)
_HINT: Final = Style(color=INK, bgcolor="#9ad0a8", bold=True)
_LABEL: Final = Style(color="#6b6456", bgcolor=PAPER)


def board_size(rows: int, cols: int) -> tuple[int, int]:
    """The characters (width, height) a ``rows`` x ``cols`` board needs, labels included."""
    return _margin(rows) + _CELL * cols - 1, 2 * rows


def _margin(rows: int) -> int:
    return len(str(rows)) + 1


class Board(Widget, can_focus=True):
    """A view of a :class:`Game` with a cursor; it never changes the game.

    Arrow and vi keys move the cursor; clicking a cell moves it there and posts
    :class:`Board.CellClicked`. With ``keys=False`` the board only shows (a replay).
    """

    # The board's own keys, so that they move the cursor before the scrolling area around it
    # would scroll.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1, 0)", show=False),
        Binding("down,j", "cursor(1, 0)", show=False),
        Binding("left,h", "cursor(0, -1)", show=False),
        Binding("right,l", "cursor(0, 1)", show=False),
    ]

    cursor: reactive[Cell] = reactive(Cell(0, 0))
    hint: reactive[Cell | None] = reactive(None)

    class CellClicked(Message):
        """A cell was clicked."""

        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    def __init__(self, game: Game, *, id: str | None = None, keys: bool = True) -> None:
        super().__init__(id=id)
        self.game = game
        self.can_focus = keys

    def show(self, game: Game) -> None:
        """Show ``game`` (the same object or another) and keep the cursor on the board."""
        self.game = game
        row, col = self.cursor
        self.cursor = Cell(min(row, game.rows - 1), min(col, game.cols - 1))
        self.refresh(layout=True)

    def move_cursor(self, rows: int, cols: int) -> None:
        """Move the cursor, stopping at the edges."""
        row = min(max(self.cursor.row + rows, 0), self.game.rows - 1)
        col = min(max(self.cursor.col + cols, 0), self.game.cols - 1)
        self.cursor = Cell(row, col)

    def action_cursor(self, rows: int, cols: int) -> None:
        self.move_cursor(rows, cols)

    def get_content_width(self, container: object, viewport: object) -> int:
        return board_size(self.game.rows, self.game.cols)[0]

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return board_size(self.game.rows, self.game.cols)[1]

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell drawn at character ``(x, y)`` of the widget, if there is one."""
        game = self.game
        col, offset = divmod(x - _margin(game.rows), _CELL)
        if y < 1 or (y - 1) % 2 or offset == _CELL - 1 or x < _margin(game.rows):
            return None
        row = (y - 1) // 2
        if row >= game.rows or col >= game.cols:
            return None
        return Cell(row, col)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        cell = None if offset is None else self.cell_at(offset.x, offset.y)
        if cell is not None:
            self.cursor = cell
            self.focus()
            self.post_message(self.CellClicked(cell))

    def render(self) -> Text:
        game = self.game
        rows, cols = game.rows, game.cols
        margin = _margin(rows)
        width, height = board_size(rows, cols)
        chars = [[" "] * width for _ in range(height)]
        styles: list[list[Style | None]] = [[None] * width for _ in range(height)]
        letter_style = Style(color=INK, bgcolor=PAPER, bold=True)

        header = "".join(f" {chr(ord('a') + col)}  " for col in range(cols))
        for x, char in enumerate(header[: width - margin]):
            chars[0][margin + x] = char
            styles[0][margin + x] = _LABEL
        for row in range(rows):
            label = str(row + 1).rjust(margin - 1)
            for x, char in enumerate(label):
                chars[1 + 2 * row][x] = char
                styles[1 + 2 * row][x] = _LABEL

        def put(y: int, x: int, char: str, owner: int | None) -> None:
            # Two diagonals crossing between four cells share one character.
            if {chars[y][x], char} == {_FALLING, _RISING}:
                char = _CROSSING
            chars[y][x] = char
            styles[y][x] = Style(color=seat_colour(owner), bgcolor=PAPER, bold=True)

        for line in game.lines:
            across, down = line_glyphs(line.owner)
            for here, there in zip(line.cells, line.cells[1:], strict=False):
                top = 1 + 2 * min(here.row, there.row)
                left = margin + _CELL * min(here.col, there.col)
                if here.row == there.row:
                    for x in range(left + 2, left + _CELL + 1):
                        put(top, x, across, line.owner)
                elif here.col == there.col:
                    put(top + 1, left + 1, down, line.owner)
                else:
                    falling = (there.col > here.col) == (there.row > here.row)
                    put(top + 1, left + _CELL - 1, _FALLING if falling else _RISING, line.owner)

        last = game.last_move
        board = game.position().replace("/", "")
        for index, letter in enumerate(board):
            row, col = divmod(index, cols)
            y, x = 1 + 2 * row, margin + _CELL * col + 1
            cell = Cell(row, col)
            style = letter_style
            if letter == ".":
                chars[y][x] = _EMPTY
                style = Style(color="#a09a8a", bgcolor=PAPER)
            else:
                chars[y][x] = letter
                if last is not None and last.cell == cell:
                    style = letter_style + Style(underline=True, color="#000000")
            styles[y][x] = style
            if cell == self.hint:
                for dx in (-1, 0, 1):
                    styles[y][x + dx] = (styles[y][x + dx] or Style()) + _HINT
            if cell == self.cursor and self.has_focus_within:
                for dx in (-1, 0, 1):
                    styles[y][x + dx] = (styles[y][x + dx] or Style()) + _CURSOR
            elif cell == self.cursor:
                for dx in (-1, 0, 1):
                    styles[y][x + dx] = (styles[y][x + dx] or Style()) + Style(bgcolor="#c9c2ad")

        text = Text(no_wrap=True, overflow="crop", end="")
        blank = Style(bgcolor=PAPER)
        for y in range(height):
            for x in range(width):
                text.append(chars[y][x], styles[y][x] or blank)
            if y < height - 1:
                text.append("\n")
        return text

    def watch_cursor(self) -> None:
        self.refresh()
        self.call_after_refresh(self._follow_cursor)

    def _follow_cursor(self) -> None:
        # On a board larger than its scrolling area, keep the cursor's cell in view.
        parent = self.parent
        if not isinstance(parent, ScrollableContainer):
            return
        row, col = self.cursor
        left = self.virtual_region.x + self.gutter.left + _margin(self.game.rows) + _CELL * col
        top = self.virtual_region.y + self.gutter.top + 1 + 2 * row
        parent.scroll_to_region(Region(left - 1, top - 1, _CELL + 2, 3), animate=False)

    def watch_hint(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
