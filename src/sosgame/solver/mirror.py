"""The mirror strategy: a simple-mode bound on every board, with no search.

Turning the board half a turn about its centre maps every line of three cells onto a line.
A player who answers each move with the same letter in the opposite cell, and completes an
SOS whenever one can be completed, never loses a two-player simple-mode game:

* On a board with an even side no cell is its own opposite, so the second player can always
  answer. On a board with both sides odd the first player writes O in the centre cell first,
  and answers from then on.
* After each answer the board is symmetric, and no move can complete an SOS (a *threat*).
  A threat after the next answer would lie on a line through the answer's cell; that line's
  opposite ran through the opponent's cell the move before, and held the same letters, so the
  opponent had made a threat there and the answer would have completed it and won instead.
  The exception is a line through both cells. On a board with an even side the two cells are
  neighbours holding the same letter, and S-O-S has no two equal neighbours; on a board with
  both sides odd the line runs through the centre's O, and an answer that makes it S-O-S wins.
* The opponent therefore never faces a threat: they can never score, and they lose or the
  board fills in a draw.

So a board with an even side is worth at most 0 to the first player in simple mode (a draw
or a loss), and a board with both sides odd at least 0. :func:`check_mirror` plays the
strategy against every reply on a small board with the rules engine, as a check of the
argument; :func:`mirror_bounds` gives the bounds it proves for any board.

>>> mirror_bounds(6, 6)
(-1, 0)
>>> check_mirror(3, 4).lost_to is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sosgame.game import Game
from sosgame.notation import Cell, Move, check_size

__all__ = [
    "MirrorCheck",
    "check_mirror",
    "mirror_bounds",
    "mirror_interval",
    "mirror_reply",
    "mirror_seat",
]


def mirror_seat(rows: int, cols: int) -> int:
    """The seat the mirror strategy keeps from losing: 0 (the first player) on a board with
    both sides odd, 1 on a board with an even side."""
    check_size(rows, cols)
    return 0 if rows % 2 and cols % 2 else 1


def mirror_bounds(rows: int, cols: int) -> tuple[int, int]:
    """The least and the most a ``rows`` x ``cols`` board can be worth to the first of two
    players in simple mode (1 a win, 0 a draw, -1 a loss), by the mirror strategy alone."""
    return (0, 1) if mirror_seat(rows, cols) == 0 else (-1, 0)


def mirror_reply(game: Game) -> Move | None:
    """The mirror strategy's move for the seat to move in ``game``, or ``None`` where the
    strategy does not hold (general mode, more than two seats, or a board that is not
    symmetric but for one letter). From a position where it gives a move, playing its move at
    every turn never loses.

    It is a move completing an SOS if there is one (it wins); else, on a symmetric board with
    both sides odd and the centre empty, O in the centre; else, where the board is symmetric
    but for one letter whose opposite cell is empty (and, both sides odd, the centre is
    taken), that letter in that cell.
    """
    if game.is_over or game.mode != "simple" or game.players != 2:
        return None
    reply = _symmetric_reply(game.position().replace("/", ""), game.rows, game.cols)
    if reply is None:
        return None
    return _completing(game) or reply


@cache
def mirror_interval(position: str) -> tuple[int, int]:
    """The least and most a simple-mode position of two seats (text such as ``S.O/.../...``,
    with no SOS on it) is worth to the side to move, by the mirror strategy alone: at least 0
    where the side to move has :func:`mirror_reply`; at most 0 on a symmetric board with no
    SOS to complete (and, both sides odd, the centre taken), where the other side has it after
    any move; else anything, -1 to 1."""
    rows = position.count("/") + 1
    cells = position.replace("/", "")
    cols = len(cells) // rows
    if _symmetric_reply(cells, rows, cols) is not None:
        return 0, 1  # the side to move answers, or wins at once
    if _unlike(cells) or _open_centre(cells, rows, cols):
        return -1, 1
    if _completing(Game.from_position(position, mode="simple")) is not None:
        return -1, 1  # a win at once
    return -1, 0


def _completing(game: Game) -> Move | None:
    # A move completing an SOS, by the rules engine; the game is left as it was.
    for move in game.legal_moves:
        lines = game.play(move)
        game.undo()
        if lines:
            return move
    return None


def _unlike(cells: str) -> list[int]:
    # The cells (of the first half) whose opposite cell holds something else.
    last = len(cells) - 1
    return [index for index in range(len(cells) // 2) if cells[index] != cells[last - index]]


def _open_centre(cells: str, rows: int, cols: int) -> bool:
    return rows % 2 == 1 and cols % 2 == 1 and cells[len(cells) // 2] == "."


def _symmetric_reply(cells: str, rows: int, cols: int) -> Move | None:
    # The move that makes the board symmetric, if the strategy allows one.
    last = len(cells) - 1
    unlike = _unlike(cells)
    if _open_centre(cells, rows, cols):
        return None if unlike else Move("O", Cell(rows // 2, cols // 2))
    if len(unlike) != 1:
        return None
    index = unlike[0]
    letter, opposite = cells[index], last - index
    if letter == ".":
        letter, opposite = cells[opposite], index
    elif cells[opposite] != ".":
        return None
    return Move("S" if letter == "S" else "O", Cell(*divmod(opposite, cols)))


@dataclass(frozen=True)
class MirrorCheck:
    """What :func:`check_mirror` found: the symmetric positions it met on the opponent's turn,
    and a line of play from the empty board that the strategy lost (``None`` if none)."""

    positions: int
    lost_to: tuple[Move, ...] | None


def check_mirror(rows: int, cols: int) -> MirrorCheck:
    """Play the mirror strategy against every line of the opponent's replies in a two-player
    simple-mode game on a ``rows`` x ``cols`` board, with the rules engine, and report whether
    any line beats it. The positions to visit grow as three to the power of half the cells:
    this is for small boards."""
    seat = mirror_seat(rows, cols)
    game = Game(rows, cols, mode="simple")
    checker = _Checker(game, seat)
    if seat == 0:
        opening = Move("O", Cell(rows // 2, cols // 2))
        game.play(opening)
        checker.played.append(opening)
    lost_to = checker.lost()
    return MirrorCheck(len(checker.seen), lost_to)


class _Checker:
    """Every reply of the opponent, each answered by the strategy, depth first."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.seen: set[str] = set()
        self.played: list[Move] = []

    def lost(self) -> tuple[Move, ...] | None:
        """A line of play from here that the strategy loses; the opponent is to move."""
        position = self.game.position()
        if position in self.seen:
            return None
        self.seen.add(position)
        for move in list(self.game.legal_moves):
            found = self.after(move, answer=False)
            if found is not None:
                return found
        return None

    def after(self, move: Move, *, answer: bool) -> tuple[Move, ...] | None:
        game = self.game
        game.play(move)
        self.played.append(move)
        try:
            outcome = game.outcome
            if outcome is not None:
                return None if outcome.winner in (self.seat, None) else tuple(self.played)
            if answer:
                return self.lost()
            reply = mirror_reply(game)
            if reply is None:
                raise AssertionError(f"the mirror strategy has no move in {game.position()}")
            return self.after(reply, answer=True)
        finally:
            game.undo()
            self.played.pop()
