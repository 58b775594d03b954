"""The legal moves of a game: a live view, kept by :class:`~sosgame.game.Game` move by move."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from typing import Final, Protocol, overload

from sosgame.errors import InvalidMoveError
from sosgame.notation import EMPTY, Cell, Move, O, Resignation, S
from sosgame.outcome import Outcome

__all__ = ["LegalMoves"]

_NONE: Final[list[Move]] = []


class _Board(Protocol):
    """What the view reads of its :class:`~sosgame.game.Game` (which imports this module)."""

    @property
    def _outcome(self) -> Outcome | None: ...

    @property
    def _empty(self) -> int: ...

    @property
    def _index_of(self) -> Mapping[Cell, int]: ...

    @property
    def _board(self) -> Sequence[str]: ...

    @property
    def _history(self) -> Sequence[tuple[Move, int, int, int] | tuple[Resignation, int]]: ...

    @property
    def _open(self) -> list[int]: ...

    @property
    def _legal(self) -> list[Move]: ...

    _synced: int

    def _current_legal(self) -> list[Move]: ...


class LegalMoves(Sequence[Move]):
    """A live view of a game's legal moves, in board order: each empty cell with S, then O.

    It reads the game each time it is used, so a view taken before a move shows the board
    after it. Over a finished game it is empty. Iterating it while moves are played (without
    taking them back) is undefined: take ``list(game.legal_moves)`` first.
    """

    __slots__ = ("_game",)

    def __init__(self, game: _Board) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Move]:
        game = self._game
        if game._outcome is not None:
            return iter(_NONE)
        # Most reads follow a single move (choose, play, choose again): take its cell out here,
        # without the call that catching up with any number of moves costs.
        history = game._history
        if game._synced + 1 == len(history) and len(entry := history[-1]) == 4:
            open_cells, legal = game._open, game._legal
            at = bisect_left(open_cells, entry[1])
            del open_cells[at]
            del legal[2 * at : 2 * at + 2]
            game._synced += 1
            return iter(legal)
        return iter(game._current_legal())

    def __len__(self) -> int:
        game = self._game
        return 0 if game._outcome is not None else 2 * game._empty

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        game = self._game
        moves = _NONE if game._outcome is not None else game._current_legal()
        if isinstance(index, slice):
            return moves[index]
        try:
            return moves[index]
        except IndexError:
            raise IndexError(
                f"legal move index {index} is out of range: there are {len(moves)}"
            ) from None

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, move: object) -> bool:
        """Whether :meth:`Game.play` would accept ``move`` (a :class:`Move` or move text)."""
        game = self._game
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except InvalidMoveError:
                return False
        if not isinstance(move, Move) or game._outcome is not None or move.letter not in (S, O):
            return False
        try:
            index = game._index_of.get(move.cell)
        except TypeError:
            return False
        return index is not None and game._board[index] == EMPTY

    def __repr__(self) -> str:
        return f"<LegalMoves ({len(self)}): {', '.join(str(move) for move in self)}>"
