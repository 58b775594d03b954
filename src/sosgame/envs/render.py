"""How the environments draw the board for ``render()``: the text drawing, or an RGB picture
drawn with Pillow."""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sosgame.game import Game
from sosgame.svg import SEAT_COLOURS, UNOWNED_COLOUR

__all__ = ["RENDER_MODES", "check_render_mode", "render", "rgb_array"]

RENDER_MODES: Final = ("human", "ansi", "rgb_array")
"""What ``render_mode`` may be in every environment (or ``None``)."""

_BACKGROUND = (247, 244, 234)
_GRID = (138, 132, 112)
_INK = (34, 34, 34)


def rgb_array(game: Game, *, cell: int = 48) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """A ``(rows * cell, cols * cell, 3)`` picture: letters, grid, and each line in its
    owner's colour (the palette of :mod:`sosgame.svg`)."""
    width, height = game.cols * cell, game.rows * cell
    image = Image.new("RGB", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    for col in range(game.cols + 1):
        draw.line([(col * cell, 0), (col * cell, height)], fill=_GRID)
    for row in range(game.rows + 1):
        draw.line([(0, row * cell), (width, row * cell)], fill=_GRID)
    for line in game.lines:
        colour = UNOWNED_COLOUR if line.owner is None else SEAT_COLOURS[line.owner]
        first, last = line.cells[0], line.cells[-1]
        ends = [
            (first.col * cell + cell // 2, first.row * cell + cell // 2),
            (last.col * cell + cell // 2, last.row * cell + cell // 2),
        ]
        draw.line(ends, fill=colour, width=max(2, cell // 8))
    font = ImageFont.load_default(size=int(cell * 0.6))
    for index, letter in enumerate(game.position().replace("/", "")):
        if letter != ".":
            row, col = divmod(index, game.cols)
            centre = (col * cell + cell // 2, row * cell + cell // 2)
            draw.text(centre, letter, fill=_INK, font=font, anchor="mm")
    return np.asarray(image, dtype=np.uint8)


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode``, if it is one of :data:`RENDER_MODES` or ``None``.

    :raises ValueError: otherwise.
    """
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}"
        )
    return render_mode


def render(game: Game, render_mode: str | None) -> Any:
    """Draw ``game`` as ``render_mode`` asks: a picture (``"rgb_array"``), the text drawing
    (``"ansi"``), or the drawing printed (``"human"``, returning ``None``)."""
    if render_mode == "rgb_array":
        return rgb_array(game)
    if render_mode == "ansi":
        return str(game)
    if render_mode == "human":
        print(game)
    return None
