"""Position keys for the transposition table: one running key per board symmetry.

A letter ``L`` (1 = S, 2 = O) in cell ``c`` adds ``L * weights[s * size + c]`` to the key of
symmetry ``s``; a position's key is the smallest over its symmetries, so symmetric positions
share one table entry. With base-3 weights (the solver's) a key is the board itself, exact;
with random weights (the player's, whose boards are too big for that) it is a hash.
``images`` maps each cell into the orientation of each symmetry and ``inverse`` back, so a
stored best move can be read in any orientation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Final, NamedTuple

from sosgame.kernel import EMPTY, IntArray, jit_inline, to_array

__all__ = ["Keys", "canonical", "exact_keys", "hashed_keys", "rekey"]

_SEED: Final = 20_240_601
_HASH_BITS: Final = 50  # a full board of O's stays far below 2**63


class Keys(NamedTuple):
    """The arrays that key positions; ``keys`` changes as moves are played and taken back."""

    weights: IntArray
    keys: IntArray
    images: IntArray
    inverse: IntArray


@jit_inline
def canonical(keys: IntArray) -> tuple[int, int]:
    """The position's table key (never 0) and the symmetry that gives it."""
    key = keys[0]
    sym = 0
    for other in range(1, len(keys)):
        if keys[other] < key:
            key = keys[other]
            sym = other
    return key + 1, sym


@jit_inline
def rekey(keys: IntArray, weights: IntArray, size: int, cell: int, letter: int, sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) ``letter`` in ``cell`` of a board of ``size`` cells."""
    for sym in range(len(keys)):
        keys[sym] += sign * letter * weights[sym * size + cell]


def _pack(
    board: IntArray, images: Sequence[Sequence[int]], weight: Sequence[int], keyed: Sequence[bool]
) -> Keys:
    # A keyed cell weighs ``weight`` of its image; the others stay out of the key.
    size = len(board)
    weights = [0] * (len(images) * size)
    inverse = [0] * (len(images) * size)
    keys = [0] * len(images)
    for sym, image in enumerate(images):
        for cell in range(size):
            if keyed[cell]:
                weights[sym * size + cell] = weight[image[cell]]
                inverse[sym * size + image[cell]] = cell
            keys[sym] += board[cell] * weights[sym * size + cell]
    flat = [cell for image in images for cell in image]
    return Keys(to_array(weights), to_array(keys), to_array(flat), to_array(inverse))


def exact_keys(board: IntArray, images: Sequence[Sequence[int]], whole: bool) -> Keys:
    """Base-3 keys under the symmetries ``images``: the board itself, so never a collision.

    With ``whole`` False only the cells empty now are keyed (the others never change), and
    ``images`` must be the one map giving each of them its rank among them, so that a board
    too big for whole-board keys still fits 64 bits.
    """
    size = len(board)
    keyed = [whole or board[cell] == EMPTY for cell in range(size)]
    return _pack(board, images, [3**cell for cell in range(size)], keyed)


@cache
def _random_weights(size: int) -> tuple[int, ...]:
    rng = random.Random(_SEED)
    return tuple(rng.randrange(1, 1 << _HASH_BITS) for _ in range(size))


def hashed_keys(board: IntArray) -> Keys:
    """Random-weight keys, no symmetry: a hash of a board of any size."""
    size = len(board)
    return _pack(board, [range(size)], _random_weights(size), [True] * size)
