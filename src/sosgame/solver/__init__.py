"""The exact solver for two-player SOS: negamax alpha-beta over a transposition table.

Values are from the point of view of the seat to move, with best play from both seats:

* general mode: the mover's future points minus the opponent's (a move completing ``k`` lines
  is worth ``k`` plus the value of the position after it, since the mover moves again; a quiet
  move is worth minus the value after it: :mod:`sosgame.solver.rule`). It depends on the
  board only.
* simple mode: +1 if the mover wins, 0 for a draw, -1 if the mover loses.

>>> from sosgame import Game
>>> solution = solve(Game(1, 5, moves=["Sa1", "Ob1"]))
>>> solution.value, [str(move) for move in solution.best_moves]
(1, ['Sc1'])

How far it reaches, and how fast, is in docs/benchmarks.md. To ask "is this within reach?"
cheaply, pass a ``node_limit``, or a time limit in ``seconds``: :class:`NodeLimitError` or
:class:`TimeLimitError` says the position needs more. A player solving move
after move should pass one :class:`TranspositionTable` to every call (say 64 MiB): later
solves then find the earlier work, and a failed attempt's work is kept too.

A large position without such a table (:data:`THREADED_EMPTY_CELLS` empty cells or more) is
searched by several threads at once (``threads``, by default one per core): each root move
keeps bounds on its value, and rounds of null-window tests, the threads taking moves in turn,
narrow them until the value and every best move are known (with ``threads=1`` one thread
runs the same rounds, which take fewer nodes than MTD(f) and a test per move). The threads
share one :class:`~sosgame.search.table.SharedTable`, a 64-bit word per entry read and
written whole, and look every child up before searching far from the end (enhanced
transposition cut-offs).
``benchmarks/versus_c.py`` measures this against a plain C alpha-beta solver
(``benchmarks/reference/sos_solve.c``) in the same run.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Final, NamedTuple

from sosgame.errors import GameOverError, InvalidSettingsError
from sosgame.game import Game
from sosgame.kernel import (
    EMPTY,
    JIT,
    compiling,
    count_lines,
    count_openings,
    decode_move,
    encode,
    notice_if_slow,
    to_array,
)
from sosgame.limits import check_seconds
from sosgame.notation import Move
from sosgame.processes import check_workers
from sosgame.search.keys import canonical, exact_keys, rekey
from sosgame.search.leaves import count_live
from sosgame.search.negamax import (
    DONE,
    LIMIT,
    NODES,
    SIMPLE,
    VALUE_OUT,
    begin,
    new_work,
    search_exact,
    search_exact_shared,
)
from sosgame.search.table import DEFAULT_MEMORY_MB, SharedTable, TranspositionTable
from sosgame.solver.rule import child_claim, end_value, move_value
from sosgame.symmetry import symmetries

__all__ = [
    "DEFAULT_MEMORY_MB",
    "MAX_EMPTY_CELLS",
    "QUICK_EMPTY_CELLS",
    "THREADED_EMPTY_CELLS",
    "NodeLimitError",
    "Search",
    "Solution",
    "TimeLimitError",
    "TranspositionTable",
    "available_threads",
    "check_players",
    "solve",
    "warm_up",
]

MAX_EMPTY_CELLS: Final = 39
"""The most empty cells a position may have: its key must fit 64 bits (3**39 < 2**63)."""
QUICK_EMPTY_CELLS: Final = 12
"""Positions with at most this many empty cells are quick to solve when compiled (the
figures are in docs/benchmarks.md), so a hint that close to the end is checked by a solve."""
_SLICE: Final = 1 << 21 if JIT else 1 << 12
_TIMED_SLICE: Final = 1 << 12 if JIT else 1 << 8
_REPORTED_SLICE: Final = 1 << 16 if JIT else 1 << 10
"""The nodes between two reports of a solve's progress: a few a second, so that a person
who watches it sees it move and Ctrl-C stops it at once."""
"""Nodes between looks at the clock under a time limit: a few milliseconds of search."""
_INFINITY: Final = 1000  # beyond any value: a board has fewer lines than this
THREADED_EMPTY_CELLS: Final = 17
"""Positions with at least this many empty cells are searched by several threads (when
compiled and asked for): below it a solve is too short for threads to pay (see
docs/benchmarks.md)."""


class Solution(NamedTuple):
    """A solved position: its ``value``, every move reaching it, and the work it took."""

    value: int
    best_moves: tuple[Move, ...]
    """Every move whose value is ``value``, in board order (:meth:`Move.sort_key`)."""
    nodes: int
    seconds: float


class NodeLimitError(Exception):
    """The solver gave up: the position needs more than ``node_limit`` nodes."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"the position needs more than {nodes} nodes to solve")
        self.nodes = nodes


class TimeLimitError(Exception):
    """The solver gave up: the position needs more than ``seconds`` of search."""

    def __init__(self, seconds: float, nodes: int) -> None:
        super().__init__(f"the position needs more than {seconds:g} s to solve")
        self.seconds = seconds
        self.nodes = nodes
        """The nodes searched before the time ran out."""


class Search:
    """The arrays of one solve: board, symmetric keys, stack, and the table it writes to.

    The exact search beneath :func:`solve`, for code that needs more than a position's value
    (the certificates, the split solve's pieces, the players' move-by-move proofs): play and
    take back moves with :meth:`play` and :meth:`unplay`, and ask :meth:`value` within a
    window or :meth:`exact`. ``node_limit`` and ``deadline`` (a :func:`time.perf_counter`
    time) stop it with :class:`NodeLimitError` or :class:`TimeLimitError`.
    """

    def __init__(
        self,
        game: Game,
        table: TranspositionTable | None,
        node_limit: int | None,
        deadline: float | None = None,
        shared: SharedTable | None = None,
        pool: _Pool | None = None,
    ) -> None:
        state = encode(game)
        self.board = state.board
        self.lines = state.tables.line_cells
        self.simple = state.simple
        self.empty = state.empty
        self.node_limit = node_limit
        self.deadline = deadline
        self.seconds = 0.0  # the time limit, for the error's message
        self.nodes = 0
        self.progress: Callable[[int], None] | None = None
        """Called with the nodes searched so far after each slice of search."""
        rows, cols, size = game.rows, game.cols, state.tables.size
        whole = size <= MAX_EMPTY_CELLS
        self.shared = shared
        self.pool = pool
        if shared is not None:
            # Threads share one table of whole-board keys, which it was made for.
            images = symmetries(rows, cols)
        elif whole:
            # Whole-board keys: every symmetry, and the table can serve later solves too.
            images = symmetries(rows, cols)
            assert table is not None
            table.claim((rows, cols, game.mode))
        else:
            assert table is not None
            # Keys over the cells empty now (the rest never change): no symmetry.
            empties = [cell for cell in range(size) if self.board[cell] == EMPTY]
            rank = {cell: position for position, cell in enumerate(empties)}
            images = (tuple(rank.get(cell, 0) for cell in range(size)),)
            table.clear()
            table.used = True
        self.tt = table if table is not None else TranspositionTable(1)
        self.keys = exact_keys(self.board, images, whole)
        self.arrays = (self.board, state.tables.table, to_array(range(size)))
        self.work = new_work(size, self.empty)
        self.work[5][SIMPLE] = self.simple
        self.rows, self.cols, self.size = rows, cols, size

    def value(self, alpha: int, beta: int) -> int:
        """The fail-soft value of the current board within the window ``(alpha, beta)``."""
        registers = self.work[5]
        begin(self.work, alpha, beta, 0, self.empty, count_live(self.board, self.lines))
        deadline = self.deadline
        pool = self.pool
        counted = 0  # the nodes of this search already counted by the pool
        while True:
            budget = _SLICE if deadline is None else _TIMED_SLICE
            if self.progress is not None:
                budget = min(budget, _REPORTED_SLICE)
            if pool is not None:
                budget = min(budget, pool.advance(int(registers[NODES]) - counted))
                counted = int(registers[NODES])
            if self.node_limit is not None:
                budget = min(budget, self.node_limit - self.nodes - registers[NODES])
                if budget <= 0:
                    raise NodeLimitError(self.node_limit)
            if deadline is not None and time.perf_counter() >= deadline:
                raise TimeLimitError(self.seconds, self.nodes + int(registers[NODES]))
            registers[LIMIT] = registers[NODES] + budget
            if self.shared is not None:
                words = self.shared.words
                done = search_exact_shared(self.arrays, self.keys, (words, words), self.work)
            else:
                tt = (self.tt.keys, self.tt.data)
                done = search_exact(self.arrays, self.keys, tt, self.work)
            if done == DONE:
                self.nodes += int(registers[NODES])
                if pool is not None:
                    pool.advance(int(registers[NODES]) - counted)
                return int(registers[VALUE_OUT])
            if self.progress is not None and pool is None:
                self.progress(self.nodes + int(registers[NODES]))

    def exact(self, guess: int = 0) -> int:
        """The exact value of the current board, by null-window tests from ``guess`` (MTD(f))."""
        lower, upper = -_INFINITY, _INFINITY
        value = guess
        while lower < upper:
            beta = max(value, lower + 1)
            value = self.value(beta - 1, beta)
            if value < beta:
                upper = value
            else:
                lower = value
        return value

    def test_move(self, lines: int, bound: int) -> int:
        """The value of the move just played (completing ``lines``) to its player, fail-soft
        around ``bound``: at least ``bound`` exactly when the move reaches it (then a lower
        bound; otherwise an upper bound)."""
        if lines and self.simple:
            return end_value(lines, simple=True)
        after, lower = child_claim(lines, bound, lower=True)
        found = self.value(after - 1, after) if lower else self.value(after, after + 1)
        return move_value(lines, found)

    def key(self) -> int:
        """The current board's key (the same for symmetric boards)."""
        return int(canonical(self.keys.keys)[0])

    def play(self, cell: int, letter: int) -> int:
        """Write a letter (updating the keys); returns the lines it completes."""
        completed = count_lines(self.board, self.arrays[1], cell, letter)
        self.board[cell] = letter
        self.empty -= 1
        rekey(self.keys.keys, self.keys.weights, self.size, cell, letter, 1)
        return completed

    def unplay(self, cell: int, letter: int) -> None:
        """Take back :meth:`play`."""
        self.board[cell] = EMPTY
        self.empty += 1
        rekey(self.keys.keys, self.keys.weights, self.size, cell, letter, -1)


class _StoppedError(Exception):
    """Another thread failed: this one stops too."""


class _Pool:
    """What the threads of one solve share: the node count, the limits, the first failure."""

    def __init__(self, threads: int, node_limit: int | None, deadline: float | None) -> None:
        self.threads = threads
        self.node_limit = node_limit
        self.deadline = deadline
        self.seconds = 0.0
        self.nodes = 0
        self.lock = threading.Lock()
        self.failure: BaseException | None = None
        self.progress: Callable[[int], None] | None = None
        """Called with the nodes all threads searched so far, as each slice ends."""

    def advance(self, nodes: int) -> int:
        """Count ``nodes`` more; the budget of the next slice, or raise if the solve must stop."""
        with self.lock:
            self.nodes += nodes
            if self.failure is not None:
                raise _StoppedError
            if self.progress is not None and nodes:
                self.progress(self.nodes)
            budget = _SLICE if self.deadline is None else _TIMED_SLICE
            if self.progress is not None:
                budget = min(budget, _REPORTED_SLICE)
            if self.node_limit is not None:
                left = self.node_limit - self.nodes
                if left <= 0:
                    raise NodeLimitError(self.node_limit)
                # Each thread takes a share of what is left, so together they stop at the limit.
                budget = min(budget, max(1, left // self.threads))
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise TimeLimitError(self.seconds, self.nodes)
            return budget

    def fail(self, error: BaseException) -> None:
        """Record why the solve stops (the first reason wins)."""
        with self.lock:
            if self.failure is None:
                self.failure = error


def check_players(game: Game) -> None:
    """Check that ``game`` is for two players, the only games the solver handles.

    :raises InvalidSettingsError: if it is not.
    """
    if game.players != 2:
        raise InvalidSettingsError(
            f"the solver handles two players only, and this game has {game.players}",
            code="solver_players",
            values={"players": game.players},
        )


def _check(game: Game) -> None:
    if not isinstance(game, Game):
        raise InvalidSettingsError(f"the solver needs a Game, not {type(game).__name__}")
    check_players(game)
    if game.is_over:
        raise GameOverError(
            f"the game is over, so there is nothing to solve: {game.position()}",
            code="solve_over",
            values={"position": game.position()},
        )
    empty = game.position().count(".")
    if empty > MAX_EMPTY_CELLS:
        raise InvalidSettingsError(
            f"the position has {empty} empty cells; the solver takes at most {MAX_EMPTY_CELLS}",
            code="solver_cells",
            values={"count": empty, "most": MAX_EMPTY_CELLS},
        )


def solve(
    game: Game,
    *,
    memory_mb: int | None = None,
    node_limit: int | None = None,
    table: TranspositionTable | None = None,
    seconds: float | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Solve the position of a two-player ``game`` for the seat to move (``game`` is unchanged).

    ``memory_mb`` sizes a fresh transposition table (by default from the number of empty
    cells, at most :data:`DEFAULT_MEMORY_MB`); pass ``table`` instead to reuse one.
    ``node_limit`` bounds the work (the nodes of every search the call makes), ``seconds``
    its wall time (counted from the call, table set-up included; the clock is read every few
    milliseconds of search). A position the limits stop leaves its work in ``table``.
    ``threads`` is how many threads search at once (by default one per core this process may
    use); they share one fresh table, so they are used only without ``table``, when compiled,
    and from :data:`THREADED_EMPTY_CELLS` empty cells. Their node counts vary a little from
    run to run; the value and best moves never do. ``progress``, if given, is called with the
    nodes searched so far as the search goes (once per slice of search, a fraction of a second
    apart when compiled); an exception it raises, or Ctrl-C, stops the solve.

    :raises InvalidSettingsError: for more than two players, too many empty cells, a memory
        size the machine cannot spare, or a bad limit.
    :raises GameOverError: if the game is already over.
    :raises NodeLimitError: if the position needs more than ``node_limit`` nodes.
    :raises TimeLimitError: if it needs more than ``seconds``.
    """
    start = time.perf_counter()
    _check(game)
    if node_limit is not None and (
        not isinstance(node_limit, int) or isinstance(node_limit, bool) or node_limit < 1
    ):
        raise InvalidSettingsError(
            f"node_limit must be a whole number of at least 1, not {node_limit!r}"
        )
    check_seconds(seconds)
    if threads is not None and (
        not isinstance(threads, int) or isinstance(threads, bool) or threads < 1
    ):
        raise InvalidSettingsError(
            f"threads must be a whole number of at least 1, not {threads!r}",
            code="threads",
            values={"value": threads},
        )
    check_workers(threads, "threads")
    notice_if_slow()
    warm_up()
    # The clock of a time limit starts with the call; ``Solution.seconds`` is the search alone.
    deadline = None if seconds is None else start + seconds
    start = time.perf_counter()
    count = available_threads() if threads is None else threads
    size = game.rows * game.cols
    if (
        table is None
        and JIT
        and size <= MAX_EMPTY_CELLS
        and game.position().count(".") >= THREADED_EMPTY_CELLS
    ):
        shared = SharedTable(_default_memory(game) if memory_mb is None else memory_mb)
        if shared.holds(3**size):
            pool = _Pool(count, node_limit, deadline)
            pool.seconds = 0.0 if seconds is None else float(seconds)
            pool.progress = progress
            value, found, nodes = _solve_threaded(game, shared, pool)
            found.sort(key=Move.sort_key)
            return Solution(value, tuple(found), nodes, time.perf_counter() - start)
        del shared
    if table is None:
        table = TranspositionTable(_default_memory(game) if memory_mb is None else memory_mb)
    run = Search(game, table, node_limit, deadline)
    run.seconds = 0.0 if seconds is None else float(seconds)
    run.progress = progress
    value = run.exact()
    best: list[Move] = []
    # Moves leading to symmetric positions reach the same value: test one of each.
    tested: dict[tuple[int, int], bool] = {}
    for cell in range(run.size):
        if run.board[cell] != EMPTY:
            continue
        for letter in (1, 2):
            completed = run.play(cell, letter)
            child = (run.key(), completed)
            reaches = tested.get(child)
            if reaches is None:
                reaches = tested[child] = run.test_move(completed, value) >= value
            run.unplay(cell, letter)
            if reaches:
                best.append(decode_move(cell, letter, run.rows, run.cols))
    best.sort(key=Move.sort_key)
    return Solution(value, tuple(best), run.nodes, time.perf_counter() - start)


_RootMove = tuple[int, int, int]  # cell, letter, the lines it completes


def _root_moves(run: Search) -> tuple[list[_RootMove], list[tuple[_RootMove, int]]]:
    """The root's moves worth testing (one per symmetric child), scoring and safe ones first;
    and every legal move with the index of the tested move it stands for."""
    classes: dict[tuple[int, int], int] = {}
    tested: list[_RootMove] = []
    ranks: list[int] = []
    every: list[tuple[_RootMove, int]] = []
    table = run.arrays[1]
    for cell in range(run.size):
        if run.board[cell] != EMPTY:
            continue
        for letter in (1, 2):
            handed = count_openings(run.board, table, cell, letter)
            lines = run.play(cell, letter)
            child = (run.key(), lines)
            run.unplay(cell, letter)
            if child not in classes:
                classes[child] = len(tested)
                tested.append((cell, letter, lines))
                ranks.append(-100 * lines if lines else handed)
            every.append(((cell, letter, lines), classes[child]))
    order = sorted(range(len(tested)), key=ranks.__getitem__)
    place = {old: new for new, old in enumerate(order)}
    return [tested[index] for index in order], [(move, place[index]) for move, index in every]


def _test(run: Search, move: _RootMove, bound: int) -> int:
    """The value of a root move, fail-soft around ``bound``: at least ``bound`` exactly when
    the move reaches it (then a lower bound; otherwise an upper bound)."""
    cell, letter, lines = move
    run.play(cell, letter)
    try:
        return run.test_move(lines, bound)
    finally:
        run.unplay(cell, letter)


def _solve_threaded(
    game: Game, shared: SharedTable, pool: _Pool, guess: int = 0
) -> tuple[int, list[Move], int]:
    """The value, best moves and nodes of ``game``, its root moves tested by several threads.

    Every root move keeps bounds on its value; each round tests, by null windows at one bound,
    every move that bound would tell something about, the threads taking moves in turn and
    sharing the table. Rounds narrow the bounds until the best value is known and each move
    is known to reach it or not. Any thread's answer is exact, whatever the others wrote.
    """
    runs = [Search(game, None, None, None, shared, pool) for _ in range(pool.threads)]
    moves, every = _root_moves(runs[0])
    lower = [-_INFINITY] * len(moves)
    upper = [_INFINITY] * len(moves)
    rising = True
    while True:
        most_lower, most_upper = max(lower), max(upper)
        if most_lower == most_upper:
            bound = most_lower
        elif most_lower == -_INFINITY and most_upper == _INFINITY:
            bound = guess
        else:
            bound = most_lower + 1 if rising or most_upper == _INFINITY else most_upper
            bound = min(max(bound, most_lower + 1), most_upper)
        tasks = [index for index in range(len(moves)) if lower[index] < bound <= upper[index]]
        if not tasks:
            break
        results = _run_round(runs, pool, [(moves[index], bound) for index in tasks])
        rising = False
        for index, result in zip(tasks, results, strict=True):
            if result >= bound:
                lower[index] = max(lower[index], result)
                rising = True
            else:
                upper[index] = min(upper[index], result)
    value = max(lower)
    best = [
        decode_move(cell, letter, game.rows, game.cols)
        for (cell, letter, _), index in every
        if lower[index] >= value
    ]
    return value, best, pool.nodes


_WAIT = 0.005  # seconds between looks at the helpers while waiting for them


def _run_round(runs: list[Search], pool: _Pool, tasks: list[tuple[_RootMove, int]]) -> list[int]:
    """Test every ``(move, bound)`` of ``tasks``, on as many threads as ``runs``."""
    results = [0] * len(tasks)
    taken = iter(range(len(tasks)))
    lock = threading.Lock()

    finished = [False] * len(runs)

    def drain(number: int) -> None:
        try:
            while pool.failure is None:
                with lock:
                    index = next(taken, None)
                if index is None:
                    return
                results[index] = _test(runs[number], *tasks[index])
        except BaseException as error:  # handed to the main thread, raised there
            pool.fail(error)
        finally:
            finished[number] = True

    # The main thread waits by polling its own flags, never in Thread.join: an interrupt that
    # lands in join can mark a thread that is still running as stopped (Python 3.11), and the
    # process would then leave while a helper still searches.
    helpers = [threading.Thread(target=drain, args=(n,), daemon=True) for n in range(1, len(runs))]
    try:
        for helper in helpers:
            helper.start()
        drain(0)
    except BaseException as error:
        pool.fail(error)
    started = [n for n, helper in enumerate(helpers, start=1) if helper.ident is not None]
    while not all(finished[n] for n in started):
        try:
            time.sleep(_WAIT)
        except BaseException as error:
            pool.fail(error)
    if pool.failure is not None:
        raise pool.failure
    return results


def _default_memory(game: Game) -> int:
    # A small search touches few entries but each on its own page: keep its table small.
    empty = game.position().count(".")
    for cells, memory in ((12, 8), (16, 64)):
        if empty <= cells:
            return min(memory, DEFAULT_MEMORY_MB)
    return DEFAULT_MEMORY_MB


def available_threads() -> int:
    """How many threads a solve uses by default: the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@cache
def warm_up() -> None:
    """Compile (or load from the disk cache) the solver's kernel, once per process.

    :func:`solve` calls it before starting its clock, so ``seconds`` is the search alone.
    """
    with compiling("solver"):
        run = Search(Game(1, 3), TranspositionTable(1), None)
        run.exact()
        run.play(0, 1)
        run.unplay(0, 1)
        if JIT:
            # Every kernel the threaded solve calls, so none compiles once a solve has begun
            # (an interrupt arriving during numba's compilation can be lost in its clean-up).
            _solve_threaded(Game(1, 3), SharedTable(1), _Pool(1, None, None))
