"""How a move's value follows from the position after it: the one rule of the solver's values.

Values are from the point of view of the seat to move. A move completing ``lines`` lines
scores them and keeps the turn, so it is worth ``lines`` plus the value of the position after
it; a quiet move hands the turn over, so it is worth minus that value. A move that ends the
game is worth its lines (in simple mode: 1, a win, if it completes any, else 0, a draw).

The solver, the split solves, the certificates and the analysis all value moves by these
functions. Two places write the rule out again on purpose: the compiled search
(:mod:`sosgame.search`), which inlines it for speed, and :mod:`sosgame.certify`, which checks
certificates with the rules alone, independent of the solver.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["child_claim", "end_value", "move_bounds", "move_value"]

Value = TypeVar("Value", int, float)


def move_value(lines: int, after: Value) -> Value:
    """The value of a move completing ``lines``, given the value ``after`` of the position
    after it (to the seat to move there)."""
    return lines + after if lines else -after


def end_value(lines: int, simple: bool) -> int:
    """The value of a move completing ``lines`` that ends the game."""
    return min(lines, 1) if simple else lines


def move_bounds(lines: int, low: int, high: int) -> tuple[int, int]:
    """The least and most a move completing ``lines`` is worth, given the least and most the
    position after it is worth."""
    return (lines + low, lines + high) if lines else (-high, -low)


def child_claim(lines: int, bound: int, lower: bool) -> tuple[int, bool]:
    """What the position after a move completing ``lines`` must be worth for the move to be
    worth at least ``bound`` (``lower``) or at most ``bound``: a bound on it, and whether
    that is a lower bound."""
    return (bound - lines, lower) if lines else (-bound, not lower)
