"""OpenSkill ratings: a finished game's order of places and the new ratings it brings.

A rating is OpenSkill's (full-pairing Bradley-Terry) ``mu`` (skill) and ``sigma`` (how
unsure that is); the one number shown is the cautious ``mu - 3 sigma``, which starts at 0 for
a new player. The model takes any number of seats (3 to 8 players, too) and ties (draws).
The server rates people with it (:mod:`sosgame.web.people.ratings`), ``sosgame arena`` the
computer levels. Rating a game needs the ``openskill`` package (in the ``fast`` and ``web``
extras), imported on first use: this module itself needs the standard library alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

__all__ = ["MODEL", "NEW_PLAYER", "Rating", "new_ratings", "places"]


class _Model:
    """OpenSkill's full-pairing Bradley-Terry model, made when a game is first rated.

    Every seat compared with every other: Plackett-Luce, OpenSkill's default, gives a seat
    just behind a tie for first the winners' gain in games of four.
    """

    mu: Final = 25.0
    sigma: Final = 25.0 / 3
    """OpenSkill's defaults for a new player."""

    @cached_property
    def model(self) -> Any:
        """The OpenSkill model itself."""
        from openskill.models import BradleyTerryFull

        return BradleyTerryFull(mu=self.mu, sigma=self.sigma)

    def rating(self, *, mu: float, sigma: float) -> Any:
        """An OpenSkill rating of this model."""
        return self.model.rating(mu=mu, sigma=sigma)

    def rate(self, teams: list[list[Any]], *, ranks: list[float]) -> list[list[Any]]:
        """The teams' new ratings after a game in which they took ``ranks``."""
        rated: list[list[Any]] = self.model.rate(teams, ranks=ranks)
        return rated


MODEL: Final = _Model()
"""The rating model."""


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating; ``shown`` is the number a leaderboard shows (``mu - 3 sigma``)."""

    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The cautious estimate, rounded to one decimal."""
        return round(self.mu - 3 * self.sigma, 1)

    def to_json(self) -> dict[str, float]:
        """The rating as the API sends it."""
        return {"rating": self.shown, "mu": round(self.mu, 3), "sigma": round(self.sigma, 3)}


NEW_PLAYER: Final = Rating(MODEL.mu, MODEL.sigma)
"""Where every named player starts."""


def places(result: dict[str, Any], out: Sequence[int]) -> list[int]:
    """Each seat's place (0 best; equal places are a tie) in a finished game: the winners
    first, then the seats still in the game, then those who resigned or ran out of time
    (``out``), each group by points."""
    scores = list(result["scores"])
    winners = set(result["winners"])
    gone = set(out) | set(result.get("flagged", []))
    keys = [
        (seat in winners, seat not in gone, scores[seat]) for seat in range(len(scores))
    ]  # fmt: skip
    order = sorted(set(keys), reverse=True)
    return [order.index(key) for key in keys]


def new_ratings(ratings: Sequence[Rating], result_places: Sequence[int]) -> list[Rating]:
    """The seats' ratings after a game in which they took ``result_places``."""
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings]
    rated = MODEL.rate(teams, ranks=[float(place) for place in result_places])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]
