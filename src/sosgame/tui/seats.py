"""How each seat looks: its colour, its symbol and its line style, so colour is never alone."""

from __future__ import annotations

from typing import Final

from rich.text import Text

from sosgame.seats import SEAT_COLOURS, SEAT_SYMBOLS, UNOWNED_COLOUR

__all__ = [
    "INK",
    "PAPER",
    "line_glyphs",
    "seat_colour",
    "seat_key",
    "seat_style",
]

PAPER: Final = "#f7f4ea"
"""The board's background: light, like the SVG drawing, so that every seat colour shows."""
INK: Final = "#222222"
"""The colour of the letters."""

# Across and down, each seat draws its lines in its own stroke (thin, heavy, double, dashed...),
# so that two seats' lines differ even to someone who cannot tell their colours apart.
_ACROSS: Final = ("─", "━", "═", "┄", "┅", "┈", "╌", "╍")
_DOWN: Final = ("│", "┃", "║", "┆", "┇", "┊", "╎", "╏")


def line_glyphs(owner: int | None) -> tuple[str, str]:
    """The characters for a line across and down, for seat ``owner`` (``None``: unknown)."""
    if owner is None:
        return ("·", "·")
    return (_ACROSS[owner], _DOWN[owner])


def seat_colour(owner: int | None) -> str:
    """The colour of seat ``owner``'s lines (``None``: a line whose owner is unknown)."""
    return UNOWNED_COLOUR if owner is None else SEAT_COLOURS[owner]


def seat_style(seat: int) -> str:
    """A Rich style showing seat ``seat``'s colour on the board's paper."""
    return f"bold {SEAT_COLOURS[seat]} on {PAPER}"


def seat_key(seat: int) -> Text:
    """Seat ``seat``'s symbol and a sample of its stroke, in its colour: the key to the board."""
    return Text(f"{SEAT_SYMBOLS[seat]} {_ACROSS[seat] * 2}", seat_style(seat))
