"""The computer players, one class per level, and :func:`make_player` to build them."""

from __future__ import annotations

import gc
import random
import time
from typing import Final, Protocol

from sosgame.ai.alphabeta import Searcher, warm_up
from sosgame.ai.book import SETTLED_NODES, book_entry, book_moves
from sosgame.ai.errors import InvalidBudgetError, InvalidLevelError
from sosgame.ai.heuristics import best_scoring, random_move, safest_quiet
from sosgame.ai.mcts import mcts, rank_moves
from sosgame.ai.prove import prove_moves
from sosgame.ai.state import State
from sosgame.errors import GameOverError
from sosgame.game import Game
from sosgame.kernel import JIT, compiling, encode
from sosgame.levels import DEFAULT_SECONDS, LEVELS, Level
from sosgame.limits import check_seconds
from sosgame.notation import Move, O, S
from sosgame.solver import (
    MAX_EMPTY_CELLS,
    NodeLimitError,
    Solution,
    TimeLimitError,
    TranspositionTable,
    solve,
)
from sosgame.solver import warm_up as solver_warm_up
from sosgame.solver.mirror import mirror_reply

__all__ = ["DEFAULT_SECONDS", "LEVELS", "Budget", "Level", "Player", "make_player"]


_TABLE_MB: Final = 64 if JIT else 16
ALPHABETA_SHARE: Final = 0.4
"""The share of a two-seat ``hard`` budget the alpha-beta search gets before the tree search."""
SOLVE_SHARE: Final = 0.5
"""The share of ``hard``'s budget the exact solver gets, near the end of a two-seat game."""
SOLVE_CELLS: Final = 24
"""``hard`` asks the solver from this many empty cells on: with more, a solve seldom finishes
in a second, and the search would lose the time for nothing."""
PROVE_CELLS: Final = 20
"""Simple mode: from this many empty cells on, the move-by-move proofs follow a failed solve;
with more, they seldom finish in a small budget and the searches get the time instead."""
SIMPLE_SOLVE_SHARE: Final = 0.3
"""The share in simple mode, where move-by-move proofs (:mod:`sosgame.ai.prove`) follow."""
RANK_SHARE: Final = 0.3
"""Simple mode, unsolved: the share of what is left the tree search gets to rank the moves."""
PROVE_SHARE: Final = 0.9
"""Then the share of what is left for proving moves one by one (the rest is a safety margin)."""
RETRY_AFTER: Final = 3
"""Cells to fill before ``hard`` asks the solver again after it ran out of time."""
PERFECT_SHARE: Final = 0.7
"""The share of ``perfect``'s budget the exact solver gets."""
_LAST_STEP: Final = 0.02
"""The least share of a budget a last search step gets, when the earlier ones used it up."""
_RESERVE: Final = 0.1
"""The share of a budget (at most :data:`_RESERVE_MAX` seconds) the searches leave unused.

A search stops at its first look at the clock past its deadline, and on a busy machine the
process may not run for some milliseconds around it: the reserve absorbs that delay, and the
return of the move, within the budget. A scheduler's time slice on a loaded core is some
milliseconds long, so the smallest budgets need the largest share."""
_RESERVE_MAX: Final = 0.02


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
        check_seconds(seconds, InvalidBudgetError)
        if seconds is not None:
            seconds = float(seconds)
        if nodes is not None and (
            not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 1
        ):
            raise InvalidBudgetError(
                f"nodes must be a whole number of at least 1, not {nodes!r}",
                code="nodes",
                values={"value": nodes},
            )
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

    proven: bool = False
    """Whether the last move chosen was proven best (by the exact solver or the book)."""

    def choose_move(self, game: Game) -> Move:
        """The move this player would play in ``game``; the game is left as it was.

        :raises GameOverError: if the game is over.
        """
        if game.is_over:
            raise GameOverError("cannot choose a move: the game is over")
        self.proven = False
        # A full collection walks every object of the process (the compiled kernels make
        # many) and can take a whole small budget (docs/benchmarks.md). The searches make no
        # cycles worth collecting in the meantime, so the collector waits until the move is
        # chosen.
        collecting = gc.isenabled()
        gc.disable()
        try:
            state = State(game)
            index, letter = self._choose(game, state, self._rng_for(game))
        finally:
            if collecting:
                gc.enable()
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
    """``hard``: the exact solver near the end, a search within the budget before that.

    In simple mode a move completing an SOS is played at once (it wins). Two seats: a position
    in the opening book (:mod:`sosgame.ai.book`) gets the book's move, proven, unless it is a
    simple-mode loss (then every move loses, and the searches choose). Two seats, with at most
    :data:`SOLVE_CELLS` empty cells: the solver gets :data:`SOLVE_SHARE` of the budget
    (:data:`SIMPLE_SOLVE_SHARE` in simple mode with at most :data:`PROVE_CELLS`); when it
    finishes, the move is one of its best moves (the tree search picks among them, for the
    chances they give a fallible opponent). It is asked again, after running out, once
    :data:`RETRY_AFTER` more cells are filled. In simple mode with at most :data:`PROVE_CELLS`
    empty cells the tree search then ranks the moves (:data:`RANK_SHARE` of what is left) and
    null-window proofs move by move (:mod:`sosgame.ai.prove`) get most of the rest: a move
    proven to win is played, else the tree search's favourite among those proven not to lose,
    else among those not proven to lose. Otherwise, iterative-deepening alpha-beta with a
    quiescence over scoring chains (:mod:`sosgame.ai.alphabeta`) gets a share of what is left;
    when it proves a win, its move is played. Otherwise, and for three or more seats, Monte
    Carlo tree search with a score per seat (:mod:`sosgame.ai.mcts`) spends the rest. In simple
    mode with two seats, on a board symmetric but for the opponent's last letter, a move not
    proven to win or draw gives way to the mirror strategy's (:mod:`sosgame.solver.mirror`),
    which never loses. Compiles (or loads) its kernels when it is made, so no move waits for
    the compiler.
    """

    level: Level = "hard"
    _solve_share: float = SOLVE_SHARE
    _simple_share: float = SIMPLE_SOLVE_SHARE
    _solve_cells: int = SOLVE_CELLS

    def __init__(self, budget: Budget, seed: int | None) -> None:
        super().__init__(budget, seed)
        self._searcher = Searcher()
        self._table = TranspositionTable(_TABLE_MB).prefault()
        self._gave_up: int | None = None  # the empty cells at which the solver last ran out
        self._not_losing = False  # whether the move-by-move proofs found a move holding a draw
        with compiling("players"):  # one notice of a first compile for both
            warm_up()
            solver_warm_up()

    def _choose(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        winning = _simple_win(state, rng)
        if winning is not None:
            self.proven = True
            return winning
        self._not_losing = False
        chosen = self._decide(game, state, rng)
        if self.proven or self._not_losing:
            return chosen
        # A move not proven to hold the draw gives way to the mirror strategy's, which does.
        guard = mirror_reply(game)
        return chosen if guard is None else (state.shape.index(*guard.cell), guard.letter)

    def _decide(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        """The move when no simple-mode win is on the board."""
        booked = _book_move(game, state) if self._follows_book() else None
        if booked is not None:
            self.proven = True
            return booked
        clock = _Clock(self.budget)
        solution = self._solve(game, state, clock)
        if solution is not None:
            self.proven = True
            return self._among(game, state, rng, clock, solution.best_moves)
        if self._provable(game, state):
            return self._prove(game, state, rng, clock)
        return self._search(game, state, rng, clock)

    def _follows_book(self) -> bool:
        """Whether the book's moves pay: the positions it leaves to the search take up to
        :data:`~sosgame.ai.book.SETTLED_NODES` to settle, and a smaller budget that leaves
        the mirror strategy for the book's win may lose what the mirror would have held."""
        nodes = self.budget.nodes
        return nodes is None or nodes >= SETTLED_NODES

    def _solvable(self, game: Game, state: State) -> bool:
        """Whether the position is one the solver is asked about (two seats, near the end)."""
        two = len(game.active_seats) == 2 and game.players == 2
        return two and state.empty <= self._solve_cells

    def _provable(self, game: Game, state: State) -> bool:
        """Whether the move-by-move proofs get the time (simple mode, two seats, near the end)."""
        return state.simple and state.empty <= PROVE_CELLS and self._solvable(game, state)

    def _prove(
        self, game: Game, state: State, rng: random.Random, clock: _Clock
    ) -> tuple[int, str]:
        """Simple mode, unsolved: the tree search ranks the moves, proofs move by move decide.

        A move proven to win is played; else one proven not to lose, else one not proven to
        lose, each time the tree search's favourite among them.
        """
        seconds, nodes = clock.share(RANK_SHARE)
        if nodes is not None:
            nodes = max(1, nodes // state.empty)  # a simulation plays the game out
        ranking, simulations = rank_moves(encode(game), rng, seconds=seconds, nodes=nodes)
        clock.spend(simulations * state.empty)
        seconds, nodes = clock.share(PROVE_SHARE)
        deadline = None if seconds is None else time.perf_counter() + seconds
        proofs = prove_moves(game, self._table, deadline=deadline, nodes=nodes, order=ranking)
        clock.spend(proofs.nodes)
        self.proven = proofs.solved()
        choices = proofs.best() if self.proven else proofs.not_losing() or proofs.open_or_better()
        self._not_losing = bool(proofs.not_losing())
        for move in ranking:
            if move in choices:
                cell, letter = move
                return cell, S if letter == 1 else O
        cell, letter = choices[0] if choices else ranking[0]
        return cell, S if letter == 1 else O

    def _solve(self, game: Game, state: State, clock: _Clock) -> Solution | None:
        """The exact solution, if the solver finishes in its share of the budget."""
        if not self._solvable(game, state):
            return None
        if self._gave_up is not None:
            if state.empty > self._gave_up:
                self._gave_up = None  # a new game
            elif state.empty > self._gave_up - RETRY_AFTER:
                return None
        share = self._simple_share if self._provable(game, state) else self._solve_share
        seconds, nodes = clock.share(share)
        try:
            solution = solve(game, node_limit=nodes, seconds=seconds, table=self._table)
        except (NodeLimitError, TimeLimitError) as stopped:
            clock.spend(stopped.nodes)
        else:
            clock.spend(solution.nodes)
            return solution
        self._gave_up = state.empty
        return None

    def _among(
        self,
        game: Game,
        state: State,
        rng: random.Random,
        clock: _Clock,
        best: tuple[Move, ...],
    ) -> tuple[int, str]:
        """One of the equally good ``best`` moves: the tree search's pick among them."""
        choices = [(state.shape.index(*move.cell), move.letter) for move in best]
        if len(choices) == 1:
            return choices[0]
        seconds, nodes = clock.left()
        if nodes is not None:
            # A simulation plays the game out: count it as a node per empty cell.
            nodes = max(1, nodes // state.empty)
        root = [(index, 1 if letter == S else 2) for index, letter in choices]
        (cell, code), _ = mcts(encode(game), rng, seconds=seconds, nodes=nodes, moves=root)
        return cell, S if code == 1 else O

    def _search(
        self, game: Game, state: State, rng: random.Random, clock: _Clock
    ) -> tuple[int, str]:
        if len(game.active_seats) == 2:
            seconds, nodes = clock.share(ALPHABETA_SHARE)
            result = self._searcher.search(state, rng, seconds=seconds, nodes=nodes)
            clock.spend(result.nodes if result is not None else nodes or 0)
            if result is not None and result.exact and _wins(state, result.value):
                self._not_losing = True
                return result.index, result.letter
        seconds, nodes = clock.left()
        (cell, letter), _ = mcts(encode(game), rng, seconds=seconds, nodes=nodes)
        return cell, "S" if letter == 1 else "O"


class _Clock:
    """What is left of one move's budget: a deadline on the wall clock and nodes to spend."""

    __slots__ = ("deadline", "nodes", "seconds")

    def __init__(self, budget: Budget) -> None:
        self.seconds = budget.seconds
        self.deadline = None
        if budget.seconds is not None:
            reserve = min(budget.seconds * _RESERVE, _RESERVE_MAX)
            self.deadline = time.perf_counter() + budget.seconds - reserve
        self.nodes = budget.nodes

    def left(self) -> tuple[float | None, int | None]:
        """The seconds and nodes still to spend (never none at all: a search needs a step)."""
        seconds = None
        if self.deadline is not None and self.seconds is not None:
            seconds = max(self.deadline - time.perf_counter(), self.seconds * _LAST_STEP)
        return seconds, None if self.nodes is None else max(self.nodes, 1)

    def share(self, part: float) -> tuple[float | None, int | None]:
        """``part`` of what is left."""
        seconds, nodes = self.left()
        return (
            None if seconds is None else seconds * part,
            None if nodes is None else max(1, int(nodes * part)),
        )

    def spend(self, nodes: int) -> None:
        """Count ``nodes`` as used."""
        if self.nodes is not None:
            self.nodes = max(self.nodes - nodes, 1)


def _simple_win(state: State, rng: random.Random) -> tuple[int, str] | None:
    """A move completing an SOS in simple mode: it wins at once, so it is proven best for
    any number of seats, and no search needs to look further (the solver, which finds every
    best move, could take millions of nodes to say so)."""
    return best_scoring(state, rng) if state.simple else None


def _book_move(game: Game, state: State) -> tuple[int, str] | None:
    """The opening book's move, unless the position is a simple-mode loss.

    A lost simple-mode position is lost by every move, so the book's is no better than any
    other against a perfect opponent, and the searches pick one that gives a fallible
    opponent more ways to go wrong.
    """
    entry = book_entry(game)
    if entry is None or (state.simple and entry.value < 0):
        return None
    return state.shape.index(*entry.move.cell), entry.move.letter


def _wins(state: State, value: float) -> bool:
    """Whether a proven future value for the seat to move wins the game outright."""
    if state.simple:
        return value > 0
    mover = state.turn
    other = state.next_seat[mover]
    return state.scores[mover] - state.scores[other] + value > 0


class PerfectPlayer(HardPlayer):
    """``perfect``: a proven best move whenever the opening book or the solver gives one.

    A simple-mode win at once is played, proven, as by ``hard``. Two seats: a position in the
    opening book (:mod:`sosgame.ai.book`) is answered at once;
    otherwise the solver gets :data:`PERFECT_SHARE` of the budget, whatever the number of
    empty cells (up to the solver's :data:`~sosgame.solver.MAX_EMPTY_CELLS`). A solved move
    is one of the best at random; when neither finishes, ``hard``'s search gets what is left
    (in simple mode its move-by-move proofs) and :attr:`proven` says whether the move is
    proven best.
    """

    level: Level = "perfect"
    _solve_share: float = PERFECT_SHARE
    _simple_share: float = PERFECT_SHARE
    _solve_cells: int = MAX_EMPTY_CELLS

    def _decide(self, game: Game, state: State, rng: random.Random) -> tuple[int, str]:
        clock = _Clock(self.budget)
        self._gave_up = None  # the solver always gets its try: perfect promises the best
        best = book_moves(game)
        if best is None:
            solution = self._solve(game, state, clock)
            best = None if solution is None else solution.best_moves
        if best is None and self._provable(game, state):
            return self._prove(game, state, rng, clock)
        if best is None:
            return self._search(game, state, rng, clock)
        self.proven = True
        move = rng.choice(best)
        return state.shape.index(*move.cell), move.letter


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
        raise InvalidBudgetError(
            f"seed must be a whole number, not {seed!r}", code="seed", values={"value": seed}
        )
    return _CLASSES[level](Budget(seconds, nodes), seed)
