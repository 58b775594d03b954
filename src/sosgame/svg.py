"""An SVG picture of the board: the letters, and every SOS line in its owner's colour."""

from __future__ import annotations

from typing import Final, Protocol
from xml.sax.saxutils import escape

from sosgame.seats import SEAT_COLOURS, UNOWNED_COLOUR
from sosgame.text import Drawable

__all__ = ["SEAT_COLOURS", "UNOWNED_COLOUR", "Pictured", "svg"]


class Pictured(Drawable, Protocol):
    """What the picture reads of a board: a :class:`~sosgame.game.Game`, which imports this."""

    @property
    def mode(self) -> str: ...

    @property
    def scores(self) -> tuple[int, ...]: ...


_CELL: Final = 40
_MARGIN: Final = 24


def svg(game: Pictured, *, size: int | None = None, coordinates: bool = True) -> str:
    """Draw ``game`` as an SVG document; ``size`` is its width in pixels (by default natural)."""
    margin = _MARGIN if coordinates else 4
    width = game.cols * _CELL + 2 * margin
    height = game.rows * _CELL + 2 * margin
    scale = f' width="{size}" height="{round(size * height / width)}"' if size else ""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"{scale}'
        ' font-family="sans-serif" role="img">',
        f"<title>{escape(_title(game))}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for row in range(game.rows):
        for col in range(game.cols):
            parts.append(
                f'<rect x="{margin + col * _CELL}" y="{margin + row * _CELL}" width="{_CELL}"'
                f' height="{_CELL}" fill="#f7f4ea" stroke="#8a8470" stroke-width="1"/>'
            )
    if coordinates:
        for col in range(game.cols):
            x = margin + col * _CELL + _CELL // 2
            parts.append(
                f'<text x="{x}" y="{margin - 8}" font-size="12" text-anchor="middle"'
                f' fill="#555555">{chr(ord("a") + col)}</text>'
            )
        for row in range(game.rows):
            y = margin + row * _CELL + _CELL // 2 + 4
            parts.append(
                f'<text x="{margin - 8}" y="{y}" font-size="12" text-anchor="end"'
                f' fill="#555555">{row + 1}</text>'
            )
    for line in game.lines:
        colour = UNOWNED_COLOUR if line.owner is None else SEAT_COLOURS[line.owner]
        first, last = line.cells[0], line.cells[-1]
        x1, y1 = _centre(first.row, first.col, margin)
        x2, y2 = _centre(last.row, last.col, margin)
        owner = "unknown" if line.owner is None else f"seat {line.owner}"
        parts.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="6"'
            f' stroke-linecap="round" stroke-opacity="0.7"><title>{line} ({owner})</title></line>'
        )
    for index, letter in enumerate(game.position().replace("/", "")):
        if letter == ".":
            continue
        row, col = divmod(index, game.cols)
        x, y = _centre(row, col, margin)
        parts.append(
            f'<text x="{x}" y="{y + 9}" font-size="26" font-weight="bold" text-anchor="middle"'
            f' fill="#222222">{letter}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _centre(row: int, col: int, margin: int) -> tuple[int, int]:
    return margin + col * _CELL + _CELL // 2, margin + row * _CELL + _CELL // 2


def _title(game: Pictured) -> str:
    scores = ", ".join(f"seat {seat}: {score}" for seat, score in enumerate(game.scores))
    return f"SOS {game.rows}x{game.cols}, {game.mode} mode; {scores}"
