"""The limits on board sizes and player names, each said once.

Two kinds of limit share a subject, so every name says whose limit it is:

* ``BOARD_*``: the boards the engine plays (any :class:`~sosgame.Game`, a record file, the
  terminal game and the command line): each side :data:`BOARD_MIN_SIDE` to
  :data:`BOARD_MAX_SIDE` (columns are named ``a`` to ``z``), the longer side at least
  :data:`BOARD_MIN_LONG_SIDE` so that a line of three fits.
* ``WEB_*``: what the web server offers for a new game or takes in an upload: every board the
  engine plays (sides :data:`WEB_MIN_SIDE` to :data:`WEB_MAX_SIDE`, the longer at least
  :data:`WEB_MIN_LONG_SIDE`; the browser zooms and pans the big ones), names of at most
  :data:`WEB_MAX_NAME` characters. The browser reads them from ``GET /api/config``.
* :data:`RECORD_MAX_NAME`: the longest player name a record file (and so the terminal game,
  which saves them) holds.

The seat counts are rules of the game: :data:`sosgame.game.MIN_PLAYERS` and ``MAX_PLAYERS``.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "BOARD_MAX_SIDE",
    "BOARD_MIN_LONG_SIDE",
    "BOARD_MIN_SIDE",
    "RECORD_MAX_NAME",
    "WEB_MAX_NAME",
    "WEB_MAX_SIDE",
    "WEB_MIN_LONG_SIDE",
    "WEB_MIN_SIDE",
]

BOARD_MIN_SIDE: Final = 1
BOARD_MIN_LONG_SIDE: Final = 3
BOARD_MAX_SIDE: Final = 26
WEB_MIN_SIDE: Final = BOARD_MIN_SIDE
WEB_MAX_SIDE: Final = BOARD_MAX_SIDE
WEB_MIN_LONG_SIDE: Final = BOARD_MIN_LONG_SIDE
WEB_MAX_NAME: Final = 40  # a longer name does not fit the seat panel
RECORD_MAX_NAME: Final = 100
