"""``hard`` keeps a won simple-mode game won: every move it picks is checked by the solver.

The positions are the openings of 4x5 simple (every first move loses there, so the second
player is to move in a won position) and mid-game positions of 4x5 and 5x5 from seeded random
play, kept when the solver says the side to move wins. ``hard`` moves with a node budget,
never a deadline, so every run is the same.
"""

from __future__ import annotations

import random

import pytest

from sosgame import Game
from sosgame.ai import make_player
from sosgame.ai.heuristics import quiet_handovers
from sosgame.ai.state import State
from sosgame.solver import TranspositionTable, solve

NODES = 600_000
"""About a third of what a 0.5 s move searches on one core of the benchmark machine, and less
than a fresh solve of most of these positions takes."""


def openings(rows: int, cols: int) -> list[str]:
    """The position after each first move, one per symmetry class."""
    found: dict[str, str] = {}
    for move in list(Game(rows, cols, mode="simple").legal_moves):
        game = Game(rows, cols, mode="simple", moves=[move])
        found.setdefault(_canonical(game), game.position())
    return list(found.values())


def _canonical(game: Game) -> str:
    rows = game.position().split("/")
    images = [rows, rows[::-1], [row[::-1] for row in rows], [row[::-1] for row in rows[::-1]]]
    return min("/".join(image) for image in images)


def mid_game(rows: int, cols: int, empty: int, seed: int) -> str | None:
    """A position with ``empty`` empty cells after seeded random play that hands no SOS over
    while it can, or ``None`` if the play ends first."""
    rng = random.Random(f"{rows}x{cols}:{empty}:{seed}")
    game = Game(rows, cols, mode="simple")
    while game.position().count(".") > empty:
        state = State(game)
        safe = [(index, letter) for count, index, letter in quiet_handovers(state) if not count]
        if not safe:
            return None
        game.play(state.move(*rng.choice(safe)))
    return None if game.is_over else game.position()


SETS = [(4, 5, empty) for empty in (16, 17, 18)] + [(5, 5, empty) for empty in (17, 18, 19, 20)]
SEEDS = range(8)


@pytest.fixture(scope="module")
def table() -> TranspositionTable:
    return TranspositionTable(64)


def keeps_the_win(position: str, table: TranspositionTable) -> bool | None:
    """Whether ``hard``'s move keeps a won position won (``None`` if it is not won)."""
    game = Game.from_position(position, mode="simple")
    if solve(game, table=table).value != 1:
        return None
    move = make_player("hard", nodes=NODES, seed=1).choose_move(game)
    if game.play(move):
        return True  # an SOS: the game is won
    return solve(game, table=table).value == -1


@pytest.mark.parametrize("position", openings(4, 5))
def test_hard_keeps_every_won_opening_of_4x5_simple_won(
    position: str, table: TranspositionTable
) -> None:
    assert keeps_the_win(position, table) is True


@pytest.mark.parametrize(("rows", "cols", "empty"), SETS)
def test_hard_keeps_won_mid_game_simple_positions_won(
    rows: int, cols: int, empty: int, table: TranspositionTable
) -> None:
    found = [mid_game(rows, cols, empty, seed) for seed in SEEDS]
    kept = {position: keeps_the_win(position, table) for position in found if position}
    won = [position for position, result in kept.items() if result is not None]
    assert won, "no won position to keep"
    assert [position for position in won if not kept[position]] == []
