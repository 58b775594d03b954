"""One-move rules of thumb: the choices of the ``easy`` and ``medium`` players.

Both work on a :class:`~sosgame.ai.state.State` and return ``(index, letter)`` pairs; the
players turn them into moves.
"""

from __future__ import annotations

import random

from sosgame.ai.state import State, gain, handover
from sosgame.notation import EMPTY, LETTERS

__all__ = ["best_scoring", "can_score", "random_move", "safest_quiet"]

Choice = tuple[int, str]


def random_move(state: State, rng: random.Random) -> Choice:
    """Any legal move, uniformly."""
    return rng.choice(state.empty_indices()), rng.choice(LETTERS)


def best_scoring(state: State, rng: random.Random) -> Choice | None:
    """A move completing the most lines (ties broken by ``rng``), or ``None`` if none scores."""
    cells, shape = state.cells, state.shape
    best = 0
    found: list[Choice] = []
    for index, letter in enumerate(cells):
        if letter != EMPTY:
            continue
        for written in LETTERS:
            count = gain(cells, shape, index, written)
            if count > best:
                best = count
                found = [(index, written)]
            elif count == best and count:
                found.append((index, written))
    return rng.choice(found) if found else None


def can_score(state: State) -> bool:
    """Whether the seat to move has a move completing a line (in simple mode: a win)."""
    cells, shape = state.cells, state.shape
    return any(
        gain(cells, shape, index, written)
        for index, letter in enumerate(cells)
        if letter == EMPTY
        for written in LETTERS
    )


def quiet_handovers(state: State) -> list[tuple[int, int, str]]:
    """Every move as ``(handover, index, letter)``: the lines it would let the next player take.

    Meant for a board with no scoring move on it, where each move is quiet.
    """
    cells, shape = state.cells, state.shape
    return [
        (handover(cells, shape, index, written), index, written)
        for index, letter in enumerate(cells)
        if letter == EMPTY
        for written in LETTERS
    ]


def safest_quiet(state: State, rng: random.Random) -> Choice:
    """A move handing the next player the fewest lines (ties broken by ``rng``)."""
    moves = quiet_handovers(state)
    least = min(moves)[0]
    _, index, written = rng.choice([move for move in moves if move[0] == least])
    return index, written
