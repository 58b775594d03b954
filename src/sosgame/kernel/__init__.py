"""The compiled search kernel: flat-array SOS primitives and playouts for search code.

Compiled by numba when it is installed (:data:`JIT`), plain Python over lists otherwise:
write new kernel functions over flat integer arrays only (:func:`new_array`,
:func:`to_array`), so that they run both ways. Everything is importable from here; by module:

* :mod:`~sosgame.kernel._jit`: the compiling decorators, the disk cache of compiled code and
  the notice of a first compile;
* :mod:`~sosgame.kernel.tables`: a board's line tables, packed per cell;
* :mod:`~sosgame.kernel.state`: a :class:`~sosgame.Game` as arrays, and moves as
  ``(cell, letter)`` (letters :data:`S` = 1 and :data:`O` = 2, :data:`EMPTY` = 0);
* :mod:`~sosgame.kernel.moves`: what a letter in a cell completes or opens, applying and
  undoing a move;
* :mod:`~sosgame.kernel.playout`: games played to the end, for 2 to 8 seats.

:func:`warm_up` compiles (or loads) every kernel once, so that no game stalls later.

Example, 1000 random playouts from a game::

    state = encode(game)
    wins = new_array(game.players + 1)
    points = new_array(game.players)
    playouts(state.board, state.scores, state.tables.table, state.next_seat, state.turn,
             state.simple, RANDOM, 1000, make_rng(seed), wins, points)

The kernel re-implements the scoring rule for speed; the tests check it move by move against
:class:`~sosgame.Game`, compiled and as plain Python.
"""

from __future__ import annotations

from functools import cache

from sosgame.kernel._jit import (
    HAVE_NUMBA,
    INSTALL_HINT,
    JIT,
    MODE,
    PENDING,
    IntArray,
    compiled_before,
    compiling,
    jit,
    jit_borrowed,
    jit_inline,
    new_array,
    notice_if_slow,
    plan_cache,
    to_array,
)
from sosgame.kernel.moves import (
    EMPTY,
    O,
    S,
    apply_move,
    count_lines,
    count_openings,
    has_scoring_move,
    letter_lines,
    next_turn,
    undo_move,
)
from sosgame.kernel.playout import (
    DRAW,
    GREEDY,
    RANDOM,
    make_rng,
    playout,
    playouts,
    random_below,
    winner,
)
from sosgame.kernel.state import KernelState, decode_move, encode, encode_move
from sosgame.kernel.tables import Tables, tables

__all__ = [
    "DRAW",
    "EMPTY",
    "GREEDY",
    "HAVE_NUMBA",
    "INSTALL_HINT",
    "JIT",
    "MODE",
    "PENDING",
    "RANDOM",
    "IntArray",
    "KernelState",
    "O",
    "S",
    "Tables",
    "apply_move",
    "compiled_before",
    "compiling",
    "count_lines",
    "count_openings",
    "decode_move",
    "encode",
    "encode_move",
    "has_scoring_move",
    "jit",
    "jit_borrowed",
    "jit_inline",
    "letter_lines",
    "make_rng",
    "new_array",
    "next_turn",
    "notice_if_slow",
    "plan_cache",
    "playout",
    "playouts",
    "random_below",
    "tables",
    "to_array",
    "undo_move",
    "warm_up",
    "winner",
]


@cache
def warm_up() -> None:
    """Compile (or load from the disk cache) every kernel of this package, once per process.

    Call it before a game starts; later calls return at once. Without numba it only says,
    once, what to install. The solver's kernels warm up with :func:`sosgame.solver.warm_up`.
    """
    with compiling("kernel"):
        _warm_up()


def _warm_up() -> None:
    if not JIT:
        notice_if_slow()
        return
    from sosgame.game import Game

    for mode in ("general", "simple"):
        state = encode(Game(3, 3, mode=mode))
        table = state.tables.table
        board, scores = state.board, state.scores
        count_lines(board, table, 0, S)
        letter_lines(board, table, 0, O)
        count_openings(board, table, 0, O)
        has_scoring_move(board, table)
        done = apply_move(board, scores, table, 0, 0, S)
        next_turn(state.next_seat, 0, done)
        undo_move(board, scores, 0, 0, done)
        wins = new_array(3)
        points = new_array(2)
        winner(scores, state.next_seat)
        random_below(make_rng(0), 2)
        for policy in (RANDOM, GREEDY):
            playout(
                board.copy(), scores.copy(), table, state.next_seat, 0, state.simple, policy,
                make_rng(0),
            )  # fmt: skip
            playouts(
                board, scores, table, state.next_seat, 0, state.simple, policy, 1, make_rng(0),
                wins, points,
            )  # fmt: skip
