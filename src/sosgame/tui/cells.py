"""Measure Hindi as terminals draw it: a spacing vowel sign takes a cell of its own.

Rich (which Textual measures text with) counts spacing combining marks (Unicode category
``Mc``, such as the Devanagari vowel signs in ``खिलाड़ी``) as zero cells wide, while terminals
that follow ``wcwidth`` (xterm, VTE, tmux and most others) give each one a cell. Left alone,
every Hindi line is drawn wider than it was laid out, and borders and columns break. This
module gives those marks one cell in Rich's width table, for the game's own process only.
"""

from __future__ import annotations

import unicodedata
from typing import Any

__all__ = ["measure_spacing_marks"]

_done = False


def measure_spacing_marks() -> bool:
    """Count spacing combining marks as one cell from now on; returns whether it could.

    It does nothing (and returns False) if Rich's tables are not laid out as expected.
    """
    global _done  # noqa: PLW0603 (once per process: the patched tables are shared)
    if _done:
        return True
    try:
        from rich import cells
        from rich._unicode_data import load

        def widened(unicode_version: str = "auto") -> Any:
            table = load(unicode_version)
            widths: list[tuple[int, int, int]] = []
            for start, end, width in table.widths:
                if width != 0:
                    widths.append((start, end, width))
                    continue
                for code in range(start, end + 1):
                    size = 1 if unicodedata.category(chr(code)) == "Mc" else 0
                    if widths and widths[-1][2] == size and widths[-1][1] == code - 1:
                        widths[-1] = (widths[-1][0], code, size)
                    else:
                        widths.append((code, code, size))
            return table._replace(widths=widths)

        cache: dict[str, Any] = {}

        def load_widened(unicode_version: str = "auto") -> Any:
            if unicode_version not in cache:
                cache[unicode_version] = widened(unicode_version)
            return cache[unicode_version]

        if cells.cell_len("खि") != 1:  # not the table this was written for: leave it
            return False
        setattr(cells, "load_cell_table", load_widened)  # noqa: B010 (a private name)
        cells.get_character_cell_size.cache_clear()
        cells.cached_cell_len.cache_clear()
    except (ImportError, AttributeError, TypeError, ValueError):
        return False
    _done = True
    return True
