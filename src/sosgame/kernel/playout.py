"""Kernel playouts: games played to the end by a random or a greedy policy, for 2 to 8 seats.

Randomness comes from a 32-bit xorshift generator kept in a one-element array (``rng``), so a
seed gives the same games compiled or not.
"""

from __future__ import annotations

from typing import Final

from sosgame.kernel._jit import IntArray, jit, to_array
from sosgame.kernel.moves import EMPTY, O, S, apply_move, count_lines, count_openings
from sosgame.kernel.tables import O_PAIRS, S_PAIRS, STRIDE

__all__ = [
    "DRAW",
    "GREEDY",
    "RANDOM",
    "make_rng",
    "playout",
    "playouts",
    "random_below",
    "winner",
]

RANDOM: Final = 0
"""Policy: every legal move (cell and letter) equally likely."""
GREEDY: Final = 1
"""Policy: complete the most lines possible; else a move handing the next player no SOS."""
DRAW: Final = -1
"""What a playout returns when no single seat wins."""

_MASK32: Final = 0xFFFFFFFF
_SAFE_TRIES: Final = 8


def make_rng(seed: int) -> IntArray:
    """A generator state for ``seed`` (any integer), as the one-element array kernels take."""
    state = (seed * 0x9E3779B1 + 0x7F4A7C15) & _MASK32
    state ^= state >> 16
    state = (state * 0x85EBCA6B) & _MASK32
    state ^= state >> 13
    return to_array([state or 1])


@jit
def random_below(rng: IntArray, bound: int) -> int:
    """A uniform integer in ``0 .. bound - 1`` (``bound`` below 2**31), advancing ``rng``."""
    x = rng[0]
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    rng[0] = x
    return (x * bound) >> 32


@jit
def winner(scores: IntArray, next_seat: IntArray) -> int:
    """The seat with the most points among those still playing, or ``DRAW`` on a tie."""
    best = -1
    leader = DRAW
    for seat in range(len(scores)):
        if next_seat[seat] < 0:
            continue
        if scores[seat] > best:
            best = scores[seat]
            leader = seat
        elif scores[seat] == best:
            leader = DRAW
    return leader


@jit
def _threats(board: IntArray, table: IntArray, threat_s: IntArray, threat_o: IntArray) -> int:
    # Fills, per cell, how many lines an S and an O there would complete; returns how many
    # (cell, letter) moves score.
    available = 0
    for cell in range(len(board)):
        threat_s[cell] = 0
        threat_o[cell] = 0
        if board[cell] == EMPTY:
            threat_s[cell] = count_lines(board, table, cell, S)
            threat_o[cell] = count_lines(board, table, cell, O)
            if threat_s[cell] > 0:
                available += 1
            if threat_o[cell] > 0:
                available += 1
    return available


@jit
def _track(
    board: IntArray,
    table: IntArray,
    cell: int,
    letter: int,
    threat_s: IntArray,
    threat_o: IntArray,
) -> int:
    # After ``letter`` was written into ``cell``: updates the threat counts and returns the
    # change in scoring moves. Only lines through the cell change, and a line left with one
    # empty cell keeps that threat until the cell is filled.
    change = 0
    if threat_s[cell] > 0:
        change -= 1
    if threat_o[cell] > 0:
        change -= 1
    threat_s[cell] = 0
    threat_o[cell] = 0
    # For an S the pair is (the middle, which needs an O; the far end); for an O, the two
    # ends, each needing an S. The far end always needs an S.
    base = cell * STRIDE + (S_PAIRS if letter == S else O_PAIRS)
    need = O if letter == S else S
    first_threats = threat_o if letter == S else threat_s
    for k in range(table[base - 1]):
        first = table[base + 2 * k]
        far = table[base + 2 * k + 1]
        if board[first] == need and board[far] == EMPTY:
            if threat_s[far] == 0:
                change += 1
            threat_s[far] += 1
        elif board[first] == EMPTY and board[far] == S:
            if first_threats[first] == 0:
                change += 1
            first_threats[first] += 1
    return change


@jit
def _greedy_choice(
    board: IntArray,
    table: IntArray,
    empties: IntArray,
    empty: int,
    threat_s: IntArray,
    threat_o: IntArray,
    available: int,
    rng: IntArray,
) -> int:
    # Returns the slot in ``empties`` * 2 + (letter - 1); ties are broken uniformly.
    if available > 0:
        best = 0
        count = 0
        choice = 0
        for slot in range(empty):
            cell = empties[slot]
            for letter in range(S, O + 1):
                completed = threat_s[cell] if letter == S else threat_o[cell]
                if completed > best:
                    best = completed
                    count = 1
                    choice = slot * 2 + letter - 1
                elif completed == best and completed > 0:
                    count += 1
                    if random_below(rng, count) == 0:
                        choice = slot * 2 + letter - 1
        return choice
    # A few uniform draws usually find a safe move; then count them all, still uniformly.
    for _ in range(_SAFE_TRIES):
        pick = random_below(rng, 2 * empty)
        if count_openings(board, table, empties[pick >> 1], (pick & 1) + 1) == 0:
            return pick
    count = 0
    choice = 0
    for slot in range(empty):
        cell = empties[slot]
        for letter in range(S, O + 1):
            if count_openings(board, table, cell, letter) == 0:
                count += 1
                if random_below(rng, count) == 0:
                    choice = slot * 2 + letter - 1
    if count > 0:
        return choice
    return random_below(rng, 2 * empty)


@jit
def playout(
    board: IntArray,
    scores: IntArray,
    table: IntArray,
    next_seat: IntArray,
    turn: int,
    simple: int,
    policy: int,
    rng: IntArray,
) -> int:
    """Play to the end with ``policy``, changing ``board`` and ``scores`` in place.

    Returns the winner: in simple mode the seat completing the first SOS, else ``DRAW``; in
    general mode the seat with most points, else ``DRAW``. ``scores`` then holds every seat's
    final points. ``next_seat[s]`` is the seat after ``s`` (-1 for a seat that resigned).
    """
    empties = board.copy()
    empty = 0
    for cell in range(len(board)):
        if board[cell] == EMPTY:
            empties[empty] = cell
            empty += 1
    greedy = policy == GREEDY
    threat_s = board.copy()
    threat_o = board.copy()
    available = _threats(board, table, threat_s, threat_o) if greedy else 0
    while empty > 0:
        if greedy:
            pick = _greedy_choice(board, table, empties, empty, threat_s, threat_o, available, rng)
        else:
            pick = random_below(rng, 2 * empty)
        slot = pick >> 1
        cell = empties[slot]
        letter = (pick & 1) + 1
        empty -= 1
        empties[slot] = empties[empty]
        completed = apply_move(board, scores, table, turn, cell, letter)
        if greedy:
            available += _track(board, table, cell, letter, threat_s, threat_o)
        if completed > 0:
            if simple:
                return turn
        else:
            turn = next_seat[turn]
    if simple:
        return DRAW
    return winner(scores, next_seat)


@jit
def playouts(
    board: IntArray,
    scores: IntArray,
    table: IntArray,
    next_seat: IntArray,
    turn: int,
    simple: int,
    policy: int,
    count: int,
    rng: IntArray,
    wins: IntArray,
    points: IntArray,
) -> int:
    """Run ``count`` playouts from one slot, leaving ``board`` and ``scores`` unchanged.

    Adds to ``wins[seat]`` each playout a seat wins, to ``wins[players]`` each draw, and to
    ``points[seat]`` each seat's final points. Returns the number of moves played in all.
    """
    work_board = board.copy()
    work_scores = scores.copy()
    players = len(scores)
    moves = 0
    for _ in range(count):
        empty = 0
        for cell in range(len(board)):
            work_board[cell] = board[cell]
            if board[cell] == EMPTY:
                empty += 1
        for seat in range(players):
            work_scores[seat] = scores[seat]
        result = playout(work_board, work_scores, table, next_seat, turn, simple, policy, rng)
        if result == DRAW:
            wins[players] += 1
        else:
            wins[result] += 1
        for seat in range(players):
            points[seat] += work_scores[seat]
        for cell in range(len(board)):
            if work_board[cell] == EMPTY:
                empty -= 1
        moves += empty
    return moves
