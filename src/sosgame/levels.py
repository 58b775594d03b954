"""The computer levels, weakest first: the one list every interface offers.

It lives in the core, apart from :mod:`sosgame.ai`, so that an interface can list the levels
and their default time (in ``--help``, a form, a menu) without loading the players and their
search kernels.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias, get_args

__all__ = ["DEFAULT_SECONDS", "DEVICE_LEVELS", "HINT_LEVEL", "LEVELS", "Level"]

Level: TypeAlias = Literal["random", "easy", "medium", "hard", "perfect"]
LEVELS: Final[tuple[Level, ...]] = get_args(Level)
"""Every level, weakest first (the names :func:`sosgame.ai.make_player` takes)."""
DEVICE_LEVELS: Final[tuple[Level, ...]] = ("random", "easy", "medium", "hard")
"""The levels that play on the player's device, in the browser, without the server:
``perfect`` needs the compiled solver to answer in time."""
HINT_LEVEL: Final[Level] = "medium"
"""The level whose move a hint shows, in every interface."""
DEFAULT_SECONDS: Final = 1.0
"""The time a searching level takes per move when given neither ``seconds`` nor ``nodes``."""
