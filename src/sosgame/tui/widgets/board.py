"""The board: letters, every SOS line in its owner's colour and stroke, a cursor, the mouse.

The board scrolls by itself when it is larger than its place on screen, with the column letters
and row numbers always in view. It draws line by line (Textual's line API), keeps each line it
drew until the game changes, and a cursor move redraws only the two rows it leaves and enters:
a key press costs the same on a 26x26 board as on a 3x3 one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from sosgame.game import Game
from sosgame.notation import Cell
from sosgame.tui.seats import INK, PAPER, line_glyphs, seat_colour
from sosgame.tui.widgets.keybar import hidden_bindings

__all__ = ["COMPACT", "WIDE", "Board", "board_size"]

WIDE: Final = 4
"""Cell spacing with room to spare: each cell takes three characters and a gap."""
COMPACT: Final = 2
"""Cell spacing when room is short: a letter and a gap (the gap carries the lines across)."""
_EMPTY: Final = "·"
# The diagonal strokes, by code point (they look like / \ and X but are box-drawing characters).
_FALLING: Final = "\u2572"
_RISING: Final = "\u2571"
_CROSSING: Final = "\u2573"
_CURSOR: Final = Style(color=PAPER, bgcolor="#3b4a6b", bold=True)
_CURSOR_UNFOCUSED: Final = Style(bgcolor="#c9c2ad")
_HINT: Final = Style(color=INK, bgcolor="#9ad0a8", bold=True)
_CURSOR_ON_HINT: Final = _HINT + Style(underline=True)
"""The cursor on the hinted cell keeps the hint's colour, so that the hint shows."""
_LABEL: Final = Style(color="#6b6456", bgcolor=PAPER)
_BLANK: Final = Style(bgcolor=PAPER)
_LETTER: Final = Style(color=INK, bgcolor=PAPER, bold=True)
_LAST: Final = _LETTER + Style(underline=True, color="#000000")
_DOT: Final = Style(color="#a09a8a", bgcolor=PAPER)

_Cells = list[tuple[str, Style]]


def board_size(rows: int, cols: int, spacing: int = WIDE) -> tuple[int, int]:
    """The characters (width, height) a ``rows`` x ``cols`` board needs, labels included."""
    return _margin(rows) + spacing * cols - 1, 2 * rows


def _margin(rows: int) -> int:
    return len(str(rows)) + 1


def _pad(spacing: int) -> int:
    """How many characters of a cell lie on each side of its letter."""
    return (spacing - 2) // 2


class Board(ScrollView, can_focus=True):
    """A view of a :class:`Game` with a cursor; it never changes the game.

    Arrow and vi keys move the cursor; clicking a cell moves it there and posts
    :class:`Board.CellClicked`. With ``keys=False`` the board only shows (a replay).
    """

    # The board's own keys, so that they move the cursor rather than scroll.
    BINDINGS: ClassVar[list[BindingType]] = hidden_bindings(
        ("up,k", "cursor(-1, 0)"),
        ("down,j", "cursor(1, 0)"),
        ("left,h", "cursor(0, -1)"),
        ("right,l", "cursor(0, 1)"),
    )

    # Their watchers redraw the rows they touch, not the whole board.
    cursor: reactive[Cell] = reactive(Cell(0, 0), repaint=False)
    hint: reactive[Cell | None] = reactive(None, repaint=False)

    class CellClicked(Message):
        """A cell was clicked."""

        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    def __init__(self, game: Game, *, id: str | None = None, keys: bool = True) -> None:
        super().__init__(id=id)
        self.game = game
        self.can_focus = keys
        self.spacing = WIDE
        self._lines: dict[int, Strip] = {}
        """Each board line drawn so far (without cursor or hint), until the game changes."""
        self._strokes: dict[int, dict[int, tuple[str, int | None]]] = {}
        self._letters: list[str] = []
        self._last: Cell | None = None
        self._read(game)

    # ------------------------------------------------------------------------ the game

    def show(self, game: Game) -> None:
        """Show ``game`` (the same object or another), keep the cursor on the board and the
        lines just made in view."""
        before = (self._letters, self._strokes, self._last, self.virtual_size)
        self.game = game
        row, col = self.cursor
        self.cursor = Cell(min(row, game.rows - 1), min(col, game.cols - 1))
        self._read(game)
        if before[3] != self.virtual_size:
            self._lines.clear()
            self.refresh()
        else:  # redraw only the rows whose letters or strokes changed
            letters, strokes, last, _ = before
            changed = {
                index
                for index in set(strokes) | set(self._strokes)
                if strokes.get(index) != self._strokes.get(index)
            }
            changed |= {2 * row for row, text in enumerate(letters) if text != self._letters[row]}
            changed |= {2 * cell.row for cell in (last, self._last) if cell is not None}
            for index in changed:
                self._lines.pop(index, None)
            self._refresh_lines(changed)
        newest = [cell for line in game.lines if line.ply == game.ply for cell in line.cells]
        self.reveal(newest)

    def set_spacing(self, spacing: int) -> None:
        """Draw cells ``spacing`` characters apart (:data:`WIDE` or :data:`COMPACT`)."""
        if spacing != self.spacing:
            self.spacing = spacing
            self._lines.clear()
            self._read(self.game)
            self.refresh(layout=True)
            self.call_after_refresh(self.reveal)

    def _read(self, game: Game) -> None:
        """Note where every letter and stroke goes; the lines are drawn when first shown."""
        self._letters = game.position().split("/")
        last = game.last_move
        self._last = None if last is None else last.cell
        spacing, pad = self.spacing, _pad(self.spacing)
        strokes: dict[int, dict[int, tuple[str, int | None]]] = {}

        def put(y: int, x: int, char: str, owner: int | None) -> None:
            line = strokes.setdefault(y, {})
            # Two diagonals crossing between four cells share one character.
            if x in line and {line[x][0], char} == {_FALLING, _RISING}:
                char = _CROSSING
            line[x] = (char, owner)

        for line in game.lines:
            across, down = line_glyphs(line.owner)
            for here, there in zip(line.cells, line.cells[1:], strict=False):
                y = 2 * min(here.row, there.row)
                left = spacing * min(here.col, there.col)
                if here.row == there.row:
                    for x in range(left + pad + 1, left + spacing + pad):
                        put(y, x, across, line.owner)
                elif here.col == there.col:
                    put(y + 1, left + pad, down, line.owner)
                else:
                    falling = (there.col > here.col) == (there.row > here.row)
                    put(y + 1, left + spacing - 1, _FALLING if falling else _RISING, line.owner)
        self._strokes = strokes
        self.virtual_size = Size(*board_size(game.rows, game.cols, spacing))

    # ----------------------------------------------------------------------- the cursor

    def move_cursor(self, rows: int, cols: int) -> None:
        """Move the cursor, stopping at the edges."""
        row = min(max(self.cursor.row + rows, 0), self.game.rows - 1)
        col = min(max(self.cursor.col + cols, 0), self.game.cols - 1)
        self.cursor = Cell(row, col)

    def action_cursor(self, rows: int, cols: int) -> None:
        self.move_cursor(rows, cols)

    def watch_cursor(self, old: Cell, new: Cell) -> None:
        self._refresh_rows(old.row, new.row)
        self.reveal()

    def watch_hint(self, old: Cell | None, new: Cell | None) -> None:
        self._refresh_rows(*(cell.row for cell in (old, new) if cell is not None))

    def on_focus(self) -> None:
        self._refresh_rows(self.cursor.row)

    def on_blur(self) -> None:
        self._refresh_rows(self.cursor.row)

    def on_resize(self) -> None:
        self.reveal()

    @property
    def view(self) -> Size:
        """The characters the board shows at once (its size less any scroll bars)."""
        return self.scrollable_content_region.size

    def _refresh_rows(self, *rows: int) -> None:
        self._refresh_lines({2 * row for row in rows})

    def _refresh_lines(self, indexes: Iterable[int]) -> None:
        """Draw board lines ``indexes`` again (those in view)."""
        # In the board's content, line 0 holds the column letters and scrolls with nothing.
        top = 1 - round(self.scroll_y)
        width, height = self.view
        for index in indexes:
            y = top + index
            if 1 <= y < height:
                self.refresh(Region(0, y, width, 1))

    def in_view(self, cell: Cell) -> bool:
        """Whether ``cell`` shows whole in the board's view now."""
        width, height = self.view
        x = self.spacing * cell.col - round(self.scroll_x)
        y = 2 * cell.row - round(self.scroll_y)
        right = width - _margin(self.game.rows)
        return x >= 0 and x + 2 * _pad(self.spacing) < right and 0 <= y < height - 1

    def reveal(self, cells: Iterable[Cell] = ()) -> None:
        """Scroll so that the cursor is in view, and ``cells`` too where there is room."""
        width, height = self.view
        margin = _margin(self.game.rows)
        view_x, view_y = width - margin, height - 1  # the labels take the rest
        if view_x <= 0 or view_y <= 0:
            return
        spacing, pad = self.spacing, _pad(self.spacing)
        cursor = self.cursor
        others = list(cells)

        def span(values: list[int], low: int, high: int, room: int) -> tuple[int, int]:
            # The cursor's own span, widened to the other cells' if they all fit.
            if values and max(high, *values) - min(low, *values) < room:
                return min(low, *values), max(high, *values)
            return low, high

        left, right = span(
            [spacing * cell.col + offset for cell in others for offset in (0, 2 * pad)],
            spacing * cursor.col,
            spacing * cursor.col + 2 * pad,
            view_x,
        )
        top, bottom = span(
            [2 * cell.row for cell in others], 2 * cursor.row, 2 * cursor.row, view_y
        )
        x, y = round(self.scroll_x), round(self.scroll_y)
        x = left if left < x else right - view_x + 1 if right >= x + view_x else x
        y = top if top < y else bottom - view_y + 1 if bottom >= y + view_y else y
        x = min(max(x, 0), self.max_scroll_x)
        y = min(max(y, 0), self.max_scroll_y)
        if (x, y) != (round(self.scroll_x), round(self.scroll_y)):
            self.scroll_to(x, y, animate=False)

    # ------------------------------------------------------------------------- the mouse

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell drawn at character ``(x, y)`` of the board's content, if there is one."""
        game = self.game
        margin = _margin(game.rows)
        line = y - 1 + round(self.scroll_y)
        if y < 1 or x < margin or line % 2:
            return None
        col, offset = divmod(x - margin + round(self.scroll_x), self.spacing)
        row = line // 2
        if offset > 2 * _pad(self.spacing) or row >= game.rows or col >= game.cols:
            return None
        return Cell(row, col)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        cell = None if offset is None else self.cell_at(offset.x, offset.y)
        if cell is not None:
            self.cursor = cell
            self.focus()
            self.post_message(self.CellClicked(cell))

    # ------------------------------------------------------------------------- drawing

    def picture(self) -> str:
        """The part of the board in view, as text, line by line."""
        return "\n".join(self.render_line(y).text for y in range(self.view.height))

    def render_line(self, y: int) -> Strip:
        rows = self.game.rows
        margin = _margin(rows)
        width = self.view.width
        scroll_x, scroll_y = round(self.scroll_x), round(self.scroll_y)
        room = max(width - margin, 0)
        if y == 0:
            label, line = " " * margin, self._header()
        else:
            index = y - 1 + scroll_y
            if index >= 2 * rows - 1:
                return Strip.blank(width, _BLANK)
            number = "" if index % 2 else str(index // 2 + 1)
            label, line = number.rjust(margin - 1) + " ", self._line(index)
        content = line.crop_extend(scroll_x, scroll_x + room, _BLANK)
        return Strip.join([Strip([Segment(label[:width], _LABEL)]), content])

    def _header(self) -> Strip:
        if -1 not in self._lines:
            pad = _pad(self.spacing)
            cells: _Cells = [(" ", _LABEL)] * (self.spacing * self.game.cols - 1)
            for col in range(self.game.cols):
                cells[self.spacing * col + pad] = (chr(ord("a") + col), _LABEL)
            self._lines[-1] = _strip(cells)
        return self._lines[-1]

    def _line(self, index: int) -> Strip:
        """Board line ``index`` (letters on even lines, strokes between rows on odd ones),
        with the cursor and the hint on it."""
        row = index // 2
        cursor = _CURSOR if self.has_focus else _CURSOR_UNFOCUSED
        if self.cursor == self.hint:
            cursor = _CURSOR_ON_HINT
        marks = [
            (cell.col, style)
            for cell, style in ((self.hint, _HINT), (self.cursor, cursor))
            if cell is not None and cell.row == row and not index % 2
        ]
        if not marks and index in self._lines:
            return self._lines[index]
        cells = self._cells(index)
        pad = _pad(self.spacing)
        for col, style in marks:
            x = self.spacing * col + pad
            for here in range(x - pad, x + pad + 1):
                char, under = cells[here]
                cells[here] = (char, under + style)
        strip = _strip(cells)
        if not marks:
            self._lines[index] = strip
        return strip

    def _cells(self, index: int) -> _Cells:
        spacing, pad = self.spacing, _pad(self.spacing)
        cells: _Cells = [(" ", _BLANK)] * (spacing * self.game.cols - 1)
        for x, (char, owner) in self._strokes.get(index, {}).items():
            cells[x] = (char, Style(color=seat_colour(owner), bgcolor=PAPER, bold=True))
        if index % 2:
            return cells
        row = index // 2
        last = self.game.last_move
        for col, letter in enumerate(self._letters[row]):
            x = spacing * col + pad
            if letter == ".":
                cells[x] = (_EMPTY, _DOT)
            elif last is not None and last.cell == Cell(row, col):
                cells[x] = (letter, _LAST)
            else:
                cells[x] = (letter, _LETTER)
        return cells


def _strip(cells: _Cells) -> Strip:
    """One line of cells, with runs of one style joined into one segment."""
    segments: list[Segment] = []
    run: list[str] = []
    style: Style | None = None
    for char, here in cells:
        if here != style and run:
            segments.append(Segment("".join(run), style))
            run = []
        style = here
        run.append(char)
    if run:
        segments.append(Segment("".join(run), style))
    return Strip(segments, len(cells))
