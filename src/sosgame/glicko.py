"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), for puzzles.

A puzzle attempt is a game of two: the player wins by solving it, the puzzle wins when the
player misses. Both ratings change after each first attempt, one attempt being one rating
period, as lichess rates its puzzles. Ratings are on the Glicko scale (1500 for a newcomer,
with a deviation of 350 that shrinks as games come in).

>>> player, puzzle = update(NEW_RATING, Glicko(1500, 60, 0.06), 1.0)
>>> round(player.rating), round(puzzle.rating)
(1675, 1493)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

__all__ = ["NEW_RATING", "Glicko", "update"]

_SCALE: Final = 173.7178
_TAU: Final = 0.5
"""How much the volatility may change: Glickman suggests 0.3 to 1.2."""
_EPSILON: Final = 1e-6
MIN_DEVIATION: Final = 45.0
"""The least deviation kept, so that a rating never freezes."""
MAX_DEVIATION: Final = 350.0


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating: ``rating``, its ``deviation`` and the ``volatility``."""

    rating: float
    deviation: float
    volatility: float = 0.06

    def to_json(self) -> dict[str, float]:
        """The rating as the API sends it."""
        return {"rating": round(self.rating), "deviation": round(self.deviation, 1)}


NEW_RATING: Final = Glicko(1500.0, MAX_DEVIATION, 0.06)
"""Where every player starts."""


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _volatility(sigma: float, phi: float, variance: float, delta: float) -> float:
    """The new volatility (step 5 of Glickman's paper, the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - variance - ex)
        return top / (2 * (phi * phi + variance + ex) ** 2) - (x - a) / _TAU**2

    low = a
    if delta * delta > phi * phi + variance:
        high = math.log(delta * delta - phi * phi - variance)
    else:
        k = 1
        while f(a - k * _TAU) < 0:
            k += 1
        high = a - k * _TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def _one(own: Glicko, other: Glicko, score: float) -> Glicko:
    mu = (own.rating - 1500) / _SCALE
    phi = own.deviation / _SCALE
    mu_j = (other.rating - 1500) / _SCALE
    phi_j = other.deviation / _SCALE
    g = _g(phi_j)
    expected = 1 / (1 + math.exp(-g * (mu - mu_j)))
    variance = 1 / (g * g * expected * (1 - expected))
    delta = variance * g * (score - expected)
    sigma = _volatility(own.volatility, phi, variance, delta)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / variance)
    new_mu = mu + new_phi * new_phi * g * (score - expected)
    deviation = min(max(new_phi * _SCALE, MIN_DEVIATION), MAX_DEVIATION)
    return Glicko(new_mu * _SCALE + 1500, deviation, sigma)


def update(player: Glicko, puzzle: Glicko, score: float) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's new ratings after an attempt the player won (``score``
    1.0) or lost (0.0)."""
    return _one(player, puzzle, score), _one(puzzle, player, 1.0 - score)
