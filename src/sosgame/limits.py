"""The limits on board sizes, player names and time budgets, each said once.

Two kinds of limit share a subject, so every name says whose limit it is:

* ``BOARD_*``: the boards the engine plays (any :class:`~sosgame.Game`, a record file, the
  terminal game, the command line and the web server, whose browser zooms and pans the big
  ones): each side :data:`BOARD_MIN_SIDE` to :data:`BOARD_MAX_SIDE` (columns are named ``a``
  to ``z``), the longer side at least :data:`BOARD_MIN_LONG_SIDE` so that a line of three fits.
* :data:`NAME_MAX`: the longest player name, everywhere (:func:`sosgame.settings.check_name`):
  in a record, on the command line, in the terminal game and on the web server, whose browser
  reads it, and the board limits, from ``GET /api/config``.
* ``RECORD_*``, ``CERTIFICATE_*``, ``PUZZLES_*``: the largest file of each kind the program
  reads (:mod:`sosgame.files`), in bytes once decompressed, and how deep its JSON may nest.
* ``SOLVER_*``: the largest transposition table the solver takes by default, in MiB, compiled
  or (``SOLVER_PLAIN_MEMORY_MB``) run as plain Python, which could not fill a larger one.
* :func:`check_seconds`: a time limit a player or the solver is given.

The seat counts are rules of the game: :data:`sosgame.game.MIN_PLAYERS` and ``MAX_PLAYERS``.
"""

from __future__ import annotations

import math
from typing import Final

from sosgame.errors import InvalidSettingsError

__all__ = [
    "BOARD_MAX_SIDE",
    "BOARD_MIN_LONG_SIDE",
    "BOARD_MIN_SIDE",
    "CERTIFICATE_MAX_BYTES",
    "CERTIFICATE_MAX_DEPTH",
    "NAME_MAX",
    "PUZZLES_MAX_BYTES",
    "PUZZLES_MAX_DEPTH",
    "RECORD_MAX_BYTES",
    "RECORD_MAX_DEPTH",
    "RECORD_MAX_NAME",
    "SOLVER_MEMORY_MB",
    "SOLVER_PLAIN_MEMORY_MB",
    "WEB_MAX_NAME",
    "check_seconds",
]

BOARD_MIN_SIDE: Final = 1
BOARD_MIN_LONG_SIDE: Final = 3
BOARD_MAX_SIDE: Final = 26
NAME_MAX: Final = 40  # a longer name does not fit the seat panel
WEB_MAX_NAME: Final = NAME_MAX
RECORD_MAX_NAME: Final = NAME_MAX
# A record nests three deep ({"meta": {"tags": {...}}}); a little room for what comes next.
RECORD_MAX_BYTES: Final = 1024 * 1024
RECORD_MAX_DEPTH: Final = 5
# The largest shipped certificate is 41 MB once decompressed; entries nest three deep.
CERTIFICATE_MAX_BYTES: Final = 512 * 1024 * 1024
CERTIFICATE_MAX_DEPTH: Final = 5
# A puzzle set nests four deep ({"puzzles": [{"line": [...]}]}).
PUZZLES_MAX_BYTES: Final = 64 * 1024 * 1024
PUZZLES_MAX_DEPTH: Final = 6
SOLVER_MEMORY_MB: Final = 512
SOLVER_PLAIN_MEMORY_MB: Final = 64


def check_seconds(
    seconds: object, error: type[InvalidSettingsError] = InvalidSettingsError
) -> None:
    """Check a time limit: a finite number of seconds greater than 0, or ``None`` for none.

    :raises InvalidSettingsError: (``error``, a subclass of it) with code ``seconds`` if it is not.
    """
    if seconds is not None and (
        not isinstance(seconds, int | float)
        or isinstance(seconds, bool)
        or not math.isfinite(seconds)
        or seconds <= 0
    ):
        shown = f"{seconds:g}" if isinstance(seconds, float) else repr(seconds)
        raise error(
            f"seconds must be a number greater than 0, not {shown}",
            code="seconds",
            values={"value": shown},
        )
