"""The compiled inner loop of the two-player search: move generation, alpha-beta, quiescence.

Everything here works on flat integer arrays (numpy arrays when compiled, lists otherwise), so
that the same source runs under numba and as plain Python. The line tables are the kernel's
(:mod:`sosgame.kernel.tables`); the move generation counts lines with the kernel's
``letter_lines``. A board cell holds 0 (empty), 1 (S) or 2 (O); a move is coded
``2 * cell + (0 for S, 1 for O)``. The search keeps its own stack of frames instead of
recursing, so that numba can cache it on disk.

Values are the mover's future points minus the opponent's future points, in units of
``1 / UNIT`` point so the evaluation can use fractions of a point; a simple-mode win is
``WIN``.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from sosgame.kernel import IntArray, O, S, jit, letter_lines

__all__ = [
    "BEST",
    "COUNTERS",
    "FIELDS",
    "FULL_WIDTH",
    "LIMIT",
    "NODES",
    "PARITY",
    "PAUSED",
    "SIMPLE",
    "UNIT",
    "WIN",
    "Packed",
    "negamax",
]

Packed: TypeAlias = tuple[
    tuple[IntArray, IntArray, IntArray],
    tuple[IntArray, IntArray, IntArray, IntArray, IntArray],
    tuple[IntArray, IntArray, IntArray, IntArray],
]
"""``(line table, Zobrist keys, cell order)``, the transposition table (keys, values, depths,
flags, moves), and the work arrays ``(moves, gains, frames, counters)``."""

UNIT: Final = 4
WIN: Final = 1 << 20
INFINITY: Final = 1 << 30
# Slots of the counters array shared with the driver.
NODES: Final = 0  # positions visited so far
LIMIT: Final = 1  # pause (and set PAUSED) when NODES reaches this
SIMPLE: Final = 2  # 1 in simple mode
FULL_WIDTH: Final = 3  # with this many empty cells or fewer, every move is searched
BEST: Final = 4  # the best move found at the root
PARITY: Final = 5  # the weight of the safe-cell parity term, in 1 / UNIT point
PAUSED: Final = 6  # 1 when the search stopped at LIMIT and can be resumed
# Where a paused search keeps its registers.
_PLY: Final = 7
_EMPTY: Final = 8
_ENTERING: Final = 9
_VALUE: Final = 10
COUNTERS: Final = 11
"""The length of the counters array."""
# The fields of one frame of the search stack.
_KEY: Final = 0
_DEPTH: Final = 1
_ALPHA: Final = 2
_BETA: Final = 3
_BEST: Final = 4  # best value so far (or the node's value, when it needs no search)
_MOVE: Final = 5  # best move so far
_ALPHA0: Final = 6
_HINT: Final = 7  # the transposition table's move, searched first
_N_SCORING: Final = 8
_N_SAFE: Final = 9
_N_UNSAFE: Final = 10
_NEXT: Final = 11  # the next candidate: -3 the hint, -2 and -1 the killers, then 0, 1, ...
_CODE: Final = 12  # the move being searched
_POINTS: Final = 13  # what it scores, in 1 / UNIT point
_STORE: Final = 14  # 1 to record the result in the transposition table
_KILLER1: Final = 15  # the last two quiet moves that cut off at this ply, kept across nodes
_KILLER2: Final = 16
_USED1: Final = 17  # the killers searched early at this node (-1 if not a candidate here)
_USED2: Final = 18
FIELDS: Final = 19
_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2


@jit
def _sort(moves: IntArray, gains: IntArray, start: int, count: int, direction: int) -> None:
    """Insertion-sort ``count`` moves from ``start`` by gain, descending if ``direction`` < 0."""
    for i in range(start + 1, start + count):
        move = moves[i]
        gain = gains[i]
        j = i - 1
        while j >= start and (gains[j] - gain) * direction > 0:
            moves[j + 1] = moves[j]
            gains[j + 1] = gains[j]
            j -= 1
        moves[j + 1] = move
        gains[j + 1] = gain


@jit
def _parity(counters: IntArray, safe_cells: int) -> int:
    """The evaluation of a quiet position: taking the last safe cell is worth a little."""
    return counters[PARITY] if safe_cells % 2 == 1 else -counters[PARITY]


@jit
def _enter(board: IntArray, empty: int, ply: int, tables: Packed) -> int:
    """Set up the frame at ``ply``: 1 if its value is known at once (kept in its ``_BEST``).

    Otherwise the frame holds the moves to search: scoring moves by gain, then safe quiet
    moves, then quiet moves that hand the next player lines, fewest first.
    """
    table, _keys, order = tables[0]
    tt_key, tt_value, tt_depth, tt_flag, tt_move = tables[1]
    moves, gains, frames, counters = tables[2]
    frame = ply * FIELDS
    if empty == 0:
        frames[frame + _BEST] = 0
        return 1
    key = frames[frame + _KEY]
    depth = frames[frame + _DEPTH]
    alpha = frames[frame + _ALPHA]
    beta = frames[frame + _BETA]
    size = len(board)
    simple = counters[SIMPLE] == 1
    slot = key & (len(tt_key) - 1)
    hinted = -1
    if tt_key[slot] == key:
        hinted = tt_move[slot]
        if ply > 0 and tt_depth[slot] >= depth:
            value = tt_value[slot]
            flag = tt_flag[slot]
            if (
                flag == _EXACT
                or (flag == _LOWER and value >= beta)
                or (flag == _UPPER and value <= alpha)
            ):
                frames[frame + _BEST] = value
                return 1
    scoring = ply * 6 * size
    safe = scoring + 2 * size
    unsafe = safe + 2 * size
    n_scoring = 0
    n_safe = 0
    n_unsafe = 0
    safe_cells = 0
    for step in range(size):
        cell = order[step]
        if board[cell] != 0:
            continue
        # For each letter: what it completes, and the lines it opens for the next player.
        s_gain, s_hand, _ = letter_lines(board, table, cell, S)
        o_gain, o_hand, _ = letter_lines(board, table, cell, O)
        if (s_gain == 0 and s_hand == 0) or (o_gain == 0 and o_hand == 0):
            safe_cells += 1
        for letter in range(2):
            code = 2 * cell + letter
            gain = s_gain if letter == 0 else o_gain
            hand = s_hand if letter == 0 else o_hand
            if gain:
                moves[scoring + n_scoring] = code
                gains[scoring + n_scoring] = gain
                n_scoring += 1
            elif hand == 0:
                moves[safe + n_safe] = code
                gains[safe + n_safe] = 0
                n_safe += 1
            else:
                moves[unsafe + n_unsafe] = code
                gains[unsafe + n_unsafe] = hand
                n_unsafe += 1
    store = 1
    if simple:
        # Every SOS ends the game, so a scoring move wins and a move handing one over loses.
        if n_scoring:
            frames[frame + _BEST] = WIN
            if ply == 0:
                counters[BEST] = moves[scoring]
            return 1
        if n_safe == 0:
            _sort(moves, gains, unsafe, n_unsafe, 1)
            frames[frame + _BEST] = -WIN
            if ply == 0:
                counters[BEST] = moves[unsafe]
            return 1
        if depth <= 0:
            frames[frame + _BEST] = _parity(counters, safe_cells)
            return 1
        n_unsafe = 0
    elif depth <= 0:
        # Quiescence: take the best line while there is one, then judge the quiet position.
        if n_scoring:
            best = scoring
            for index in range(scoring + 1, scoring + n_scoring):
                if gains[index] > gains[best]:
                    best = index
            moves[scoring], moves[best] = moves[best], moves[scoring]
            gains[scoring], gains[best] = gains[best], gains[scoring]
            n_scoring = 1
            n_safe = 0
            n_unsafe = 0
            hinted = -1
            store = 0
        elif n_safe:
            frames[frame + _BEST] = _parity(counters, safe_cells)
            return 1
        else:
            _sort(moves, gains, unsafe, n_unsafe, 1)
            frames[frame + _BEST] = -gains[unsafe] * UNIT
            if ply == 0:
                counters[BEST] = moves[unsafe]
            return 1
    elif empty > counters[FULL_WIDTH]:
        # Forward pruning away from the end: cash in while there are lines to take, and hand
        # lines over only when every move does.
        if n_scoring:
            n_safe = 0
            n_unsafe = 0
        elif n_safe:
            n_unsafe = 0
    _sort(moves, gains, scoring, n_scoring, -1)
    _sort(moves, gains, unsafe, n_unsafe, 1)
    if hinted >= 0 and not _listed(moves, hinted, scoring, n_scoring, size, n_safe, n_unsafe):
        hinted = -1
    used1 = frames[frame + _KILLER1]
    if used1 == hinted or not _listed(moves, used1, scoring, 0, size, n_safe, n_unsafe):
        used1 = -1
    used2 = frames[frame + _KILLER2]
    if used2 in (hinted, used1) or not _listed(moves, used2, scoring, 0, size, n_safe, n_unsafe):
        used2 = -1
    frames[frame + _USED1] = used1
    frames[frame + _USED2] = used2
    frames[frame + _BEST] = -INFINITY
    frames[frame + _MOVE] = -1
    frames[frame + _ALPHA0] = alpha
    frames[frame + _HINT] = hinted
    frames[frame + _N_SCORING] = n_scoring
    frames[frame + _N_SAFE] = n_safe
    frames[frame + _N_UNSAFE] = n_unsafe
    frames[frame + _NEXT] = -3
    frames[frame + _STORE] = store
    return 0


@jit
def _listed(
    moves: IntArray, code: int, scoring: int, n_scoring: int, size: int, n_safe: int, n_unsafe: int
) -> bool:
    """Whether ``code`` is among the scoring, safe or unsafe moves listed for a node."""
    if code < 0:
        return False
    for index in range(scoring, scoring + n_scoring):
        if moves[index] == code:
            return True
    safe = scoring + 2 * size
    for index in range(safe, safe + n_safe):
        if moves[index] == code:
            return True
    unsafe = safe + 2 * size
    for index in range(unsafe, unsafe + n_unsafe):  # noqa: SIM110 (numba compiles loops, not any())
        if moves[index] == code:
            return True
    return False


@jit
def _next_move(ply: int, size: int, tables: Packed) -> int:
    """The next move to search at ``ply`` (its points go in the frame), or -1 when none is left."""
    moves, gains, frames, _counters = tables[2]
    frame = ply * FIELDS
    hinted = frames[frame + _HINT]
    n_scoring = frames[frame + _N_SCORING]
    n_safe = frames[frame + _N_SAFE]
    total = n_scoring + n_safe + frames[frame + _N_UNSAFE]
    scoring = ply * 6 * size
    used1 = frames[frame + _USED1]
    used2 = frames[frame + _USED2]
    while True:
        turn = frames[frame + _NEXT]
        frames[frame + _NEXT] = turn + 1
        if turn >= total:
            return -1
        if turn < 0:
            code = hinted if turn == -3 else used1 if turn == -2 else used2
            if code < 0:
                continue
            points = 0
            for index in range(scoring, scoring + n_scoring):
                if moves[index] == code:
                    points = gains[index]
            frames[frame + _POINTS] = points * UNIT
            return code
        if turn < n_scoring:
            index = scoring + turn
            points = gains[index]
        elif turn < n_scoring + n_safe:
            index = scoring + 2 * size + turn - n_scoring
            points = 0
        else:
            index = scoring + 4 * size + turn - n_scoring - n_safe
            points = 0
        code = moves[index]
        if code not in (hinted, used1, used2):
            frames[frame + _POINTS] = points * UNIT
            return code


@jit
def negamax(
    board: IntArray, empty: int, key: int, depth: int, alpha: int, beta: int, tables: Packed
) -> int:
    """The value of ``board`` for the seat to move, searched ``depth`` quiet moves deep.

    ``key`` is the board's Zobrist key. A scoring move keeps the same side to move, so its
    value adds to the mover's instead of being negated, and it does not use up depth. Below
    depth 0 the quiescence takes the best scoring move while there is one, then evaluates.
    The best root move goes to ``counters[BEST]``.

    When ``counters[NODES]`` reaches ``counters[LIMIT]`` the search pauses: it sets
    ``counters[PAUSED]``, keeps its place in ``counters`` and the frames (``board`` is left
    mid-search), and returns 0; calling again with ``PAUSED`` still set resumes it.
    """
    _table, keys, _order = tables[0]
    tt_key, tt_value, tt_depth, tt_flag, tt_move = tables[1]
    _moves, _gains, frames, counters = tables[2]
    size = len(board)
    if counters[PAUSED]:
        counters[PAUSED] = 0
        ply = counters[_PLY]
        empty = counters[_EMPTY]
        entering = counters[_ENTERING] == 1
        value = counters[_VALUE]
    else:
        ply = 0
        frames[_KEY] = key
        frames[_DEPTH] = depth
        frames[_ALPHA] = alpha
        frames[_BETA] = beta
        entering = True
        value = 0
    while True:
        frame = ply * FIELDS
        if entering:
            if counters[NODES] >= counters[LIMIT]:
                counters[PAUSED] = 1
                counters[_PLY] = ply
                counters[_EMPTY] = empty
                counters[_ENTERING] = 1
                counters[_VALUE] = value
                return 0
            counters[NODES] += 1
            known = _enter(board, empty, ply, tables)
            if known:
                value = frames[frame + _BEST]
                if ply == 0:
                    return value
                ply -= 1
                empty += 1
                entering = False
                continue
        else:
            # Back from the child of the move at this ply, whose value is ``value``.
            code = frames[frame + _CODE]
            board[code >> 1] = 0
            points = frames[frame + _POINTS]
            result = points + value if points else -value
            if result > frames[frame + _BEST]:
                frames[frame + _BEST] = result
                frames[frame + _MOVE] = code
                frames[frame + _ALPHA] = max(frames[frame + _ALPHA], result)
                killer = frames[frame + _KILLER1]
                if result >= frames[frame + _BETA] and not points and killer != code:
                    frames[frame + _KILLER2] = killer
                    frames[frame + _KILLER1] = code
        code = -1
        if frames[frame + _ALPHA] < frames[frame + _BETA]:
            code = _next_move(ply, size, tables)
        if code < 0:
            value = frames[frame + _BEST]
            if frames[frame + _STORE]:
                slot = frames[frame + _KEY] & (len(tt_key) - 1)
                flag = _EXACT
                if value <= frames[frame + _ALPHA0]:
                    flag = _UPPER
                elif value >= frames[frame + _BETA]:
                    flag = _LOWER
                tt_key[slot] = frames[frame + _KEY]
                tt_value[slot] = value
                tt_depth[slot] = frames[frame + _DEPTH]
                tt_flag[slot] = flag
                tt_move[slot] = frames[frame + _MOVE]
            if ply == 0:
                counters[BEST] = frames[_MOVE]
                return value
            ply -= 1
            empty += 1
            entering = False
            continue
        cell = code >> 1
        letter = 1 + (code & 1)
        board[cell] = letter
        frames[frame + _CODE] = code
        points = frames[frame + _POINTS]
        child = frame + FIELDS
        frames[child + _KEY] = frames[frame + _KEY] ^ keys[cell * 3 + letter]
        if points:
            frames[child + _DEPTH] = frames[frame + _DEPTH]
            frames[child + _ALPHA] = frames[frame + _ALPHA] - points
            frames[child + _BETA] = frames[frame + _BETA] - points
        else:
            frames[child + _DEPTH] = frames[frame + _DEPTH] - 1
            frames[child + _ALPHA] = -frames[frame + _BETA]
            frames[child + _BETA] = -frames[frame + _ALPHA]
        ply += 1
        empty -= 1
        entering = True
