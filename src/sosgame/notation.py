"""Text forms of cells, moves, resignations and positions.

* A cell is its column letter then its row number counted from the top: ``a1`` is the top-left
  cell and ``c2`` is row 2, column 3.
* A move is the letter written, then the cell: ``Sb3``, ``Oa1``.
* A resignation, as it appears in a record's move list, is ``resign:`` and the seat: ``resign:1``.
* A position is the rows from the top, separated by ``/``, with ``S``, ``O`` and ``.`` for an
  empty cell: ``S.O/.../OSS``.

Input is case-insensitive; output is canonical (``Sb3``, ``S.O/...``).
"""

from __future__ import annotations

import re
from typing import Final, Literal, NamedTuple

from sosgame.errors import (
    InvalidCellError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSettingsError,
    SosError,
)
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_LONG_SIDE, BOARD_MIN_SIDE

__all__ = [
    "EMPTY",
    "LETTERS",
    "MAX_SIDE",
    "MIN_SIDE",
    "Cell",
    "Letter",
    "Move",
    "O",
    "Resignation",
    "S",
    "check_size",
    "format_position",
    "parse_action",
    "parse_position",
    "parse_size",
]

Letter = Literal["S", "O"]
S: Final = "S"
O: Final = "O"  # noqa: E741 (the letter O is the name the game gives it)
EMPTY: Final = "."
LETTERS: Final[tuple[Letter, Letter]] = (S, O)
# The sides a board may have, as the package exports them (sosgame.MAX_SIDE); sosgame.limits
# holds every limit.
MAX_SIDE: Final = BOARD_MAX_SIDE
MIN_SIDE: Final = BOARD_MIN_SIDE

_CELL_RE: Final = re.compile(r"([a-zA-Z])([1-9][0-9]?)")
_SIZE_RE: Final = re.compile(r"\s*(\d+)\s*[xX]\s*(\d+)\s*")
_RESIGN_PREFIX: Final = "resign:"


def _text(value: object, error: type[SosError], kind: str, example: str) -> str:
    """``value``, if it is text; else ``error`` says what it must be."""
    if not isinstance(value, str):
        raise error(f"a {kind} must be text such as {example!r}, not {type(value).__name__}")
    return value


class Cell(NamedTuple):
    """A cell of the board: ``row`` and ``col`` count from 0 at the top-left corner."""

    row: int
    col: int

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Parse a cell such as ``b3`` (column ``b``, third row from the top).

        :raises InvalidCellError: if the text is not a cell.
        """
        match = _CELL_RE.fullmatch(_text(text, InvalidCellError, "cell", "b3").strip())
        if match is None:
            raise InvalidCellError(
                f"{text!r} is not a cell: write a column letter a-z then a row number"
                f" 1-{BOARD_MAX_SIDE}, such as 'b3'",
                code="not_a_cell",
                values={"text": text, "most": BOARD_MAX_SIDE},
            )
        row = int(match.group(2))
        if row > BOARD_MAX_SIDE:
            raise InvalidCellError(
                f"{text!r} is not a cell: row numbers go from 1 to {BOARD_MAX_SIDE}",
                code="cell_row",
                values={"text": text, "most": BOARD_MAX_SIDE},
            )
        return cls(row - 1, ord(match.group(1).lower()) - ord("a"))

    def __str__(self) -> str:
        return f"{chr(ord('a') + self.col)}{self.row + 1}"


class Move(NamedTuple):
    """Writing ``letter`` (``"S"`` or ``"O"``) into ``cell``."""

    letter: Letter
    cell: Cell

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse a move such as ``Sb3`` or ``ob3`` (case does not matter).

        :raises InvalidMoveError: if the text is not a move.
        """
        stripped = _text(text, InvalidMoveError, "move", "Sb3").strip()
        letter = stripped[:1].upper()
        if letter not in LETTERS:
            raise InvalidMoveError(
                f"{text!r} is not a move: it must start with the letter S or O, as in 'Sb3'",
                code="move_letter",
                values={"text": text},
            )
        try:
            cell = Cell.parse(stripped[1:])
        except InvalidCellError as error:
            raise InvalidMoveError(
                f"{text!r} is not a move: {error}",
                code="not_a_move",
                values={"text": text, "error": error},
            ) from None
        return cls(S if letter == S else O, cell)

    def sort_key(self) -> tuple[int, int, int]:
        """Row, column, then S before O: the order moves are listed in everywhere.

        ``sorted(moves, key=Move.sort_key)`` puts ``Sa2`` before ``Sa10``, as on the board.
        """
        return (self.cell.row, self.cell.col, 0 if self.letter == S else 1)

    def __str__(self) -> str:
        return f"{self.letter}{self.cell}"


class Resignation(NamedTuple):
    """Seat ``seat`` (counted from 0) resigning."""

    seat: int

    @classmethod
    def parse(cls, text: str) -> Resignation:
        """Parse a resignation such as ``resign:1``.

        :raises InvalidMoveError: if the text is not a resignation.
        """
        stripped = text.strip().lower() if isinstance(text, str) else ""
        seat = stripped[len(_RESIGN_PREFIX) :]
        if not stripped.startswith(_RESIGN_PREFIX) or not seat.isdigit() or not seat.isascii():
            raise InvalidMoveError(
                f"{text!r} is not a resignation: write 'resign:' and the seat number, as in"
                " 'resign:1'",
                code="not_a_resignation",
                values={"text": text},
            )
        return cls(int(seat))

    def __str__(self) -> str:
        return f"{_RESIGN_PREFIX}{self.seat}"


def parse_size(text: str) -> tuple[int, int] | None:
    """The board size ``(rows, cols)`` that text such as ``4x5`` names, or ``None`` if it names
    none (the size itself is checked by :func:`check_size`)."""
    match = _SIZE_RE.fullmatch(text)
    return None if match is None else (int(match.group(1)), int(match.group(2)))


def check_size(rows: object, cols: object) -> tuple[int, int]:
    """Check a board size: each side 1 to 26, the longer side at least 3 so that a line fits.

    :returns: ``(rows, cols)``, both whole numbers.
    :raises InvalidSettingsError: naming the side that is wrong (in its ``field`` too; for a
        board too small, ``rows``).
    """
    sides = []
    for name, side in (("rows", rows), ("cols", cols)):
        if not isinstance(side, int) or isinstance(side, bool):
            raise InvalidSettingsError(
                f"{name} must be a whole number, not {side!r}",
                field=name,
                code=f"{name}_whole",
                values={"value": side},
            )
        if not BOARD_MIN_SIDE <= side <= BOARD_MAX_SIDE:
            raise InvalidSettingsError(
                f"{name} must be from {BOARD_MIN_SIDE} to {BOARD_MAX_SIDE}, not {side}",
                field=name,
                code=f"{name}_range",
                values={"least": BOARD_MIN_SIDE, "most": BOARD_MAX_SIDE, "value": side},
            )
        sides.append(side)
    if max(sides) < BOARD_MIN_LONG_SIDE:
        raise InvalidSettingsError(
            f"a {rows}x{cols} board is too small: the longer side must be at least"
            f" {BOARD_MIN_LONG_SIDE}",
            field="rows",
            code="board_too_small",
            values={"rows": rows, "cols": cols, "least": BOARD_MIN_LONG_SIDE},
        )
    return sides[0], sides[1]


def parse_action(text: str) -> Move | Resignation:
    """Parse a record's move-list entry: a move (``Sb3``) or a resignation (``resign:1``).

    :raises InvalidMoveError: if the text is neither.
    """
    if isinstance(text, str) and text.strip().lower().startswith("resign"):
        return Resignation.parse(text)
    return Move.parse(text)


def parse_position(text: str) -> list[list[str]]:
    """Parse a position such as ``S.O/.../OSS`` into rows of ``"S"``, ``"O"`` and ``"."``.

    The board must be at least 3 cells long on its longer side and at most 26 on either side.

    :raises InvalidPositionError: naming the row and column of anything wrong.
    """
    if not _text(text, InvalidPositionError, "position", "S.O/.../OSS").strip():
        raise InvalidPositionError(
            "the position is empty: write rows such as 'S.O/.../OSS'", code="position_empty"
        )
    rows = text.strip().split("/")
    width = len(rows[0])
    grid: list[list[str]] = []
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            raise InvalidPositionError(
                f"position {text!r}: row {number} has {len(row)} cells but row 1 has {width}",
                code="position_ragged",
                values={"text": text, "row": number, "cells": len(row), "width": width},
            )
        cells = []
        for col, char in enumerate(row):
            upper = char.upper()
            if upper not in (S, O, EMPTY):
                raise InvalidPositionError(
                    f"position {text!r}: row {number}, column {chr(ord('a') + col)} holds"
                    f" {char!r}; use S, O or . for an empty cell",
                    code="position_char",
                    values={
                        "text": text,
                        "row": number,
                        "column": chr(ord("a") + col),
                        "char": char,
                    },
                )
            cells.append(upper)
        grid.append(cells)
    try:
        check_size(len(grid), width)
    except InvalidSettingsError as error:
        raise InvalidPositionError(
            f"position {text!r}: {error}",
            code="position_size",
            values={"text": text, "error": error},
        ) from None
    return grid


def format_position(cells: list[str] | tuple[str, ...], cols: int) -> str:
    """Format a flat, row-major list of ``"S"``/``"O"``/``"."`` as position text."""
    return "/".join("".join(cells[start : start + cols]) for start in range(0, len(cells), cols))
