"""The compiled search kernel: flat-array SOS primitives and playouts for search code.

What the players and the solver build on:

* :data:`JIT` (compiled?), :data:`HAVE_NUMBA`, :func:`jit` (``numba.njit(nogil=True)``
  cached on disk where a folder is writable, :func:`plan_cache`, under a digest of the
  compiled modules' source, when numba imports; the
  identity otherwise; :func:`jit_borrowed` the same without reference counting, for
  functions that never make an array; :func:`jit_inline` that, compiled into each caller),
  :func:`notice_if_slow` (say once,
  on standard error, ``pip install 'sosgame[fast]'`` when numba is missing), :func:`warm_up`
  (compile or load every kernel once, so no game stalls later).
* Arrays: :func:`new_array`, :func:`to_array` give numpy arrays when compiled and lists
  otherwise; write new kernel functions over flat integer arrays only, so they run both ways.
* :func:`tables` (``rows, cols`` -> :class:`Tables`, whose ``table`` packs, per cell, the
  ``(first, second)`` index pairs for an S and for an O; layout in :mod:`sosgame.kernel.tables`).
* :func:`encode` (:class:`~sosgame.Game` -> :class:`KernelState`: board, scores, next_seat,
  turn, simple, empty, over), :func:`encode_move` / :func:`decode_move` (``Move`` <->
  ``(cell, letter)``; letters are :data:`S` = 1 and :data:`O` = 2, :data:`EMPTY` = 0).
* Move primitives: :func:`letter_lines` (what a letter in a cell completes, opens and could
  still complete), :func:`count_lines` (lines a move would complete), :func:`count_openings`
  (SOS chances a move hands the next player), :func:`has_scoring_move`, :func:`apply_move`,
  :func:`undo_move`, :func:`next_turn`.
* Playouts for 2 to 8 seats: :func:`make_rng`, :func:`random_below`, :func:`playout` (one game
  to the end, in place, returns the winner or :data:`DRAW`; final points left in ``scores``),
  :func:`playouts` (many from one position, counting wins and summing points), with policy
  :data:`RANDOM` or :data:`GREEDY`; :func:`winner`.

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
    IntArray,
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
    "RANDOM",
    "IntArray",
    "KernelState",
    "O",
    "S",
    "Tables",
    "apply_move",
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
