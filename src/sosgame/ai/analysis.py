"""Going over a finished (or unfinished) game: for every move, the best move and the cost.

The value of a move is what the mover gains from it with best play afterwards, from the
mover's side: in general mode the mover's future points minus the opponent's, in simple mode
+1 / 0 / -1 for a win, a draw or a loss. The cost of the move played is the best move's value
minus its value. Positions the exact solver can finish within the node limit get exact
values; the others get the ``hard`` search's estimates.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from sosgame.ai.alphabeta import Result, Searcher, warm_up
from sosgame.ai.mcts import mcts
from sosgame.ai.state import State
from sosgame.game import Game
from sosgame.kernel import JIT, encode
from sosgame.notation import Move, Resignation
from sosgame.solver import MAX_EMPTY_CELLS, NodeLimitError, TranspositionTable, solve
from sosgame.solver.rule import end_value, move_value

__all__ = [
    "BLUNDER",
    "MISTAKE",
    "MoveReport",
    "PlayerSummary",
    "analyze",
    "summarize",
]

MISTAKE: Final = {"general": 1.0, "simple": 0.5}
"""The cost from which a move is a mistake: a point in general mode, half a result in simple."""
BLUNDER: Final = {"general": 3.0, "simple": 1.5}
"""The cost from which a move is a blunder: three points, or a result turned from win to loss."""
_SOLVER_NODES: Final = 3_000_000 if JIT else 20_000
_TABLE_MB: Final = 128 if JIT else 16
_RETRY_AFTER: Final = 4  # cells to play before asking the solver again after it gave up


@dataclass(frozen=True)
class MoveReport:
    """One analysed move. ``cost`` and ``flag`` are ``None`` where no value is known."""

    ply: int
    seat: int
    played: Move
    best: Move
    best_value: float | None
    played_value: float | None
    cost: float | None
    exact: bool
    flag: str | None
    """``"mistake"``, ``"blunder"`` or ``None``."""


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's moves taken together."""

    seat: int
    moves: int
    total_cost: float
    mistakes: int
    blunders: int

    @property
    def average_cost(self) -> float:
        """The mean cost per analysed move."""
        return self.total_cost / self.moves if self.moves else 0.0


def _flag(cost: float | None, mode: str) -> str | None:
    if cost is None:
        return None
    if cost >= BLUNDER[mode]:
        return "blunder"
    if cost >= MISTAKE[mode]:
        return "mistake"
    return None


class _Judge:
    """Values of positions and moves: exact when the solver finishes, else estimated."""

    def __init__(self, seconds: float, seed: int) -> None:
        self.seconds = seconds
        self.seed = seed
        self.searcher = Searcher()
        self.table: TranspositionTable | None = None
        # Positions with more empty cells than this are not tried on the solver: one that
        # failed makes the next few (which have a cell or two fewer) unlikely to succeed.
        self.reach = MAX_EMPTY_CELLS
        warm_up()

    def best(self, game: Game) -> tuple[float, Move, bool] | None:
        """The value for the mover, a best move, and whether both are exact."""
        if len(game.active_seats) != 2:
            return None
        if game.players == 2:
            solution = self._try_solution(game)
            if solution is not None:
                return solution
        result = self._search(game)
        state = State(game)
        return result.value, state.move(result.index, result.letter), False

    def _try_solution(self, game: Game) -> tuple[float, Move, bool] | None:
        empty = game.position().count(".")
        if empty > self.reach:
            return None
        if self.table is None:
            self.table = TranspositionTable(_TABLE_MB)
        try:
            # Reporting progress (to no one) keeps the solver's slices short, so that Ctrl-C
            # stops an analysis within a fraction of a second.
            solution = solve(game, node_limit=_SOLVER_NODES, table=self.table, progress=_ignore)
        except NodeLimitError:
            self.reach = empty - _RETRY_AFTER
            return None
        return float(solution.value), solution.best_moves[0], True

    def _search(self, game: Game) -> Result:
        state = State(game)
        result = self.searcher.search(
            state, random.Random(self.seed), seconds=self.seconds / 2, nodes=None
        )
        if result is None:  # a budget too small even for one ply: search one ply anyway
            result = self.searcher.search(
                state, random.Random(self.seed), seconds=None, nodes=None, depth_limit=1
            )
        assert result is not None
        return result

    def move(self, game: Game, move: Move) -> tuple[float, bool]:
        """The value of ``move`` for the mover, and whether it is exact."""
        after = game.copy()
        lines = len(after.play(move))
        if after.is_over:
            return float(end_value(lines, after.mode == "simple")), True
        found = self._try_solution(after)
        if found is not None:
            value, exact = found[0], True
        else:
            value, exact = self._search(after).value, False
        return move_value(lines, value), exact


def _ignore(nodes: int) -> None:
    pass


def analyze(
    game: Game,
    *,
    seconds: float = 0.5,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[MoveReport]:
    """Analyse every move of ``game`` from its start (the game itself is not changed).

    ``seconds`` is the search time per estimated position. Moves by a game of more than two
    active seats get a best move from the search but no cost. ``progress``, if given, is
    called after each move with the number of moves analysed so far and the number in all.
    """
    judge = _Judge(seconds, seed)
    replay = _start_of(game)
    reports: list[MoveReport] = []
    total = sum(not isinstance(action, Resignation) for action in game.actions)
    for action in game.actions:
        if isinstance(action, Resignation):
            replay.resign(action.seat)
            continue
        reports.append(_report(judge, replay, action))
        replay.play(action)
        if progress is not None:
            progress(len(reports), total)
    return reports


def _report(judge: _Judge, game: Game, played: Move) -> MoveReport:
    seat = game.turn
    ply = game.ply + 1
    found = judge.best(game)
    if found is None:
        (cell, letter), _ = mcts(
            encode(game), random.Random(judge.seed), seconds=judge.seconds, nodes=None
        )
        best_move = State(game).move(cell, "S" if letter == 1 else "O")
        return MoveReport(ply, seat, played, best_move, None, None, None, False, None)
    best_value, best_move, exact = found
    if played == best_move:
        played_value, played_exact = best_value, exact
    else:
        played_value, played_exact = judge.move(game, played)
    both = exact and played_exact
    cost = best_value - played_value
    if not both:
        cost = max(cost, 0.0)  # two estimates can disagree; a played move never beats the best
    elif cost < 0:
        # The solver is exact, so this cannot happen; keep the report honest if it does.
        cost = 0.0
    return MoveReport(
        ply, seat, played, best_move, best_value, played_value, cost, both, _flag(cost, game.mode)
    )


def _start_of(game: Game) -> Game:
    start = game.start
    if start is None:
        return Game(game.rows, game.cols, players=game.players, mode=game.mode)
    position, turn, scores = start
    return Game.from_position(
        position, players=game.players, mode=game.mode, turn=turn, scores=scores
    )


def summarize(reports: list[MoveReport], players: int) -> list[PlayerSummary]:
    """Each seat's number of costed moves, total cost, mistakes and blunders."""
    summaries = []
    for seat in range(players):
        mine = [report for report in reports if report.seat == seat and report.cost is not None]
        summaries.append(
            PlayerSummary(
                seat,
                len(mine),
                sum(report.cost or 0.0 for report in mine),
                sum(report.flag == "mistake" for report in mine),
                sum(report.flag == "blunder" for report in mine),
            )
        )
    return summaries
