"""What chooses the bot's moves: a computer level, or any Python callable.

A callable is given the game (a :class:`sosgame.Game` with every move so far, the bot's seat
to move) and returns a :class:`sosgame.Move` or its text (``"Sb3"``). If it takes them by
name, it is also given ``seat`` (the bot's seat, from 0) and ``seconds`` (what the bot's clock
has left, ``None`` in a game without a clock).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from sosgame.bot.errors import BotError
from sosgame.errors import SosError
from sosgame.game import Game
from sosgame.levels import DEFAULT_SECONDS
from sosgame.notation import Move

__all__ = [
    "SAFETY_SECONDS",
    "BadMoveError",
    "Turn",
    "budget",
    "callable_mover",
    "level_mover",
    "load_callable",
]

SAFETY_SECONDS: Final = 0.3
"""Time kept on the clock for the move's way to the server and back."""


@dataclass(frozen=True)
class Turn:
    """The bot's turn: its ``seat``, the ``seconds`` its clock has left (``None`` without a
    clock) and the ``budget``, the seconds it should spend on this move."""

    seat: int
    seconds: float | None
    budget: float


Mover = Callable[[Game, Turn], Move]
"""A player as the client calls it: the game and the turn to a legal move."""


class BadMoveError(Exception):
    """The player gave no legal move: ``what`` it gave and ``why`` it is refused."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")
        self.what = what
        self.why = why


def budget(game: Game, seconds: float | None, increment: float, most: float) -> float:
    """The seconds to spend on a move: at most ``most``, and with a clock a fair share of
    what is left (each of the bot's moves still to come gets as much, plus most of the
    increment), keeping :data:`SAFETY_SECONDS` for the way to the server."""
    if seconds is None:
        return most
    moves_left = max(1, len(game.empty_cells()) // game.players)
    share = (seconds - SAFETY_SECONDS) / moves_left + 0.8 * increment
    return max(0.0, min(most, share))


def level_mover(level: str, *, seconds: float = DEFAULT_SECONDS, seed: int | None = None) -> Mover:
    """The computer level ``level``, spending at most ``seconds`` a move (less when its clock
    is short)."""
    from sosgame.ai import make_player

    make_player(level, seconds=seconds, seed=seed)  # an unknown level is refused now

    def move(game: Game, turn: Turn) -> Move:
        if turn.budget < 0.01:
            return _first_legal(game)
        return make_player(level, seconds=turn.budget, seed=seed).choose_move(game)

    return move


def load_callable(spec: str) -> Callable[..., Any]:
    """The callable ``module:function`` names (``function`` may be dotted: ``mod:Cls.method``).

    :raises BotError: for text of another form, a module that does not import, a name it
        lacks, or a value that cannot be called.
    """
    module_name, colon, name = spec.partition(":")
    if not (colon and module_name and name):
        raise BotError("player_form", spec=spec)
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise BotError("player_import", module=module_name, error=str(error)) from None
    except Exception as error:  # the module failed while it ran
        raise BotError("player_import", module=module_name, error=repr(error)) from None
    for part in name.split("."):
        if not hasattr(found, part):
            raise BotError("player_missing", module=module_name, name=name)
        found = getattr(found, part)
    if not callable(found):
        raise BotError("player_not_callable", spec=spec, kind=type(found).__name__)
    return found  # type: ignore[no-any-return]


def callable_mover(function: Callable[..., Any]) -> Mover:
    """``function`` as a player: called with the game, and ``seat`` and ``seconds`` if it
    takes them by name. What it returns is checked by the caller (:func:`legal`)."""
    parameters: Mapping[str, inspect.Parameter] = {}
    with contextlib.suppress(TypeError, ValueError):  # a callable Python cannot look into
        parameters = inspect.signature(function).parameters
    anything = any(one.kind is inspect.Parameter.VAR_KEYWORD for one in parameters.values())
    extras = {name for name in ("seat", "seconds") if anything or name in parameters}

    def move(game: Game, turn: Turn) -> Any:
        given = {"seat": turn.seat, "seconds": turn.seconds}
        return function(game, **{name: given[name] for name in extras})

    return move


def legal(game: Game, returned: object) -> Move:
    """What a player returned, as a legal move of ``game``.

    :raises BadMoveError: for anything else (not a move, or one the position forbids).
    """
    if isinstance(returned, str):
        try:
            move = Move.parse(returned)
        except SosError as error:
            raise BadMoveError(repr(returned), str(error)) from None
    elif isinstance(returned, Move):
        move = returned
    else:
        raise BadMoveError(repr(returned)[:80], "not a move")
    if move not in game.legal_moves:
        try:
            game.copy().play(move)
        except SosError as error:
            raise BadMoveError(str(move), str(error)) from None
        raise BadMoveError(str(move), "not legal")
    return move


def fallback(game: Game) -> Move:
    """The move played for a player that gave none: a legal one at random, so that the
    game goes on and is not lost on time."""
    return random.choice(list(game.legal_moves))


def _first_legal(game: Game) -> Move:
    return next(iter(game.legal_moves))
