"""Computer moves, worked out in another process so a long search never holds up the server."""

from __future__ import annotations

from sosgame.position import Position, build_game

__all__ = ["Position", "build_game", "choose_move"]  # the first two from sosgame.position

SEARCH_SECONDS = 1.0
"""The time a searching level is given per move."""


def choose_move(level: str, position: Position, seed: int | None = None) -> str:
    """The move the computer player of ``level`` picks, as text such as ``Sb3``."""
    from sosgame.ai import make_player

    player = make_player(level, seconds=SEARCH_SECONDS, seed=seed)
    return str(player.choose_move(build_game(position)))
