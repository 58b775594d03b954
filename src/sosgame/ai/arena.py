"""Matches between two levels: games with colours swapped, run on every core, and Elo.

Matches of more seats are in :mod:`sosgame.ai.multiseat`.
"""

from __future__ import annotations

import math
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, Protocol, TypeVar

from sosgame.ai.errors import InvalidBudgetError
from sosgame.ai.players import Player, make_player
from sosgame.game import Game, Mode
from sosgame.outcome import Outcome
from sosgame.processes import check_workers, process_pool

__all__ = [
    "GamePlayer",
    "GameResult",
    "MatchResult",
    "MatchStopped",
    "elo",
    "play_game",
    "play_match",
    "play_out",
    "run_games",
]

Played = TypeVar("Played")
Match = TypeVar("Match")
Played_co = TypeVar("Played_co", covariant=True)


class GamePlayer(Protocol[Played_co]):
    """Plays game ``index`` of a match whose games are seeded from ``seed``."""

    def __call__(self, *, seed: int, index: int) -> Played_co: ...


Z_95: Final = 1.959964
"""The two-sided 95% point of the normal distribution."""


@dataclass(frozen=True)
class GameResult:
    """One game: ``a_first`` says whether level A had the first seat; ``score`` is A's."""

    index: int
    a_first: bool
    score: float
    points: tuple[int, int]
    """A's points and B's points."""
    plies: int


def elo(score: float) -> float:
    """The Elo difference for an expected ``score`` between 0 and 1 (infinite at either end)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0 turns -0.0 into 0.0


def _wilson(score: float, count: int) -> tuple[float, float]:
    z2 = Z_95 * Z_95
    centre = (score + z2 / (2 * count)) / (1 + z2 / count)
    half = Z_95 * math.sqrt(score * (1 - score) / count + z2 / (4 * count * count))
    half /= 1 + z2 / count
    low = 0.0 if score <= 0 else max(0.0, centre - half)
    high = 1.0 if score >= 1 else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class MatchResult:
    """A finished match from level A's side: wins, draws, losses and what they are worth."""

    level_a: str
    level_b: str
    games: tuple[GameResult, ...]

    @property
    def wins(self) -> int:
        """Games A won."""
        return sum(game.score == 1 for game in self.games)

    @property
    def draws(self) -> int:
        """Drawn games."""
        return sum(game.score == 0.5 for game in self.games)

    @property
    def losses(self) -> int:
        """Games A lost."""
        return sum(game.score == 0 for game in self.games)

    @property
    def score(self) -> float:
        """A's share of the points: wins count 1, draws 1/2."""
        return sum(game.score for game in self.games) / len(self.games)

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the score: the normal approximation from the games' spread.

        When every game ends the same way the spread is zero, and the Wilson interval (which
        never has zero width) is used instead.
        """
        count = len(self.games)
        mean = self.score
        variance = sum((game.score - mean) ** 2 for game in self.games) / count
        if variance == 0:
            return _wilson(mean, count)
        half = Z_95 * math.sqrt(variance / count)
        return max(0.0, mean - half), min(1.0, mean + half)

    def elo(self) -> tuple[float, float, float]:
        """The Elo difference of A over B, with the ends of its 95% interval."""
        low, high = self.interval()
        return elo(self.score), elo(low), elo(high)


def play_game(
    level_a: str,
    level_b: str,
    *,
    rows: int,
    cols: int,
    mode: Mode,
    seconds: float | None,
    seed: int,
    index: int,
) -> GameResult:
    """Play game ``index`` of a match: A takes the first seat in even-numbered games."""
    a_first = index % 2 == 0
    player_a = make_player(level_a, seconds=seconds, seed=seed * 1_000_003 + 2 * index)
    player_b = make_player(level_b, seconds=seconds, seed=seed * 1_000_003 + 2 * index + 1)
    seats = (player_a, player_b) if a_first else (player_b, player_a)
    game = Game(rows, cols, mode=mode)
    outcome = play_out(game, seats)
    seat_a = 0 if a_first else 1
    winner = outcome.winner
    score = 0.5 if winner is None else float(winner == seat_a)
    points = (game.scores[seat_a], game.scores[1 - seat_a])
    return GameResult(index, a_first, score, points, game.ply)


def play_match(
    level_a: str,
    level_b: str,
    *,
    rows: int,
    cols: int,
    mode: Mode = "general",
    games: int = 100,
    seconds: float | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    progress: Callable[[Iterator[GameResult], int], Iterator[GameResult]] | None = None,
) -> MatchResult:
    """Play ``games`` games between two levels, colours swapped every game.

    Games run in ``jobs`` processes (by default one per core); ``progress``, if given, wraps
    the stream of finished games (for a progress bar).

    :raises InvalidLevelError: for a level that does not exist.
    :raises InvalidBudgetError: for a bad ``seconds``, ``games``, ``jobs`` or ``seed``.
    """
    make_player(level_a, seconds=seconds)
    make_player(level_b, seconds=seconds)
    Game(rows, cols, mode=mode)
    play = partial(play_game, level_a, level_b, rows=rows, cols=cols, mode=mode, seconds=seconds)
    match = partial(MatchResult, level_a, level_b)
    return run_games(play, match, games=games, seed=seed, jobs=jobs, progress=progress)


def play_out(game: Game, seats: Sequence[Player]) -> Outcome:
    """Play ``game`` to its end, each seat's player choosing its moves."""
    while not game.is_over:
        game.play(seats[game.turn].choose_move(game))
    outcome = game.outcome
    assert outcome is not None
    return outcome


def _call(task: Callable[[], Played]) -> Played:
    return task()


def run_games(
    play: GamePlayer[Played],
    match: Callable[[tuple[Played, ...]], Match],
    *,
    games: int,
    seed: int | None,
    jobs: int | None,
    progress: Callable[[Iterator[Played], int], Iterator[Played]] | None,
) -> Match:
    """Play games 0 to ``games - 1`` with ``play`` in ``jobs`` processes (by default one per
    core), every game seeded from ``seed``, and return the ``match`` of the games played.

    Ctrl-C stops every game at once (the worker processes are killed) and raises
    :class:`MatchStopped` with the ``match`` of the games finished before it.

    :raises InvalidBudgetError: for a bad ``games``, ``jobs`` or ``seed``.
    """
    for name, value in (("games", games), ("jobs", jobs)):
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 1
        ):
            raise InvalidBudgetError(
                f"{name} must be a whole number of at least 1, not {value!r}",
                code=name,
                values={"value": value},
            )
    check_workers(jobs, "jobs")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidBudgetError(
            f"seed must be a whole number, not {seed!r}", code="seed", values={"value": seed}
        )
    workers = min(jobs or os.cpu_count() or 1, games)
    listed = [partial(play, seed=seed, index=index) for index in range(games)]
    finished: list[Played] = []
    try:
        if workers == 1:
            stream: Iterator[Played] = map(_call, listed)
            for result in progress(stream, games) if progress else stream:
                finished.append(result)
        else:
            with process_pool(workers) as pool:
                stream = pool.map(_call, listed)
                for result in progress(stream, games) if progress else stream:
                    finished.append(result)
    except KeyboardInterrupt:
        raise MatchStopped(match(tuple(finished))) from None
    sys.stdout.flush()
    return match(tuple(finished))


class MatchStopped(KeyboardInterrupt):
    """Ctrl-C stopped a match: ``finished`` holds the match of the games played to the end
    before it."""

    def __init__(self, finished: Any) -> None:
        super().__init__()
        self.finished = finished
