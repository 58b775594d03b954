"""Computer players for every level, from ``random`` to ``perfect``.

>>> from sosgame import Game
>>> from sosgame.ai import make_player
>>> game = Game(3, 3, moves=["Sa1", "Ob1"])
>>> str(make_player("medium", seed=7).choose_move(game))
'Sc1'

Every player has one method, ``choose_move(game) -> Move``, which never changes the game.
See ``docs/ai.md`` for how each level plays.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from sosgame.ai.errors import InvalidBudgetError, InvalidLevelError

if TYPE_CHECKING:
    from sosgame.ai.players import DEFAULT_SECONDS, LEVELS, Budget, Level, Player, make_player

__all__ = [
    "DEFAULT_SECONDS",
    "LEVELS",
    "Budget",
    "InvalidBudgetError",
    "InvalidLevelError",
    "Level",
    "Player",
    "make_player",
]


def __getattr__(name: str) -> Any:
    # The players load the search kernels (and numba): only when asked for, so that a
    # program importing one of this package's light modules (the puzzles, the device's
    # levels) does not pay for them.
    if name in __all__:
        return getattr(import_module("sosgame.ai.players"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
