"""The search both the solver and the ``hard`` player run: negamax alpha-beta on a stack.

The search keeps its whole stack in arrays instead of recursing, so it stops when it has
visited ``registers[LIMIT]`` nodes and resumes where it was on the next call: its drivers run
it in slices and look at the clock, the node budget and Ctrl-C in between. Everything works on
flat integer arrays (numpy arrays when compiled, lists otherwise), so the same source runs
under numba and as plain Python.

A move is coded ``2 * cell + (0 for S, 1 for O)``. Values are from the mover's side: future
points minus the opponent's. A scoring move keeps the same side to move, so its value adds to
the mover's instead of being negated. The same loop has two modes, each compiled on its own
(:func:`search_exact`, :func:`search_heuristic`):

* **exact** (the solver): to the end of the game, values in points (simple mode: 1 a win, -1 a
  loss); exact keys under the board's symmetries; a bound from the lines still open; the
  table's move searched before the others are even listed; tempo moves merged; history
  (after the lines a move keeps alive, :func:`~.ordering.generate`).
  :func:`search_exact_shared` is the same over a table other threads search at once
  (:class:`~sosgame.search.table.SharedTable`), with enhanced transposition cut-offs: from
  :data:`ETC_EMPTY` empty cells, every child is looked up before any move is searched; it
  keys and uses the table only from :data:`TABLE_EMPTY` empty cells and solves a node with
  :data:`LEAF_EMPTY` or fewer directly.
* **heuristic** (the player): ``depth`` quiet moves deep (scoring moves use none), then a
  quiescence that takes the best scoring move while there is one and judges the quiet
  position by the parity of its safe cells; values in ``1 / UNIT`` point, a simple-mode win
  is ``WIN``; away from the end only the sensible moves; killer moves; the best root move in
  ``registers[BEST]``.

Both share the stack, the transposition table (:mod:`.table`), the keys (:mod:`.keys`), the
move lists (:mod:`.ordering`) and the positions valued without a search (:mod:`.leaves`).
"""

from __future__ import annotations

from typing import Final, TypeAlias

from sosgame.kernel import EMPTY, IntArray, O, S, jit_borrowed, jit_inline, letter_lines, new_array
from sosgame.search.keys import Keys, canonical, rekey
from sosgame.search.leaves import INFINITY, endgame, known_cut
from sosgame.search.ordering import generate, listed, reward_history, reward_killer, sort
from sosgame.search.table import (
    DEPTH,
    EXACT,
    KIND,
    LOWER,
    MOVE,
    UPPER,
    VALUE,
    probe,
    probe_word,
    store,
    store_word,
    word_kind,
    word_move,
    word_value,
)

__all__ = [
    "BEST",
    "DONE",
    "ETC_EMPTY",
    "FULL_WIDTH",
    "LEAF_EMPTY",
    "LIMIT",
    "LIVE",
    "NODES",
    "PARITY",
    "SIMPLE",
    "TABLE_EMPTY",
    "UNIT",
    "VALUE_OUT",
    "WIN",
    "BoardArrays",
    "TableArrays",
    "Work",
    "begin",
    "new_work",
    "search_exact",
    "search_exact_shared",
    "search_heuristic",
]

BoardArrays: TypeAlias = tuple[IntArray, IntArray, IntArray]
"""A board's arrays, ``(board, line table, the order cells are listed in)``."""
Work: TypeAlias = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]
"""``(frames, moves, ranks, history, killers, registers)``: see :func:`new_work`."""
TableArrays: TypeAlias = tuple[IntArray, IntArray]
"""A transposition table's ``(keys, data)``; a shared table's words twice."""

UNIT: Final = 4
WIN: Final = 1 << 20
DONE: Final = 1
"""What a search call returns when it has finished (0: it paused at ``LIMIT``)."""
# Registers: the search's scalar state between calls, and its settings.
NODES: Final = 0  # nodes visited since begin()
LIMIT: Final = 1  # pause when NODES reaches this
_SP: Final = 2
_PHASE: Final = 3
VALUE_OUT: Final = 4  # the root's value, once done
_EMPTY: Final = 5
LIVE: Final = 6  # lines that can still become SOS (exact mode)
BEST: Final = 7  # the best root move, once done (heuristic mode)
SIMPLE: Final = 8  # 1 in simple mode
FULL_WIDTH: Final = 9  # heuristic mode: with this many empty cells or fewer, every move
PARITY: Final = 10  # heuristic mode: the weight of the safe-cell parity, in 1 / UNIT point
_REGISTERS: Final = 11
# Phases of the frame on top of the stack.
_ENTER: Final = 0
_NEXT: Final = 1
_RETURN: Final = 2
# The fields of one frame of the stack.
_KEY: Final = 0
_SYM: Final = 1  # the symmetry that gives the key
_DEPTH: Final = 2
_ALPHA: Final = 3
_BETA: Final = 4
_ALPHA0: Final = 5
_BEST: Final = 6  # best value so far (or the node's value, when it needs no search)
_BEST_MOVE: Final = 7
_HINT: Final = 8  # the transposition table's move, searched first
_USED1: Final = 9  # the killers searched next (-1 if not candidates here)
_USED2: Final = 10
_N_SCORING: Final = 11
_N_SAFE: Final = 12
_N_UNSAFE: Final = 13
_NEXT_MOVE: Final = 14  # the next candidate: -3 the hint, -2 and -1 the killers, then 0, 1, ...
_MOVE: Final = 15  # the move being searched
_LINES: Final = 16  # the lines it completes
_CLOSED: Final = 17  # the live lines it closes (exact mode)
_STORE: Final = 18  # 1 to record the result in the table
_STAGED: Final = 19  # 1 while only the hint is listed (exact mode)
_FIELDS: Final = 20
_LISTS: Final = 6  # list places per ply, in units of the board's size
ETC_EMPTY: Final = 9
"""The shared-table search looks up every child first at nodes with this many empty cells."""
TABLE_EMPTY: Final = 4
"""The shared-table search keys, looks up and stores nodes with this many empty cells or more:
nearer the end a search costs less than the table's cache misses and key updates."""
LEAF_EMPTY: Final = 2
"""The shared-table search solves nodes with this many empty cells or fewer directly."""


def new_work(size: int, plies: int) -> Work:
    """Zeroed work arrays for a board of ``size`` cells and up to ``plies`` moves deep."""
    return (
        new_array((plies + 2) * _FIELDS),
        new_array((plies + 1) * _LISTS * size),
        new_array((plies + 1) * _LISTS * size),
        new_array(2 * size),
        new_array(2 * (plies + 2)),
        new_array(_REGISTERS),
    )


def begin(work: Work, alpha: int, beta: int, depth: int, empty: int, live: int = 0) -> None:
    """Set up a search of the root with the window ``(alpha, beta)`` (keeps the settings).

    ``live`` is the root's :func:`~.leaves.count_live` (exact mode only).
    """
    frames, registers = work[0], work[5]
    for register in (NODES, _SP, _PHASE, VALUE_OUT):
        registers[register] = 0
    registers[_EMPTY] = empty
    registers[LIVE] = live
    frames[_ALPHA] = alpha
    frames[_BETA] = beta
    frames[_DEPTH] = depth


@jit_inline
def _open_bound(live: int, alpha: int, beta: int) -> int:
    """The node's value if the lines still open settle it against the window, else
    ``-INFINITY``: no side can score more than those lines, nor lose more."""
    if live <= alpha or live == 0:
        return live
    if -live >= beta:
        return -live
    return -INFINITY


@jit_inline
def _narrow(kind: int, stored: int, alpha: int, beta: int) -> tuple[int, int]:
    """The window ``(alpha, beta)`` narrowed by a stored bound of ``kind``."""
    if kind == LOWER and stored > alpha:
        return stored, beta
    if kind == UPPER and stored < beta:
        return alpha, stored
    return alpha, beta


@jit_inline
def _enter(
    board: IntArray,
    table: IntArray,
    order: IntArray,
    weights: IntArray,
    keys: IntArray,
    inverse: IntArray,
    tt_keys: IntArray,
    tt_data: IntArray,
    frames: IntArray,
    moves: IntArray,
    ranks: IntArray,
    history: IntArray,
    killers: IntArray,
    registers: IntArray,
    ply: int,
    empty: int,
    live: int,
    exact: bool,
    shared: bool,
) -> bool:
    """Set up the frame at ``ply``: True if its value is known at once (kept in its ``_BEST``)."""
    frame = ply * _FIELDS
    frames[frame + _BEST_MOVE] = -1
    if empty == 0:
        frames[frame + _BEST] = 0
        return True
    size = len(board)
    alpha = frames[frame + _ALPHA]
    beta = frames[frame + _BETA]
    depth = frames[frame + _DEPTH]
    simple = registers[SIMPLE]
    hint = -1
    key = 0
    sym = 0
    keyed = True
    if shared:
        if empty <= LEAF_EMPTY:
            frames[frame + _BEST] = endgame(board, table, size, empty, simple)
            return True
        # The cheap bound first: it needs no memory beyond the stack.
        bound = _open_bound(live, alpha, beta)
        if bound > -INFINITY:
            frames[frame + _BEST] = bound
            return True
        keyed = empty >= TABLE_EMPTY
    if keyed:
        key, sym = canonical(keys)
        frames[frame + _KEY] = key
        frames[frame + _SYM] = sym
    if shared and keyed:
        # One word, read once: the whole entry of one write, never parts of two.
        word = probe_word(tt_keys, key)
        if word:
            stored = word_value(word)
            kind = word_kind(word)
            alpha, beta = _narrow(kind, stored, alpha, beta)
            if kind == EXACT or alpha >= beta:
                frames[frame + _BEST] = stored
                return True
            move = word_move(word)
            if move >= 0:
                hint = 2 * inverse[sym * size + (move >> 1)] + (move & 1)
    slot = -1 if shared else probe(tt_keys, key)
    if slot >= 0:
        stored = tt_data[4 * slot + VALUE]
        kind = tt_data[4 * slot + KIND]
        if exact:
            # Exact values never depend on depth: a bound narrows the window.
            alpha, beta = _narrow(kind, stored, alpha, beta)
            if kind == EXACT or alpha >= beta:
                frames[frame + _BEST] = stored
                return True
        elif (
            ply > 0
            and tt_data[4 * slot + DEPTH] >= depth
            and (
                kind == EXACT
                or (kind == LOWER and stored >= beta)
                or (kind == UPPER and stored <= alpha)
            )
        ):
            frames[frame + _BEST] = stored
            return True
        move = tt_data[4 * slot + MOVE]
        if move >= 0:
            hint = 2 * inverse[sym * size + (move >> 1)] + (move & 1)
    if exact:
        bound = _open_bound(live, alpha, beta)
        if bound > -INFINITY:
            frames[frame + _BEST] = bound
            return True
    if shared and empty >= ETC_EMPTY:
        # Enhanced transposition cut-off: far from the end, a child the table already knows
        # well enough may cut this node off before any move is searched.
        cut = known_cut(board, table, weights, keys, tt_keys, size, beta, simple)
        if cut > -INFINITY:
            frames[frame + _BEST] = cut
            return True
    base = ply * _LISTS * size
    frames[frame + _ALPHA] = alpha
    frames[frame + _BETA] = beta
    frames[frame + _ALPHA0] = alpha
    frames[frame + _BEST] = -INFINITY
    frames[frame + _STORE] = 1 if keyed else 0
    frames[frame + _STAGED] = 0
    frames[frame + _USED1] = -1
    frames[frame + _USED2] = -1
    # Candidates -3 to -1 are the hint and the killers, which the exact mode has not.
    frames[frame + _NEXT_MOVE] = 0 if exact else -3
    if exact:
        if simple or hint < 0:
            hint = -1
        else:
            # Try the table's move before listing the others: it often cuts off at once.
            frames[frame + _HINT] = hint
            frames[frame + _STAGED] = 1
            frames[frame + _NEXT_MOVE] = -1
            frames[frame + _N_SCORING] = 0
            frames[frame + _N_SAFE] = 0
            frames[frame + _N_UNSAFE] = 0
            return False
    n_scoring, n_safe, n_unsafe, safe_cells = generate(
        board, table, order, moves, ranks, base, history, simple, 1 if exact else 0, -1
    )
    unsafe = base + 4 * size
    if exact:
        if n_scoring < 0:
            frames[frame + _BEST] = 1
            return True
        if simple:
            # A quiet move handing over an SOS loses: only safe moves are worth searching.
            if n_safe == 0:
                frames[frame + _BEST] = -1
                return True
            n_unsafe = 0
        sort(moves, ranks, base + 2 * size, n_safe)
    elif simple:
        # Every SOS ends the game, so a scoring move wins and a move handing one over loses.
        if n_scoring < 0:
            frames[frame + _BEST] = WIN
            frames[frame + _BEST_MOVE] = moves[base]
            return True
        if n_safe == 0:
            sort(moves, ranks, unsafe, n_unsafe)
            frames[frame + _BEST] = -WIN
            frames[frame + _BEST_MOVE] = moves[unsafe]
            return True
        if depth <= 0:
            frames[frame + _BEST] = _parity(registers, safe_cells)
            return True
        n_unsafe = 0
    elif depth <= 0:
        # Quiescence: take the best line while there is one, then judge the quiet position.
        if n_scoring:
            best = base
            for index in range(base + 1, base + n_scoring):
                if ranks[index] > ranks[best]:
                    best = index
            moves[base], moves[best] = moves[best], moves[base]
            ranks[base], ranks[best] = ranks[best], ranks[base]
            n_scoring = 1
            n_safe = 0
            n_unsafe = 0
            hint = -1
            frames[frame + _STORE] = 0
        elif n_safe:
            frames[frame + _BEST] = _parity(registers, safe_cells)
            return True
        else:
            sort(moves, ranks, unsafe, n_unsafe)
            code = moves[unsafe]
            handed = letter_lines(board, table, code >> 1, (code & 1) + 1)[1]
            frames[frame + _BEST] = -handed * UNIT
            frames[frame + _BEST_MOVE] = code
            return True
    elif empty > registers[FULL_WIDTH]:
        # Forward pruning away from the end: cash in while there are lines to take, and hand
        # lines over only when every move does.
        if n_scoring:
            n_safe = 0
            n_unsafe = 0
        elif n_safe:
            n_unsafe = 0
    sort(moves, ranks, base, n_scoring)
    sort(moves, ranks, unsafe, n_unsafe)
    if not exact:
        safe = base + 2 * size
        if not (
            listed(moves, hint, base, n_scoring)
            or listed(moves, hint, safe, n_safe)
            or listed(moves, hint, unsafe, n_unsafe)
        ):
            hint = -1
        used1 = killers[2 * ply]
        if used1 == hint or not (
            listed(moves, used1, safe, n_safe) or listed(moves, used1, unsafe, n_unsafe)
        ):
            used1 = -1
        used2 = killers[2 * ply + 1]
        if used2 in (hint, used1) or not (
            listed(moves, used2, safe, n_safe) or listed(moves, used2, unsafe, n_unsafe)
        ):
            used2 = -1
        frames[frame + _USED1] = used1
        frames[frame + _USED2] = used2
    frames[frame + _HINT] = hint
    frames[frame + _N_SCORING] = n_scoring
    frames[frame + _N_SAFE] = n_safe
    frames[frame + _N_UNSAFE] = n_unsafe
    return False


@jit_borrowed
def _parity(registers: IntArray, safe_cells: int) -> int:
    """The evaluation of a quiet position: taking the last safe cell is worth a little."""
    return registers[PARITY] if safe_cells % 2 == 1 else -registers[PARITY]


@jit_inline
def _next_move(
    board: IntArray,
    table: IntArray,
    order: IntArray,
    frames: IntArray,
    moves: IntArray,
    ranks: IntArray,
    history: IntArray,
    ply: int,
    exact: bool,
) -> int:
    """The next move to search at ``ply`` (its lines go in the frame), or -1 when none is left."""
    frame = ply * _FIELDS
    size = len(board)
    base = ply * _LISTS * size
    hint = frames[frame + _HINT]
    used1 = frames[frame + _USED1]
    used2 = frames[frame + _USED2]
    while True:
        turn = frames[frame + _NEXT_MOVE]
        frames[frame + _NEXT_MOVE] = turn + 1
        if exact and turn == 0 and frames[frame + _STAGED]:
            # The hint did not cut off: list the other moves.
            frames[frame + _STAGED] = 0
            n_scoring, n_safe, n_unsafe, _ = generate(
                board, table, order, moves, ranks, base, history, 0, 1, hint
            )
            sort(moves, ranks, base, n_scoring)
            sort(moves, ranks, base + 2 * size, n_safe)
            sort(moves, ranks, base + 4 * size, n_unsafe)
            frames[frame + _N_SCORING] = n_scoring
            frames[frame + _N_SAFE] = n_safe
            frames[frame + _N_UNSAFE] = n_unsafe
        n_scoring = frames[frame + _N_SCORING]
        n_safe = frames[frame + _N_SAFE]
        if turn >= n_scoring + n_safe + frames[frame + _N_UNSAFE]:
            return -1
        if turn < 0:
            code = hint if turn == -3 or exact else used1 if turn == -2 else used2
            if code < 0:
                continue
            lines = 0
            for index in range(base, base + n_scoring):
                if moves[index] == code:
                    lines = ranks[index]
            frames[frame + _LINES] = lines
            return code
        lines = 0
        if turn < n_scoring:
            index = base + turn
            lines = ranks[index]
        elif turn < n_scoring + n_safe:
            index = base + 2 * size + turn - n_scoring
        else:
            index = base + 4 * size + turn - n_scoring - n_safe
        code = moves[index]
        if code not in (hint, used1, used2):
            frames[frame + _LINES] = lines
            return code


@jit_inline
def _search(
    arrays: BoardArrays,
    keying: Keys,
    tt: TableArrays,
    work: Work,
    exact: bool,
    shared: bool,
) -> int:
    # The arrays are taken out of their tuples once, here: the helpers get them one by one.
    board, table, order = arrays
    weights, keys, images, inverse = keying
    tt_keys, tt_data = tt
    frames, moves, ranks, history, killers, registers = work
    size = len(board)
    unit = 1 if exact else UNIT
    sp = registers[_SP]
    phase = registers[_PHASE]
    value = registers[VALUE_OUT]
    nodes = registers[NODES]
    empty = registers[_EMPTY]
    live = registers[LIVE]
    limit = registers[LIMIT]
    done = False
    while True:
        frame = sp * _FIELDS
        if phase == _ENTER:
            if nodes >= limit:
                break
            nodes += 1
            if _enter(
                board, table, order, weights, keys, inverse, tt_keys, tt_data, frames, moves,
                ranks, history, killers, registers, sp, empty, live, exact, shared,
            ):  # fmt: skip
                value = frames[frame + _BEST]
                phase = _RETURN
            else:
                phase = _NEXT
        elif phase == _NEXT:
            code = -1
            if frames[frame + _ALPHA] < frames[frame + _BETA]:
                code = _next_move(board, table, order, frames, moves, ranks, history, sp, exact)
            if code < 0:
                value = frames[frame + _BEST]
                if frames[frame + _STORE]:
                    _save(
                        tt_keys, tt_data, images, frames, frame, size, value, empty, exact, shared
                    )
                phase = _RETURN
                continue
            cell = code >> 1
            letter = (code & 1) + 1
            if exact:
                # The live lines through the cell it closes: an S completes or kills the lines
                # it ends and kills those it would be the middle of; an O, the other way round.
                s_done, _, s_live = letter_lines(board, table, cell, S)
                o_done, _, o_live = letter_lines(board, table, cell, O)
                closed = s_done + o_live if letter == S else s_live + o_done
                live -= closed
                frames[frame + _CLOSED] = closed
                frames[frame + _LINES] = s_done if letter == S else o_done
            lines = frames[frame + _LINES]
            board[cell] = letter
            if not shared or empty > TABLE_EMPTY:
                # Below the table's depths no key is read: only its own moves touch it.
                rekey(keys, weights, size, cell, letter, 1)
            empty -= 1
            frames[frame + _MOVE] = code
            child = frame + _FIELDS
            if lines:
                frames[child + _ALPHA] = frames[frame + _ALPHA] - lines * unit
                frames[child + _BETA] = frames[frame + _BETA] - lines * unit
                frames[child + _DEPTH] = frames[frame + _DEPTH]
            else:
                frames[child + _ALPHA] = -frames[frame + _BETA]
                frames[child + _BETA] = -frames[frame + _ALPHA]
                frames[child + _DEPTH] = frames[frame + _DEPTH] - 1
            sp += 1
            phase = _ENTER
        else:
            if sp == 0:
                registers[BEST] = frames[_BEST_MOVE]
                done = True
                break
            sp -= 1
            frame = sp * _FIELDS
            code = frames[frame + _MOVE]
            cell = code >> 1
            letter = (code & 1) + 1
            board[cell] = EMPTY
            empty += 1
            if not shared or empty > TABLE_EMPTY:
                rekey(keys, weights, size, cell, letter, -1)
            if exact:
                live += frames[frame + _CLOSED]
            lines = frames[frame + _LINES]
            result = lines * unit + value if lines else -value  # sosgame.solver.rule, inline
            phase = _NEXT
            if result > frames[frame + _BEST]:
                frames[frame + _BEST] = result
                frames[frame + _BEST_MOVE] = code
                if result > frames[frame + _ALPHA]:
                    frames[frame + _ALPHA] = result
                    if result >= frames[frame + _BETA] and not lines:
                        if exact:
                            reward_history(history, code, empty)
                        else:
                            reward_killer(killers, sp, code)
    registers[_SP] = sp
    registers[_PHASE] = phase
    registers[VALUE_OUT] = value
    registers[NODES] = nodes
    registers[_EMPTY] = empty
    registers[LIVE] = live
    return DONE if done else 0


@jit_inline
def _save(
    tt_keys: IntArray,
    tt_data: IntArray,
    images: IntArray,
    frames: IntArray,
    frame: int,
    size: int,
    value: int,
    empty: int,
    exact: bool,
    shared: bool,
) -> None:
    # The frame's result, its best move mapped into the orientation of the key.
    best = frames[frame + _BEST_MOVE]
    move = -1
    if best >= 0:
        move = 2 * images[frames[frame + _SYM] * size + (best >> 1)] + (best & 1)
    kind = EXACT
    if value <= frames[frame + _ALPHA0]:
        kind = UPPER
    elif value >= frames[frame + _BETA]:
        kind = LOWER
    depth = empty if exact else frames[frame + _DEPTH]
    if shared:
        store_word(tt_keys, frames[frame + _KEY], depth, value, kind, move)
    else:
        store(tt_keys, tt_data, frames[frame + _KEY], depth, value, kind, move)


# Three entry points of one shape, not one with two flags: each passes its flags to the inlined
# _search as constants, so that numba compiles a copy without the branches it never takes.


@jit_borrowed
def search_exact(arrays: BoardArrays, keying: Keys, tt: TableArrays, work: Work) -> int:
    """Run the exact search until it is done (:data:`DONE`) or reaches ``LIMIT`` nodes (0).

    When done, ``registers[VALUE_OUT]`` is the root's value (fail-soft: a bound if it falls
    outside the window given to :func:`begin`).
    """
    return _search(arrays, keying, tt, work, True, False)


@jit_borrowed
def search_exact_shared(arrays: BoardArrays, keying: Keys, tt: TableArrays, work: Work) -> int:
    """:func:`search_exact` over a :class:`~sosgame.search.table.SharedTable`, ``tt`` being
    its words twice: other threads may search the same table at the same time."""
    return _search(arrays, keying, tt, work, True, True)


@jit_borrowed
def search_heuristic(arrays: BoardArrays, keying: Keys, tt: TableArrays, work: Work) -> int:
    """Run the depth-limited search, as :func:`search_exact`; the root's best move goes to
    ``registers[BEST]``."""
    return _search(arrays, keying, tt, work, False, False)
