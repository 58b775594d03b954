"""Shared test helpers: strategies for random games, an independent line counter, and plain
minimax over the rules engine to check the solver against."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import settings
from hypothesis import strategies as st

from sosgame import Game, Move
from sosgame.game import Mode

AXES = ((0, 1), (1, 0), (1, 1), (1, -1))


def examples(wanted: int) -> int:
    """``wanted`` examples of a costly property, or fewer in the fast loop's profile."""
    return min(wanted, settings.default.max_examples)


def count_sos(position: str) -> int:
    """Count the S-O-S lines in a position text, independently of the engine's tables."""
    grid = position.split("/")
    rows, cols = len(grid), len(grid[0])
    count = 0
    for r in range(rows):
        for c in range(cols):
            for dr, dc in AXES:
                cells = [(r + k * dr, c + k * dc) for k in range(3)]
                inside = all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells)
                if inside and "".join(grid[rr][cc] for rr, cc in cells) == "SOS":
                    count += 1
    return count


@st.composite
def board_settings(
    draw: st.DrawFn, *, max_side: int = 6, max_players: int = 8
) -> dict[str, object]:
    """Rows, cols, players and mode of a random game."""
    rows = draw(st.integers(1, max_side))
    low = 3 if rows < 3 else 1
    cols = draw(st.integers(low, max_side))
    return {
        "rows": rows,
        "cols": cols,
        "players": draw(st.integers(2, max_players)),
        "mode": draw(st.sampled_from(["general", "simple"])),
    }


def random_game(settings: dict[str, object], seed: int, *, limit: int | None = None) -> Game:
    """A game of the given settings played with random legal moves (up to ``limit`` moves)."""
    rng = random.Random(seed)
    game = Game(
        int(settings["rows"]),  # type: ignore[call-overload]
        int(settings["cols"]),  # type: ignore[call-overload]
        players=int(settings["players"]),  # type: ignore[call-overload]
        mode=settings["mode"],  # type: ignore[arg-type]
    )
    while not game.is_over and (limit is None or game.ply < limit):
        game.play(rng.choice(list(game.legal_moves)))
    return game


@cache
def minimax_value(position: str, mode: Mode) -> int:
    """The mover's value by full minimax over the engine: no pruning, no tables."""
    game = Game.from_position(position, mode=mode)
    return max(minimax_move_value(game, move) for move in list(game.legal_moves))


def minimax_move_value(game: Game, move: Move) -> int:
    """What ``move`` is worth to the mover of ``game``, by :func:`minimax_value`."""
    trial = game.copy()
    lines = len(trial.play(move))
    if trial.is_over:
        return (1 if lines else 0) if game.mode == "simple" else lines
    if lines:
        return 1 if game.mode == "simple" else lines + minimax_value(trial.position(), game.mode)
    return -minimax_value(trial.position(), game.mode)
