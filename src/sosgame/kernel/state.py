"""Turning a :class:`~sosgame.Game` into kernel arrays, and kernel moves back into moves."""

from __future__ import annotations

from typing import NamedTuple

from sosgame.game import Game
from sosgame.geometry import geometry
from sosgame.kernel._jit import IntArray, to_array
from sosgame.kernel.moves import EMPTY, O, S
from sosgame.kernel.tables import Tables, tables
from sosgame.notation import Move

__all__ = ["KernelState", "decode_move", "encode", "encode_move"]

_CODES = {".": EMPTY, "S": S, "O": O}


class KernelState(NamedTuple):
    """A game as kernel arrays: fresh copies, free to change."""

    tables: Tables
    board: IntArray
    """One entry per cell in reading order: 0 empty, 1 S, 2 O."""
    scores: IntArray
    """Each seat's points."""
    next_seat: IntArray
    """The seat that moves after each seat's quiet move; -1 for a seat that resigned."""
    turn: int
    simple: int
    """1 in simple mode, 0 in general mode."""
    empty: int
    over: bool


def encode(game: Game) -> KernelState:
    """The kernel arrays for ``game`` (the game itself is not changed)."""
    active = game.active_seats
    next_seat = [-1] * game.players
    for place, seat in enumerate(active):
        next_seat[seat] = active[(place + 1) % len(active)]
    board = [_CODES[char] for char in game.position() if char != "/"]
    return KernelState(
        tables=tables(game.rows, game.cols),
        board=to_array(board),
        scores=to_array(game.scores),
        next_seat=to_array(next_seat),
        turn=game.turn,
        simple=int(game.mode == "simple"),
        empty=board.count(EMPTY),
        over=game.is_over,
    )


def encode_move(move: Move, cols: int) -> tuple[int, int]:
    """A move as the kernel's ``(cell, letter)``: row-major index, 1 for S or 2 for O."""
    return move.cell.row * cols + move.cell.col, S if move.letter == "S" else O


def decode_move(cell: int, letter: int, rows: int, cols: int) -> Move:
    """The move writing kernel ``letter`` (1 = S, 2 = O) into kernel ``cell``."""
    return geometry(rows, cols).moves[cell][letter - 1]
