"""Computer moves, worked out in another process so a long search never holds up the server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sosgame.game import Game, Mode
from sosgame.record import Start, starting_game

__all__ = ["Position", "build_game", "choose_move"]

SEARCH_SECONDS = 1.0
"""The time a searching level is given per move."""


@dataclass(frozen=True)
class Position:
    """What a worker needs to rebuild a game: its settings and its actions as text."""

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


def choose_move(level: str, position: Position, seed: int | None = None) -> str:
    """The move the computer player of ``level`` picks, as text such as ``Sb3``."""
    from sosgame.ai import make_player

    player = make_player(level, seconds=SEARCH_SECONDS, seed=seed)
    return str(player.choose_move(build_game(position)))
