"""OpenSkill ratings on the server: the fixed ratings of the computer levels, measured with
``sosgame arena``, beside the model and arithmetic of :mod:`sosgame.ratings` (re-exported
here): a finished game's order of places and the new ratings it brings; and what makes a
game count (:data:`MIN_MOVES`, :func:`moves_per_seat`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sosgame.ratings import MODEL, NEW_PLAYER, Rating, new_ratings, places
from sosgame.snapshot import Snapshot, build_game

__all__ = [
    "ARENA_COMMAND",
    "ARENA_MATCHES",
    "COMPUTER_RATINGS",
    "DAY_MS",
    "MIN_MOVES",
    "MODEL",
    "NEW_PLAYER",
    "ArenaMatch",
    "Rating",
    "fit_computer_ratings",
    "moves_per_seat",
    "new_ratings",
    "places",
    "weighted",
]

MIN_MOVES: Final = 2
"""Moves each seat must have made for a game to be rated: a game resigned or lost on time
before that is over but unrated (it tells nothing of the players, and costs nothing to
throw)."""

DAY_MS: Final = 24 * 3600 * 1000
"""The rolling window in which rated games between the same two players are counted."""


def moves_per_seat(snapshot: Snapshot) -> list[int]:
    """How many moves each seat made in the game (resignations are not moves)."""
    game = build_game(
        Snapshot(snapshot.rows, snapshot.cols, snapshot.players, snapshot.mode, snapshot.start, ())
    )
    counts = [0] * snapshot.players
    for action in snapshot.actions:
        if not action.startswith("resign:"):
            counts[game.turn] += 1
        game.apply(action)
    return counts


def weighted(before: Rating, after: Rating, share: float) -> Rating:
    """A rating that takes only ``share`` (0 to 1) of the change from ``before`` to ``after``:
    ``mu`` and ``sigma`` each moved that part of the way."""
    return Rating(
        before.mu + share * (after.mu - before.mu),
        before.sigma + share * (after.sigma - before.sigma),
    )


# ------------------------------------------------------------------- the computer levels


@dataclass(frozen=True)
class ArenaMatch:
    """One ``sosgame arena LEVEL_A LEVEL_B`` match: A's wins, draws and losses."""

    level_a: str
    level_b: str
    wins: int
    draws: int
    losses: int


ARENA_COMMAND: Final = (
    "sosgame arena LEVEL_A LEVEL_B --size 5 --mode general --games K --seconds 0.5 --seed 13 --json"
)
"""How :data:`ARENA_MATCHES` were measured (K = 200 for the one-move levels, 60 for hard
against medium, 40 for perfect against hard)."""

ARENA_MATCHES: Final = (
    ArenaMatch("easy", "random", 200, 0, 0),
    ArenaMatch("medium", "easy", 200, 0, 0),
    ArenaMatch("medium", "random", 200, 0, 0),
    ArenaMatch("hard", "medium", 54, 4, 2),
    ArenaMatch("perfect", "hard", 21, 16, 3),
)
"""The measured matches (docs/ai.md, "Ratings of the computer levels")."""


def _spread(match: ArenaMatch) -> list[tuple[int, int]]:
    """The match's games as places (A, B), wins, draws and losses spread evenly."""
    results = [(0, 1)] * match.wins + [(0, 0)] * match.draws + [(1, 0)] * match.losses
    total = len(results)
    # Every k-th game, k coprime with the count, so no kind of result comes in a run.
    step = next(k for k in range(total // 2 + 1, total + 1) if _coprime(k, total))
    return [results[(index * step) % total] for index in range(total)]


def _coprime(a: int, b: int) -> bool:
    while b:
        a, b = b, a % b
    return a == 1


def fit_computer_ratings(matches: Sequence[ArenaMatch] = ARENA_MATCHES) -> dict[str, Rating]:
    """Every level's rating after the arena games, played through the same model as people's
    games (from a new player's rating, the matches' games taken in turn)."""
    levels = sorted({level for match in matches for level in (match.level_a, match.level_b)})
    ratings = {level: NEW_PLAYER for level in levels}
    games = [_spread(match) for match in matches]
    for index in range(max(len(each) for each in games)):
        for match, each in zip(matches, games, strict=True):
            if index < len(each):
                pair = [ratings[match.level_a], ratings[match.level_b]]
                ratings[match.level_a], ratings[match.level_b] = new_ratings(pair, each[index])
    return {
        level: Rating(round(rating.mu, 3), round(rating.sigma, 3))
        for level, rating in ratings.items()
    }


COMPUTER_RATINGS: Final = {
    "random": Rating(-16.026, 3.3),
    "easy": Rating(11.956, 2.609),
    "medium": Rating(37.213, 2.611),
    "hard": Rating(41.971, 2.633),
    "perfect": Rating(45.455, 3.435),
}
"""The computer levels' fixed ratings: :func:`fit_computer_ratings` of the measured matches
(a test checks that they agree). A game against the computer moves the person's rating
only."""
