"""sosgame: the game of SOS, exactly by the rules.

The core (this package's top level) has no dependencies: :class:`Game` holds the rules,
:class:`Move`, :class:`Cell` and :class:`Resignation` are the value types with their text
forms, :class:`Line` and :class:`Outcome` describe results, and every error is a subclass of
:class:`ValueError`. Records live in :mod:`sosgame.record`, drawings in :mod:`sosgame.text` and
:mod:`sosgame.svg`.
"""

from sosgame import errors
from sosgame.errors import *  # noqa: F403 (every error is public)
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, MODES, Action, Game, LegalMoves, Mode
from sosgame.notation import (
    EMPTY,
    LETTERS,
    MAX_SIDE,
    Cell,
    Letter,
    Move,
    O,
    Resignation,
    S,
    format_position,
    parse_action,
    parse_position,
)
from sosgame.outcome import Line, Outcome, Termination

__version__ = "0.1.0"

__all__ = [
    "EMPTY",
    "LETTERS",
    "MAX_PLAYERS",
    "MAX_SIDE",
    "MIN_PLAYERS",
    "MODES",
    "Action",
    "Cell",
    "Game",
    "LegalMoves",
    "Letter",
    "Line",
    "Mode",
    "Move",
    "O",
    "Outcome",
    "Resignation",
    "S",
    "Termination",
    "__version__",
    "format_position",
    "parse_action",
    "parse_position",
]
__all__ += errors.__all__
