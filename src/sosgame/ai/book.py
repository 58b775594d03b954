"""The opening book of ``perfect``: solved moves for the first plies of small boards.

The exact solver needs seconds to minutes for the opening of a 4x4 or 4x5 board and a blink
a few moves later. The book (``book.json``, shipped with the package, built by
``python -m sosgame.research.book_build``) holds, for the positions ``perfect`` can meet before
then, one proven best move (a letter and a cell index, in the stored orientation) and the
position's value: a position where ``perfect`` moves is
in the book when the solver cannot settle it quickly on its own, and then so is every
position the opponent's replies to the book move lead to. Positions are stored once up to the
board's symmetries (a board taller than it is wide is read turned a quarter, as its
transpose), by mode, board and letters only: the value and the best moves of a position do
not depend on the scores or on which seat moves.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final, NamedTuple

from sosgame.game import Game
from sosgame.geometry import geometry
from sosgame.notation import EMPTY, Move, S
from sosgame.symmetry import symmetries

__all__ = [
    "BOOK_FORMAT",
    "Entry",
    "book_entry",
    "book_key",
    "book_moves",
    "canonical_board",
    "read_book",
    "stored_move",
    "wide_letters",
]

SETTLED_NODES: Final = 300_000
"""A position the solver settles in this many nodes (a few tenths of a second) has no entry:
the book leaves it to the search, so following the book pays only with at least that."""
BOOK_FORMAT: Final = 1
"""The version of the book file's layout."""


class Entry(NamedTuple):
    """A book position: its exact ``value`` for the seat to move and the ``move`` to play."""

    value: int
    move: Move


def book_key(mode: str, rows: int, cols: int) -> str:
    """The book's name for a board: ``"general 4x5"`` (the wider way round)."""
    low, high = sorted((rows, cols))
    return f"{mode} {low}x{high}"


def wide_letters(game: Game) -> tuple[str, int, int]:
    """The board as one string of letters, turned so it is at least as wide as tall."""
    rows, cols = game.rows, game.cols
    lines = game.position().split("/")
    if rows <= cols:
        return "".join(lines), rows, cols
    return "".join(lines[row][col] for col in range(cols) for row in range(rows)), cols, rows


def canonical_board(letters: str, rows: int, cols: int) -> tuple[str, tuple[int, ...]]:
    """The smallest image of a board under its symmetries, and the symmetry that gives it.

    ``letters`` is the board in reading order; the symmetry maps each cell to its image.
    """
    best: tuple[str, tuple[int, ...]] | None = None
    for image in symmetries(rows, cols):
        turned = [EMPTY] * len(letters)
        for cell, letter in enumerate(letters):
            turned[image[cell]] = letter
        text = "".join(turned)
        if best is None or text < best[0]:
            best = text, image
    assert best is not None
    return best


Entries = dict[str, dict[str, tuple[int, str]]]
"""A book's entries: per board name, per canonical board, the value and the stored move."""


def read_book(text: str) -> Entries:
    """The entries of a book file's text (none if it has another format)."""
    data = json.loads(text)
    if data.get("format") != BOOK_FORMAT:
        return {}
    return {
        board: {letters: (int(value), str(move)) for letters, (value, move) in entries.items()}
        for board, entries in data["boards"].items()
    }


@cache
def _book() -> Entries:
    source = resources.files("sosgame.ai").joinpath("book.json")
    return read_book(source.read_text(encoding="utf-8")) if source.is_file() else {}


def book_entry(game: Game) -> Entry | None:
    """The book's entry for ``game``'s position, turned to ``game``'s board, if it has one."""
    if game.players != 2 or game.is_over or len(game.active_seats) != 2:
        return None
    entries = _book().get(book_key(game.mode, game.rows, game.cols))
    if not entries:
        return None
    letters, rows, cols = wide_letters(game)
    text, image = canonical_board(letters, rows, cols)
    found = entries.get(text)
    if found is None:
        return None
    value, stored = found
    return Entry(value, stored_move(game, image, stored))


def stored_move(game: Game, image: tuple[int, ...], stored: str) -> Move:
    """A move stored as ``"S7"`` for the canonical board, on ``game``'s board.

    ``image`` is the symmetry :func:`canonical_board` found for ``game``'s wide letters.
    """
    cols = max(game.rows, game.cols)
    row, col = divmod(image.index(int(stored[1:])), cols)
    if game.rows > game.cols:
        row, col = col, row
    return geometry(game.rows, game.cols).moves[row * game.cols + col][0 if stored[0] == S else 1]


def book_moves(game: Game) -> tuple[Move, ...] | None:
    """The book's move for ``game`` (as a one-move tuple), or ``None`` if it is not in it."""
    entry = book_entry(game)
    return None if entry is None else (entry.move,)
