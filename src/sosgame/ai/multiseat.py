"""Matches of three to eight seats: levels seated in a new random order each game, rated with
OpenSkill.

Each game shuffles the levels over the seats (seeded by the match seed and the game's
number), plays to the end and records every seat's points and the winners. A level's share of
wins counts a game it won alone as 1 and a tie for first shared by ``k`` seats as ``1/k``
for each, so the shares of all levels add up to 1; a level seated twice counts both seats.
Ratings come from the OpenSkill model of :mod:`sosgame.ratings`, every game taken in turn
from a new player's rating, a level seated twice getting the mean of its seats' updates.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from sosgame.ai.arena import play_out, run_games
from sosgame.ai.errors import InvalidBudgetError
from sosgame.ai.players import make_player
from sosgame.game import MAX_PLAYERS, Game, Mode

if TYPE_CHECKING:
    from sosgame.ratings import Rating

__all__ = ["SeatGame", "SeatMatch", "play_seat_game", "play_seats"]


@dataclass(frozen=True)
class SeatGame:
    """One game: the level in each seat, each seat's points and the winning seats."""

    index: int
    levels: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    plies: int


@dataclass(frozen=True)
class SeatMatch:
    """A finished match of ``levels`` (one per seat, in the order given)."""

    levels: tuple[str, ...]
    games: tuple[SeatGame, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The distinct levels, in the order given."""
        return tuple(dict.fromkeys(self.levels))

    def wins(self, level: str) -> float:
        """The games ``level`` won, ties for first shared."""
        return sum(
            sum(game.levels[seat] == level for seat in game.winners) / len(game.winners)
            for game in self.games
        )

    def win_share(self, level: str) -> float:
        """``level``'s share of the wins: :meth:`wins` over the games."""
        return self.wins(level) / len(self.games)

    def points(self, level: str) -> int:
        """Every point ``level``'s seats made."""
        return sum(
            score
            for game in self.games
            for seat, score in enumerate(game.scores)
            if game.levels[seat] == level
        )

    def point_share(self, level: str) -> float:
        """``level``'s share of all points made (0 when nobody scored)."""
        total = sum(sum(game.scores) for game in self.games)
        return self.points(level) / total if total else 0.0

    def ratings(self) -> dict[str, Rating]:
        """Each level's OpenSkill rating after the games, taken in turn."""
        from sosgame.ratings import NEW_PLAYER, Rating, new_ratings, places

        ratings = {level: NEW_PLAYER for level in self.names}
        for game in self.games:
            result = {"scores": list(game.scores), "winners": list(game.winners)}
            seats = [ratings[level] for level in game.levels]
            rated = new_ratings(seats, places(result, ()))
            for level in self.names:
                mine = [rating for seat, rating in enumerate(rated) if game.levels[seat] == level]
                ratings[level] = Rating(
                    sum(rating.mu for rating in mine) / len(mine),
                    sum(rating.sigma for rating in mine) / len(mine),
                )
        return ratings


def play_seat_game(
    levels: Sequence[str],
    *,
    rows: int,
    cols: int,
    mode: Mode,
    seconds: float | None,
    seed: int,
    index: int,
) -> SeatGame:
    """Play game ``index`` of a match, the levels seated in this game's random order."""
    order = list(levels)
    random.Random(f"{seed}:{index}").shuffle(order)
    base = seed * 1_000_003 + MAX_PLAYERS * index
    players = [
        make_player(level, seconds=seconds, seed=base + seat) for seat, level in enumerate(order)
    ]
    game = Game(rows, cols, mode=mode, players=len(order))
    outcome = play_out(game, players)
    return SeatGame(index, tuple(order), tuple(game.scores), outcome.winners, game.ply)


def play_seats(
    levels: Sequence[str],
    *,
    rows: int,
    cols: int,
    mode: Mode = "general",
    games: int = 100,
    seconds: float | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    progress: Callable[[Iterator[SeatGame], int], Iterator[SeatGame]] | None = None,
) -> SeatMatch:
    """Play ``games`` games between ``levels``, one per seat (2 to 8 of them).

    :raises InvalidLevelError: for a level that does not exist.
    :raises InvalidBudgetError: for a bad number of levels, ``seconds``, ``games``, ``jobs``
        or ``seed``.
    :raises InvalidSettingsError: for a board the rules do not allow.
    """
    levels = tuple(levels)
    if not 2 <= len(levels) <= MAX_PLAYERS:
        raise InvalidBudgetError(
            f"a match seats 2 to {MAX_PLAYERS} levels, not {len(levels)}: {', '.join(levels)}",
            code="match_seats",
            values={"most": MAX_PLAYERS, "count": len(levels), "levels": ", ".join(levels)},
        )
    for level in levels:
        make_player(level, seconds=seconds)
    Game(rows, cols, mode=mode, players=len(levels))
    play = partial(play_seat_game, levels, rows=rows, cols=cols, mode=mode, seconds=seconds)
    match = partial(SeatMatch, levels)
    return run_games(play, match, games=games, seed=seed, jobs=jobs, progress=progress)
