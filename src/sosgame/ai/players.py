"""The computer players, one class per level, and :func:`make_player` to build them."""

from __future__ import annotations

import math
import random
import time
from typing import Final, Protocol

from sosgame.ai.alphabeta import Searcher, warm_up
from sosgame.ai.errors import InvalidBudgetError, InvalidLevelError
from sosgame.ai.heuristics import best_scoring, random_move, safest_quiet
from sosgame.ai.mcts import mcts
from sosgame.ai.state import State
from sosgame.errors import GameOverError
from sosgame.game import Game
from sosgame.kernel import JIT, encode
from sosgame.levels import LEVELS, Level
from sosgame.notation import Move
from sosgame.solver import MAX_EMPTY_CELLS, NodeLimitError, TranspositionTable, solve

__all__ = ["DEFAULT_SECONDS", "LEVELS", "Budget", "Level", "Player", "make_player"]


_TABLE_MB: Final = 64 if JIT else 16
ALPHABETA_SHARE: Final = 0.4
"""The share of a two-seat ``hard`` budget the alpha-beta search gets before the tree search."""
DEFAULT_SECONDS: Final = 1.0
"""The time a searching level takes per move when given neither ``seconds`` nor ``nodes``."""


class Player(Protocol):
    """A computer player: :meth:`choose_move` picks a move and never changes the game."""

    level: Level

    def choose_move(self, game: Game) -> Move:
        """The move this player would play in ``game``.

        :raises GameOverError: if the game is over.
        """
        ...


class Budget:
    """How long a search may run: ``seconds`` of wall time and/or ``nodes`` positions visited.

    With both, the search stops at whichever runs out first; with neither, it takes
    :data:`DEFAULT_SECONDS`.
    """

    __slots__ = ("nodes", "seconds")

    def __init__(self, seconds: float | None = None, nodes: int | None = None) -> None:
        if seconds is not None:
            if (
                not isinstance(seconds, int | float)
                or isinstance(seconds, bool)
                or not math.isfinite(seconds)
                or seconds <= 0
            ):
                raise InvalidBudgetError(
                    f"seconds must be a number greater than 0, not {seconds!r}"
                )
            seconds = float(seconds)
        if nodes is not None and (
            not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 1
        ):
            raise InvalidBudgetError(f"nodes must be a whole number of at least 1, not {nodes!r}")
        if seconds is None and nodes is None:
            seconds = DEFAULT_SECONDS
        self.seconds = seconds
        self.nodes = nodes

    def __repr__(self) -> str:
        return f"Budget(seconds={self.seconds!r}, nodes={self.nodes!r})"


class _Base:
    """What every level shares: checking the game, reading it, and seeded chance."""

    level: Level

    def __init__(self, budget: Budget, seed: int | None) -> None:
        self.budget = budget
        self.seed = seed
        self._rng = random.Random(seed)

    def _rng_for(self, game: Game) -> random.Random:
        # A seeded player draws from a generator keyed by the seed and the position, so the
        # same game always gets the same move whatever was asked before; text seeds are
        # hashed with SHA-512, stable across processes.
        if self.seed is None:
            return self._rng
        key = f"{self.seed}|{game.mode}|{game.players}|{game.position()}|{game.turn}"
        return random.Random(f"{key}|{game.scores}|{game.active_seats}")

    def choose_move(self, game: Game) -> Move:
        """The move this player would play in ``game``; the game is left as it was.

        :raises GameOverError: if the game is over.
        """
        if game.is_over:
            raise GameOverError("cannot choose a move: the game is over")
        state = State(game)
        index, letter = self._choose(game, state, self._rng_for(game))
        return state.move(index, letter)

    def _choose(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return (
            f"make_player({self.level!r}, seconds={self.budget.seconds!r},"
            f" nodes={self.budget.nodes!r}, seed={self.seed!r})"
        )


class RandomPlayer(_Base):
    """``random``: any legal move, uniformly."""

    level: Level = "random"

    def _choose(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        return random_move(state, rng)


class EasyPlayer(_Base):
    """``easy``: the move completing the most lines when one scores, else a random move."""

    level: Level = "easy"

    def _choose(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        return best_scoring(state, rng) or random_move(state, rng)


class MediumPlayer(_Base):
    """``medium``: like ``easy``, and a quiet move hands the next player as few lines as it can."""

    level: Level = "medium"

    def _choose(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        return best_scoring(state, rng) or safest_quiet(state, rng)


class HardPlayer(_Base):
    """``hard``: a search within the budget.

    Two seats: iterative-deepening alpha-beta with a quiescence over scoring chains
    (:mod:`sosgame.ai.alphabeta`) gets a share of the budget; when it proves a win, its move
    is played. Otherwise, and for three or more seats, Monte Carlo tree search with a score
    per seat (:mod:`sosgame.ai.mcts`) spends the rest. Compiles (or loads) its kernels when
    it is made, so no move waits for the compiler.
    """

    level: Level = "hard"

    def __init__(self, budget: Budget, seed: int | None) -> None:
        super().__init__(budget, seed)
        self._searcher = Searcher()
        warm_up()

    def _choose(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        return self._search(game, state, rng, self.budget.seconds, self.budget.nodes)

    def _search(
        self,
        game: Game,
        state: State,
        rng: random.Random,
        seconds: float | None,
        nodes: int | None,
    ) -> tuple[int, str]:
        start = time.perf_counter()
        if len(game.active_seats) == 2:
            share_seconds = None if seconds is None else seconds * ALPHABETA_SHARE
            share_nodes = None if nodes is None else max(1, int(nodes * ALPHABETA_SHARE))
            result = self._searcher.search(state, rng, seconds=share_seconds, nodes=share_nodes)
            if result is not None and result.exact and _wins(state, result.value):
                return result.index, result.letter
            if seconds is not None:
                seconds = max(seconds - (time.perf_counter() - start), seconds / 10)
            if nodes is not None:
                nodes = max(1, nodes - (result.nodes if result is not None else share_nodes or 0))
        (cell, letter), _ = mcts(encode(game), rng, seconds=seconds, nodes=nodes)
        return cell, "S" if letter == 1 else "O"


def _wins(state: State, value: float) -> bool:
    """Whether a proven future value for the seat to move wins the game outright."""
    if state.simple:
        return value > 0
    mover = state.turn
    other = state.next_seat[mover]
    return state.scores[mover] - state.scores[other] + value > 0


class PerfectPlayer(HardPlayer):
    """``perfect``: the exact solver's best move when it can solve the position, else ``hard``.

    The solver gets half the time budget (or the node budget); if it cannot finish, the search
    of ``hard`` gets what is left.
    """

    level: Level = "perfect"

    def __init__(self, budget: Budget, seed: int | None) -> None:
        super().__init__(budget, seed)
        self._table: TranspositionTable | None = None
        # Solver nodes per second of wall time: a cautious first guess, then measured.
        self._rate = 3e5 if JIT else 1e4

    def _choose(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        start = time.perf_counter()
        seconds, nodes = self.budget.seconds, self.budget.nodes
        if game.players == 2 and state.empty <= MAX_EMPTY_CELLS:
            limit = nodes
            if seconds is not None:
                by_time = max(1, int(self._rate * seconds / 2))
                limit = by_time if limit is None else min(limit, by_time)
            if self._table is None:
                self._table = TranspositionTable(_TABLE_MB)
            try:
                solution = solve(game, node_limit=limit, table=self._table)
            except NodeLimitError:
                pass
            else:
                if solution.seconds > 0.01:
                    self._rate = solution.nodes / solution.seconds
                move = rng.choice(solution.best_moves)
                return state.shape.index(*move.cell), move.letter
            elapsed = time.perf_counter() - start
            if limit is not None and elapsed > 0.01:
                self._rate = limit / elapsed
            if seconds is not None:
                seconds = max(seconds - elapsed, seconds / 10)
            if nodes is not None:
                nodes = max(nodes - (limit or 0), 1)
        return self._search(game, state, rng, seconds, nodes)


_CLASSES: Final[dict[str, type[_Base]]] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "medium": MediumPlayer,
    "hard": HardPlayer,
    "perfect": PerfectPlayer,
}


def make_player(
    level: str,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    seed: int | None = None,
) -> Player:
    """A computer player of ``level`` (one of :data:`LEVELS`).

    ``seconds`` and ``nodes`` bound the search of ``hard`` and ``perfect`` per move (the other
    levels answer at once); ``seed`` makes every choice reproducible.

    >>> from sosgame import Game
    >>> str(make_player("easy", seed=1).choose_move(Game(3, 3, moves=["Sa1", "Ob1"])))
    'Sc1'

    :raises InvalidLevelError: for a level that does not exist.
    :raises InvalidBudgetError: for a ``seconds``, ``nodes`` or ``seed`` that is not usable.
    """
    if not isinstance(level, str) or level not in _CLASSES:
        known = ", ".join(name for name in LEVELS if name in _CLASSES)
        raise InvalidLevelError(f"level must be one of {known}, not {level!r}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidBudgetError(f"seed must be a whole number, not {seed!r}")
    return _CLASSES[level](Budget(seconds, nodes), seed)
