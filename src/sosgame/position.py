"""A game as settings and the text of its actions: what a worker process, a cache or a
database row needs to rebuild it through the engine (:func:`build_game`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sosgame.game import Game, Mode
from sosgame.record import Start, starting_game

__all__ = ["Position", "build_game"]


@dataclass(frozen=True)
class Position:
    """A game's settings (``start`` as a record's ``start`` object, or ``None`` for an
    empty board) and its actions as text, such as ``Sb3`` or ``resign:1``."""

    rows: int
    cols: int
    players: int
    mode: Mode
    start: dict[str, Any] | None
    actions: tuple[str, ...]


def build_game(position: Position) -> Game:
    """Replay a position's actions through the engine, from its start."""
    start = None
    if position.start is not None:
        scores = position.start.get("scores")
        start = Start(
            str(position.start["position"]),
            int(position.start.get("turn", 0)),
            None if scores is None else tuple(scores),
        )
    game = starting_game(
        position.rows, position.cols, players=position.players, mode=position.mode, start=start
    )
    game.play_all(position.actions)
    return game
