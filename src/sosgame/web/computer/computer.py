"""Computer moves, worked out in another process so a long search never holds up the server."""

from __future__ import annotations

import contextlib

from sosgame.snapshot import Snapshot, build_game

__all__ = ["choose_move", "prepare", "suggest"]

SEARCH_SECONDS = 1.0
"""The time a searching level is given per move."""
QUICK_NODES = 2_000_000
"""The most solver nodes spent checking whether a hint is a best move."""


def choose_move(level: str, snapshot: Snapshot, seed: int | None = None) -> str:
    """The move the computer player of ``level`` picks, as text such as ``Sb3``."""
    from sosgame.ai import make_player

    player = make_player(level, seconds=SEARCH_SECONDS, seed=seed)
    return str(player.choose_move(build_game(snapshot)))


def prepare() -> None:
    """Load, in this worker, what its searches need: the players and their kernels."""
    from sosgame.ai.alphabeta import warm_up
    from sosgame.solver import warm_up as solver_warm_up

    warm_up()
    solver_warm_up()


def suggest(level: str, snapshot: Snapshot, seed: int | None = None) -> tuple[str, bool]:
    """The move ``level`` picks, and whether it is proven best.

    Proven by the player itself (``perfect``, or ``hard`` near the end), or else, on a
    two-seat board the solver settles at once, by checking the move against the solver.
    """
    from sosgame.ai import make_player
    from sosgame.solver import QUICK_EMPTY_CELLS, NodeLimitError, solve

    game = build_game(snapshot)
    player = make_player(level, seconds=SEARCH_SECONDS, seed=seed)
    move = player.choose_move(game)
    proven = bool(getattr(player, "proven", False))
    if not proven and game.players == 2 and game.position().count(".") <= QUICK_EMPTY_CELLS:
        with contextlib.suppress(NodeLimitError):
            proven = move in solve(game, node_limit=QUICK_NODES).best_moves
    return str(move), proven
