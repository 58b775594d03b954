"""Move ordering for the search: a node's moves in three lists, and what cut-offs teach.

:func:`generate` lists a node's moves in one pass over the lines through each empty cell
(the kernel's ``letter_lines``), into three lists of ``2 * size`` places from ``base``:
scoring moves (ranked by the lines they complete), safe quiet moves (ranked by the history
of cut-offs; in the exact search first by the lines they keep alive) and quiet
moves that hand the next player lines (fewest first, then by history). :func:`sort` puts a
list best first, keeping the listing order among equals.
The quiet moves that cut off are remembered two ways: a history score per move
(:func:`reward_history`, the solver's) and two killer moves per ply (:func:`reward_killer`,
the player's).
"""

from __future__ import annotations

from typing import Final

from sosgame.kernel import EMPTY, IntArray, O, S, jit_borrowed, jit_inline, letter_lines

__all__ = ["HISTORY_CAP", "generate", "listed", "reward_history", "reward_killer", "sort"]

HISTORY_CAP: Final = 1 << 36
"""History scores are halved past this, so they stay below the handover rank step."""
_HANDED: Final = 40  # the rank step per line handed over: far above any history score
_LIVE_STEP: Final = 37  # the exact search: the rank step per live line, above history


@jit_inline
def generate(
    board: IntArray,
    table: IntArray,
    order: IntArray,
    moves: IntArray,
    ranks: IntArray,
    base: int,
    history: IntArray,
    simple: int,
    tempo: int,
    skip: int,
) -> tuple[int, int, int, int]:
    """List the moves of a node (cells in ``order``, S before O), all but ``skip``.

    Returns ``(scoring, safe, unsafe, safe cells)``: the length of each list and how many
    cells take a letter that neither scores nor hands anything over (0 with ``tempo``). In
    simple mode a scoring move wins at once: then the first found is at ``moves[base]`` and
    ``scoring`` is -1. With ``tempo`` (the exact search), a cell on no live line is a pure
    tempo move, all of them alike: only the first such cell is listed, with an S; and in
    simple mode, where a
    move handing over a line loses, those moves are not listed.
    """
    size = len(board)
    safe_base = base + 2 * size
    unsafe_base = base + 4 * size
    n_scoring = 0
    n_safe = 0
    n_unsafe = 0
    safe_cells = 0
    tempo_seen = False
    for step in range(size):
        cell = order[step]
        if board[cell] != EMPTY:
            continue
        s_gain, s_hand, s_live = letter_lines(board, table, cell, S)
        o_gain, o_hand, o_live = letter_lines(board, table, cell, O)
        if simple and (s_gain > 0 or o_gain > 0):
            moves[base] = 2 * cell + (0 if s_gain > 0 else 1)
            return -1, 0, 0, 0
        if not tempo and ((s_gain == 0 and s_hand == 0) or (o_gain == 0 and o_hand == 0)):
            safe_cells += 1
        hot = s_live > 0 or o_live > 0
        if tempo and not hot:
            if tempo_seen:
                continue
            tempo_seen = True
        for letter in range(2):
            if tempo and not hot and letter == 1:
                continue
            code = 2 * cell + letter
            if code == skip:
                continue
            gain = s_gain if letter == 0 else o_gain
            hand = s_hand if letter == 0 else o_hand
            if gain > 0:
                moves[base + n_scoring] = code
                ranks[base + n_scoring] = gain
                n_scoring += 1
            elif hand == 0:
                moves[safe_base + n_safe] = code
                ranks[safe_base + n_safe] = history[code]
                if tempo:
                    # First the moves keeping the most lines alive for their letter and killing
                    # the fewest for the other: in simple mode a quarter of the nodes of history
                    # order alone on 4x5 and 5x5, in general mode half of them.
                    own, other = (s_live, o_live) if letter == 0 else (o_live, s_live)
                    ranks[safe_base + n_safe] += (own - other) << _LIVE_STEP
                n_safe += 1
            elif not (tempo and simple):  # the exact search has no use for losing moves
                moves[unsafe_base + n_unsafe] = code
                ranks[unsafe_base + n_unsafe] = history[code] - (hand << _HANDED)
                n_unsafe += 1
    return n_scoring, n_safe, n_unsafe, safe_cells


@jit_inline
def sort(moves: IntArray, ranks: IntArray, start: int, count: int) -> None:
    """Insertion-sort ``count`` moves from ``start`` by rank, highest first, stable."""
    for i in range(start + 1, start + count):
        move = moves[i]
        rank = ranks[i]
        j = i - 1
        while j >= start and ranks[j] < rank:
            moves[j + 1] = moves[j]
            ranks[j + 1] = ranks[j]
            j -= 1
        moves[j + 1] = move
        ranks[j + 1] = rank


@jit_borrowed
def listed(moves: IntArray, code: int, start: int, count: int) -> bool:
    """Whether ``code`` is among ``count`` moves from ``start``."""
    if code < 0:
        return False
    for index in range(start, start + count):  # noqa: SIM110 (numba compiles loops, not any())
        if moves[index] == code:
            return True
    return False


@jit_borrowed
def reward_history(history: IntArray, code: int, empty: int) -> None:
    """A quiet move cut off with ``empty`` cells left: the earlier, the more it counts."""
    history[code] += empty * empty
    if history[code] > HISTORY_CAP:
        for other in range(len(history)):
            history[other] >>= 1


@jit_borrowed
def reward_killer(killers: IntArray, ply: int, code: int) -> None:
    """A quiet move cut off at ``ply``: it becomes the ply's first killer."""
    if killers[2 * ply] != code:
        killers[2 * ply + 1] = killers[2 * ply]
        killers[2 * ply] = code
