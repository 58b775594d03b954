"""The symmetries of a board: the cell permutations that map every line onto a line."""

from __future__ import annotations

from functools import cache

__all__ = ["symmetries"]


def _image(kind: int, row: int, col: int, rows: int, cols: int) -> tuple[int, int]:
    # Kinds 0-3: identity and the mirrors (any board); 4-7: transposes and turns (square).
    if kind & 1:
        col = cols - 1 - col
    if kind & 2:
        row = rows - 1 - row
    if kind & 4:
        row, col = col, row
    return row, col


@cache
def symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The distinct symmetries of a ``rows`` x ``cols`` board, the identity first.

    Each is a tuple giving, for every cell index, the index of its image: 8 for a square board
    (rotations and reflections), 4 for a rectangle, 2 for a single row or column.
    """
    found: list[tuple[int, ...]] = []
    for kind in range(8 if rows == cols else 4):
        permutation = []
        for row in range(rows):
            for col in range(cols):
                image_row, image_col = _image(kind, row, col, rows, cols)
                permutation.append(image_row * cols + image_col)
        if tuple(permutation) not in found:
            found.append(tuple(permutation))
    return tuple(found)
