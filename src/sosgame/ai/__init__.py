"""Computer players for every level, from ``random`` to ``perfect``.

>>> from sosgame import Game
>>> from sosgame.ai import make_player
>>> game = Game(3, 3, moves=["Sa1", "Ob1"])
>>> str(make_player("medium", seed=7).choose_move(game))
'Sc1'

Every player has one method, ``choose_move(game) -> Move``, which never changes the game.
See ``docs/ai.md`` for how each level plays.
"""

from sosgame.ai.errors import InvalidBudgetError, InvalidLevelError
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
