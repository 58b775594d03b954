"""How each seat looks: its colour, its symbol and its line style, so colour is never alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from rich.text import Text

from sosgame.notation import Resignation
from sosgame.seats import SEAT_COLOURS, SEAT_SYMBOLS, UNOWNED_COLOUR

if TYPE_CHECKING:
    from sosgame.tui.session import Step

__all__ = [
    "INK",
    "PAPER",
    "line_glyphs",
    "move_line",
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


def move_line(number: int, step: Step, name: str, t: Callable[..., str]) -> Text:
    """Entry ``number`` of a list of moves: the seat's symbol, then the move, ``name`` (who
    made it) and the points it scored, or that ``name`` resigned (in ``t``'s language)."""
    text = Text(f"{number:>3}. ", no_wrap=True)
    text.append(SEAT_SYMBOLS[step.seat], seat_style(step.seat))
    if isinstance(step.action, Resignation):
        text.append(" " + t("resigned", name=name))
        return text
    text.append(f" {step.action!s:<4} {name}")
    if step.points:
        text.append(f"  +{step.points}", f"bold {SEAT_COLOURS[step.seat]}")
    return text
