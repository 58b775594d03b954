"""The solver's kernel: an iterative negamax alpha-beta over a transposition table.

The search keeps its whole stack in arrays, so it can stop after a budget of nodes and resume
where it was: the caller runs it in slices and stays responsive to Ctrl-C and node limits.

Values are those of :mod:`sosgame.solver`. A node's key is its board in base 3 under the
board's symmetries, taking the smallest, so symmetric positions share one table entry.
"""

from __future__ import annotations

from typing import Final

from sosgame.kernel import EMPTY, IntArray, O, S, jit, letter_lines

__all__ = [
    "DONE",
    "INFINITY",
    "REGISTERS",
    "RUNNING",
    "R_EMPTY",
    "R_LIVE",
    "R_NODES",
    "R_PHASE",
    "R_SP",
    "R_VALUE",
    "STACK_FIELDS",
    "count_live",
    "search",
]

INFINITY: Final = 1000
RUNNING: Final = 0
DONE: Final = 1

# Registers: the search's scalar state between slices.
R_SP: Final = 0
R_PHASE: Final = 1
R_VALUE: Final = 2
R_NODES: Final = 3
R_EMPTY: Final = 4
R_LIVE: Final = 5
REGISTERS: Final = 6

# Phases of the frame on top of the stack.
_ENTER: Final = 0
_NEXT: Final = 1
_RETURN: Final = 2

# Per-frame fields, stored as stack[frame * STACK_FIELDS + field].
_ALPHA: Final = 0
_BETA: Final = 1
_ALPHA0: Final = 2
_BEST: Final = 3
_BEST_MOVE: Final = 4
_COUNT: Final = 5
_INDEX: Final = 6
_KEY: Final = 7
_SYM: Final = 8
_MOVE: Final = 9
_LINES: Final = 10
_STAGED: Final = 11
_CLOSED: Final = 12
STACK_FIELDS: Final = 13

# Transposition-table bound kinds.
_EXACT: Final = 1
_LOWER: Final = 2
_UPPER: Final = 3


@jit
def _probe(tt_key: IntArray, size: int, key: int) -> int:
    slot = key % size
    if tt_key[slot] == key:
        return slot
    if tt_key[slot + 1] == key:
        return slot + 1
    return -1


@jit
def _store(
    tt_key: IntArray,
    tt_data: IntArray,
    size: int,
    key: int,
    depth: int,
    value: int,
    kind: int,
    move: int,
) -> None:
    # Two slots per key: the first keeps the deeper entry, the second takes the newest.
    slot = key % size
    if tt_key[slot] != key:
        if tt_key[slot + 1] == key:
            slot += 1
        elif depth >= tt_data[4 * slot + 3]:
            tt_key[slot + 1] = tt_key[slot]
            for field in range(4):
                tt_data[4 * slot + 4 + field] = tt_data[4 * slot + field]
        else:
            slot += 1
    tt_key[slot] = key
    tt_data[4 * slot] = value
    tt_data[4 * slot + 1] = kind
    tt_data[4 * slot + 2] = move
    tt_data[4 * slot + 3] = depth


@jit
def count_live(board: IntArray, line_cells: IntArray) -> int:
    """How many lines can still become SOS: no letter in them is wrong, one cell is empty."""
    live = 0
    for line in range(len(line_cells) // 3):
        start = board[line_cells[3 * line]]
        middle = board[line_cells[3 * line + 1]]
        end = board[line_cells[3 * line + 2]]
        # Plain comparisons: a tuple test would cost the compiled loop an allocation.
        if start == O or end == O or middle == S:  # noqa: PLR1714
            continue
        if start == EMPTY or middle == EMPTY or end == EMPTY:  # noqa: PLR1714
            live += 1
    return live


@jit
def _order(
    board: IntArray,
    table: IntArray,
    simple: int,
    moves: IntArray,
    start: int,
    ranks: IntArray,
    history: IntArray,
    skip: int,
) -> int:
    # Writes the node's moves but ``skip`` at moves[start:], best first: moves that score
    # (most lines first), then quiet moves by how few SOS chances they hand over. A cell on
    # no live line is a pure tempo move, all alike: only the first is listed.
    # Simple mode: returns -1 if a move scores (the mover wins); a quiet move that hands over
    # an SOS loses, so only safe moves are listed (none means the mover loses).
    count = 0
    tempo = False
    for cell in range(len(board)):
        if board[cell] != EMPTY:
            continue
        # What each letter completes or opens, and whether any line through it is still live.
        s_done, s_open, s_live = letter_lines(board, table, cell, S)
        o_done, o_open, o_live = letter_lines(board, table, cell, O)
        hot = s_live > 0 or o_live > 0
        if simple and (s_done > 0 or o_done > 0):
            return -1
        if not hot:
            if tempo:
                continue
            tempo = True
        for letter in range(1, 3):
            if not hot and letter == O:
                continue
            completed = s_done if letter == S else o_done
            code = 2 * cell + letter - 1
            if completed > 0:
                rank = (1000 + completed) << 40
            else:
                openings = s_open if letter == S else o_open
                if simple and openings > 0:
                    continue
                # Among equally safe quiet moves, those that cut off most often so far first.
                rank = ((100 - openings) << 40) + history[code]
            if code == skip:
                continue
            position = start + count
            while position > start and ranks[position - 1] < rank:
                moves[position] = moves[position - 1]
                ranks[position] = ranks[position - 1]
                position -= 1
            moves[position] = code
            ranks[position] = rank
            count += 1
    return count


@jit
def search(
    board: IntArray,
    table: IntArray,
    simple: int,
    symmetries: int,
    weights: IntArray,
    keys: IntArray,
    images: IntArray,
    inverse: IntArray,
    tt_key: IntArray,
    tt_data: IntArray,
    tt_size: int,
    stack: IntArray,
    moves: IntArray,
    ranks: IntArray,
    history: IntArray,
    registers: IntArray,
    budget: int,
) -> int:
    """Run the search for up to ``budget`` more nodes; returns ``DONE`` or ``RUNNING``.

    ``registers`` hold the state between calls; when done, ``registers[R_VALUE]`` is the
    root's value (fail-soft: a bound if it falls outside the root's window).
    """
    size = len(board)
    width = 2 * size
    sp = registers[R_SP]
    phase = registers[R_PHASE]
    value = registers[R_VALUE]
    nodes = registers[R_NODES]
    empty = registers[R_EMPTY]
    live = registers[R_LIVE]
    stop = nodes + budget
    while True:
        frame = sp * STACK_FIELDS
        if phase == _ENTER:
            if nodes >= stop:
                break
            nodes += 1
            if empty == 0:
                value = 0
                phase = _RETURN
                continue
            key = keys[0]
            sym = 0
            for other in range(1, symmetries):
                if keys[other] < key:
                    key = keys[other]
                    sym = other
            key += 1  # 0 marks an empty table slot
            alpha = stack[frame + _ALPHA]
            beta = stack[frame + _BETA]
            hint = -1
            slot = _probe(tt_key, tt_size, key)
            if slot >= 0:
                stored = tt_data[4 * slot]
                kind = tt_data[4 * slot + 1]
                if kind == _EXACT:
                    value = stored
                    phase = _RETURN
                    continue
                if kind == _LOWER and stored > alpha:
                    alpha = stored
                elif kind == _UPPER and stored < beta:
                    beta = stored
                if alpha >= beta:
                    value = stored
                    phase = _RETURN
                    continue
                canonical = tt_data[4 * slot + 2]
                if canonical >= 0:
                    hint = 2 * inverse[sym * size + (canonical >> 1)] + (canonical & 1)
            # No side can score more than the lines still open, nor lose more.
            if live <= alpha or live == 0:
                value = live
                phase = _RETURN
                continue
            if -live >= beta:
                value = -live
                phase = _RETURN
                continue
            if hint >= 0 and not simple:
                # Try the table's move before generating the others: it often cuts at once.
                moves[sp * width] = hint
                count = 1
                stack[frame + _STAGED] = 1
            else:
                count = _order(board, table, simple, moves, sp * width, ranks, history, -1)
                if count <= 0:
                    value = 1 if count < 0 else -1
                    phase = _RETURN
                    continue
                stack[frame + _STAGED] = 0
            stack[frame + _ALPHA] = alpha
            stack[frame + _BETA] = beta
            stack[frame + _ALPHA0] = alpha
            stack[frame + _BEST] = -INFINITY
            stack[frame + _BEST_MOVE] = -1
            stack[frame + _COUNT] = count
            stack[frame + _INDEX] = 0
            stack[frame + _KEY] = key
            stack[frame + _SYM] = sym
            phase = _NEXT
        elif phase == _NEXT:
            index = stack[frame + _INDEX]
            if index == stack[frame + _COUNT] and stack[frame + _STAGED] == 1:
                stack[frame + _STAGED] = 0
                first = moves[sp * width]
                count = _order(board, table, simple, moves, sp * width + 1, ranks, history, first)
                stack[frame + _COUNT] = 1 + count
            if index == stack[frame + _COUNT]:
                value = stack[frame + _BEST]
                kind = _UPPER if value <= stack[frame + _ALPHA0] else _EXACT
                _save(stack, frame, size, images, tt_key, tt_data, tt_size, empty, value, kind)
                phase = _RETURN
                continue
            stack[frame + _INDEX] = index + 1
            code = moves[sp * width + index]
            cell = code >> 1
            letter = (code & 1) + 1
            # The live lines through the cell it closes: an S completes or kills the lines it
            # ends and kills those it would be the middle of; an O, the other way round.
            s_done, _, s_live = letter_lines(board, table, cell, S)
            o_done, _, o_live = letter_lines(board, table, cell, O)
            if letter == S:
                completed = s_done
                closed = s_done + o_live
            else:
                completed = o_done
                closed = s_live + o_done
            live -= closed
            stack[frame + _CLOSED] = closed
            board[cell] = letter
            for sym in range(symmetries):
                keys[sym] += letter * weights[sym * size + cell]
            empty -= 1
            stack[frame + _MOVE] = code
            stack[frame + _LINES] = completed
            alpha = stack[frame + _ALPHA]
            beta = stack[frame + _BETA]
            child = frame + STACK_FIELDS
            if completed > 0:
                stack[child + _ALPHA] = alpha - completed
                stack[child + _BETA] = beta - completed
            else:
                stack[child + _ALPHA] = -beta
                stack[child + _BETA] = -alpha
            sp += 1
            phase = _ENTER
        else:
            if sp == 0:
                registers[R_SP] = 0
                registers[R_PHASE] = phase
                registers[R_VALUE] = value
                registers[R_NODES] = nodes
                registers[R_EMPTY] = empty
                registers[R_LIVE] = live
                return DONE
            sp -= 1
            frame = sp * STACK_FIELDS
            code = stack[frame + _MOVE]
            cell = code >> 1
            letter = (code & 1) + 1
            completed = stack[frame + _LINES]
            board[cell] = EMPTY
            live += stack[frame + _CLOSED]
            for sym in range(symmetries):
                keys[sym] -= letter * weights[sym * size + cell]
            empty += 1
            # After a scoring move the mover moves again, so the child's value is the mover's
            # (general mode only: in simple mode a scoring move ends the search at its node).
            result = completed + value if completed > 0 else -value
            phase = _NEXT
            if result > stack[frame + _BEST]:
                stack[frame + _BEST] = result
                stack[frame + _BEST_MOVE] = code
                if result > stack[frame + _ALPHA]:
                    stack[frame + _ALPHA] = result
                    if result >= stack[frame + _BETA]:
                        if completed == 0:
                            history[code] += empty * empty
                            if history[code] > 1 << 36:
                                for other in range(width):
                                    history[other] >>= 1
                        value = result
                        _save(
                            stack, frame, size, images, tt_key, tt_data, tt_size, empty,
                            value, _LOWER,
                        )  # fmt: skip
                        phase = _RETURN
    registers[R_SP] = sp
    registers[R_PHASE] = phase
    registers[R_VALUE] = value
    registers[R_NODES] = nodes
    registers[R_EMPTY] = empty
    registers[R_LIVE] = live
    return RUNNING


@jit
def _save(
    stack: IntArray,
    frame: int,
    size: int,
    images: IntArray,
    tt_key: IntArray,
    tt_data: IntArray,
    tt_size: int,
    empty: int,
    value: int,
    kind: int,
) -> None:
    # Stores the frame's result, its best move mapped into the canonical orientation.
    best = stack[frame + _BEST_MOVE]
    canonical = -1
    if best >= 0:
        sym = stack[frame + _SYM]
        canonical = 2 * images[sym * size + (best >> 1)] + (best & 1)
    _store(tt_key, tt_data, tt_size, stack[frame + _KEY], empty, value, kind, canonical)
