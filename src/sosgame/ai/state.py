"""A light snapshot of a game for the players to read: the board as a flat list, and more.

The engine (:class:`sosgame.Game`) stays the judge: a player reads the game into a
:class:`State`, works out its move there (or in the kernel's arrays), and returns a
:class:`Move` that the caller plays through the engine. The line counting here reads the
engine's own line tables (:mod:`sosgame.geometry`) and is checked against the engine move by
move in the tests.
"""

from __future__ import annotations

from sosgame.game import Game
from sosgame.geometry import Geometry, geometry
from sosgame.notation import EMPTY, Move, O, S

__all__ = ["State", "gain", "handover"]


def gain(cells: list[str], shape: Geometry, index: int, letter: str) -> int:
    """How many lines writing ``letter`` into the empty cell ``index`` completes."""
    count = 0
    if letter == S:
        for first, second, _ in shape.s_patterns[index]:
            if cells[first] == O and cells[second] == S:
                count += 1
    else:
        for first, second, _ in shape.o_patterns[index]:
            if cells[first] == S and cells[second] == S:
                count += 1
    return count


def handover(cells: list[str], shape: Geometry, index: int, letter: str) -> int:
    """How many new lines the next player could complete after ``letter`` goes into ``index``.

    A line through the cell becomes a threat when, with the letter written, two of its cells
    read right and the third is empty. Threats on one empty cell that need different letters
    cannot all be taken by one move there, so each empty cell counts its better letter.
    """
    need_s: dict[int, int] = {}
    need_o: dict[int, int] = {}
    # For an S, ``index`` is an end: ``first`` is the middle (needs an O), ``second`` the far
    # end. For an O, ``first`` and ``second`` are the two ends (each needs an S).
    patterns = shape.s_patterns[index] if letter == S else shape.o_patterns[index]
    first_needs, first_letter = (need_o, O) if letter == S else (need_s, S)
    for first, second, _ in patterns:
        a, b = cells[first], cells[second]
        if a == EMPTY and b == S:
            first_needs[first] = first_needs.get(first, 0) + 1
        elif a == first_letter and b == EMPTY:
            need_s[second] = need_s.get(second, 0) + 1
    if not need_o:
        return sum(need_s.values())
    total = 0
    for cell in need_s.keys() | need_o.keys():
        total += max(need_s.get(cell, 0), need_o.get(cell, 0))
    return total


class State:
    """A game's board, scores and turn order, read once from a :class:`~sosgame.Game`.

    ``cells`` holds ``"S"``, ``"O"`` or ``"."`` per cell in reading order; ``next_seat[s]`` is
    the seat that moves after a quiet move by ``s`` (resigned seats are skipped).
    """

    __slots__ = ("cells", "empty", "next_seat", "players", "scores", "shape", "simple", "turn")

    def __init__(self, game: Game) -> None:
        self.shape = geometry(game.rows, game.cols)
        self.cells = [letter for row in game.position().split("/") for letter in row]
        self.empty = self.cells.count(EMPTY)
        self.players = game.players
        self.simple = game.mode == "simple"
        self.scores = list(game.scores)
        self.turn = game.turn
        active = game.active_seats
        self.next_seat = [0] * game.players
        for seat in range(game.players):
            following = (seat + 1) % game.players
            while following not in active and following != seat:
                following = (following + 1) % game.players
            self.next_seat[seat] = following

    def move(self, index: int, letter: str) -> Move:
        """The engine's :class:`Move` for writing ``letter`` into cell ``index``."""
        return self.shape.moves[index][0 if letter == S else 1]

    def empty_indices(self) -> list[int]:
        """The empty cells, in reading order."""
        return [index for index, letter in enumerate(self.cells) if letter == EMPTY]
