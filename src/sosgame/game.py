"""The rules of SOS: the one stateful object, :class:`Game`.

Everything that knows how lines are scored, whose turn it is and when a game ends lives here;
every interface calls this module rather than repeating any of it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import Final, Self, TypeAlias

from sosgame.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidCellError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSettingsError,
    NothingToUndoError,
    OccupiedCellError,
    OffBoardError,
    SosError,
)
from sosgame.geometry import Geometry, LineCells, Writing, geometry
from sosgame.legal import LegalMoves
from sosgame.notation import (
    EMPTY,
    Cell,
    Letter,
    Move,
    O,
    Resignation,
    S,
    format_position,
    parse_action,
    parse_position,
)
from sosgame.outcome import Line, Outcome, Termination
from sosgame.settings import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    MODES,
    Mode,
    check_mode,
    check_players,
    check_scores,
)
from sosgame.text import draw

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MODES",
    "Action",
    "Game",
    "LegalMoves",
    "Mode",
    "check_players",
]


Action: TypeAlias = Move | Resignation
"""What a game's history holds: moves and resignations."""

# A history entry: (move, cell index, mover, lines completed) or (resignation, turn before).
_MoveEntry: TypeAlias = tuple[Move, int, int, int]
_ResignEntry: TypeAlias = tuple[Resignation, int]
_NO_LINES: Final[tuple[Line, ...]] = ()


class Game:
    """A game of SOS on a board of ``rows`` by ``cols`` for 2 to 8 seats, numbered from 0.

    ``mode`` is ``"general"`` (the full board decides: most lines wins) or ``"simple"`` (the
    first SOS wins). ``moves`` (moves, move text or resignations) are played at once.

    >>> game = Game(3, 3)
    >>> game.play("Sa1"), game.play("Ob1")
    ((), ())
    >>> [str(line) for line in game.play("Sc1")]
    ['a1-b1-c1']
    >>> game.scores, game.turn
    ((1, 0), 0)

    :raises InvalidSettingsError: for a size, player count or mode the rules do not allow.
    """

    __slots__ = (
        "_active",
        "_board",
        "_cell_moves",
        "_cols",
        "_empty",
        "_geometry",
        "_history",
        "_index_of",
        "_legal",
        "_lines",
        "_mode",
        "_next_seat",
        "_open",
        "_outcome",
        "_own_moves",
        "_players",
        "_ply",
        "_rows",
        "_scores",
        "_simple",
        "_start",
        "_synced",
        "_turn",
        "_view",
    )

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        players: int = 2,
        mode: Mode = "general",
        moves: Iterable[Action | str] = (),
    ) -> None:
        self._setup(geometry(rows, cols), players, mode)
        self._start: tuple[str, int, tuple[int, ...]] | None = None
        self.play_all(moves)

    @classmethod
    def from_position(
        cls,
        text: str,
        *,
        players: int = 2,
        mode: Mode = "general",
        turn: int = 0,
        scores: Iterable[int] | None = None,
        moves: Iterable[Action | str] = (),
    ) -> Self:
        """A game that starts from a position such as ``S.O/.../OSS`` with ``turn`` to move.

        Lines already on the board have no known owner. ``scores``, if given, are the seats'
        points so far and must add up to the number of those lines; by default every seat has 0.
        A full board is a finished game. In simple mode the board must not hold an SOS yet.

        :raises InvalidPositionError: for text that is not a position, or an SOS in simple mode.
        :raises InvalidSettingsError: for a bad player count, mode, turn or score list.
        """
        grid = parse_position(text)
        game = cls.__new__(cls)
        game._setup(geometry(len(grid), len(grid[0])), players, mode)
        if not isinstance(turn, int) or isinstance(turn, bool) or not 0 <= turn < players:
            raise InvalidSettingsError(
                f"turn must be a seat from 0 to {players - 1}, not {turn!r}",
                code="turn",
                values={"most": players - 1, "value": turn},
            )
        board = [letter for row in grid for letter in row]
        found = [
            Line(None, None, game._line_cells(start, middle, end))
            for start, middle, end in game._geometry.lines
            if board[start] == S and board[middle] == O and board[end] == S
        ]
        if found and game._simple:
            raise InvalidPositionError(
                f"position {text!r} already holds an SOS ({found[0]}), so a simple-mode game"
                " would be over with no known winner",
                code="simple_holds_sos",
                values={"text": text, "line": str(found[0])},
            )
        start_scores = check_scores(scores, players, len(found))
        game._board = board
        game._empty = board.count(EMPTY)
        game._open = [index for index, letter in enumerate(board) if letter == EMPTY]
        game._legal = [move for index in game._open for move in game._cell_moves[index]]
        game._lines = found
        game._scores = list(start_scores)
        game._turn = turn
        game._start = (format_position(board, game._cols), turn, start_scores)
        if not game._empty:
            game._finish_full_board()
        game.play_all(moves)
        return game

    def _setup(self, shape: Geometry, players: int, mode: Mode) -> None:
        check_players(players)
        check_mode(mode)
        self._geometry = shape
        self._rows = shape.rows
        self._cols = shape.cols
        self._index_of = shape.index_of
        self._cell_moves = shape.moves
        self._own_moves = shape.own_moves
        self._players = players
        self._mode: Mode = mode
        self._simple = mode == "simple"
        self._board = [EMPTY] * shape.size
        self._empty = shape.size
        # The empty cells' indices in board order and their moves in the same order, as of the
        # first `_synced` history entries. Copied from the tables for the empty board, they are
        # brought up to date by each read from the moves played since, so `play` itself pays
        # nothing for them, and a read copies a ready list.
        self._open = list(range(shape.size))
        self._legal = list(shape.all_moves)
        self._synced = 0
        self._view: LegalMoves | None = None
        self._scores = [0] * players
        self._lines: list[Line] = []
        self._turn = 0
        self._active = [True] * players
        self._next_seat = [(seat + 1) % players for seat in range(players)]
        self._ply = 0
        self._history: list[_MoveEntry | _ResignEntry] = []
        self._outcome: Outcome | None = None

    def _line_cells(self, start: int, middle: int, end: int) -> LineCells:
        cells = self._geometry.cells
        return (cells[start], cells[middle], cells[end])

    # ----------------------------------------------------------------------------- playing

    def play(self, move: Move | str) -> tuple[Line, ...]:
        """Play ``move`` (a :class:`Move` or move text such as ``Sb3``) for the seat to move.

        Returns the lines it completed; if there are any, the same seat moves again.

        :raises InvalidMoveError: if ``move`` is not a move.
        :raises OffBoardError: if its cell is off the board.
        :raises OccupiedCellError: if its cell already holds a letter.
        :raises GameOverError: if the game is over.
        """
        # The moves `legal_moves` hands out are found by identity; any other is checked first.
        writing = self._own_moves.get(id(move))
        if writing is None:
            writing = self._writing(move)
        move, index, letter, patterns, need_first = writing
        if self._outcome is not None:
            raise self._over_error(move)
        board = self._board
        if board[index] != EMPTY:
            cell = move.cell
            raise OccupiedCellError(
                f"cannot play {move}: {cell} already holds {board[index]}",
                code="occupied",
                values={"move": move, "cell": cell, "letter": board[index]},
            )
        board[index] = letter
        mover = self._turn
        self._empty -= 1
        ply = self._ply = self._ply + 1
        # A plain loop: on Python 3.11 a comprehension costs a frame, and this is the hot path.
        completed = None
        for first, second, cells in patterns:
            if board[first] == need_first and board[second] == S:
                if completed is None:
                    completed = [Line(mover, ply, cells)]
                else:
                    completed.append(Line(mover, ply, cells))
        if completed is None:
            self._history.append((move, index, mover, 0))
            self._turn = self._next_seat[mover]
            lines = _NO_LINES
        else:
            lines = tuple(completed)
            self._lines.extend(lines)
            self._scores[mover] += len(lines)
            self._history.append((move, index, mover, len(lines)))
            if self._simple:
                self._outcome = Outcome(Termination.SOS, (mover,))
                return lines
        if not self._empty:
            self._finish_full_board()
        return lines

    def _writing(self, move: object) -> Writing:
        """The board's own move equal to ``move``, ready to play, or the error that refuses it."""
        if type(move) is not Move:
            move = self._coerce_move(move)
        letter, cell = move
        if self._outcome is not None:
            raise self._over_error(move)
        try:
            index = self._index_of.get(cell)
        except TypeError:
            index = None
        if index is None:
            raise self._cell_error(move)
        if letter == S:
            return self._own_moves[id(self._cell_moves[index][0])]
        if letter == O:
            return self._own_moves[id(self._cell_moves[index][1])]
        raise InvalidMoveError(f"{move!r} is not a move: the letter must be 'S' or 'O'")

    def _over_error(self, move: Move) -> GameOverError:
        return GameOverError(
            f"cannot play {move}: the game is over", code="play_over", values={"move": move}
        )

    def _cell_error(self, move: Move) -> SosError:
        cell = move.cell
        if (
            isinstance(cell, tuple)
            and len(cell) == 2
            and all(isinstance(part, int) and not isinstance(part, bool) for part in cell)
        ):
            shown = Cell(*cell)
            return OffBoardError(
                f"cannot play {move.letter}{shown}: {shown} is off the {self._rows}x{self._cols}"
                " board",
                code="off_board",
                values={
                    "move": f"{move.letter}{shown}",
                    "cell": shown,
                    "rows": self._rows,
                    "cols": self._cols,
                },
            )
        return InvalidMoveError(f"{move!r} is not a move: its cell must be a Cell")

    def _coerce_move(self, move: object) -> Move:
        if isinstance(move, str):
            return Move.parse(move)
        if isinstance(move, Move):
            return Move(*move)
        raise InvalidMoveError(f"a move must be a Move or text such as 'Sb3', not {move!r}")

    def resign(self, seat: int | None = None) -> None:
        """Resign for ``seat`` (by default the seat to move).

        The seat leaves the turn order and cannot win; when one seat is left, it wins.

        :raises IllegalMoveError: for a seat that does not exist or has already resigned.
        :raises GameOverError: if the game is over.
        """
        if seat is None:
            seat = self._turn
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._players:
            raise IllegalMoveError(
                f"cannot resign for seat {seat!r}: seats go from 0 to {self._players - 1}",
                code="resign_seat",
                values={"seat": seat, "most": self._players - 1},
            )
        if self._outcome is not None:
            raise GameOverError(
                f"seat {seat} cannot resign: the game is over",
                code="resign_over",
                values={"seat": seat},
            )
        if not self._active[seat]:
            raise IllegalMoveError(
                f"seat {seat} has already resigned", code="resigned", values={"seat": seat}
            )
        self._history.append((Resignation(seat), self._turn))
        self._active[seat] = False
        self._link_seats()
        if self._turn == seat:
            self._turn = self._next_seat[seat]
        remaining = self.active_seats
        if len(remaining) == 1:
            self._outcome = Outcome(Termination.RESIGNATION, remaining)

    def apply(self, action: Action | str) -> tuple[Line, ...]:
        """Play a move or carry out a resignation; text may be either (``Sb3``, ``resign:1``).

        Returns the lines completed (none for a resignation).
        """
        if isinstance(action, str):
            action = parse_action(action)
        if isinstance(action, Resignation):
            self.resign(action.seat)
            return _NO_LINES
        return self.play(action)

    def play_all(self, actions: Iterable[Action | str]) -> None:
        """Apply every action in order; on an error, the game is left as it was before.

        :raises InvalidMoveError: for an entry that is not a move or resignation, and the
            errors of :meth:`play` and :meth:`resign`; each message starts with the 1-based
            ply (counting resignations too) of the entry that failed.
        """
        before = len(self._history)
        done = 0
        try:
            for action in actions:
                self.apply(action)
                done += 1
        except (IllegalMoveError, InvalidMoveError) as error:
            for _ in range(done):
                self.undo()
            ply = before + done + 1
            raise type(error)(
                f"ply {ply}: {error}", code="at_ply", values={"ply": ply, "error": error}
            ) from None

    def undo(self) -> Action:
        """Take back the last move or resignation, restoring the exact earlier state.

        :raises NothingToUndoError: if there is nothing to take back.
        """
        if not self._history:
            raise NothingToUndoError("there is nothing to undo", code="nothing_to_undo")
        entry = self._history.pop()
        synced = len(self._history) < self._synced
        if synced:
            self._synced -= 1
        if len(entry) == 4:
            move, index, mover, count = entry
            self._board[index] = EMPTY
            self._empty += 1
            if synced:
                position = bisect_left(self._open, index)
                self._open.insert(position, index)
                self._legal[2 * position : 2 * position] = self._cell_moves[index]
            self._ply -= 1
            if count:
                del self._lines[-count:]
                self._scores[mover] -= count
            self._turn = mover
            self._outcome = None
            return move
        resignation, turn = entry
        self._active[resignation.seat] = True
        self._link_seats()
        self._turn = turn
        self._outcome = None
        return resignation

    def _current_legal(self) -> list[Move]:
        # Take the cells of the moves played since the last read out of the ready lists.
        history = self._history
        synced = self._synced
        if synced == len(history):
            return self._legal
        open_cells, legal = self._open, self._legal
        for entry in history[synced:]:
            if len(entry) == 4:
                at = bisect_left(open_cells, entry[1])
                del open_cells[at]
                del legal[2 * at : 2 * at + 2]
        self._synced = len(history)
        return legal

    def _link_seats(self) -> None:
        players = self._players
        active = self._active
        for seat in range(players):
            following = (seat + 1) % players
            while not active[following] and following != seat:
                following = (following + 1) % players
            self._next_seat[seat] = following

    def _finish_full_board(self) -> None:
        remaining = self.active_seats
        if self._simple:
            winners = remaining
        else:
            best = max(self._scores[seat] for seat in remaining)
            winners = tuple(seat for seat in remaining if self._scores[seat] == best)
        self._outcome = Outcome(Termination.FULL_BOARD, winners)

    # --------------------------------------------------------------------------- reading

    @property
    def rows(self) -> int:
        """The number of rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """The number of columns."""
        return self._cols

    @property
    def players(self) -> int:
        """The number of seats, resigned ones included."""
        return self._players

    @property
    def mode(self) -> Mode:
        """``"general"`` or ``"simple"``."""
        return self._mode

    @property
    def turn(self) -> int:
        """The seat to move (after the game ends: the seat that would have moved)."""
        return self._turn

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's points."""
        return tuple(self._scores)

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every completed line, in the order they were made."""
        return tuple(self._lines)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played, in order (resignations are in :attr:`actions`)."""
        return tuple(entry[0] for entry in self._history if len(entry) == 4)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The moves and resignations, in order: what :meth:`undo` takes back."""
        return tuple(entry[0] for entry in self._history)

    @property
    def movers(self) -> tuple[int, ...]:
        """The seat behind each action of :attr:`actions`: the player of a move, the seat
        that resigned."""
        return tuple(entry[2] if len(entry) == 4 else entry[0].seat for entry in self._history)

    @property
    def ply(self) -> int:
        """The number of moves played."""
        return self._ply

    @property
    def last_move(self) -> Move | None:
        """The last move played, if any."""
        for entry in reversed(self._history):
            if len(entry) == 4:
                return entry[0]
        return None

    @property
    def extra_turn(self) -> bool:
        """Whether the last action was a scoring move, so its player moves again."""
        return (
            self._outcome is None
            and bool(self._history)
            and len(self._history[-1]) == 4
            and self._history[-1][3] > 0
        )

    @property
    def active_seats(self) -> tuple[int, ...]:
        """The seats that have not resigned."""
        return tuple(seat for seat in range(self._players) if self._active[seat])

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    @property
    def legal_moves(self) -> LegalMoves:
        """A live view of the legal moves, a sequence in board order (every empty cell with S,
        then with O): iterate it, index it, test ``move in``, take ``len``;
        ``random.choice(game.legal_moves)`` needs no copy."""
        view = self._view
        if view is None:
            view = self._view = LegalMoves(self)
        return view

    @property
    def start(self) -> tuple[str, int, tuple[int, ...]] | None:
        """``(position, turn, scores)`` a game set up by :meth:`from_position` started from."""
        return self._start

    def letter_at(self, cell: Cell | str) -> Letter | None:
        """The letter in ``cell`` (a :class:`Cell` or text such as ``b3``), ``None`` if empty.

        :raises InvalidCellError: for text that is not a cell, or a cell off the board.
        """
        if isinstance(cell, str):
            cell = Cell.parse(cell)
        if not self._geometry.contains(cell):
            raise InvalidCellError(
                f"{cell} is off the {self._rows}x{self._cols} board",
                code="cell_off_board",
                values={"cell": cell, "rows": self._rows, "cols": self._cols},
            )
        letter = self._board[self._geometry.index(*cell)]
        return None if letter == EMPTY else (S if letter == S else O)

    def empty_cells(self) -> list[Cell]:
        """The empty cells, in reading order."""
        cells = self._geometry.cells
        self._current_legal()
        return [cells[index] for index in self._open]

    def position(self) -> str:
        """The position as text, such as ``S.O/.../OSS``."""
        return format_position(self._board, self._cols)

    def copy(self) -> Game:
        """An independent copy with the same history."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            value = getattr(self, name)
            setattr(other, name, value.copy() if isinstance(value, list) else value)
        other._view = None
        return other

    def _state(self) -> tuple[object, ...]:
        return (
            self._rows,
            self._cols,
            self._players,
            self._mode,
            self._start,
            self._board,
            self._scores,
            self._lines,
            self._turn,
            self._active,
            self._history,
            self._outcome,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        options = []
        if self._players != MIN_PLAYERS:
            options.append(f"players={self._players}")
        if self._mode != "general":
            options.append(f"mode={self._mode!r}")
        if self._start is not None:
            _, turn, scores = self._start
            options.append(f"turn={turn}")
            options.append(f"scores={scores!r}")
        if self._history:
            options.append(f"moves={[str(action) for action in self.actions]!r}")
        if self._start is not None:
            return f"Game.from_position({', '.join([repr(self._start[0]), *options])})"
        return f"Game({', '.join([str(self._rows), str(self._cols), *options])})"

    def __str__(self) -> str:
        return draw(self)

    def _repr_svg_(self) -> str:
        from sosgame.svg import svg  # drawings are loaded only when drawn

        return svg(self)
