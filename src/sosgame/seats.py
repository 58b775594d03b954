"""How each seat is shown everywhere: its colour and its symbol, so colour is never alone.

The SVG drawing, the terminal game and the browser all take them from here.
"""

from __future__ import annotations

from typing import Final

__all__ = ["SEAT_COLOURS", "SEAT_SYMBOLS", "UNOWNED_COLOUR"]

SEAT_COLOURS: Final = (
    "#0072B2",  # blue
    "#D55E00",  # vermilion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#7F6A00",  # dark yellow
    "#000000",  # black
)
"""One colour per seat, from the Okabe-Ito palette that colour-blind readers can tell apart."""

SEAT_SYMBOLS: Final = ("●", "▲", "■", "◆", "★", "✚", "▼", "✖")
"""One symbol per seat, shown beside its name and moves."""

UNOWNED_COLOUR: Final = "#888888"
"""The colour of lines that were on a set-up board before play, whose owner is unknown."""
