"""Going over a finished (or unfinished) game: for every move, the best move and the cost.

The value of a move is what the mover gains from it with best play afterwards, from the
mover's side: in general mode the mover's future points minus the opponent's, in simple mode
+1 / 0 / -1 for a win, a draw or a loss. The cost of the move played is the best move's value
minus its value. Positions the exact solver can finish within the node limit get exact
values; the others get the ``hard`` search's estimates.

The moves are gone over from the last to the first: the late positions are solved at once,
and the solver's table carries their values to the earlier ones. The position after a move
is the one before the next, so its value is already known.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from sosgame.ai.alphabeta import Result, Searcher, warm_up
from sosgame.ai.mcts import mcts
from sosgame.ai.state import State
from sosgame.game import Game
from sosgame.kernel import JIT, encode
from sosgame.notation import Move, Resignation
from sosgame.solver import (
    MAX_EMPTY_CELLS,
    NodeLimitError,
    TimeLimitError,
    TranspositionTable,
    solve,
)
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
_LEAST_SECONDS: Final = 0.02
"""The least search time an estimated position gets, however little of a budget is left."""
_LEAST_SOLVE_SECONDS: Final = 0.05

_Key = tuple[str, int, tuple[int, ...], tuple[int, ...]]
"""A position with its seat to move, scores and active seats: what its value depends on."""


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
    """Values of positions and moves: exact when the solver finishes, else estimated; each
    position valued once."""

    def __init__(self, seconds: float, seed: int, budget: float | None) -> None:
        self.seconds = seconds
        self.seed = seed
        self.searcher = Searcher()
        self.table: TranspositionTable | None = None
        # Positions with more empty cells than this are not tried on the solver: going
        # backwards, each position has more of them than the one the solver gave up on.
        self.reach = MAX_EMPTY_CELLS
        self.values: dict[_Key, tuple[float, bool]] = {}
        warm_up()
        self.deadline = None if budget is None else time.perf_counter() + budget

    def share(self, left: int) -> float:
        """The search time of one estimated position, ``left`` positions (this one among
        them) still to value: half of ``seconds``, or less if the budget runs short."""
        share = self.seconds / 2
        if self.deadline is None:
            return share
        rest = self.deadline - time.perf_counter()
        return max(_LEAST_SECONDS, min(share, rest / max(1, left)))

    def best(self, game: Game, left: int) -> tuple[float, Move, bool] | None:
        """The value for the mover, a best move, and whether both are exact."""
        if len(game.active_seats) != 2:
            return None
        found = self._try_solution(game) if game.players == 2 else None
        if found is None:
            result = self._search(game, left)
            found = result.value, State(game).move(result.index, result.letter), False
        self.values[_key(game)] = found[0], found[2]
        return found

    def _try_solution(self, game: Game) -> tuple[float, Move, bool] | None:
        empty = game.position().count(".")
        if empty > self.reach:
            return None
        if self.table is None:
            self.table = TranspositionTable(_TABLE_MB)
        seconds = None
        if self.deadline is not None:
            # Half of what is left: a position the solver gives up on leaves the other half
            # to the searches of the earlier ones.
            seconds = max(_LEAST_SOLVE_SECONDS, (self.deadline - time.perf_counter()) / 2)
        try:
            # Reporting progress (to no one) keeps the solver's slices short, so that Ctrl-C
            # stops an analysis within a fraction of a second.
            solution = solve(
                game,
                node_limit=_SOLVER_NODES,
                seconds=seconds,
                table=self.table,
                progress=_ignore,
            )
        except (NodeLimitError, TimeLimitError):
            self.reach = empty - 1
            return None
        return float(solution.value), solution.best_moves[0], True

    def _search(self, game: Game, left: int) -> Result:
        state = State(game)
        result = self.searcher.search(
            state, random.Random(self.seed), seconds=self.share(left), nodes=None
        )
        if result is None:  # a budget too small even for one ply: search one ply anyway
            result = self.searcher.search(
                state, random.Random(self.seed), seconds=None, nodes=None, depth_limit=1
            )
        assert result is not None
        return result

    def move(self, game: Game, move: Move, left: int) -> tuple[float, bool]:
        """The value of ``move`` for the mover, and whether it is exact."""
        after = game.copy()
        lines = len(after.play(move))
        if after.is_over:
            return float(end_value(lines, after.mode == "simple")), True
        known = self.values.get(_key(after))
        if known is not None:
            value, exact = known
        else:  # the next position differs (a seat resigned in between), or was not valued
            found = self._try_solution(after)
            if found is not None:
                value, exact = found[0], True
            else:
                value, exact = self._search(after, left).value, False
        return move_value(lines, value), exact


def _key(game: Game) -> _Key:
    return game.position(), game.turn, game.scores, game.active_seats


def _ignore(nodes: int) -> None:
    pass


def analyze(
    game: Game,
    *,
    seconds: float = 0.5,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    budget: float | None = None,
    report: Callable[[MoveReport], None] | None = None,
) -> list[MoveReport]:
    """Analyse every move of ``game`` (the game itself is not changed), from the last.

    ``seconds`` is the search time per move: half of it for the position of each move the
    solver does not finish. ``budget``, if given, bounds the whole analysis's time (past the
    kernels' warm-up): the solver and the searches share it, a search never getting less
    than a fiftieth of a second. Moves by a game of more than two active seats get a best
    move from the search but no cost. ``report``, if given, is called with each move's
    report as soon as it is known (the last move's first); ``progress`` after each with the
    number of moves analysed so far and the number in all. The reports come back in the
    order of the moves.
    """
    judge = _Judge(seconds, seed, budget)
    replay = _start_of(game)
    before: list[tuple[Game, Move]] = []
    for action in game.actions:
        if isinstance(action, Resignation):
            replay.resign(action.seat)
            continue
        before.append((replay.copy(), action))
        replay.play(action)
    reports: list[MoveReport | None] = [None] * len(before)
    for index in reversed(range(len(before))):
        position, played = before[index]
        made = reports[index] = _report(judge, position, played, index + 1)
        if report is not None:
            report(made)
        if progress is not None:
            progress(len(before) - index, len(before))
    return [made for made in reports if made is not None]


def _report(judge: _Judge, game: Game, played: Move, left: int) -> MoveReport:
    seat = game.turn
    ply = game.ply + 1
    found = judge.best(game, left)
    if found is None:
        seconds = 2 * judge.share(left)
        (cell, letter), _ = mcts(
            encode(game), random.Random(judge.seed), seconds=seconds, nodes=None
        )
        best_move = State(game).move(cell, "S" if letter == 1 else "O")
        return MoveReport(ply, seat, played, best_move, None, None, None, False, None)
    best_value, best_move, exact = found
    if played == best_move:
        played_value, played_exact = best_value, exact
    else:
        played_value, played_exact = judge.move(game, played, left)
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
